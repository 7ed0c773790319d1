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
    /// A value of another type than the field takes (text in a number field).
    WrongType { expected: Expected, given: Given },
    /// A name the field does not take; `accepted` are the ones it does.
    NotOneOf { given: String, accepted: Vec<String> },
    /// Not JSON data at all (a function, a symbol).
    NotJson,
    /// Unreadable for a reason only the reader's own words give.
    Unreadable { detail: String },
}

/// What a field takes, as a type error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    WholeNumber,
    Number,
    Boolean,
    Text,
    List,
    Object,
    /// A type serde's message does not say in these words.
    Other,
}

impl Expected {
    /// Its words, where it has them.
    fn key(self) -> Option<Key> {
        match self {
            Expected::WholeNumber => Some(Key::KindWholeNumber),
            Expected::Number => Some(Key::KindNumber),
            Expected::Boolean => Some(Key::KindBoolean),
            Expected::Text => Some(Key::KindText),
            Expected::List => Some(Key::KindList),
            Expected::Object => Some(Key::KindObject),
            Expected::Other => None,
        }
    }

    /// "a whole number", in `lang`; None for [`Expected::Other`].
    pub fn text(self, lang: Lang) -> Option<&'static str> {
        self.key().map(|key| get(key, lang))
    }
}

/// The value a field was given, as a type error shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Given {
    Null,
    /// A number or true/false, as written.
    Scalar(String),
    /// Text, quoted (and cut short when long).
    Text(String),
    List,
    Object,
    Other(String),
}

impl Given {
    /// `"8k"`, `5`, `null`, "a list", in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Given::Null => "null".to_string(),
            Given::Scalar(s) | Given::Text(s) | Given::Other(s) => s.clone(),
            Given::List => get(Key::KindList, lang).to_string(),
            Given::Object => get(Key::KindObject, lang).to_string(),
        }
    }
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
            Problem::WrongType { expected, given } => wrong_type(*expected, given, lang),
            Problem::NotOneOf { given, accepted } => {
                let accepted = accepted.join(lang.pick("、", ", "));
                fill(Key::ErrNotOneOf, lang, &[("accepted", &accepted), ("given", &format!("\"{given}\""))])
            }
            Problem::NotJson => get(Key::ErrNotJson, lang).to_string(),
            Problem::Unreadable { detail } => fill(Key::ErrUnreadable, lang, &[("detail", detail)]),
        };
        format!("{}: {what}", self.field)
    }
}

/// "must be a whole number, not \"8k\"", or "cannot be …" where the
/// type the field takes has no words.
fn wrong_type(expected: Expected, given: &Given, lang: Lang) -> String {
    let given = given.text(lang);
    match expected.text(lang) {
        Some(expected) => fill(Key::ErrWrongType, lang, &[("expected", &expected), ("given", &given)]),
        None => fill(Key::ErrWrongTypeAny, lang, &[("given", &given)]),
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
