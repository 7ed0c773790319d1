//! Decimal text for floats, written with integer formatting. Rust's float
//! formatting (`{:.2}`, `{}` on an f64) brings its exact big-number
//! algorithms into the wasm, about 15 KB of code (issue 10); every figure
//! here has at most a few decimals and doubles as the place a value is
//! rounded for display, so the core formats every f64 through this module.
//!
//! Rounding is to nearest on the scaled value (ties to even), which differs
//! from exact decimal rounding only for values within one ulp of a tie.
//! Reading text back is `read::parse`, correctly rounded.

mod read;

pub use read::parse;

/// From here on, integer parts no longer fit a `u64`.
const MAX_INT: f64 = 1.8e19;

/// Text for infinities and NaN, as Rust writes them.
fn special(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("NaN".into())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        None
    }
}

/// `x` with exactly `places` decimals, like `format!("{x:.places$}")`, but a
/// value that rounds to zero has no minus sign. From 1.8e19 on, scientific
/// notation.
pub fn fixed(x: f64, places: u32) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let a = x.abs();
    if a >= MAX_INT {
        return sci(x, places.min(16));
    }
    let places = places.min(17);
    let scale = 10f64.powi(places as i32);
    // The integer and the fraction apart, so neither overflows a u64.
    let mut int = a.trunc();
    let scaled = (a - int) * scale;
    let mut frac = scaled.floor();
    let rest = scaled - frac;
    let last_odd = if places == 0 { int % 2.0 == 1.0 } else { frac % 2.0 == 1.0 };
    if rest > 0.5 || (rest == 0.5 && last_odd) {
        frac += 1.0;
    }
    if frac >= scale {
        int += 1.0;
        frac = 0.0;
    }
    let mut out = String::with_capacity(24);
    if x < 0.0 && (int > 0.0 || frac > 0.0) {
        out.push('-');
    }
    push_digits(&mut out, int as u64, 1);
    if places > 0 {
        out.push('.');
        push_digits(&mut out, frac as u64, places as usize);
    }
    out
}

/// Appends `n` in decimal, zero-padded to at least `width` digits, without
/// the allocations of `to_string` and `format!` (this runs for every figure
/// of every report).
fn push_digits(out: &mut String, n: u64, width: usize) {
    let mut place = 1u64;
    let mut digits = 1;
    // The largest power of ten to write: 10^19 at most, so `place` never overflows.
    while place <= n / 10 || digits < width.min(20) {
        place *= 10;
        digits += 1;
    }
    while place > 0 {
        out.push(char::from(b'0' + (n / place % 10) as u8));
        place /= 10;
    }
}

/// `x` as "d.dddeN" with `places` decimals in the mantissa, like
/// `format!("{x:.places$e}")`.
pub fn sci(x: f64, places: u32) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let places = places.min(16);
    if x == 0.0 {
        return format!("{}e0", fixed(0.0, places));
    }
    let mut exp = x.abs().log10().floor() as i32;
    let mut mantissa = x.abs() / 10f64.powi(exp);
    // log10 and powi can land one off near powers of ten.
    if mantissa < 1.0 {
        mantissa *= 10.0;
        exp -= 1;
    }
    // Rounding can carry the mantissa to 10.
    let scale = 10f64.powi(places as i32);
    if mantissa >= 10.0 || (mantissa * scale).round() >= 10.0 * scale {
        mantissa /= 10.0;
        exp += 1;
    }
    let sign = if x < 0.0 { "-" } else { "" };
    format!("{sign}{}e{exp}", fixed(mantissa, places))
}

/// The shortest text that reads back as exactly `x`, for share links and
/// messages: "0.1", "8192", "1.5e-20". Values that need 16 or 17
/// significant digits may get 17.
pub fn shortest(x: f64) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let exact = |s: &String| parse(s) == Some(x);
    let plain = (0..=17).map(|p| fixed(x, p)).take_while(|s| s.len() < 40).find(exact);
    plain.or_else(|| (0..=15).map(|p| sci(x, p)).find(exact)).unwrap_or_else(|| seventeen(x))
}

/// `x` with 17 significant digits, which always identify an f64. The
/// float arithmetic that finds them can land some units off, so the digits
/// move toward `x` until the text reads back exactly.
fn seventeen(x: f64) -> String {
    let a = x.abs();
    let exp = a.log10().floor() as i32;
    // a × 10^(16 − exp), ordered so that no step overflows or underflows.
    let scaled = if exp >= 0 {
        a / 10f64.powi(exp) * 1e16
    } else if exp > -290 {
        a * 1e16 * 10f64.powi(-exp)
    } else {
        a * 1e32 * 10f64.powi(-exp - 16)
    };
    let mut digits = scaled.round() as u64;
    let sign = if x < 0.0 { "-" } else { "" };
    let text = |d: u64| {
        let d = d.to_string();
        let (first, rest) = d.split_at_checked(1).unwrap_or((&d, ""));
        let rest = rest.trim_end_matches('0');
        let point = if rest.is_empty() { "" } else { "." };
        format!("{sign}{first}{point}{rest}e{}", exp + d.len() as i32 - 17)
    };
    // One jump by the miss (a − y is exact), then single steps: a double
    // can span several units of the 17th digit, where jumps would oscillate.
    for i in 0..24 {
        let s = text(digits);
        let y = parse(&s).map_or(a, f64::abs);
        if y == a {
            return s;
        }
        let jump = ((a - y) / y * digits as f64).round() as i64;
        let step = if i == 0 && jump != 0 {
            jump
        } else if y < a {
            1
        } else {
            -1
        };
        digits = digits.saturating_add_signed(step);
    }
    text(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_matches_rust_away_from_ties() {
        let values = [
            0.0,
            1.0,
            -1.0,
            0.5,
            2.5,
            16.06,
            1.005,
            123_456.789,
            0.000_123,
            8_030_261_248.0,
            99.95,
            1e15,
            0.3,
        ];
        for x in values {
            for places in 0..=6 {
                assert_eq!(fixed(x, places), format!("{x:.*}", places as usize), "{x} with {places}");
            }
        }
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
        assert_eq!(fixed(-f64::INFINITY, 2), "-inf");
        assert_eq!(fixed(6.98e21, 1), "7.0e21");
    }

    /// Across magnitudes, the text equals Rust's except at a near-tie, where
    /// it is the other of the two nearest.
    #[test]
    fn fixed_matches_rust_on_many_values() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut differ = 0;
        for i in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi(i % 14 - 4);
            let places = (i % 5) as u32;
            let (ours, rust) = (fixed(x, places), format!("{x:.*}", places as usize));
            if ours != rust {
                differ += 1;
                let unit = 10f64.powi(-(places as i32));
                let gap = (ours.parse::<f64>().unwrap() - rust.parse::<f64>().unwrap()).abs();
                assert!((gap - unit).abs() < unit * 1e-6, "{x} with {places}: {ours} vs {rust}");
            }
        }
        assert!(differ < 20, "{differ} of 20000 differ");
    }

    #[test]
    fn sci_matches_rust() {
        for x in [1.0, 9.999, 9.9999, 123_456.0, 0.000_123_4, 6.98e21, -2.5e-7, 1e100] {
            for places in 0..=4 {
                assert_eq!(sci(x, places), format!("{x:.*e}", places as usize), "{x} with {places}");
            }
        }
        assert_eq!(sci(0.0, 2), "0.00e0");
    }

    #[test]
    fn shortest_reads_back_exactly() {
        for x in [
            0.0,
            0.1,
            0.3,
            0.1 + 0.2,
            8192.0,
            1.0 / 3.0,
            1e-7,
            1.5e-20,
            1e20,
            -2.75,
            7.2e13,
            123.456e9,
            0.9652340631657503,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
        ] {
            let s = shortest(x);
            assert_eq!(s.parse::<f64>(), Ok(x), "{x} wrote {s}");
        }
        assert_eq!(shortest(0.1), "0.1");
        assert_eq!(shortest(8192.0), "8192");
        assert_eq!(shortest(-2.75), "-2.75");
        assert_eq!(shortest(0.1 + 0.2), (0.1f64 + 0.2).to_string());
        assert_eq!(shortest(1.5e-20), "1.5e-20");
        // Values no shorter text identifies: every one of 10,000 reads back.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = f64::from_bits(seed >> 2);
            if x.is_finite() {
                assert_eq!(shortest(x).parse::<f64>(), Ok(x), "{x:e}");
            }
        }
    }
}
