//! Typed validation errors. Each names the field by its dotted plan path, so
//! the page can show the message next to that field.

use serde::Serialize;

use crate::lang::Lang;
use crate::text::{fill, get, Key};

/// What is wrong with a field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// Outside the accepted range (both ends inclusive).
    OutOfRange { min: f64, max: f64 },
    /// NaN or infinite.
    NotFinite,
    /// Not a number at all (text in a number field, from the page or a link).
    NotANumber,
    /// An id that names nothing in the catalog.
    Unknown { id: String },
    /// A value that contradicts another field; `rule` says which.
    Inconsistent { rule: &'static str },
    /// tp × pp needs more GPUs than the plan has.
    TooFewGpus { needed: u64 },
    /// Below what physics allows; `why` names the limit.
    BelowMinimum { min: f64, why: &'static str },
    /// Missing: the field must be given.
    Required,
    /// More entries than the limit.
    TooMany { max: usize },
    /// Longer text than the limit, in characters.
    TooLong { max: usize },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub problem: Problem,
}

impl FieldError {
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        Self { field: field.into(), problem }
    }

    /// One line naming the field and what is accepted.
    pub fn message(&self, lang: Lang) -> String {
        let what = match &self.problem {
            Problem::OutOfRange { min, max } => fill(Key::ErrOutOfRange, lang, &[("min", min), ("max", max)]),
            Problem::NotFinite | Problem::NotANumber => get(Key::ErrNotFinite, lang).to_string(),
            Problem::Unknown { id } => fill(Key::ErrUnknownId, lang, &[("id", id)]),
            Problem::Inconsistent { rule } => get(rule_key(rule), lang).to_string(),
            Problem::BelowMinimum { min, why } => {
                fill(Key::ErrBelowMinimum, lang, &[("min", min), ("why", &get(minimum_key(why), lang))])
            }
            Problem::Required => get(Key::ErrRequired, lang).to_string(),
            Problem::TooMany { max } => fill(Key::ErrTooMany, lang, &[("max", max)]),
            Problem::TooLong { max } => fill(Key::ErrTooLong, lang, &[("max", max)]),
            Problem::TooFewGpus { needed } => fill(Key::ErrTooFewGpus, lang, &[("needed", needed)]),
        };
        format!("{}: {what}", self.field)
    }
}

/// The text of why a value cannot go lower.
fn minimum_key(why: &str) -> Key {
    match why {
        "prefill_at_peak" => Key::MinPrefillAtPeak,
        _ => Key::MinPhysical,
    }
}

/// The text of a cross-field rule, by its id.
fn rule_key(rule: &str) -> Key {
    match rule {
        "kv_heads_le_heads" => Key::RuleKvHeadsLeHeads,
        "heads_divisible_by_kv_heads" => Key::RuleHeadsDivisibleByKvHeads,
        "hidden_divisible_by_heads" => Key::RuleHiddenDivisibleByHeads,
        "experts_active_le_experts" => Key::RuleExpertsActiveLeExperts,
        "tp_divides_heads" => Key::RuleTpDividesHeads,
        "pp_le_layers" => Key::RulePpLeLayers,
        "window_le_context" => Key::RuleWindowLeContext,
        "lora_needs_transformer" => Key::RuleLoraNeedsTransformer,
        "quantized_full_finetune" => Key::RuleQuantizedFullFinetune,
        "weights_disagree_precision" => Key::RuleWeightsDisagreePrecision,
        "lora_rank_zero" => Key::RuleLoraRankZero,
        "opt_in_bwd_no_accumulation" => Key::RuleOptInBwdNoAccumulation,
        "estimate_too_large" => Key::RuleEstimateTooLarge,
        "tiers_rise" => Key::RuleTiersRise,
        "block_days_step" => Key::RuleBlockDaysStep,
        "spot_never_finishes" => Key::RuleSpotNeverFinishes,
        "names_unique" => Key::RuleNamesUnique,
        "reuse_needs_a_service" => Key::RuleReuseNeedsAService,
        "reuse_needs_same_machines" => Key::RuleReuseNeedsSameMachines,
        "overlaps_reused" => Key::RuleOverlapsReused,
        "reuse_not_chained" => Key::RuleReuseNotChained,
        "reused_once" => Key::RuleReusedOnce,
        "reuse_option_unavailable" => Key::RuleReuseOptionUnavailable,
        "keep_one_workload" => Key::RuleKeepOneWorkload,
        _ => Key::RuleOther,
    }
}

/// An accepted range, used by every section's `validate`.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    min: f64,
    max: f64,
}

impl Limit {
    pub const fn int(min: u64, max: u64) -> Self {
        Self { min: min as f64, max: max as f64 }
    }
    pub const fn real(min: f64, max: f64) -> Self {
        Self { min, max }
    }

    pub fn check_f64(self, field: &str, v: f64, errs: &mut Vec<FieldError>) {
        if !v.is_finite() {
            errs.push(FieldError::new(field, Problem::NotFinite));
        } else if v < self.min || v > self.max {
            errs.push(FieldError::new(field, Problem::OutOfRange { min: self.min, max: self.max }));
        }
    }

    pub fn check_u64(self, field: &str, v: u64, errs: &mut Vec<FieldError>) {
        self.check_f64(field, v as f64, errs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_errors_name_field_and_range() {
        let mut errs = Vec::new();
        Limit::int(1, 64).check_u64("parallel.tp", 0, &mut errs);
        Limit::real(0.0, 1.0).check_f64("inference.gpu_mem_util", f64::NAN, &mut errs);
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[1].problem, Problem::NotFinite);
        if Lang::En.carried() {
            assert_eq!(errs[0].message(Lang::En), "parallel.tp: must be between 1 and 64");
        }
        if Lang::Zh.carried() {
            assert!(errs[0].message(Lang::Zh).contains("1 到 64"));
        }
    }
}
