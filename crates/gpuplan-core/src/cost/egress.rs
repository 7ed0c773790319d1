//! Egress to the internet: tiered per-GB prices within each month, the
//! allowance that monthly servers include, and the estimate from traffic.

use crate::derivation::why;
use crate::money::num;
use crate::offers::{Band, Tier};
use crate::text::{self, Key};

/// KB in a GB (decimal, as response sizes are quoted).
const KB_PER_GB: f64 = 1.0e6;

/// Price of `gb` sent in one month across `tiers`, with the formula. GB
/// beyond the last bounded tier pay that tier's price. Empty tiers: not metered.
pub fn tiered(gb: f64, tiers: &[Tier]) -> (f64, String) {
    let pairs: Vec<_> = tiers.iter().map(|t| (t.upto_gb, t.per_gb)).collect();
    through_tiers(gb, &pairs, "GB")
}

/// Price a month of a fixed port of `mbps` across `bands`, with the formula.
pub fn port(mbps: f64, bands: &[Band]) -> (f64, String) {
    let pairs: Vec<_> = bands.iter().map(|b| (b.upto_mbps, b.per_mbps_month)).collect();
    through_tiers(mbps, &pairs, "Mbps")
}

/// `x` units priced through cumulative (bound, price) tiers; beyond the last
/// bounded tier its price continues.
fn through_tiers(x: f64, tiers: &[(Option<f64>, f64)], unit: &str) -> (f64, String) {
    let mut lower = 0.0;
    let mut cost = 0.0;
    let mut parts = Vec::new();
    let count = tiers.len();
    for (i, &(upto, per)) in tiers.iter().enumerate() {
        let last = i + 1 == count;
        let upper = match upto {
            Some(upto) if !last => upto,
            _ => f64::INFINITY,
        };
        let in_tier = (x.min(upper) - lower).max(0.0);
        if in_tier > 0.0 {
            cost += in_tier * per;
            parts.push(why!("{} {unit} × {}", num(in_tier), num(per)));
        }
        lower = upper;
        if x <= lower {
            break;
        }
    }
    let formula = if parts.is_empty() { why!("0 {unit}") } else { parts.join(" + ") };
    (cost, formula)
}

/// Mbps a port needs to carry `gb` a month sent evenly over `hours_per_day`
/// hours a day (decimal units: 1 GB = 8,000 Mb), with the formula.
pub fn mbps_for(gb_per_month: f64, hours_per_day: f64) -> (f64, String) {
    let seconds = super::usage::HOURS_PER_MONTH * hours_per_day.max(0.01) / 24.0 * 3600.0;
    let mbps = gb_per_month * 8000.0 / seconds;
    let formula = why!(
        "{} GB × 8000 Mb ÷ ({} h × {} h/24 h × 3600 s) = {}",
        num(gb_per_month),
        num(super::usage::HOURS_PER_MONTH),
        num(hours_per_day),
        text::later(Key::CostMbpsAverage, &[("mbps", &num(mbps))])
    );
    (mbps, formula)
}

/// GB a month from `qps` requests per second of `response_kb` each, served
/// `hours_per_day` hours a day over 730/24 days, with the formula.
pub fn estimate(qps: f64, response_kb: f64, hours_per_day: f64) -> (f64, String) {
    let days = super::usage::HOURS_PER_MONTH / 24.0;
    let gb = qps * response_kb * 3600.0 * hours_per_day * days / KB_PER_GB;
    let formula = why!(
        "{} req/s × {} KB × 3600 s × {} h × {} d ÷ 10^6 = {} GB{}",
        num(qps),
        num(response_kb),
        num(hours_per_day),
        num(days),
        num(gb),
        text::later(Key::CostPerMonth, &[])
    );
    (gb, formula)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aws() -> Vec<Tier> {
        let t = |upto_gb: Option<f64>, per_gb: f64| Tier { upto_gb, per_gb };
        vec![
            t(Some(100.0), 0.0),
            t(Some(10_240.0), 0.09),
            t(Some(51_200.0), 0.085),
            t(Some(153_600.0), 0.07),
            t(None, 0.05),
        ]
    }

    #[test]
    fn crosses_tier_boundaries() {
        // 12,000 GB: 100 free, 10,140 × 0.09 = 912.60, 1,760 × 0.085 = 149.60.
        let (cost, formula) = tiered(12_000.0, &aws());
        assert!((cost - 1062.2).abs() < 1e-9);
        assert_eq!(formula, "100 GB × 0 + 10140 GB × 0.09 + 1760 GB × 0.085");
        assert_eq!(tiered(80.0, &aws()).0, 0.0);
        // Above 150 TB the last tier applies to the rest.
        let (big, _) = tiered(200_000.0, &aws());
        let expected = 10_140.0 * 0.09 + 40_960.0 * 0.085 + 102_400.0 * 0.07 + 46_400.0 * 0.05;
        assert!((big - expected).abs() < 1e-6);
    }

    #[test]
    fn last_bounded_tier_continues_and_empty_is_free() {
        let one = [Tier { upto_gb: Some(10.0), per_gb: 0.5 }];
        assert_eq!(tiered(30.0, &one).0, 15.0);
        assert_eq!(tiered(30.0, &[]).0, 0.0);
    }

    #[test]
    fn ports_price_by_mbps_tiers() {
        // UCloud: 25 CNY/Mbps-month up to 5 Mbps, 100 above (cn-offers.md): 8 Mbps = 425.
        let ucloud = [
            Band { upto_mbps: Some(5.0), per_mbps_month: 25.0 },
            Band { upto_mbps: None, per_mbps_month: 100.0 },
        ];
        let (cost, formula) = port(8.0, &ucloud);
        assert_eq!(cost, 425.0);
        assert_eq!(formula, "5 Mbps × 25 + 3 Mbps × 100");
        // 7,884 GB a month sent all day is 24 Mbps on average.
        let (mbps, _) = mbps_for(7884.0, 24.0);
        assert!((mbps - 24.0).abs() < 1e-9, "{mbps}");
    }

    #[test]
    fn estimates_from_requests() {
        // 10 req/s × 300 KB, all day: 10 × 300 × 3600 × 24 × 30.41667 / 1e6 = 7,884 GB.
        let (gb, _) = estimate(10.0, 300.0, 24.0);
        assert!((gb - 7884.0).abs() < 1e-6);
    }
}
