//! Display formatting for numbers the core computed. Nothing here derives a
//! figure; it only chooses units and digits.

/// Memory unit chosen by the user: GB = 10^9 bytes, GiB = 2^30 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unit {
    #[default]
    Gb,
    Gib,
}

impl Unit {
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

/// The number part of [`bytes`].
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
    let digits = format!("{:.0}", x.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if x < 0.0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
}
