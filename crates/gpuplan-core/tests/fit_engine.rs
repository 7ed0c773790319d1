//! The fit search on the real memory engine: the seeds' worked examples,
//! and the property the search's bisection relies on.

use gpuplan_core::fit::{fit, FitOptions, FitReport, GpuFit, Strategy};
use gpuplan_core::memory::estimate_on;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::plan::{Method, Parallel, Plan, Shard, Task};
use proptest::prelude::*;

fn preset(id: &str) -> ModelSpec {
    ModelSpec::Preset { id: id.into() }
}

fn row<'a>(r: &'a FitReport, id: &str) -> &'a GpuFit {
    r.rows.iter().find(|g| g.gpu_id == id).expect("row")
}

#[test]
fn seed_7b_fp16_inference_fits_one_24gb_card() {
    // Seeds 001/002: a 7B model in FP16 is about 14 GB of weights; 24 GB is comfortable.
    let mut plan = Plan { model: preset("mistral-7b"), ..Plan::default() };
    plan.inference.weights = WeightFormat::Bf16;
    plan.inference.context = 4096;
    let r = fit(&plan, &FitOptions::default()).expect("valid");
    for id in ["rtx-4090", "rtx-3090", "l4", "a10"] {
        let b = row(&r, id).best.clone().expect("fits");
        assert_eq!((b.gpus, b.strategy), (1, Strategy::Single), "{id}");
    }
    assert!(row(&r, "rtx-4090").best.as_ref().is_some_and(|b| b.per_gpu_bytes > 14_000_000_000));
}

#[test]
fn seed_70b_bf16_needs_more_than_one_80gb_card() {
    let mut plan = Plan { model: preset("llama-3.1-70b"), ..Plan::default() };
    plan.inference.weights = WeightFormat::Bf16;
    let r = fit(&plan, &FitOptions::default()).expect("valid");
    for id in ["h100-sxm", "a100-80-sxm", "h100-pcie"] {
        let g = row(&r, id);
        assert!(g.lower_bound.gpus >= 2, "{id}");
        let b = g.best.clone().expect("fits");
        assert!(b.gpus >= 2 && u64::from(b.gpus) >= g.lower_bound.gpus, "{id}: {b:?}");
    }
    // A 141 GB H200 still needs two: 141 GB of weights alone exceed its usable 126.9 GB.
    assert!(row(&r, "h200-sxm").best.as_ref().is_some_and(|b| b.gpus == 2));
}

#[test]
fn seed_70b_fp8_is_about_70_gb_of_weights() {
    // Seed 004: 70B needs about 140 GB in BF16 and about 70 GB in FP8.
    let mut plan = Plan { model: preset("llama-3.1-70b"), ..Plan::default() };
    plan.inference.weights = WeightFormat::Fp8;
    let m = estimate_on(&plan, None).expect("valid");
    let w = m.components.weights.bytes as f64 / 1e9;
    assert!((68.0..76.0).contains(&w), "{w} GB");
    let r = fit(&plan, &FitOptions::default()).expect("valid");
    assert_eq!(row(&r, "h200-sxm").best.as_ref().map(|b| b.gpus), Some(1));
    assert_eq!(row(&r, "h100-sxm").best.as_ref().map(|b| b.gpus), Some(2));
}

#[test]
fn fit_reports_speed_from_the_engine_parameter_counts() {
    let mut plan = Plan { task: Task::Train, model: preset("llama-3.1-8b"), ..Plan::default() };
    plan.training.method = Method::Lora;
    plan.training.dataset_tokens = 1e9;
    plan.training.mfu = Some(0.6);
    let r = fit(&plan, &FitOptions::default()).expect("valid");
    let a100 = row(&r, "a100-80-sxm");
    let b = a100.best.clone().expect("LoRA 8B fits one A100 80GB");
    assert_eq!(b.gpus, 1);
    // LoRA skips the frozen base's weight gradients: (4 × 8.03e9 + 6 × 41.9e6 adapters)
    // × 1e9 ÷ (312e12 × 0.6) = 48.0 h, not 6·P·D's 71.5 h.
    let hours = a100.speed.as_ref().and_then(|s| s.training.as_ref()).map(|t| t.hours.value);
    assert!(hours.is_some_and(|h| (h - 48.04).abs() < 0.05), "{hours:?}");
}

/// The layouts the search bisects: per-GPU need must never rise with the count.
fn sharded(shard: Shard, tp: u32, n: u32) -> Parallel {
    Parallel { gpus: tp * n, tp, pp: 1, shard }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn sharded_need_never_rises_with_more_gpus(
        model in prop::sample::select(vec!["llama-3.1-8b", "llama-3.1-70b", "qwen3-30b-a3b", "gemma-3-27b", "llama-3.2-1b"]),
        method in prop::sample::select(vec![Method::Full, Method::Lora, Method::Qlora]),
        shard in prop::sample::select(vec![Shard::Zero1, Shard::Zero2, Shard::Zero3, Shard::Fsdp]),
        tp in prop::sample::select(vec![1u32, 2]),
        batch in 1u64..8,
    ) {
        let mut plan = Plan { task: Task::Train, model: preset(model), ..Plan::default() };
        plan.training.method = method;
        plan.training.batch = batch;
        let mut prev = u64::MAX;
        for n in 1..=32 {
            plan.parallel = sharded(shard, tp, n);
            let need = estimate_on(&plan, None).expect("valid").per_gpu_bytes;
            prop_assert!(need <= prev, "{model} {method:?} {shard:?} tp {tp}: {n} GPUs need {need} > {prev}");
            prev = need;
        }
    }
}

/// From degree 2 on, where the fit's tensor-parallel ladder starts (and
/// bisects). From one GPU to a group, vLLM adds NCCL and all-reduce buffers
/// (its 0.19 logs: 0.25 GiB alone, 2.07 GiB at TP 2), which can outweigh the
/// halved weights of a model near 1B parameters.
#[test]
fn tensor_parallel_need_never_rises_with_the_degree() {
    for p in gpuplan_core::model::presets::all() {
        for task in [Task::Infer, Task::Train] {
            let mut plan = Plan { task, model: preset(p.id), ..Plan::default() };
            let heads = plan.model.arch().map_or(1, |a| a.heads);
            let mut prev = u64::MAX;
            let first = if task == Task::Infer { 2 } else { 1 };
            for tp in (first..=8).filter(|t| heads.is_multiple_of(*t)) {
                plan.parallel = Parallel { gpus: tp, tp, pp: 1, shard: Shard::None };
                let need = estimate_on(&plan, None).expect("valid").per_gpu_bytes;
                assert!(need <= prev, "{} {task:?}: tp {tp} needs {need} > {prev}", p.id);
                prev = need;
            }
        }
    }
}
