//! Every string the page itself shows. The keys are here; the texts have
//! one home per language, `zh.rs` and `en.rs`, each an exhaustive match, so a
//! key without its text in either language fails the build. A
//! single-language bundle (feature `zh` or `en`) compiles only its own file.
//! Text that the core produces (error messages, derivations) comes from the core.

pub use gpuplan_core::lang::Lang;

#[cfg(any(feature = "en", not(feature = "zh")))]
mod en;
#[cfg(any(feature = "zh", not(feature = "en")))]
mod zh;

/// Declares the keys, and for the tests the list of them all.
macro_rules! keys {
    ($($key:ident,)*) => {
        /// A UI string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum K { $($key),* }

        #[cfg(test)]
        impl K {
            pub const ALL: &'static [K] = &[$(K::$key),*];
        }
    };
}

keys! {
    Title,
    Tagline,
    LangToggle,
    ChecklistTitle,
    ChecklistMarkdown,
    ChecklistMarkdownHint,
    ShareTitle,
    ShareLabel,
    SnippetIframe,
    SnippetWiki,
    SnippetMarkdown,
    LinkIgnored,
    LangToggleLabel,
    UnitLabel,
    Inputs,
    Results,
    // Task and model
    Task,
    Model,
    ModelKind,
    ModelSearch,
    ModelSearchHint,
    ModelPreset,
    NoMatch,
    Advanced,
    AdvancedHint,
    EditShape,
    Params,
    ParamsHint,
    Layers,
    Hidden,
    Heads,
    KvHeads,
    HeadDim,
    HeadDimHint,
    Intermediate,
    Vocab,
    Experts,
    ExpertsActive,
    MaxContext,
    TiedEmbeddings,
    MlpKind,
    GenericParams,
    ActivationGb,
    FlopsPerItem,
    // Inference
    InferSection,
    Weights,
    KvDtype,
    Context,
    ContextHint,
    Concurrency,
    Engine,
    GpuMemUtil,
    GpuMemUtilHint,
    PromptTokens,
    OutputTokens,
    TargetQps,
    TargetQpsHint,
    ResponseKb,
    TtftTarget,
    TpotTarget,
    NoTargetHint,
    PrefixHit,
    PrefixHitHint,
    Measured,
    MeasuredHint,
    // Training
    TrainSection,
    Method,
    LoraRank,
    LoraTargets,
    Precision,
    Optimizer,
    OptInBwd,
    Batch,
    Seq,
    GradCkpt,
    ActOffload,
    Loss,
    GradAccum,
    FlashAttn,
    DatasetTokens,
    Epochs,
    Mfu,
    MfuHint,
    // Parallel
    ParallelSection,
    Gpus,
    Tp,
    Pp,
    Shard,
    // Hardware
    HardwareSection,
    Headroom,
    HeadroomHint,
    Cuda,
    GpusPerNode,
    // Cost inputs
    CostSection,
    Currency,
    Months,
    HoursPerDay,
    StorageGb,
    Ips,
    EgressGb,
    EgressAuto,
    DebugPct,
    DebugHint,
    ContingencyPct,
    ContingencyHint,
    DeadlineH,
    MoreCost,
    CnyPerUsd,
    Starts,
    StoppedDays,
    SpotPerDay,
    CkptMin,
    RestartMin,
    SpCommit,
    SpUpfront,
    BlockDays,
    Prorate,
    UnitMonths,
    UnitHours,
    UnitDays,
    UnitMin,
    // Cost results
    CostTitle,
    HorizonRun,
    HorizonServe,
    PurchaseOption,
    InstancesGpus,
    Total,
    WhyNot,
    Cheapest,
    HostOffer,
    Committed,
    Usage,
    CostOverTime,
    Hours,
    Paid,
    CheaperAfter,
    Skipped,
    // Gallery and compare
    Examples,
    CustomModel,
    OpenFullPlan,
    GenericModel,
    CompareTitle,
    CompareHint,
    Pin,
    Pinned,
    Current,
    Figure,
    OpenPinned,
    Unpin,
    MemoryHolds,
    GpusOnChosen,
    SpeedOnChosen,
    CheapestOption,
    // Units and common words
    UnitTokens,
    UnitSeqs,
    UnitPct,
    UnitKb,
    UnitPerSec,
    UnitGpus,
    UnitGb,
    UnitMs,
    UnitTokS,
    UnitParams,
    // Validation
    NotWhole,
    NotNumber,
    Stale,
    // Results
    PeakMemory,
    PeakAllocated,
    PeakNvidiaSmi,
    EngineRelease,
    ReleaseCurrent,
    PeakReserved,
    PeakNeedReserves,
    AnswerGpus,
    AnswerCost,
    AnswerBest,
    AnswerMonths,
    AnswerRun,
    AnswerNoOffer,
    Breakdown,
    Why,
    UsableMemory,
    HeadroomShort,
    FitsOne,
    ExceedsOne,
    Formula,
    Source,
    // Charts
    MemVsContext,
    MemVsSeq,
    Required,
    MemoryPerGpu,
    UsableShort,
    LongestFits,
    // Serving
    ServingTitle,
    ServingHint,
    InFlight,
    Ttft,
    Tpot,
    TpsSeq,
    Rps,
    Prefill,
    BasisCalibrated,
    BasisEstimate,
    BasisBound,
    BasisMeasured,
    Bounds,
    NoExpected,
    GpusForTarget,
    Binds,
    BindTpot,
    BindTtft,
    BindKv,
    FeedsBill,
    TpotVsConc,
    TputVsConc,
    NeededLine,
    ExpectedLoad,
    // Fit table
    FitTitle,
    FitHint,
    Gpu,
    GpuCount,
    Layout,
    PerGpuUse,
    RunTime,
    Throughput,
    Flags,
    GpuClass,
    Stack,
    FitsOnly,
    Chosen,
    Servers,
    NoFit,
    // Market
    MarketTitle,
    MarketHint,
    MarketLoading,
    MarketFailed,
    // A part of the page that loads on demand
    PartLoading,
    PartFailed,
    PartRetry,
    MarketShown,
    MarketBest,
    MarketBestList,
    MarketNone,
    Provider,
    Region,
    RegionHint,
    PurchaseKind,
    PerGpuHour,
    PerGpuHourOf,
    AsOf,
    StaleBadge,
    Marketplace,
    Auction,
    PriceNotes,
    AllChoices,
    BuyOnDemand,
    BuySpot,
    BuyCommitment,
    MarketFx,
    FxOwn,
    // Price sheet
    SheetTitle,
    SheetHint,
    SheetPick,
    SheetReading,
    SheetRead,
    SheetUnmapped,
    SheetMoreNotices,
    SheetTooBig,
    SheetFailed,
    SheetKept,
    SheetClear,
    SheetExportJson,
    SheetExportCsv,
    SheetCsvLeftOut,
    // Own offers and items
    MarketAdoptHint,
    OffersTitle,
    OffersHint,
    OfferAdd,
    OfferFromListed,
    OfferPick,
    OwnOfferName,
    OfferDuplicate,
    OfferDelete,
    OfferReset,
    OfferChanged,
    CopyMark,
    OfferAbout,
    OfferName,
    GpusPerInstance,
    CustomGpu,
    PricingKind,
    PricingList,
    OfferPrices,
    OdHourly,
    OdStep,
    OdMin,
    KeepsBilling,
    SpotHourly,
    OfferSpotPerDay,
    PlanAssumption,
    SpHourly,
    TermYears,
    RiHourly,
    RiUpfront,
    BlockHourly,
    MonthlyPrice,
    MonthlyEgress,
    MonthlyMin,
    OfferSides,
    StoragePrice,
    IpPrice,
    NotSold,
    NotInCatalog,
    Egress,
    Bandwidth,
    UptoGb,
    PerGb,
    UptoMbps,
    PerMbpsMonth,
    NoBound,
    AddTier,
    RemoveRow,
    OfferSource,
    ItemsTitle,
    ItemName,
    ItemAmount,
    ItemMonthly,
    ItemAdd,
    UnitPerInstanceHour,
    UnitPerInstanceMonth,
    UnitPerGbMonth,
    UnitPerIpHour,
    UnitSeconds,
    // Projects
    AddWorkload,
    Workloads,
    WorkloadsHint,
    WorkloadsHintOne,
    KindTraining,
    KindService,
    ThisPlan,
    WorkloadName,
    StartMonth,
    StartMonthAuto,
    Reuse,
    ReuseNone,
    MoveUp,
    MoveDown,
    Duplicate,
    Remove,
    KeepModel,
    WorkloadsRefused,
    AddTraining,
    AddService,
    AddDevBox,
    NameTraining,
    NameService,
    NameDevBox,
    LineGpus,
    LineStorage,
    LineIp,
    LineEgress,
    LineItems,
    LineContingency,
    CarriesOn,
    CarriedInto,
    MonthCol,
    TotalCol,
    WorkloadCol,
    OrdersCol,
    LineMonthly,
    LineOnce,
    WholeProject,
    BudgetTitle,
    BudgetTotal,
    BudgetCurrency,
    AgainstSeed,
    ByWorkloadCaption,
    ByMonthCaption,
    HeldBefore,
    TimelineCaption,
    MachineFor,
    MachinesTitle,
}

/// The string for `key` in `lang`.
pub fn t(lang: Lang, key: K) -> &'static str {
    match lang.written() {
        #[cfg(any(feature = "zh", not(feature = "en")))]
        Lang::Zh => zh::text(key),
        #[cfg(any(feature = "en", not(feature = "zh")))]
        Lang::En => en::text(key),
        #[allow(unreachable_patterns)]
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_both_languages() {
        for &k in K::ALL {
            let (zh, en) = (zh::text(k), en::text(k));
            assert!(!zh.trim().is_empty() && !en.trim().is_empty(), "{k:?} has an empty text");
        }
    }

    #[test]
    fn english_texts_are_not_chinese() {
        // A zh string pasted into the en column is the usual slip.
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for &k in K::ALL {
            let en = en::text(k);
            if k != K::LangToggle && k != K::LangToggleLabel {
                assert!(!cjk(en), "{k:?}: English text has Chinese: {en}");
            }
        }
    }

    #[test]
    fn both_languages_hold_the_same_placeholders() {
        let holes = |s: &'static str| {
            let mut v: Vec<&str> =
                s.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect();
            v.sort_unstable();
            v
        };
        for &k in K::ALL {
            let (zh, en) = (zh::text(k), en::text(k));
            assert_eq!(holes(zh), holes(en), "{k:?}");
        }
    }

    #[test]
    fn t_picks_by_language() {
        assert_eq!(t(Lang::Zh, K::Task), "任务");
        assert_eq!(t(Lang::En, K::Task), "Task");
    }
}
