//! Money in whole cents, the two currencies, and the number formats that
//! derivations print.

use serde::{Deserialize, Serialize, Serializer};

/// Largest amount (in currency units) one line or total may reach. Below it
/// an f64 still holds every cent exactly; above it the bill is refused.
pub const MAX_UNITS: f64 = 1.0e13;

/// An amount in cents of some currency (the context says which).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub const fn from_cents(cents: i64) -> Money {
        Money(cents)
    }

    pub fn cents(self) -> i64 {
        self.0
    }

    pub fn units(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Rounds to the cent, half away from zero. The amount is first snapped
    /// to a millionth so that float noise (0.4999999 for 0.5) cannot tip a cent.
    /// `None` for NaN, infinity or amounts beyond [`MAX_UNITS`].
    pub fn round(x: f64) -> Option<Money> {
        if !x.is_finite() || x.abs() > MAX_UNITS {
            return None;
        }
        let millionths = (x * 1.0e6).round();
        Some(Money((millionths / 1.0e4).round() as i64))
    }

    pub fn plus(self, other: Money) -> Money {
        Money(self.0.saturating_add(other.0))
    }

    pub fn minus(self, other: Money) -> Money {
        Money(self.0.saturating_sub(other.0))
    }

    /// "1,234.56" (sign kept).
    pub fn text(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", group(abs / 100), abs % 100)
    }
}

impl Serialize for Money {
    /// Serialised as currency units (a JSON number with at most two decimals).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.units())
    }
}

/// The currencies prices and bills come in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency {
    #[default]
    Usd,
    Cny,
}

impl Currency {
    pub fn code(self) -> &'static str {
        match self {
            Currency::Usd => "USD",
            Currency::Cny => "CNY",
        }
    }

    /// Factor turning an amount in `self` into `to`, given CNY per USD.
    pub fn factor(self, to: Currency, cny_per_usd: f64) -> f64 {
        match (self, to) {
            (Currency::Usd, Currency::Cny) => cny_per_usd,
            (Currency::Cny, Currency::Usd) => 1.0 / cny_per_usd,
            _ => 1.0,
        }
    }
}

/// Thousands separators for a whole number.
/// Thousands separators on a whole number: 1234567 -> "1,234,567".
pub(crate) fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A quantity for a derivation: integers plain, others with up to four
/// decimals, trailing zeros dropped ("168", "0.005", "178.5").
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "?".into();
    }
    crate::derivation::num(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_cents_up_despite_float_noise() {
        // 0.005 × 1 is 0.005000000000000000104 in binary; 1.005 is 1.00499999999999989.
        assert_eq!(Money::round(0.005), Some(Money(1)));
        assert_eq!(Money::round(1.005), Some(Money(101)));
        assert_eq!(Money::round(0.1 + 0.2), Some(Money(30)));
        assert_eq!(Money::round(-2.675), Some(Money(-268)));
    }

    #[test]
    fn refuses_non_finite_and_huge() {
        assert_eq!(Money::round(f64::NAN), None);
        assert_eq!(Money::round(f64::INFINITY), None);
        assert_eq!(Money::round(2.0e13), None);
        assert!(Money::round(MAX_UNITS).is_some());
    }

    #[test]
    fn formats() {
        assert_eq!(Money(123_456_789).text(), "1,234,567.89");
        assert_eq!(Money(-5).text(), "-0.05");
        assert_eq!(Money(100).text(), "1.00");
        assert_eq!(num(168.0), "168");
        assert_eq!(num(0.005), "0.005");
        assert_eq!(num(178.5), "178.5");
        assert_eq!(num(1.0 / 3.0), "0.3333");
    }

    #[test]
    fn converts_both_ways() {
        assert_eq!(Currency::Usd.factor(Currency::Cny, 7.0), 7.0);
        assert_eq!(Currency::Cny.factor(Currency::Usd, 8.0), 0.125);
        assert_eq!(Currency::Cny.factor(Currency::Cny, 8.0), 1.0);
    }
}
