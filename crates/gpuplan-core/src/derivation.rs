//! Number formatting for derivations. Sizes are decimal: GB = 10^9 bytes,
//! MB = 10^6 bytes (the unit is always written out).

use std::cell::Cell;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with derivation text switched off. The fit search asks the engine
/// for bytes alone, hundreds of times a report; formatting the text it throws
/// away was half of a report's time.
pub fn quiet<T>(f: impl FnOnce() -> T) -> T {
    /// Restores the previous mode even if `f` unwinds (native tests).
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(self.0));
        }
    }
    let _restore = Restore(QUIET.with(|q| q.replace(true)));
    f()
}

pub(crate) fn is_quiet() -> bool {
    QUIET.with(Cell::get)
}

/// `format!` for derivation text: an empty string inside [`quiet`], where
/// the arguments are not even evaluated.
macro_rules! why {
    ($($arg:tt)*) => {
        if $crate::derivation::is_quiet() { String::new() } else { format!($($arg)*) }
    };
}
pub(crate) use why;

/// A byte count: "16.06 GB", "64.0 MB", "512 B".
pub fn size(bytes: f64) -> String {
    if bytes >= 1e9 {
        format!("{} GB", fixed(bytes / 1e9, 2))
    } else if bytes >= 1e6 {
        format!("{} MB", fixed(bytes / 1e6, 1))
    } else {
        format!("{} B", fixed(bytes, 0))
    }
}

/// A count: integers below a million in full, larger ones as "6.980e9".
pub fn count(x: f64) -> String {
    if x.abs() < 1e6 && x.fract() == 0.0 {
        fixed(x, 0)
    } else if x.abs() < 1e6 {
        num(x)
    } else {
        format!("{x:.3e}")
    }
}

/// `x` with `places` decimals as `format!` writes it, but with no minus sign
/// on a value that rounds to zero: "-0.0" would read as a loss or a glitch.
pub(crate) fn fixed(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.bytes().all(|b| matches!(b, b'0' | b'.')) => unsigned.to_string(),
        _ => text,
    }
}

/// A small factor: up to four decimals, trailing zeros dropped.
pub fn num(x: f64) -> String {
    let s = fixed(x, 4);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A share (0.12) as a whole percentage: "12 %".
pub(crate) fn pct(share: f64) -> String {
    format!("{} %", fixed(share * 100.0, 0))
}

/// Three significant digits; powers of ten for large and small values.
pub(crate) fn n(x: f64) -> String {
    let a = x.abs();
    if a != 0.0 && !(0.01..10_000.0).contains(&a) {
        format!("{x:.2e}")
    } else if a >= 100.0 {
        fixed(x, 0)
    } else if a >= 10.0 {
        fixed(x, 1)
    } else {
        fixed(x, 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(size(16_060_522_496.0), "16.06 GB");
        assert_eq!(size(67_108_864.0), "67.1 MB");
        assert_eq!(size(512.0), "512 B");
        assert_eq!(count(8_030_261_248.0), "8.030e9");
        assert_eq!(count(4096.0), "4096");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-1.26, 1), "-1.3");
        assert_eq!(num(-0.00001), "0");
        assert_eq!(num(4.25), "4.25");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(2.0), "2");
    }
}
