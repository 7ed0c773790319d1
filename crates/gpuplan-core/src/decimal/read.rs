//! Decimal text to the nearest f64, correctly rounded, without std's
//! `f64::from_str`: its Eisel-Lemire table of 128-bit powers of five (10 KB
//! of data that gzip cannot shrink) and its code were 14 KB of the gzipped
//! page (issue 10). Up to 15 digits with a small exponent the float
//! arithmetic is exact; any other text starts from a float estimate that
//! exact big-integer comparisons with the midpoints between neighbouring
//! doubles then correct.

use std::cmp::Ordering;

/// Digits kept exactly. A midpoint between two doubles has at most 767
/// significant digits, so past these only whether the tail is zero matters.
const MAX_DIGITS: usize = 780;

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
];

/// Reads text the way `str::parse::<f64>` does: an optional sign, digits
/// with an optional point (`1.`, `.5`), an optional exponent (`e-7`); or
/// `inf`, `infinity`, `nan` in any case. None for anything else.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let x = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else {
        nearest(&Decimal::read(body.as_bytes())?)
    };
    Some(if negative { -x } else { x })
}

/// A value as `digits × 10^exp`: no leading or trailing zero digits.
struct Decimal {
    digits: Vec<u8>,
    exp: i64,
}

impl Decimal {
    fn read(text: &[u8]) -> Option<Decimal> {
        let mut d = Decimal { digits: Vec::new(), exp: 0 };
        let (mut any, mut point, mut tail) = (false, false, false);
        let mut rest = text;
        while let Some((&c, after)) = rest.split_first() {
            match c {
                b'0'..=b'9' => {
                    any = true;
                    if d.digits.len() < MAX_DIGITS && !(d.digits.is_empty() && c == b'0') {
                        d.digits.push(c - b'0');
                        d.exp -= i64::from(point);
                    } else if d.digits.is_empty() {
                        d.exp -= i64::from(point);
                    } else {
                        tail |= c != b'0';
                        d.exp += i64::from(!point);
                    }
                }
                b'.' if !point => point = true,
                _ => break,
            }
            rest = after;
        }
        if !any {
            return None;
        }
        if let Some((&e, exponent)) = rest.split_first() {
            if !matches!(e, b'e' | b'E') {
                return None;
            }
            d.exp = d.exp.saturating_add(exponent_of(exponent)?);
        }
        // A nonzero tail past the kept digits: one more digit, so the value
        // sits strictly between the truncation and its next step.
        if tail {
            d.digits.push(1);
            d.exp -= 1;
        }
        while d.digits.last() == Some(&0) {
            d.digits.pop();
            d.exp += 1;
        }
        Some(d)
    }
}

/// `[+-]digits`, saturating far beyond any double's range.
fn exponent_of(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits.iter().fold(0i64, |n, &c| (n * 10 + i64::from(c - b'0')).min(1 << 40));
    Some(if negative { -n } else { n })
}

/// The double nearest `d`, ties to even.
fn nearest(d: &Decimal) -> f64 {
    let n = d.digits.len() as i64;
    // 10^(magnitude − 1) ≤ d < 10^magnitude.
    let magnitude = n + d.exp;
    if n == 0 || magnitude < -324 {
        return 0.0;
    }
    if magnitude > 310 {
        return f64::INFINITY;
    }
    // Bounded by the checks above: −1105 ≤ exp ≤ 310.
    let exp = d.exp as i32;
    let lead = d.digits.iter().take(19).fold(0u64, |m, &c| m * 10 + u64::from(c));
    let small = POW10.get(exp.unsigned_abs() as usize);
    match small {
        Some(&p) if n <= 15 => {
            // Both operands exact, so IEEE rounding of the one operation is the answer.
            if exp >= 0 {
                lead as f64 * p
            } else {
                lead as f64 / p
            }
        }
        _ => correct(d, exp, estimate(lead as f64, exp + (n as i32 - n.min(19) as i32))),
    }
}

/// `x × 10^e` in float steps: within a few units in the last place.
fn estimate(mut x: f64, mut e: i32) -> f64 {
    while e > 22 {
        x *= 1e22;
        e -= 22;
    }
    while e < -22 {
        x /= 1e22;
        e += 22;
    }
    match POW10.get(e.unsigned_abs() as usize) {
        Some(&p) if e >= 0 => x * p,
        Some(&p) => x / p,
        None => x,
    }
}

/// Moves `z` one double at a time until it is the nearest to `d × 10^exp`,
/// judged by exact comparison with the midpoints on either side.
fn correct(d: &Decimal, exp: i32, z: f64) -> f64 {
    let mut value = Big::default();
    for &c in &d.digits {
        value.mul_add(10, u64::from(c));
    }
    value.mul_pow10(exp.max(0).unsigned_abs());
    let mut scale = Big(vec![1]);
    scale.mul_pow10(exp.min(0).unsigned_abs());
    // The value compared with n × 2^p, both sides scaled to integers.
    let vs = |n: u64, p: i32| {
        let mut left = value.clone();
        left.shl(p.min(0).unsigned_abs());
        let mut right = scale.clone();
        right.mul_add(n, 0);
        right.shl(p.max(0).unsigned_abs());
        left.cmp(&right)
    };
    let mut z = if z.is_finite() { z } else { f64::MAX };
    loop {
        let (m, k) = parts(z);
        // Above the midpoint with the next double up (2^1024 past MAX): move up.
        match vs(2 * m + 1, k - 1) {
            Ordering::Greater if z == f64::MAX => return f64::INFINITY,
            Ordering::Greater => {
                z = z.next_up();
                continue;
            }
            Ordering::Equal => return if m % 2 == 1 { z.next_up() } else { z },
            Ordering::Less if m == 0 => return z,
            Ordering::Less => {}
        }
        // The gap below halves at the bottom of a binade of normal doubles.
        let (n, p) = if m == 1 << 52 && k > -1074 { (4 * m - 1, k - 2) } else { (2 * m - 1, k - 1) };
        match vs(n, p) {
            Ordering::Less => z = z.next_down(),
            Ordering::Equal if m % 2 == 1 => return z.next_down(),
            _ => return z,
        }
    }
}

/// A finite, non-negative double as `m × 2^k`, `m < 2^53`.
fn parts(z: f64) -> (u64, i32) {
    let bits = z.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

/// A non-negative integer in 32-bit limbs, least significant first, with
/// no zero limb on top (so lengths order values).
#[derive(Clone, Default)]
struct Big(Vec<u32>);

impl Big {
    fn mul_add(&mut self, m: u64, add: u64) {
        let mut carry = u128::from(add);
        for limb in &mut self.0 {
            let v = u128::from(*limb) * u128::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        while carry > 0 {
            self.0.push(carry as u32);
            carry >>= 32;
        }
    }

    fn mul_pow10(&mut self, mut n: u32) {
        while n > 0 {
            let step = n.min(19);
            self.mul_add(10u64.pow(step), 0);
            n -= step;
        }
    }

    fn shl(&mut self, bits: u32) {
        if self.0.is_empty() {
            return;
        }
        let shift = bits % 32;
        if shift > 0 {
            let mut carry = 0u64;
            for limb in &mut self.0 {
                let v = u64::from(*limb) << shift | carry;
                *limb = v as u32;
                carry = v >> 32;
            }
            if carry > 0 {
                self.0.push(carry as u32);
            }
        }
        let mut shifted = vec![0; (bits / 32) as usize];
        shifted.extend_from_slice(&self.0);
        self.0 = shifted;
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(text: &str) {
        let ours = parse(text).map(f64::to_bits);
        let rust = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(ours, rust, "{text}");
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn grammar_matches_rust() {
        for s in [
            "0",
            "-0",
            "+1",
            "1.",
            ".5",
            "-.5",
            "1e5",
            "1E+5",
            "2.5e-3",
            "00012.5000",
            "0.000",
            "inf",
            "-Infinity",
            "NaN",
            "",
            ".",
            "-",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            " 1",
            "1 ",
            "1_000",
            "0x10",
            "++1",
            "1e5.5",
            "infin",
            "9e999999999999",
            "1e-99999999999999999999",
            "0e999999",
            "123456789012345678901234567890",
        ] {
            let ours = parse(s);
            let rust = s.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), rust.map(f64::to_bits), "{s:?}");
        }
    }

    #[test]
    fn random_doubles_read_back_in_every_form() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for i in 0..20_000 {
            let x = f64::from_bits(rng.next());
            if !x.is_finite() {
                continue;
            }
            same(&format!("{x:e}"));
            same(&format!("{x}"));
            same(&format!("{x:.*e}", i % 25));
        }
    }

    #[test]
    fn random_digit_strings_match_rust() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let len = 1 + (rng.next() % 30) as usize;
            let mut s: String = (0..len).map(|_| char::from(b'0' + (rng.next() % 10) as u8)).collect();
            let point = (rng.next() % (len as u64 + 1)) as usize;
            s.insert(point, '.');
            let exp = (rng.next() % 800) as i64 - 400;
            same(&format!("{s}e{exp}"));
        }
    }

    /// Up to 19 digits with exponents ±25, and integer ties between 2^53
    /// and 2^54 (odd integers there are midpoints), checked against std.
    #[test]
    fn nineteen_digits_match_rust() {
        let mut rng = Rng(0x0dd_ba11_cafe_f00d);
        for _ in 0..20_000 {
            let m = rng.next() % 10_000_000_000_000_000_000;
            let exp = (rng.next() % 50) as i64 - 25;
            same(&format!("{m}e{exp}"));
            let odd = (1u64 << 53) + (rng.next() % (1 << 52)) * 2 + 1;
            same(&odd.to_string());
            same(&format!("{odd}.0000000000001"));
        }
    }

    /// `a + b` for two non-negative decimals with the same number of places.
    fn add(a: &str, b: &str) -> String {
        let width = a.len().max(b.len());
        let (a, b) = (format!("{a:0>width$}"), format!("{b:0>width$}"));
        let mut out = Vec::new();
        let mut carry = 0;
        for (x, y) in a.bytes().rev().zip(b.bytes().rev()) {
            if x == b'.' {
                out.push(b'.');
                continue;
            }
            let s = (x - b'0') + (y - b'0') + carry;
            out.push(b'0' + s % 10);
            carry = s / 10;
        }
        if carry > 0 {
            out.push(b'1');
        }
        out.reverse();
        String::from_utf8(out).unwrap()
    }

    /// `a / 2`, exact when `a`'s last place is even or a spare place follows.
    fn half(a: &str) -> String {
        let mut rest = 0;
        let out: String = a
            .bytes()
            .map(|c| {
                if c == b'.' {
                    return '.';
                }
                let v = rest * 10 + (c - b'0');
                rest = v % 2;
                char::from(b'0' + v / 2)
            })
            .collect();
        out.trim_start_matches('0').to_string()
    }

    /// The largest decimal with the same places below `a`, minus a bit more.
    fn just_below(a: &str) -> String {
        let mut b = a.as_bytes().to_vec();
        for c in b.iter_mut().rev() {
            match *c {
                b'0' => *c = b'9',
                b'.' => {}
                _ => {
                    *c -= 1;
                    break;
                }
            }
        }
        b.push(b'9');
        String::from_utf8(b).unwrap()
    }

    /// Exact midpoints between neighbouring doubles (ties), and values just
    /// above and below them, across the whole range from subnormals to the
    /// overflow threshold: hundreds of digits each.
    #[test]
    fn ties_and_near_ties_match_rust() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut xs: Vec<f64> =
            (0..400).map(|_| f64::from_bits(rng.next() >> 1)).filter(|x| x.is_finite()).collect();
        xs.extend([
            0.0,
            5e-324,
            f64::MIN_POSITIVE.next_down(),
            f64::MIN_POSITIVE,
            0.1,
            1.0,
            2.0,
            9007199254740992.0,
            f64::MAX,
        ]);
        for x in xs {
            let (_, k) = parts(x);
            let gap = if k >= -1022 {
                f64::from_bits(((k + 1023) as u64) << 52)
            } else {
                f64::from_bits(1 << (k + 1074))
            };
            // 1076 places: every double and half of every gap are exact there.
            let mid = add(&format!("{x:.1076}"), &half(&format!("0{gap:.1076}")));
            same(&mid);
            same(&format!("{mid}1"));
            same(&just_below(&mid));
        }
    }
}
