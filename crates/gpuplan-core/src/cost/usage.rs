//! The usage profile a bill is priced for, and how billing increments and
//! spot interruptions turn run time into billed time.

use serde::{Deserialize, Serialize};

use super::inputs::{CostInputs, Horizon};
use crate::error::{FieldError, Limit, Problem};

/// Hours in a billing month (AWS convention: 8,760 / 12).
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Hours in a 1-year term (31,536,000 s).
pub const HOURS_PER_YEAR: f64 = 8760.0;

/// What the plan needs on one GPU type (from the fit and speed models).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Need {
    /// GPU catalog id.
    pub gpu: String,
    /// GPUs that must run at once (memory fit, and replicas for the target QPS).
    pub gpus: u32,
    /// Run: wall-clock hours of the run on those GPUs. Unused when serving.
    pub run_hours: f64,
    /// The plan's own card: offers naming "custom" are priced on it.
    pub custom: bool,
}

/// The plan's demand: one [`Need`] per GPU type it fits on, plus the traffic.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Demand {
    pub needs: Vec<Need>,
    /// GPU ids the plan does not fit on (their offers lose for memory).
    pub unfit: Vec<String>,
    /// Requests per second served (for the egress estimate).
    pub qps: f64,
    /// Response size per request, KB.
    pub response_kb: f64,
}

impl Demand {
    pub fn validate(&self, errs: &mut Vec<FieldError>) {
        for (i, need) in self.needs.iter().enumerate() {
            Limit::int(1, 100_000).check_u64(&format!("demand.needs[{i}].gpus"), u64::from(need.gpus), errs);
            Limit::real(0.0, 1.0e6).check_f64(&format!("demand.needs[{i}].run_hours"), need.run_hours, errs);
        }
        Limit::real(0.0, 1.0e7).check_f64("demand.qps", self.qps, errs);
        Limit::real(0.0, 1.0e7).check_f64("demand.response_kb", self.response_kb, errs);
    }
}

/// One offer's usage profile: every purchase option is priced from this.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Usage {
    /// Hours each instance runs.
    pub run_hours: f64,
    /// Instances running side by side.
    pub instances: u32,
    /// Billing periods per instance (each stop→start opens one).
    pub starts: u32,
    /// Wall-clock hours the bill covers: disks, IPs and commitments run over it.
    pub horizon_hours: f64,
    /// Running time is spread evenly over the horizon (serving), rather than
    /// taken from hour 0 on (a run); only the cost-over-time curve depends on it.
    pub spread: bool,
}

impl Usage {
    /// The profile for `need` on instances of `gpus_per_instance` GPUs.
    pub fn new(inputs: &CostInputs, need: &Need, gpus_per_instance: u32) -> Usage {
        let instances = need.gpus.div_ceil(gpus_per_instance.max(1)).max(1);
        match inputs.horizon {
            Horizon::Run => Usage {
                run_hours: need.run_hours,
                instances,
                starts: inputs.starts,
                horizon_hours: need.run_hours + inputs.stopped_days * 24.0,
                spread: false,
            },
            Horizon::Serve => {
                let horizon_hours = inputs.months * HOURS_PER_MONTH;
                Usage {
                    run_hours: horizon_hours * inputs.hours_per_day / 24.0,
                    instances,
                    starts: inputs.starts,
                    horizon_hours,
                    spread: true,
                }
            }
        }
    }

    /// The same profile with the run `extra` hours longer (debugging time,
    /// re-runs); the horizon grows with it in a run, not when serving.
    pub fn longer(self, extra: f64, horizon: Horizon) -> Usage {
        let horizon_hours = match horizon {
            Horizon::Run => self.horizon_hours + extra,
            Horizon::Serve => self.horizon_hours,
        };
        Usage { run_hours: self.run_hours + extra, horizon_hours, ..self }
    }

    /// Instance-hours billed per instance when billing goes in `step_s`
    /// increments with `min_s` per start; the run is split evenly over the starts.
    pub fn billed(&self, step_s: u32, min_s: u32) -> Billed {
        let starts = self.starts.max(1);
        if self.run_hours <= 0.0 {
            return Billed { per_start_s: 0.0, hours: 0.0 };
        }
        let step = f64::from(step_s.max(1));
        let secs = self.run_hours * 3600.0 / f64::from(starts);
        // Snap float noise first so that exactly one hour is not billed as two.
        let steps = ((secs - 1.0e-6) / step).ceil().max(1.0);
        let per_start_s = (steps * step).max(f64::from(min_s));
        Billed { per_start_s, hours: per_start_s * f64::from(starts) / 3600.0 }
    }
}

/// Time billed per instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Billed {
    /// Seconds billed for each start.
    pub per_start_s: f64,
    /// Hours billed in all.
    pub hours: f64,
}

/// What spot interruptions add: expected interruptions and the work redone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rerun {
    pub interruptions: f64,
    /// Extra hours of run time (lost work since the last checkpoint plus restarts).
    pub extra_hours: f64,
}

/// Expected re-run overhead for a run of `run_hours` at `per_day`
/// interruptions per instance-day. Each interruption loses half a checkpoint
/// interval on average plus the restart; interruptions also strike the extra
/// time, so T' = T / (1 − λ·loss). Serving redoes no work: only the
/// interruptions (new billing periods) count.
pub fn rerun(run_hours: f64, per_day: f64, inputs: &CostInputs) -> Result<Rerun, FieldError> {
    let rate = per_day / 24.0;
    if inputs.horizon == Horizon::Serve {
        return Ok(Rerun { interruptions: rate * run_hours, extra_hours: 0.0 });
    }
    let loss_h = (inputs.ckpt_min / 2.0 + inputs.restart_min) / 60.0;
    let lost_share = rate * loss_h;
    if !lost_share.is_finite() || lost_share >= 0.95 {
        return Err(FieldError::new(
            "cost.spot_per_day",
            Problem::Inconsistent { rule: "spot_never_finishes" },
        ));
    }
    let total = run_hours / (1.0 - lost_share);
    Ok(Rerun { interruptions: rate * total, extra_hours: total - run_hours })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(run_hours: f64, starts: u32) -> Usage {
        Usage { run_hours, instances: 1, starts, horizon_hours: run_hours, spread: false }
    }

    #[test]
    fn per_second_with_minimum_per_start() {
        // 10 starts of 30 s each: each billed the 60 s minimum.
        let b = usage(300.0 / 3600.0, 10).billed(1, 60);
        assert_eq!(b.per_start_s, 60.0);
        assert!((b.hours - 600.0 / 3600.0).abs() < 1e-12);
        // Above the minimum, seconds count as they are.
        assert_eq!(usage(1.5, 1).billed(1, 60).per_start_s, 5400.0);
    }

    #[test]
    fn hourly_rounds_up_per_start() {
        assert_eq!(usage(3.0, 2).billed(3600, 3600).hours, 4.0);
        assert_eq!(usage(2.0, 2).billed(3600, 3600).hours, 2.0);
        assert_eq!(usage(0.0, 2).billed(3600, 3600).hours, 0.0);
    }

    #[test]
    fn spot_rerun_overhead() {
        let inputs =
            CostInputs { horizon: Horizon::Run, ckpt_min: 10.0, restart_min: 10.0, ..Default::default() };
        // λ = 2.4/24 = 0.1/h; loss = 15 min = 0.25 h; share 0.025; T' = 100 / 0.975.
        let r = rerun(100.0, 2.4, &inputs).unwrap_or(Rerun { interruptions: 0.0, extra_hours: 0.0 });
        assert!((r.extra_hours - (100.0 / 0.975 - 100.0)).abs() < 1e-9);
        assert!((r.interruptions - 0.1 * 100.0 / 0.975).abs() < 1e-9);
        assert!(rerun(100.0, 1000.0, &inputs).is_err());
    }
}
