//! Flags on a GPU option: each rule says why it fires, in both languages.
//! Rules come from the seeds (000: GeForce licence; 001: ECC; 002: go up one
//! tier; 004: NVLink, precision, ROCm) and reference checklist.md (CUDA and
//! driver versions).

use std::fmt::Display;

use serde::Serialize;

use super::{FitOption, Network, Strategy};
use crate::hardware::{Gpu, GpuClass, HwFormat, LinkKind, Stack, Support};
use crate::lang::{bi, Bi, Lang};
use crate::model::WeightFormat;
use crate::plan::Plan;
use crate::plan::{Precision, Task};
use crate::tensor_path::{tensor_path, TensorPath};
use crate::text::{self, Key};

/// Share of usable memory above which a plan counts as "at the edge" (seed 002:
/// on a card's edge, go up one tier).
pub const NEAR_LIMIT: f64 = 0.9;

/// A training run at least this long counts as a long run for the ECC rule
/// (a product threshold: the seeds say "long" without a number).
pub const LONG_RUN_HOURS: f64 = 24.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Warn,
    /// The option cannot run as planned.
    Block,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagId {
    NoFit,
    NeedsFastLink,
    BridgeCheck,
    Fp8Unsupported,
    Fp4Unsupported,
    Bf16Unsupported,
    PrecisionUnverified,
    GeforceLicence,
    NoEcc,
    Cuda12Only,
    Cuda128,
    RocmStack,
    CannStack,
    NearLimit,
    MultiNode,
    SpecsUnverified,
    /// The catalog's note on a row whose figures are verified.
    CatalogNote,
}

/// One flag: a code the page can key on, and the text in both languages.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flag {
    pub id: FlagId,
    pub severity: Severity,
    pub zh: String,
    pub en: String,
}

impl Flag {
    fn new(id: FlagId, severity: Severity, text: Bi) -> Self {
        Self { id, severity, zh: text.zh, en: text.en }
    }

    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

/// What the rules look at for one GPU.
pub(crate) struct Context<'a> {
    pub plan: &'a Plan,
    pub gpu: &'a Gpu,
    /// The chosen option; None when nothing fits.
    pub option: Option<&'a FitOption>,
    pub network: Option<&'a Network>,
    pub max_gpus: u32,
    /// The plan runs on rented or hosted machines (the GeForce licence rule).
    pub hosted: bool,
    pub training_hours: Option<f64>,
}

/// Every flag that fires, most severe first.
pub(crate) fn flags(cx: &Context) -> Vec<Flag> {
    let rules: [fn(&Context) -> Option<Flag>; 15] = [
        no_fit,
        fast_link,
        fp8,
        fp4,
        bf16,
        geforce_licence,
        no_ecc,
        cuda_12_only,
        cuda_12_8,
        stack,
        near_limit,
        multi_node,
        specs_unverified,
        catalog_note,
        precision_unverified,
    ];
    let mut out: Vec<Flag> = rules.iter().filter_map(|rule| rule(cx)).collect();
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

fn no_fit(cx: &Context) -> Option<Flag> {
    if cx.option.is_some() {
        return None;
    }
    let n = cx.max_gpus;
    Some(Flag::new(
        FlagId::NoFit,
        Severity::Block,
        text::both(Key::FlagNoFit, &[("n", &n), ("gpu", &cx.gpu.name)]),
    ))
}

fn fast_link(cx: &Context) -> Option<Flag> {
    let opt = cx.option?;
    let group = opt.fast_link_group();
    if group <= 1 {
        return None;
    }
    let g = cx.gpu;
    match g.link {
        LinkKind::Pcie => Some(Flag::new(
            FlagId::NeedsFastLink,
            Severity::Warn,
            text::each(|lang| {
                text::fill(
                    Key::FlagFastLinkPcie,
                    lang,
                    &[("what", &opt.strategy.label(lang)), ("group", &group), ("gpu", &g.name)],
                )
            }),
        )),
        LinkKind::Bridge | LinkKind::Fabric if group > g.link_domain => Some(Flag::new(
            FlagId::NeedsFastLink,
            Severity::Warn,
            text::each(|lang| {
                let holes: [(&str, &dyn Display); 5] = [
                    ("what", &opt.strategy.label(lang)),
                    ("group", &group),
                    ("link", &g.link_name),
                    ("gpu", &g.name),
                    ("domain", &g.link_domain),
                ];
                text::fill(Key::FlagFastLinkDomain, lang, &holes)
            }),
        )),
        LinkKind::Bridge => Some(Flag::new(
            FlagId::BridgeCheck,
            Severity::Info,
            text::each(|lang| {
                text::fill(
                    Key::FlagBridgeCheck,
                    lang,
                    &[("what", &opt.strategy.label(lang)), ("link", &g.link_name)],
                )
            }),
        )),
        LinkKind::Fabric => None,
    }
}

/// The hardware formats the plan depends on.
fn needs(plan: &Plan) -> [(HwFormat, bool); 3] {
    let infer = plan.task == Task::Infer;
    let w = plan.inference.weights;
    let train_bf16 = matches!(plan.training.precision, Precision::Mixed | Precision::PureBf16);
    [
        (HwFormat::Bf16, if infer { w == WeightFormat::Bf16 } else { train_bf16 }),
        (HwFormat::Fp8, infer && w == WeightFormat::Fp8),
        (HwFormat::Fp4, infer && matches!(w, WeightFormat::Mxfp4 | WeightFormat::Nvfp4)),
    ]
}

fn needs_and(cx: &Context, format: HwFormat, support: Support) -> bool {
    needs(cx.plan).iter().any(|&(f, needed)| f == format && needed) && cx.gpu.supports(format) == support
}

fn fp8(cx: &Context) -> Option<Flag> {
    needs_and(cx, HwFormat::Fp8, Support::No).then(|| {
        let name = &cx.gpu.name;
        Flag::new(FlagId::Fp8Unsupported, Severity::Warn, text::both(Key::FlagFp8, &[("name", name)]))
    })
}

/// MXFP4 on a part without FP4, or NVFP4 on one without NVIDIA's FP4
/// tensor cores (weight-only there: the figures use the 16-bit rate).
fn fp4(cx: &Context) -> Option<Flag> {
    let key = if cx.plan.inference.weights == WeightFormat::Nvfp4 {
        let weight_only = cx.gpu.supports(HwFormat::Fp4) != Support::Unknown
            && tensor_path(cx.gpu, WeightFormat::Nvfp4) != TensorPath::Fp4;
        (cx.plan.task == Task::Infer && weight_only).then_some(Key::FlagNvfp4)?
    } else {
        needs_and(cx, HwFormat::Fp4, Support::No).then_some(Key::FlagFp4)?
    };
    let name = &cx.gpu.name;
    Some(Flag::new(FlagId::Fp4Unsupported, Severity::Warn, text::both(key, &[("name", name)])))
}

fn bf16(cx: &Context) -> Option<Flag> {
    needs_and(cx, HwFormat::Bf16, Support::No).then(|| {
        let name = &cx.gpu.name;
        Flag::new(FlagId::Bf16Unsupported, Severity::Warn, text::both(Key::FlagBf16, &[("name", name)]))
    })
}

fn precision_unverified(cx: &Context) -> Option<Flag> {
    let (format, _) =
        needs(cx.plan).into_iter().find(|&(f, needed)| needed && cx.gpu.supports(f) == Support::Unknown)?;
    let f = match format {
        HwFormat::Bf16 => "BF16",
        HwFormat::Fp8 => "FP8",
        HwFormat::Fp4 => "FP4",
    };
    let name = &cx.gpu.name;
    Some(Flag::new(
        FlagId::PrecisionUnverified,
        Severity::Info,
        text::both(Key::FlagPrecisionUnverified, &[("name", name), ("format", &f)]),
    ))
}

fn geforce_licence(cx: &Context) -> Option<Flag> {
    (cx.hosted && cx.gpu.class == GpuClass::Geforce)
        .then(|| Flag::new(FlagId::GeforceLicence, Severity::Warn, text::both(Key::FlagGeforceLicence, &[])))
}

fn no_ecc(cx: &Context) -> Option<Flag> {
    if cx.gpu.ecc {
        return None;
    }
    let long = match cx.plan.task {
        Task::Train => cx.training_hours.is_none_or(|h| h >= LONG_RUN_HOURS),
        Task::Infer => cx.plan.inference.target_qps > 0.0,
    };
    long.then(|| {
        let name = &cx.gpu.name;
        Flag::new(FlagId::NoEcc, Severity::Warn, text::both(Key::FlagNoEcc, &[("name", name)]))
    })
}

fn cuda_12_only(cx: &Context) -> Option<Flag> {
    let cc = cx.gpu.cuda_capability()?;
    (cc < (7, 5)).then(|| {
        let name = &cx.gpu.name;
        Flag::new(FlagId::Cuda12Only, Severity::Info, text::both(Key::FlagCuda12Only, &[("name", name)]))
    })
}

fn cuda_12_8(cx: &Context) -> Option<Flag> {
    let (major, _) = cx.gpu.cuda_capability()?;
    (major == 12).then(|| {
        let name = &cx.gpu.name;
        Flag::new(FlagId::Cuda128, Severity::Info, text::both(Key::FlagCuda128, &[("name", name)]))
    })
}

fn stack(cx: &Context) -> Option<Flag> {
    let name = &cx.gpu.name;
    match cx.gpu.stack {
        Stack::Cuda => None,
        Stack::Rocm => {
            Some(Flag::new(FlagId::RocmStack, Severity::Warn, text::both(Key::FlagRocm, &[("name", name)])))
        }
        Stack::Cann => {
            Some(Flag::new(FlagId::CannStack, Severity::Warn, text::both(Key::FlagCann, &[("name", name)])))
        }
    }
}

fn near_limit(cx: &Context) -> Option<Flag> {
    let opt = cx.option?;
    let used = opt.used_share();
    (used > NEAR_LIMIT).then(|| {
        let p = crate::derivation::fixed(used * 100.0, 1);
        let vllm = cx.plan.task == Task::Infer && cx.plan.inference.engine.pools();
        let key = if vllm { Key::FlagNearLimitVllm } else { Key::FlagNearLimit };
        Flag::new(FlagId::NearLimit, Severity::Warn, text::both(key, &[("p", &p)]))
    })
}

fn multi_node(cx: &Context) -> Option<Flag> {
    let net = cx.network?;
    Some(Flag::new(FlagId::MultiNode, Severity::Warn, bi!(net.zh.clone(), net.en.clone())))
}

fn specs_unverified(cx: &Context) -> Option<Flag> {
    let g = cx.gpu;
    g.unverified.then(|| {
        let fields = g.unverified_fields.join(", ");
        Flag::new(
            FlagId::SpecsUnverified,
            Severity::Info,
            text::each(|lang| {
                text::fill(
                    Key::FlagSpecsUnverified,
                    lang,
                    &[("gpu", &g.name), ("fields", &fields), ("notes", &g.notes_in(lang))],
                )
            }),
        )
    })
}

/// A verified row's note (an unverified row's is in [`specs_unverified`]).
fn catalog_note(cx: &Context) -> Option<Flag> {
    let g = cx.gpu;
    let noted = !(g.notes.is_empty() && g.notes_zh.is_empty());
    (!g.unverified && noted).then(|| {
        Flag::new(
            FlagId::CatalogNote,
            Severity::Info,
            text::each(|lang| {
                text::fill(Key::FlagCatalogNote, lang, &[("gpu", &g.name), ("notes", &g.notes_in(lang))])
            }),
        )
    })
}

impl FitOption {
    /// GPUs that exchange data every layer or step: the tensor-parallel group,
    /// or every rank of a fully sharded (ZeRO-3 / FSDP) group.
    pub(crate) fn fast_link_group(&self) -> u32 {
        match self.strategy {
            Strategy::Zero3 | Strategy::Fsdp | Strategy::TensorFsdp => self.gpus,
            _ => self.tp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::find;
    use crate::plan::Shard;

    fn option(strategy: Strategy, gpus: u32, tp: u32, used: f64) -> FitOption {
        let usable = 10_000_000_000u64;
        FitOption {
            strategy,
            gpus,
            tp,
            pp: 1,
            shard: Shard::None,
            per_gpu_bytes: (usable as f64 * used) as u64,
            usable_bytes: usable,
            headroom: 1.0 - used,
            nodes: 1,
        }
    }

    fn ids(plan: &Plan, gpu: &str, opt: Option<&FitOption>, hours: Option<f64>) -> Vec<FlagId> {
        let cx = Context {
            plan,
            gpu: find(gpu).expect("gpu"),
            option: opt,
            network: None,
            max_gpus: 64,
            hosted: true,
            training_hours: hours,
        };
        flags(&cx).into_iter().map(|f| f.id).collect()
    }

    fn infer(weights: WeightFormat) -> Plan {
        let mut p = Plan::default();
        p.inference.weights = weights;
        p
    }

    fn train() -> Plan {
        Plan { task: Task::Train, ..Plan::default() }
    }

    #[test]
    fn no_fit_blocks_only_when_nothing_fits() {
        let p = infer(WeightFormat::Bf16);
        assert!(ids(&p, "h100-sxm", None, None).contains(&FlagId::NoFit));
        let one = option(Strategy::Single, 1, 1, 0.5);
        assert!(!ids(&p, "h100-sxm", Some(&one), None).contains(&FlagId::NoFit));
    }

    #[test]
    fn tensor_parallel_over_pcie_wants_nvlink() {
        let p = infer(WeightFormat::Bf16);
        let tp2 = option(Strategy::TensorParallel, 2, 2, 0.5);
        assert!(ids(&p, "l40s", Some(&tp2), None).contains(&FlagId::NeedsFastLink));
        assert!(!ids(&p, "h100-sxm", Some(&tp2), None).contains(&FlagId::NeedsFastLink));
        // A bridged pair is fine if fitted; four cards outgrow the bridge.
        let bridged = ids(&p, "a100-80-pcie", Some(&tp2), None);
        assert!(bridged.contains(&FlagId::BridgeCheck) && !bridged.contains(&FlagId::NeedsFastLink));
        let tp4 = option(Strategy::TensorParallel, 4, 4, 0.5);
        assert!(ids(&p, "a100-80-pcie", Some(&tp4), None).contains(&FlagId::NeedsFastLink));
        // Pipeline stages and ZeRO-1 do not need it; FSDP does.
        let pp = option(Strategy::Pipeline, 2, 1, 0.5);
        assert!(!ids(&p, "l40s", Some(&pp), None).contains(&FlagId::NeedsFastLink));
        let t = train();
        let z1 = option(Strategy::Zero1, 4, 1, 0.5);
        assert!(!ids(&t, "l40s", Some(&z1), Some(1.0)).contains(&FlagId::NeedsFastLink));
        let fsdp = option(Strategy::Fsdp, 4, 1, 0.5);
        assert!(ids(&t, "rtx-4090", Some(&fsdp), Some(1.0)).contains(&FlagId::NeedsFastLink));
    }

    #[test]
    fn precision_flags_follow_the_plan_and_the_part() {
        let one = option(Strategy::Single, 1, 1, 0.5);
        let fp8 = infer(WeightFormat::Fp8);
        assert!(ids(&fp8, "a100-80-sxm", Some(&one), None).contains(&FlagId::Fp8Unsupported));
        assert!(!ids(&fp8, "h100-sxm", Some(&one), None).contains(&FlagId::Fp8Unsupported));
        assert!(ids(&fp8, "ascend-910b", Some(&one), None).contains(&FlagId::PrecisionUnverified));
        let fp4 = infer(WeightFormat::Mxfp4);
        assert!(ids(&fp4, "h100-sxm", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        assert!(!ids(&fp4, "b200", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        assert!(!ids(&fp4, "mi355x", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        // NVFP4 is NVIDIA's: weight-only on Hopper and on MI355X's MX cores.
        let nvfp4 = infer(WeightFormat::Nvfp4);
        assert!(ids(&nvfp4, "h100-sxm", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        assert!(ids(&nvfp4, "mi355x", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        assert!(!ids(&nvfp4, "b200", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        assert!(!ids(&nvfp4, "rtx-pro-6000", Some(&one), None).contains(&FlagId::Fp4Unsupported));
        let bf16 = infer(WeightFormat::Bf16);
        assert!(ids(&bf16, "t4", Some(&one), None).contains(&FlagId::Bf16Unsupported));
        assert!(
            !ids(&infer(WeightFormat::GgufQ4KM), "t4", Some(&one), None).contains(&FlagId::Bf16Unsupported)
        );
        assert!(ids(&train(), "v100-sxm2", Some(&one), Some(1.0)).contains(&FlagId::Bf16Unsupported));
        assert!(!ids(&bf16, "a10", Some(&one), None).contains(&FlagId::Bf16Unsupported));
    }

    #[test]
    #[cfg(not(any(feature = "zh", feature = "en")))]
    fn geforce_licence_only_for_hosted_geforce() {
        let p = infer(WeightFormat::Bf16);
        let one = option(Strategy::Single, 1, 1, 0.5);
        assert!(ids(&p, "rtx-4090", Some(&one), None).contains(&FlagId::GeforceLicence));
        assert!(!ids(&p, "rtx-6000-ada", Some(&one), None).contains(&FlagId::GeforceLicence));
        let cx = Context {
            plan: &p,
            gpu: find("rtx-4090").expect("gpu"),
            option: Some(&one),
            network: None,
            max_gpus: 64,
            hosted: false,
            training_hours: None,
        };
        assert!(!flags(&cx).iter().any(|f| f.id == FlagId::GeforceLicence));
        let text = geforce_licence(&Context { hosted: true, ..cx }).expect("flag");
        assert!(text.zh.contains("不构成法律意见") && text.en.contains("not legal advice"));
    }

    #[test]
    fn no_ecc_for_long_runs_and_services_only() {
        let one = option(Strategy::Single, 1, 1, 0.5);
        let t = train();
        assert!(ids(&t, "rtx-4090", Some(&one), Some(30.0)).contains(&FlagId::NoEcc));
        assert!(ids(&t, "rtx-4090", Some(&one), None).contains(&FlagId::NoEcc));
        assert!(!ids(&t, "rtx-4090", Some(&one), Some(2.0)).contains(&FlagId::NoEcc));
        assert!(!ids(&t, "l40s", Some(&one), Some(30.0)).contains(&FlagId::NoEcc));
        let mut service = infer(WeightFormat::Bf16);
        assert!(!ids(&service, "rtx-4090", Some(&one), None).contains(&FlagId::NoEcc));
        service.inference.target_qps = 5.0;
        assert!(ids(&service, "rtx-4090", Some(&one), None).contains(&FlagId::NoEcc));
    }

    #[test]
    fn cuda_and_stack_rules_pick_their_parts() {
        let p = infer(WeightFormat::GgufQ4KM);
        let one = option(Strategy::Single, 1, 1, 0.5);
        let has = |gpu: &str, id: FlagId| ids(&p, gpu, Some(&one), None).contains(&id);
        assert!(has("v100-sxm2", FlagId::Cuda12Only));
        assert!(!has("t4", FlagId::Cuda12Only));
        assert!(has("rtx-5090", FlagId::Cuda128) && has("rtx-pro-6000", FlagId::Cuda128));
        assert!(!has("b200", FlagId::Cuda128) && !has("rtx-4090", FlagId::Cuda128));
        assert!(has("mi300x", FlagId::RocmStack) && !has("h100-sxm", FlagId::RocmStack));
        assert!(has("ascend-910b", FlagId::CannStack) && !has("mi300x", FlagId::CannStack));
    }

    #[test]
    fn near_limit_fires_above_90_percent_of_usable() {
        let p = infer(WeightFormat::Bf16);
        let tight = option(Strategy::Single, 1, 1, 0.95);
        let easy = option(Strategy::Single, 1, 1, 0.85);
        assert!(ids(&p, "h100-sxm", Some(&tight), None).contains(&FlagId::NearLimit));
        assert!(!ids(&p, "h100-sxm", Some(&easy), None).contains(&FlagId::NearLimit));
    }

    #[test]
    #[cfg(not(any(feature = "zh", feature = "en")))]
    fn unverified_specs_are_shown_with_their_fields() {
        let p = infer(WeightFormat::GgufQ4KM);
        let one = option(Strategy::Single, 1, 1, 0.5);
        assert!(ids(&p, "h20", Some(&one), None).contains(&FlagId::SpecsUnverified));
        assert!(!ids(&p, "a100-80-sxm", Some(&one), None).contains(&FlagId::SpecsUnverified));
        let cx = Context {
            plan: &p,
            gpu: find("rtx-4090").expect("gpu"),
            option: Some(&one),
            network: None,
            max_gpus: 64,
            hosted: true,
            training_hours: None,
        };
        let f = specs_unverified(&cx).expect("flag");
        assert!(f.en.contains("bf16_tflops") && f.zh.contains("未经核实"), "{}", f.en);
    }

    #[test]
    #[cfg(not(any(feature = "zh", feature = "en")))]
    fn a_verified_rows_note_is_shown() {
        let p = infer(WeightFormat::Bf16);
        let one = option(Strategy::Single, 1, 1, 0.5);
        let cx = |id| Context {
            plan: &p,
            gpu: find(id).expect("gpu"),
            option: Some(&one),
            network: None,
            max_gpus: 64,
            hosted: true,
            training_hours: None,
        };
        let f = catalog_note(&cx("rtx-pro-6000")).expect("flag");
        assert!(f.en.contains("= 53 % of an H100 SXM") && f.zh.contains("53 %"), "{}", f.en);
        assert!(catalog_note(&cx("h100-pcie")).is_none(), "no note");
        assert!(catalog_note(&cx("h20")).is_none(), "unverified rows show theirs with their fields");
    }

    #[test]
    fn flags_come_most_severe_first() {
        let p = infer(WeightFormat::Bf16);
        let cx = Context {
            plan: &p,
            gpu: find("rtx-5090").expect("gpu"),
            option: None,
            network: None,
            max_gpus: 64,
            hosted: true,
            training_hours: None,
        };
        let all = flags(&cx);
        assert_eq!(all.first().map(|f| f.id), Some(FlagId::NoFit));
        assert!(all.windows(2).all(|w| w[0].severity >= w[1].severity));
    }
}
