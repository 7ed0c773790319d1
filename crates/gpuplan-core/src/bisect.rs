//! The boundary of a monotone test, by bisection: the inverse memory
//! questions (longest context, largest batch) and the serving limits
//! (largest concurrency meeting a latency target) all ask it.

/// The largest value in `1..=top` that `meets`, for a test that holds up to
/// some value and fails past it; None when 1 already fails.
pub fn largest(top: u64, meets: impl Fn(u64) -> bool) -> Option<u64> {
    let top = top.max(1);
    if !meets(1) {
        return None;
    }
    if meets(top) {
        return Some(top);
    }
    let (mut lo, mut hi) = (1_u64, top);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::largest;

    #[test]
    fn finds_the_last_value_that_holds() {
        assert_eq!(largest(100, |v| v <= 37), Some(37));
        assert_eq!(largest(100, |v| v <= 500), Some(100));
        assert_eq!(largest(100, |_| false), None);
        assert_eq!(largest(0, |v| v == 1), Some(1));
    }
}
