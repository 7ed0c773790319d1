//! Summaries of the per-row errors the validation tests print and check.

/// The middle value (mean of the two middle ones for an even count); NaN
/// for no values.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The value at quantile `q` (0-1), the nearest of the sorted values; NaN
/// for no values.
pub fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * q).round().max(0.0) as usize;
    v.get(i.min(v.len().saturating_sub(1))).copied().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn middles_and_quantiles() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(vec![]).is_nan() && percentile(vec![], 0.8).is_nan());
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentile(v.clone(), 0.8), 8.0);
        assert_eq!((percentile(v.clone(), 0.0), percentile(v, 1.0)), (1.0, 10.0));
    }
}
