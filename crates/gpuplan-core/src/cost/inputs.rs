//! What the user sets for the bill: the horizon, side costs, buffers,
//! currency, price edits and offers of their own.

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit, Problem};
use crate::money::Currency;
use crate::offers::{Offer, MAX_PRICE};

/// A one-off run (hours from the speed model) or months of serving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Horizon {
    Run,
    #[default]
    Serve,
}

/// How a savings-plan commitment is paid. The total is the same; only when it is paid differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Upfront {
    #[default]
    None,
    /// Half up front, half monthly.
    Partial,
    All,
}

impl Upfront {
    /// Share of the commitment paid at the start.
    pub fn share(self) -> f64 {
        match self {
            Upfront::None => 0.0,
            Upfront::Partial => 0.5,
            Upfront::All => 1.0,
        }
    }
}

/// A cost line the user adds (support, a load balancer, object storage...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Item {
    pub name: String,
    pub amount: f64,
    pub currency: Currency,
    /// Charged every month of the horizon rather than once.
    pub monthly: bool,
}

/// Which price of an offer an [`Edit`] replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceKey {
    Od,
    Spot,
    Sp,
    Ri,
    RiUpfront,
    Block,
    Monthly,
    Storage,
    Ip,
}

/// A new value for one price of one offer (by offer id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Edit {
    pub id: String,
    pub key: PriceKey,
    pub value: f64,
}

/// The default exchange rate, CNY per USD, and the day it was published.
pub const DEFAULT_CNY_PER_USD: f64 = 7.0197;
pub const DEFAULT_FX_DATE: &str = "2026-01-08";

/// Longest day text for the rate ("2026-01-08", or a note like "bank, 8 Jan").
const FX_DATE_CHARS: usize = 32;

/// The user's cost settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostInputs {
    pub horizon: Horizon,
    /// Serving: months the service runs.
    pub months: f64,
    /// Serving: hours a day the instances run (24 = always on).
    pub hours_per_day: f64,
    /// Billing periods per instance over the horizon: each stop→start opens a new one.
    pub starts: u32,
    /// Run: days the instances sit stopped afterwards, disks and IPs kept.
    pub stopped_days: f64,
    /// Run: hours within which the run must finish (0 = no deadline).
    pub deadline_h: f64,
    /// Block storage per instance (GB).
    pub storage_gb: f64,
    /// Public IPv4 addresses per instance.
    pub ips: u32,
    /// GB sent to the internet: per month when serving, in total for a run.
    pub egress_gb: f64,
    /// Serving: estimate egress from target QPS × response size instead.
    pub egress_auto: bool,
    /// Run: debugging time on top of the run time, percent (seed 002: 30-50).
    pub debug_pct: f64,
    /// Contingency on the whole bill, percent (seed 002: 20-25).
    pub contingency_pct: f64,
    /// The currency the bill is shown in.
    pub currency: Currency,
    /// Exchange rate, CNY per USD.
    pub cny_per_usd: f64,
    /// The day `cny_per_usd` was taken on ("" = the default rate's day
    /// while the rate is the default one, else undated).
    pub fx_date: String,
    /// Assumed spot interruptions per instance-day (an offer may set its own).
    pub spot_per_day: f64,
    /// Checkpoint interval, minutes (seed 002: 5-10 for batch jobs).
    pub ckpt_min: f64,
    /// Minutes to get a new instance and resume after an interruption.
    pub restart_min: f64,
    /// Savings-plan commitment per hour in the offer's currency (0 = cover the whole fleet).
    pub sp_commit: f64,
    pub sp_upfront: Upfront,
    /// Count only the horizon's share of 1-3 year commitments (the rest of the
    /// term is assumed used by other work). Off: the whole term is billed.
    pub prorate: bool,
    /// Capacity block length in days (0 = the shortest that fits).
    pub block_days: u32,
    pub items: Vec<Item>,
    pub edits: Vec<Edit>,
    /// Offers of the user's own; one with a default's id replaces it.
    pub offers: Vec<Offer>,
}

/// The exchange rate a bill was converted at, and its day (None: the
/// user's own rate, undated).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fx {
    pub cny_per_usd: f64,
    pub date: Option<String>,
}

impl CostInputs {
    /// The rate in use and its day.
    pub fn fx(&self) -> Fx {
        let date = match self.fx_date.trim() {
            "" if self.cny_per_usd == DEFAULT_CNY_PER_USD => Some(DEFAULT_FX_DATE.to_string()),
            "" => None,
            day => Some(day.to_string()),
        };
        Fx { cny_per_usd: self.cny_per_usd, date }
    }
}

impl Default for CostInputs {
    fn default() -> Self {
        Self {
            horizon: Horizon::Serve,
            months: 12.0,
            hours_per_day: 24.0,
            starts: 1,
            stopped_days: 0.0,
            deadline_h: 0.0,
            storage_gb: 500.0,
            ips: 1,
            egress_gb: 0.0,
            egress_auto: true,
            debug_pct: 40.0,
            contingency_pct: 20.0,
            currency: Currency::Usd,
            // CFETS central parity of 2026-01-08 (docs/market.md); rates
            // move, so the user sets their own.
            cny_per_usd: DEFAULT_CNY_PER_USD,
            fx_date: String::new(),
            // An assumption, not a measurement: one interruption a day; AWS's
            // Spot Instance Advisor gives only monthly frequency bands.
            spot_per_day: 1.0,
            ckpt_min: 10.0,
            // An assumption: a few minutes for a new instance plus reloading the checkpoint.
            restart_min: 10.0,
            sp_commit: 0.0,
            sp_upfront: Upfront::None,
            prorate: false,
            block_days: 0,
            items: Vec::new(),
            edits: Vec::new(),
            offers: Vec::new(),
        }
    }
}

/// Capacity blocks come in 1-day steps up to 14 days, then 7-day steps up to 182.
pub fn block_days_valid(days: u32) -> bool {
    (1..=14).contains(&days) || (days <= 182 && days.is_multiple_of(7) && days > 14)
}

impl CostInputs {
    pub(crate) fn validate(&self, errs: &mut Vec<FieldError>) {
        let pct = Limit::real(0.0, 500.0);
        Limit::real(0.01, 120.0).check_f64("cost.months", self.months, errs);
        Limit::real(0.0, 24.0).check_f64("cost.hours_per_day", self.hours_per_day, errs);
        Limit::int(1, 1_000_000).check_u64("cost.starts", u64::from(self.starts), errs);
        Limit::real(0.0, 3650.0).check_f64("cost.stopped_days", self.stopped_days, errs);
        Limit::real(0.0, 1.0e6).check_f64("cost.deadline_h", self.deadline_h, errs);
        Limit::real(0.0, 1.0e7).check_f64("cost.storage_gb", self.storage_gb, errs);
        Limit::int(0, 1000).check_u64("cost.ips", u64::from(self.ips), errs);
        Limit::real(0.0, 1.0e9).check_f64("cost.egress_gb", self.egress_gb, errs);
        pct.check_f64("cost.debug_pct", self.debug_pct, errs);
        pct.check_f64("cost.contingency_pct", self.contingency_pct, errs);
        Limit::real(0.01, 1000.0).check_f64("cost.cny_per_usd", self.cny_per_usd, errs);
        if self.fx_date.chars().count() > FX_DATE_CHARS {
            errs.push(FieldError::new("cost.fx_date", Problem::TooLong { max: FX_DATE_CHARS }));
        }
        Limit::real(0.0, 1000.0).check_f64("cost.spot_per_day", self.spot_per_day, errs);
        Limit::real(0.1, 10_000.0).check_f64("cost.ckpt_min", self.ckpt_min, errs);
        Limit::real(0.0, 10_000.0).check_f64("cost.restart_min", self.restart_min, errs);
        Limit::real(0.0, MAX_PRICE).check_f64("cost.sp_commit", self.sp_commit, errs);
        if self.block_days != 0 && !block_days_valid(self.block_days) {
            errs.push(FieldError::new("cost.block_days", Problem::Inconsistent { rule: "block_days_step" }));
        }
        for (i, item) in self.items.iter().enumerate() {
            Limit::real(0.0, 1.0e12).check_f64(&format!("cost.items[{i}].amount"), item.amount, errs);
        }
        for (i, edit) in self.edits.iter().enumerate() {
            Limit::real(0.0, MAX_PRICE).check_f64(&format!("cost.edits[{i}].value"), edit.value, errs);
        }
        for (i, offer) in self.offers.iter().enumerate() {
            offer.validate(&format!("cost.offers[{i}]"), errs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        let mut errs = Vec::new();
        CostInputs::default().validate(&mut errs);
        assert!(errs.is_empty(), "{errs:?}");
    }

    #[test]
    fn names_bad_fields() {
        let inputs = CostInputs {
            months: 0.0,
            cny_per_usd: f64::NAN,
            block_days: 15,
            items: vec![Item { amount: -1.0, ..Item::default() }],
            ..CostInputs::default()
        };
        let mut errs = Vec::new();
        inputs.validate(&mut errs);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["cost.months", "cost.cny_per_usd", "cost.block_days", "cost.items[0].amount"]);
    }

    #[test]
    fn block_steps() {
        assert!(block_days_valid(1) && block_days_valid(14) && block_days_valid(21));
        assert!(block_days_valid(182) && !block_days_valid(15) && !block_days_valid(189));
        assert!(!block_days_valid(0));
    }

    #[test]
    fn partial_json_fills_defaults() {
        let inputs: CostInputs =
            serde_json::from_str(r#"{"horizon":"run","edits":[{"id":"aws-p5","key":"od","value":50}]}"#)
                .unwrap_or_default();
        assert_eq!(inputs.horizon, Horizon::Run);
        assert_eq!(inputs.months, 12.0);
        assert_eq!(inputs.edits.len(), 1);
    }
}
