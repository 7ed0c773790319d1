//! Every sentence the core writes for a reader, with one home per language:
//! `zh.rs` and `en.rs`, each an exhaustive `match` over [`Key`], so a key
//! without its text in either language fails the build. A one-language
//! build (feature `zh` or `en`) compiles only its own file. Engines return
//! ids and numbers; they choose a key here and fill its named holes
//! (`{name}`) with [`fill`]. Numbers are written by `crate::present` before
//! they reach a hole.

use std::fmt::{Display, Write};

use crate::lang::{Bi, Lang};

#[cfg(not(feature = "zh"))]
mod en;
#[cfg(not(feature = "en"))]
mod zh;

/// Declares the keys, and for the tests the list of them all.
macro_rules! keys {
    ($($key:ident,)*) => {
        /// One text the core writes, in any language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Key { $($key),* }

        impl Key {
            /// Every key, in declaration order: a key's place is its number
            /// in a [`later`] mark.
            pub const ALL: &'static [Key] = &[$(Key::$key),*];
        }
    };
}

keys! {
    // Field errors: what is wrong with a value.
    ErrOutOfRange,
    ErrNotFinite,
    ErrUnknownId,
    ErrBelowMinimum,
    ErrRequired,
    ErrTooMany,
    ErrTooLong,
    ErrTooFewGpus,
    // Values of the wrong type, and what a field takes.
    ErrWrongType,
    ErrWrongTypeAny,
    ErrNotOneOf,
    ErrNotJson,
    ErrUnreadable,
    KindWholeNumber,
    KindNumber,
    KindBoolean,
    KindText,
    KindList,
    KindObject,
    // Why a value cannot go lower.
    MinPrefillAtPeak,
    MinPhysical,
    // Cross-field rules, by the rule id a `Problem::Inconsistent` carries.
    RuleKvHeadsLeHeads,
    RuleHeadsDivisibleByKvHeads,
    RuleHiddenDivisibleByHeads,
    RuleExpertsActiveLeExperts,
    RuleTpDividesHeads,
    RulePpLeLayers,
    RuleWindowLeContext,
    RuleLoraNeedsTransformer,
    RuleQuantizedFullFinetune,
    RuleWeightsDisagreePrecision,
    RuleLoraRankZero,
    RuleOptInBwdNoAccumulation,
    RuleEstimateTooLarge,
    RuleTiersRise,
    RuleBlockDaysStep,
    RuleSpotNeverFinishes,
    RuleNamesUnique,
    RuleReuseNeedsAService,
    RuleReuseNeedsSameMachines,
    RuleOverlapsReused,
    RuleReuseNotChained,
    RuleReusedOnce,
    RuleReuseOptionUnavailable,
    RuleKeepOneWorkload,
    RuleOther,
    // Memory: notes on the estimate, and the components' names.
    NoteMoeResident,
    NoteVllmPoolUnknown,
    NoteVllmPoolShort,
    NoteVllmReserved,
    NoteInFlight,
    NoteTrainingSmi,
    LlamaSplitNone,
    LlamaSplitLayer,
    LlamaSplitRow,
    LlamaMmq,
    LlamaFp16Copy,
    NoteGenericActivations,
    NotePagedOptimizer,
    NoteSelectiveWithFlash,
    NoteRuleOfThumbLow,
    NoteRuleOfThumbHigh,
    NoteRuleOfThumbAgree,
    CompWeights,
    CompGradients,
    CompOptimizer,
    CompActivations,
    CompKvCache,
    CompWorkspace,
    // Fit: flags on a GPU option.
    FlagNoFit,
    FlagFastLinkPcie,
    FlagFastLinkDomain,
    FlagBridgeCheck,
    FlagFp8,
    FlagFp4,
    FlagNvfp4,
    FlagBf16,
    FlagPrecisionUnverified,
    FlagGeforceLicence,
    FlagNoEcc,
    FlagCuda12Only,
    FlagCuda128,
    FlagRocm,
    FlagCann,
    FlagNearLimit,
    FlagNearLimitVllm,
    FlagSpecsUnverified,
    FlagCatalogNote,
    // Fit: how a workload is split, and the network between servers.
    SplitSingle,
    SplitZero1,
    SplitZero2,
    SplitFsdp,
    SplitZero3,
    SplitTensor,
    SplitPipeline,
    SplitTensorFsdp,
    SplitTensorPipeline,
    NetRdma,
    NetPrivate,
    NetFabric,
    // Cost: bill categories, bill lines, purchase options and why one is unavailable.
    CostCompute,
    CostStorage,
    CostIp,
    CostNetwork,
    CostOther,
    LineOnDemand,
    LineSpot,
    LineSpUpfront,
    LineSpCommit,
    LineSpOver,
    LineRiUpfront,
    LineRiHourly,
    LineBlock,
    LineMonthly,
    LineStorage,
    LineIp,
    LineEgress,
    LinePort,
    LineItem,
    LineBuffer,
    LineContingency,
    OptionOnDemand,
    OptionSpot,
    OptionSavingsPlan,
    OptionReserved,
    OptionBlock,
    OptionMonthly,
    UnavailableNeedsOnDemand,
    UnavailableBlockTooLong,
    UnavailableBlockTooShort,
    UnavailableSpotNeverFinishes,
    // Speed, model files, selection and share links.
    SpeedMissingNoTflops,
    SpeedMissingNoBandwidth,
    SpeedMissingNotTransformer,
    SpeedMissingOutOfRange,
    FactorsEndToEnd,
    FactorsKernels,
    FactorsSpecSheet,
    AssumedDefault,
    AssumedDerived,
    AssumedSimplified,
    AssumedUnknownType,
    BasisPlan,
    BasisFit,
    BasisDoesNotFit,
    LinkUnknownParam,
    LinkBadValue,
    LinkOutOfRange,
    LinkNewerVersion,
    LinkNotApplicable,
    LinkNoSuchWorkload,
    LinkTooManyWorkloads,
    FileTruncated,
    FileNotThisFormat,
    FileUnsupported,
    FileAbsurd,
    FileMalformed,
    FileNotAModel,
    FileMissingParts,
    SelectionHead,
    SelectionOption,
    SelectionNoOffer,
    SelectionReplicas,
    ListSeparator,
    SummaryNeed,
    // Snippets: the Markdown and wiki summary of a plan.
    SnipOpen,
    SnipCustomModel,
    SnipGenericModel,
    SnipInference,
    SnipTraining,
    SnipMemoryTitle,
    SnipComponent,
    SnipSize,
    SnipPeak,
    SnipHardwareTitle,
    SnipItem,
    SnipValue,
    SnipGpusToOrder,
    SnipNeededUsable,
    SnipFewestLabel,
    SnipCostTitle,
    SnipBillLine,
    SnipAmount,
    SnipNoOffer,
    SnipTotal,
    SnipNeedUsableFits,
    SnipNeedUsableExceeds,
    SnipFewest,
    SnipNoFit,
    SnipCostNote,
    // Checklist: sections, titles, Markdown labels, the plan's settings by name.
    SectionBeforeOrdering,
    SectionVendorQuestions,
    SectionAcceptance,
    SectionPitfalls,
    ChecklistTitleModelOnGpu,
    ChecklistTitleModel,
    ChecklistTitleGpu,
    ChecklistTitle,
    MdRisk,
    MdCommand,
    MdWhy,
    MdPass,
    MethodFull,
    PrecisionMixed,
    PrecisionPureBf16,
    // Cost: why an option is not the answer, and why a GPU was left out.
    LossDearerIdle,
    LossDearer,
    LossDeadline,
    SkipNoFigures,
    SkipDoesNotFit,
    // Market prices that are not list prices, and prices a catalog lacks.
    PricingMarketplace,
    PricingAuction,
    BestList,
    Unpriced,
    // Where an offer is sold, and the names of our own example offers.
    RegionCheapestOf,
    RegionUnspecified,
    RegionAll,
    OfferGuideHost,
    OfferGuideMi355x,
    OfferGuideGb300,
    OfferBudgetGuide,
    OfferRunpodH100,
    // A bill's formulas: words written later, in the reader's language.
    CostInst,
    CostMonths,
    CostPerMonth,
    CostPerGbMonth,
    CostBilledStarts,
    CostHeldHorizon,
    CostSpotRerun,
    CostTermShare,
    CostTerms,
    CostTermsN,
    CostBlockNeeds,
    CostWholeMonths,
    CostBreakEven,
    CostBuffer,
    CostCheaperThanPort,
    CostIncluded,
    CostNoEgressPrice,
    CostPort,
    CostCheaperThanMetered,
    CostMbpsAverage,
    // Checklist: what the estimate cannot promise.
    CaveatSupply,
    CaveatShareMig,
    CaveatShareContainers,
    CaveatFourBitQlora,
    CaveatFourBitWeights,
    CaveatCommBuffers,
    // Checklist: moving the plan's data.
    DurationSeconds,
    DurationMinutes,
    DurationHours,
    TransferLeg,
    TransferWeights,
    TransferDataset,
    TransferCheckpoint,
    TransferIn,
    TransferInNone,
    TransferOut,
    TransferOutNone,
    TransferRate,
    TransferRateAssumed,
    TransferTimes,
    TransferVisible,
    // Measured figures: why a paste gave none.
    MeasTooLong,
    MeasEmpty,
    MeasUnknown,
    MeasIncomplete,
    MeasOtherUnit,
    MeasBadNumber,
    // Measured figures beside the plan: verdicts, likely causes, mismatches.
    VerdictDelivers,
    VerdictWorse,
    VerdictBetter,
    VerdictNothing,
    CausePowerCap,
    CausePcieWidth,
    CauseThermal,
    CauseQuantisation,
    CauseSettingsVllm,
    CauseSettingsSglang,
    CauseSettingsTrtllm,
    CauseSettingsLlamaCpp,
    CauseSettingsServing,
    CauseSettingsTraining,
    MismatchServing,
    MismatchTraining,
    MismatchNoGpu,
}

/// The text of `key` in `lang` (in a one-language build, in that language).
pub(crate) fn get(key: Key, lang: Lang) -> &'static str {
    #[cfg(feature = "zh")]
    let text = {
        let _ = lang;
        zh::text(key)
    };
    #[cfg(feature = "en")]
    let text = {
        let _ = lang;
        en::text(key)
    };
    #[cfg(not(any(feature = "zh", feature = "en")))]
    let text = match lang {
        Lang::Zh => zh::text(key),
        Lang::En => en::text(key),
    };
    text
}

/// The text of `key` in `lang` with its named holes filled: `{min}` takes
/// the value paired with "min". A hole without a value stays as written.
pub(crate) fn fill(key: Key, lang: Lang, holes: &[(&str, &dyn Display)]) -> String {
    fill_template(get(key, lang), holes)
}

/// `key` filled in each language this build carries; the other is left
/// empty (the reports that carry both languages side by side).
pub(crate) fn both(key: Key, holes: &[(&str, &dyn Display)]) -> Bi {
    each(|lang| fill(key, lang, holes))
}

/// A text written by `write` in each language this build carries, for
/// holes whose values are themselves words in that language; the other
/// language is left empty.
pub(crate) fn each(write: impl Fn(Lang) -> String) -> Bi {
    let one = |lang: Lang| if lang.carried() { write(lang) } else { String::new() };
    Bi { zh: one(Lang::Zh), en: one(Lang::En) }
}

/// Where a [`later`] mark starts and ends, and what parts it.
const MARK: char = '\u{E000}';
const END: char = '\u{E001}';
const PART: char = '\u{E002}';

/// `key` with its holes, to be written in the reader's language by
/// [`written`] once it is known: for text that an engine without the
/// language writes (a bill's formulas). Hole values must be numbers or
/// other text free of marks.
pub(crate) fn later(key: Key, holes: &[(&str, &dyn Display)]) -> String {
    let mut out = format!("{MARK}{}", key as usize);
    for (name, value) in holes {
        // Writing to a String cannot fail.
        let _ = write!(out, "{PART}{name}{PART}{value}");
    }
    out.push(END);
    out
}

/// `text` with every [`later`] mark written in `lang`.
pub(crate) fn written(text: &str, lang: Lang) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = rest.split_once(MARK) {
        out.push_str(before);
        let (mark, tail) = after.split_once(END).unwrap_or((after, ""));
        out.push_str(&mark_text(mark, lang));
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// One mark's text: its key's template with the holes it carries.
fn mark_text(mark: &str, lang: Lang) -> String {
    let mut parts = mark.split(PART);
    let key = parts.next().and_then(|n| n.parse::<usize>().ok()).and_then(|n| Key::ALL.get(n));
    let Some(&key) = key else { return String::new() };
    let values: Vec<&str> = parts.collect();
    let holes: Vec<(&str, &dyn Display)> =
        values.chunks(2).filter_map(|p| Some((*p.first()?, p.get(1)? as &dyn Display))).collect();
    fill(key, lang, &holes)
}

fn fill_template(template: &str, holes: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some((before, after)) = rest.split_once('{') {
        out.push_str(before);
        let hole = after
            .split_once('}')
            .and_then(|(name, tail)| holes.iter().find(|(n, _)| *n == name).map(|(_, value)| (value, tail)));
        match hole {
            Some((value, tail)) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "{value}");
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_filled_by_name() {
        let n = 3;
        let text = fill_template("{a} of {b}, {a} again; {unknown} {", &[("a", &n), ("b", &"four")]);
        assert_eq!(text, "3 of four, 3 again; {unknown} {");
    }

    #[test]
    fn a_later_mark_is_written_in_the_language_asked_for() {
        let months = later(Key::CostMonths, &[("n", &12)]);
        let text = format!("2200 × {months} = 26400");
        assert_eq!(
            written(&text, Lang::En),
            format!("2200 × {} = 26400", get(Key::CostMonths, Lang::En).replace("{n}", "12"))
        );
        assert!(!written(&text, Lang::Zh).contains(MARK));
        assert_eq!(written("plain", Lang::Zh), "plain");
    }

    #[test]
    fn every_key_has_a_text_in_the_build_language() {
        for &key in Key::ALL {
            assert!(!get(key, Lang::Zh).trim().is_empty(), "{key:?}");
            assert!(!get(key, Lang::En).trim().is_empty(), "{key:?}");
        }
    }

    /// The names of a template's holes.
    #[cfg(not(any(feature = "zh", feature = "en")))]
    fn holes(template: &str) -> std::collections::BTreeSet<&str> {
        template.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }

    #[cfg(not(any(feature = "zh", feature = "en")))]
    #[test]
    fn both_languages_have_the_same_holes() {
        for &key in Key::ALL {
            assert_eq!(holes(zh::text(key)), holes(en::text(key)), "{key:?}");
        }
    }
}
