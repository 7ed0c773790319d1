//! How a computed number is shown to a user: the memory unit they chose,
//! digits, thousands separators, a figure's basis sign, money with its
//! currency, a share as a percentage. The page, the CLI's text and the
//! snippets all write numbers through here, so one figure reads the same in
//! each. Nothing here derives a figure; derivation text keeps its own,
//! more precise formats (`crate::derivation`).

use crate::figure::{Basis, Figure};
use crate::money::{Currency, Money};

/// Memory unit chosen by the user: GB = 10^9 bytes, GiB = 2^30 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unit {
    #[default]
    Gb,
    Gib,
}

impl Unit {
    /// The code a link and the stored preference carry ("gb", "gib").
    pub fn code(self) -> &'static str {
        match self {
            Unit::Gb => "gb",
            Unit::Gib => "gib",
        }
    }

    pub fn from_code(code: &str) -> Option<Unit> {
        match code {
            "gb" => Some(Unit::Gb),
            "gib" => Some(Unit::Gib),
            _ => None,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Gb => "GB",
            Unit::Gib => "GiB",
        }
    }

    fn divisor(self) -> f64 {
        match self {
            Unit::Gb => 1e9,
            Unit::Gib => 1_073_741_824.0,
        }
    }

    /// Bytes as a number in this unit (for chart scales).
    pub fn of(self, bytes: u64) -> f64 {
        bytes as f64 / self.divisor()
    }
}

/// "15.0 GB", "0.25 GiB", "1,120 GB": three significant digits at most, one
/// decimal kept between 1 and 1000 so that updates do not jump in width.
pub fn bytes(b: u64, unit: Unit) -> String {
    format!("{} {}", amount(unit.of(b)), unit.symbol())
}

/// Bytes for a record pasted next to the exact byte count ("16.06 GB"):
/// decimal GB with two decimals, close enough to check against the bytes.
pub fn bytes_exact(b: u64) -> String {
    crate::derivation::size(b as f64)
}

/// Decimal gigabytes as a number in a sentence ("80", "62.5"): one decimal
/// below 100 GB, whole numbers above, where a table would keep its width.
pub fn gigabytes(gb: f64) -> String {
    if gb >= 100.0 {
        crate::money::num(gb.round())
    } else {
        crate::money::num((gb * 10.0).round() / 10.0)
    }
}

/// Bytes in a sentence: "62.5 GB" or, from 1000 GB, "1.12 TB".
pub fn size(bytes: u64) -> String {
    let g = bytes as f64 / 1e9;
    if g >= 1000.0 {
        format!("{} TB", crate::money::num((g / 10.0).round() / 100.0))
    } else {
        format!("{} GB", gigabytes(g))
    }
}

/// A parameter count as "70B" or "1.5B".
pub fn billions(params: f64) -> String {
    format!("{}B", crate::money::num((params / 1e8).round() / 10.0))
}

/// The number part of [`bytes`], and any shown quantity with a unit of its own.
pub fn amount(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x < 1.0 {
        format!("{x:.2}")
    } else if x < 1000.0 {
        format!("{x:.1}")
    } else {
        grouped(x.round())
    }
}

/// An integer-valued f64 with thousands separators: 1234567 -> "1,234,567".
pub fn grouped(x: f64) -> String {
    let sign = if x < 0.0 { "-" } else { "" };
    format!("{sign}{}", crate::money::group(x.abs().round() as u64))
}

/// What kind of number a figure is, as one sign: "≤" for upper bounds, "≥"
/// for lower bounds, "≈" for expected values, "=" for the user's measurement.
pub fn sign(basis: Basis) -> &'static str {
    match basis {
        Basis::UpperBound => "≤",
        Basis::LowerBound => "≥",
        Basis::Estimate | Basis::Calibrated => "≈",
        Basis::Measured => "=",
    }
}

/// "≤ 1,234 token/s": the figure with what kind of number it is.
pub fn figure(f: &Figure) -> String {
    format!("{} {} {}", sign(f.basis), amount(f.value), f.unit)
}

/// "1,234.56 USD": an amount with the currency it is in.
pub fn money(m: Money, currency: Currency) -> String {
    format!("{} {}", m.text(), currency.code())
}

/// A share (0.12) as a whole percentage, "12 %", the way the derivations
/// and the checklist write one.
pub fn percent(share: f64) -> String {
    format!("{} %", grouped((share * 100.0).round()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_in_both_units() {
        assert_eq!(bytes(16_060_522_496, Unit::Gb), "16.1 GB");
        assert_eq!(bytes(16_060_522_496, Unit::Gib), "15.0 GiB");
        assert_eq!(bytes(250_000_000, Unit::Gb), "0.25 GB");
        assert_eq!(bytes(0, Unit::Gib), "0 GiB");
        assert_eq!(bytes(1_120_000_000_000, Unit::Gb), "1,120 GB");
    }

    #[test]
    fn exact_bytes_keep_two_decimals() {
        assert_eq!(bytes_exact(16_060_522_496), "16.06 GB");
    }

    #[test]
    fn sizes_in_sentences_read_naturally() {
        assert_eq!(size(62_500_000_000), "62.5 GB");
        assert_eq!(size(140_000_000_000), "140 GB");
        assert_eq!(size(1_120_000_000_000), "1.12 TB");
        assert_eq!(size(0), "0 GB");
        assert_eq!(gigabytes(80.0), "80");
        assert_eq!(billions(70.6e9), "70.6B");
        assert_eq!(billions(8.03e9), "8B");
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped(0.0), "0");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1000.0), "1,000");
        assert_eq!(grouped(1_234_567.0), "1,234,567");
        assert_eq!(grouped(-12_000.0), "-12,000");
    }

    #[test]
    fn unit_codes_round_trip() {
        for u in [Unit::Gb, Unit::Gib] {
            assert_eq!(Unit::from_code(u.code()), Some(u));
        }
        assert_eq!(Unit::from_code("tb"), None);
    }

    #[test]
    fn figures_say_what_kind_of_number_they_are() {
        let f =
            Figure { value: 1234.4, unit: "token/s", basis: Basis::UpperBound, derivation: String::new() };
        assert_eq!(figure(&f), "≤ 1,234 token/s");
        let f = Figure { value: 55.2, unit: "h", basis: Basis::Estimate, derivation: String::new() };
        assert_eq!(figure(&f), "≈ 55.2 h");
        let f = Figure { value: 0.5, unit: "GPU", basis: Basis::LowerBound, derivation: String::new() };
        assert_eq!(figure(&f), "≥ 0.50 GPU");
        let f = Figure { value: 900.0, unit: "token/s", basis: Basis::Measured, derivation: String::new() };
        assert_eq!(figure(&f), "= 900.0 token/s");
        assert_eq!(sign(Basis::Calibrated), "≈");
    }

    #[test]
    fn money_carries_its_currency() {
        assert_eq!(money(Money::from_cents(123_456), Currency::Usd), "1,234.56 USD");
        assert_eq!(money(Money::from_cents(-5), Currency::Cny), "-0.05 CNY");
    }

    #[test]
    fn percentages_are_whole() {
        assert_eq!(percent(0.124), "12 %");
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(12.345), "1,235 %");
    }
}
