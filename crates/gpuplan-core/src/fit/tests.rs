//! Fit search tests with a stand-in memory model whose numbers are easy to
//! follow by hand, so they test the search and not the memory engine.

use std::cell::Cell;

use proptest::prelude::{any, prop_assert, proptest};

use super::*;
use crate::error::Problem;
use crate::hardware::find;
use crate::memory::{Component, Components};
use crate::model::WeightFormat;
use crate::model::{Arch, ModelSpec};
use crate::plan::Training;

const GB: f64 = 1e9;

fn part(bytes: f64) -> Component {
    Component { bytes: bytes as u64, derivation: String::new(), source: "test" }
}

/// Inference: weights and KV split over tp × pp, plus 1 GB workspace per GPU.
/// Training (mixed-precision Adam, 16 B/param): the ZeRO formulas of
/// reference memory.md, split over tp × pp, plus 2 GB activations per GPU.
fn toy(params: f64, kv_per_token: f64) -> impl FnMut(&Plan) -> Result<MemoryResult, Vec<FieldError>> {
    move |plan: &Plan| {
        let p = &plan.parallel;
        let split = f64::from(p.tp * p.pp);
        let c = match plan.task {
            Task::Infer => {
                let bpp = match plan.inference.weights {
                    WeightFormat::Bf16 => 2.0,
                    WeightFormat::Fp8 => 1.0,
                    _ => 0.5,
                };
                let tokens = (plan.inference.context * plan.inference.concurrency) as f64;
                Components {
                    weights: part(params * bpp / split),
                    kv_cache: part(tokens * kv_per_token / split),
                    workspace: part(GB),
                    ..Components::default()
                }
            }
            Task::Train => {
                let n = f64::from(p.dp());
                let m = params / split;
                let (w, g, o) = match p.shard {
                    Shard::None => (2.0 * m, 2.0 * m, 12.0 * m),
                    Shard::Zero1 => (2.0 * m, 2.0 * m, 12.0 * m / n),
                    Shard::Zero2 => (2.0 * m, 2.0 * m / n, 12.0 * m / n),
                    Shard::Zero3 | Shard::Fsdp => (2.0 * m / n, 2.0 * m / n, 12.0 * m / n),
                };
                Components {
                    weights: part(w),
                    gradients: part(g),
                    optimizer: part(o),
                    activations: part(2.0 * GB),
                    ..Components::default()
                }
            }
        };
        let total = [&c.weights, &c.gradients, &c.optimizer, &c.activations, &c.kv_cache, &c.workspace]
            .iter()
            .map(|x| x.bytes)
            .sum();
        Ok(MemoryResult { per_gpu_bytes: total, components: c, ..MemoryResult::default() })
    }
}

fn model(heads: u32, layers: u32) -> ModelSpec {
    ModelSpec::Custom { arch: Arch { heads, kv_heads: 8, layers, ..Arch::default() } }
}

fn infer(heads: u32, layers: u32, weights: WeightFormat) -> Plan {
    let mut p = Plan { model: model(heads, layers), ..Plan::default() };
    p.inference.weights = weights;
    p.inference.context = 4096;
    p
}

fn row<'a>(r: &'a FitReport, id: &str) -> &'a GpuFit {
    r.rows.iter().find(|g| g.gpu_id == id).expect("row")
}

fn best(r: &FitReport, id: &str) -> FitOption {
    row(r, id).best.clone().expect("fits")
}

fn run(plan: &Plan, params: f64, kv: f64) -> FitReport {
    fit_with(plan, &FitOptions::default(), Some(ModelSize::dense(params)), toy(params, kv)).expect("valid")
}

#[test]
fn usable_memory_subtracts_headroom_ecc_and_the_vllm_pool_gap() {
    let mut plan = Plan::default();
    let h100 = usable(find("h100-sxm").expect("gpu"), &plan);
    assert_eq!(h100.nominal_bytes, 80_000_000_000);
    assert_eq!(h100.ecc_bytes, 0);
    assert_eq!(h100.bytes, 72_000_000_000);
    // L4: GDDR6 with ECC keeps 1/16: 24e9 × 15/16 = 22.5e9, less 10 % = 20.25e9.
    let l4 = usable(find("l4").expect("gpu"), &plan);
    assert_eq!(l4.ecc_bytes, 1_500_000_000);
    assert_eq!(l4.bytes, 20_250_000_000);
    assert!(l4.derivation.contains("ECC"), "{}", l4.derivation);
    // No ECC on GeForce; GDDR7 ECC is not assumed to cost capacity.
    assert_eq!(usable(find("rtx-4090").expect("gpu"), &plan).ecc_bytes, 0);
    assert_eq!(usable(find("rtx-pro-6000").expect("gpu"), &plan).ecc_bytes, 0);
    // vLLM at 0.8 keeps 20 %, more than the 10 % headroom.
    plan.inference.gpu_mem_util = 0.8;
    let pooled = usable(find("h100-sxm").expect("gpu"), &plan);
    assert_eq!(pooled.bytes, 64_000_000_000);
    assert!(pooled.derivation.contains("gpu_memory_utilization"));
    plan.task = Task::Train;
    plan.hardware.headroom_pct = 25.0;
    assert_eq!(usable(find("h100-sxm").expect("gpu"), &plan).bytes, 60_000_000_000);
}

#[test]
fn seed_7b_fp16_inference_fits_one_24gb_card() {
    // Seed 001/002: 7B in FP16 is about 14 GB of weights; 24 GB is comfortable.
    // Stand-in: 14 GB + 4096 × 131,072 B KV (0.54 GB) + 1 GB = 15.5 GB.
    let r = run(&infer(32, 32, WeightFormat::Bf16), 7e9, 131_072.0);
    let b = best(&r, "rtx-4090");
    assert_eq!((b.strategy, b.gpus, b.nodes), (Strategy::Single, 1, 1));
    assert_eq!(row(&r, "rtx-4090").lower_bound.gpus, 1);
    assert!(b.headroom > 0.2 && b.headroom < 0.35, "{}", b.headroom);
    // 16 GB cards (T4: 15e9 × 0.9 = 13.5e9 usable) need a split.
    assert!(best(&r, "t4").gpus > 1);
}

#[test]
fn seed_70b_bf16_needs_more_than_one_80gb_card() {
    // 70B × 2 B = 140 GB of weights: the count is set by the per-GPU result
    // of each layout, at least the lower bound ⌈141.5 / 72⌉ = 2.
    let r = run(&infer(64, 80, WeightFormat::Bf16), 70e9, 327_680.0);
    let h = row(&r, "h100-sxm");
    assert_eq!(h.lower_bound.gpus, 2);
    let b = h.best.clone().expect("fits");
    // tp 2: 70 + 0.67 + 1 = 71.7 GB ≤ 72 GB, but within 10 % of the limit.
    assert_eq!((b.strategy, b.gpus, b.tp), (Strategy::TensorParallel, 2, 2));
    assert!(h.flags.iter().any(|f| f.id == FlagId::NearLimit));
    assert!(!h.flags.iter().any(|f| f.id == FlagId::NeedsFastLink));
    // In FP8 the weights are 70 GB: one H200 (126.9 GB usable) suffices.
    let fp8 = run(&infer(64, 80, WeightFormat::Fp8), 70e9, 327_680.0);
    assert_eq!(best(&fp8, "h200-sxm").gpus, 1);
    assert_eq!(best(&fp8, "h100-sxm").gpus, 2);
}

#[test]
fn pcie_parts_prefer_pipeline_stages_over_tensor_parallel() {
    let r = run(&infer(32, 32, WeightFormat::Bf16), 30e9, 131_072.0);
    // 60 GB of weights on L40S (48e9 × 15/16 × 0.9 = 40.5e9 usable): 2 GPUs.
    let l40s = row(&r, "l40s");
    let b = l40s.best.clone().expect("fits");
    assert_eq!((b.strategy, b.gpus), (Strategy::Pipeline, 2));
    assert!(l40s.options.iter().any(|o| o.strategy == Strategy::TensorParallel && o.gpus == 2));
    assert!(!l40s.flags.iter().any(|f| f.id == FlagId::NeedsFastLink));
    // With NVLink the same count uses tensor parallel.
    assert_eq!(best(&r, "a100-40-sxm").strategy, Strategy::TensorParallel);
}

/// llama.cpp splits by layers by default (pipeline stages) and by rows only
/// when asked: at equal count, layers first even over NVLink, and never both.
#[test]
fn llama_cpp_prefers_its_layer_split_and_never_combines_splits() {
    let mut plan = infer(32, 32, WeightFormat::Bf16);
    plan.inference.engine = crate::plan::Engine::LlamaCpp;
    let r = run(&plan, 30e9, 131_072.0);
    let b = best(&r, "a100-40-sxm");
    assert_eq!((b.strategy, b.gpus), (Strategy::Pipeline, 2));
    let split = crate::serving::LlamaSplit::of(&plan, &b.parallel());
    assert_eq!(split, Some(crate::serving::LlamaSplit::Layer));
    assert!(r.rows.iter().flat_map(|g| &g.options).all(|o| o.strategy != Strategy::TensorPipeline));
}

#[test]
fn tensor_parallel_degrees_divide_the_heads_and_stay_in_one_server() {
    let plan = infer(40, 48, WeightFormat::Bf16);
    let lad = ladders(&plan, 64);
    let tp = lad.iter().find(|l| l.strategy == Strategy::TensorParallel).expect("tp");
    let degrees: Vec<u32> = tp.layouts.iter().map(|p| p.tp).collect();
    assert_eq!(degrees, [2, 4, 5, 8]);
    let tpp = lad.iter().find(|l| l.strategy == Strategy::TensorPipeline).expect("tp+pp");
    assert!(tpp.layouts.iter().all(|p| p.tp == 8 && p.gpus == 8 * p.pp && p.gpus <= 64));
    assert!(lad.iter().all(|l| l.strategy != Strategy::Fsdp), "inference has no ZeRO ladders");
}

#[test]
fn multi_node_counts_servers_and_names_the_network() {
    // 405B in BF16: 810 GB of weights on 72 GB H100s.
    let r = run(&infer(128, 126, WeightFormat::Bf16), 405e9, 0.0);
    let h = row(&r, "h100-sxm");
    let b = h.best.clone().expect("fits");
    assert_eq!(h.lower_bound.gpus, 12);
    // Pipeline of 12: 67.5 + 1 GB per stage fits; TP groups top out at 8.
    assert_eq!((b.strategy, b.gpus, b.nodes), (Strategy::Pipeline, 12, 2));
    let net = h.network.clone().expect("network");
    assert_eq!(net.kind, NetworkKind::Private);
    assert!(h.flags.iter().any(|f| f.id == FlagId::MultiNode));
    // GB200 (167.4 GB usable) at 4 GPUs per tray: 5 stages span 2 trays, but
    // its NVLink domain spans the rack, so the trays talk over NVLink.
    let mut trays = infer(128, 126, WeightFormat::Bf16);
    trays.hardware.gpus_per_node = 4;
    let g = row(&run(&trays, 405e9, 0.0), "gb200").clone();
    assert_eq!(g.best.map(|b| (b.gpus, b.nodes)), Some((5, 2)));
    assert_eq!(g.network.map(|n| n.kind), Some(NetworkKind::Fabric));
}

#[test]
fn training_tries_zero_stages_and_reports_the_seed_002_time() {
    let mut plan = Plan { task: Task::Train, model: model(32, 32), ..Plan::default() };
    plan.training = Training { dataset_tokens: 1e9, mfu: Some(0.6), ..Training::default() };
    // 7B × 16 B = 112 GB + 2 GB: no single 80 GB card. On A100 80GB (72e9):
    // ZeRO-1 4P + 12P/N = 28 + 84/N + 2 ≤ 72 → N = 2; FSDP 112/N + 2 → N = 2.
    let r = run(&plan, 7e9, 0.0);
    let a = row(&r, "a100-80-sxm");
    let b = a.best.clone().expect("fits");
    assert_eq!((b.strategy, b.gpus), (Strategy::Zero1, 2));
    assert!(a.options.iter().any(|o| o.strategy == Strategy::Fsdp && o.gpus == 2));
    // 6 × 7e9 × 1e9 over 2 A100s at 312 TFLOPS and 60 %: 31.2 h.
    let t = a.speed.clone().and_then(|s| s.training).expect("time");
    assert!((t.hours.value - 31.16).abs() < 0.01, "{}", t.hours.value);
    // A small model trains on one GPU; a 1.5 B model fits one H100 (24 + 2 GB).
    let small = run(&plan, 1.5e9, 0.0);
    assert_eq!(best(&small, "h100-sxm").strategy, Strategy::Single);
}

#[test]
fn nothing_fits_goes_last_with_a_block_flag() {
    let r = run(&infer(64, 80, WeightFormat::Bf16), 2e12, 0.0);
    let t4 = row(&r, "t4");
    assert!(t4.best.is_none());
    assert_eq!(t4.flags.first().map(|f| f.id), Some(FlagId::NoFit));
    let first_blocked = r.rows.iter().position(|g| g.best.is_none()).expect("some do not fit");
    assert!(r.rows.iter().skip(first_blocked).all(|g| g.best.is_none()), "fitting rows come first");
}

#[test]
fn ranking_puts_fewer_gpus_and_fewer_warnings_first() {
    let r = run(&infer(32, 32, WeightFormat::Bf16), 7e9, 131_072.0);
    let keys: Vec<_> = r.rows.iter().map(rank).collect();
    assert!(keys.windows(2).all(|w| w[0].partial_cmp(&w[1]) != Some(std::cmp::Ordering::Greater)));
    // GeForce licence and the no-ECC service rule push the RTX 4090 below
    // datacenter cards that fit on one GPU with no warning.
    let pos = |id: &str| r.rows.iter().position(|g| g.gpu_id == id).expect("row");
    assert!(pos("h100-sxm") < pos("rtx-4090"));
}

#[test]
fn the_custom_gpu_gets_a_row_and_unknown_ids_are_rejected() {
    let mut plan = infer(32, 32, WeightFormat::Bf16);
    let custom = Gpu { id: "my-card".into(), memory_gb: 20.0, ..Gpu::default() };
    plan.hardware.custom = Some(custom);
    plan.hardware.gpu = "my-card".into();
    let r = run(&plan, 7e9, 131_072.0);
    let mine = row(&r, "my-card");
    assert!(mine.custom && mine.chosen);
    assert_eq!(mine.best.clone().map(|b| b.gpus), Some(1));
    // The alias "custom" names the plan's own GPU whatever its id; a custom
    // GPU that shares a catalog id is the one chosen, not both.
    plan.hardware.gpu = "custom".into();
    let r = run(&plan, 7e9, 131_072.0);
    assert!(row(&r, "my-card").chosen);
    assert_eq!(r.rows.iter().filter(|g| g.chosen).count(), 1);
    plan.hardware.custom = Some(Gpu { id: "h100-sxm".into(), memory_gb: 20.0, ..Gpu::default() });
    plan.hardware.gpu = "h100-sxm".into();
    let r = run(&plan, 7e9, 131_072.0);
    let chosen: Vec<_> = r.rows.iter().filter(|g| g.chosen).collect();
    assert!(chosen.len() == 1 && chosen[0].custom);
    plan.hardware.gpu = "no-such-gpu".into();
    let errs = fit_with(&plan, &FitOptions::default(), None, toy(7e9, 0.0)).expect_err("unknown");
    assert_eq!(errs[0].field, "hardware.gpu");
}

#[test]
fn invalid_plans_and_engine_errors_come_back_as_field_errors() {
    let mut plan = infer(32, 32, WeightFormat::Bf16);
    plan.hardware.headroom_pct = f64::NAN;
    let errs = fit_with(&plan, &FitOptions::default(), None, toy(7e9, 0.0)).expect_err("invalid");
    assert_eq!(errs[0].field, "hardware.headroom_pct");
    let refuse = |_: &Plan| Err(vec![FieldError::new("model.arch", Problem::NotFinite)]);
    let errs = fit_with(&infer(32, 32, WeightFormat::Bf16), &FitOptions::default(), None, refuse)
        .expect_err("engine error");
    assert_eq!(errs[0].field, "model.arch");
}

/// Once per kind of card vLLM sizes its profile for: its defaults differ on
/// cards of 70 GiB or more, and the catalog has both kinds.
#[test]
fn each_layout_is_estimated_at_most_once_per_kind_of_card() {
    let calls = Cell::new(0usize);
    let mut inner = toy(2e12, 0.0);
    let counting = |p: &Plan| {
        calls.set(calls.get() + 1);
        inner(p)
    };
    let plan = infer(64, 80, WeightFormat::Bf16);
    let r = fit_with(&plan, &FitOptions::default(), None, counting).expect("valid");
    let layouts: usize = ladders(&plan, MAX_GPUS).iter().map(|l| l.layouts.len()).sum();
    assert_eq!(r.rows.len(), catalog().len());
    assert!(calls.get() <= 2 * layouts, "{} calls for {layouts} layouts", calls.get());
}

#[test]
fn speed_comes_with_the_best_option_and_says_what_it_is() {
    let r = run(&infer(32, 32, WeightFormat::Bf16), 7e9, 131_072.0);
    let figures = row(&r, "rtx-4090").speed.clone().and_then(|s| s.inference).expect("speed");
    let s = &figures.bound;
    assert_eq!(s.decode_tps_per_sequence.basis, crate::figure::Basis::UpperBound);
    // Weights 14 GB + KV 131,072 B × (1024 + 128) tokens, at 1.008 TB/s.
    let step = (14e9 + 131_072.0 * 1152.0) / 1.008e12;
    assert!((s.decode_tps_per_sequence.value - 1.0 / step).abs() < 1e-9);
    let generic = Plan { model: ModelSpec::Generic { generic: Default::default() }, ..Plan::default() };
    let g = run(&generic, 2.6e9, 0.0);
    let missing = row(&g, "h100-sxm").speed.clone().and_then(|s| s.missing);
    assert_eq!(missing, Some(crate::speed::Missing::NotTransformer));
}

#[test]
fn sharded_ladders_are_bisected_and_pipelines_scanned() {
    let calls = Cell::new(0usize);
    let mut inner = toy(2e12, 0.0);
    let counting = |p: &Plan| {
        calls.set(calls.get() + 1);
        inner(p)
    };
    // Nothing fits anywhere: each monotone ladder costs one probe (its
    // largest layout), each pipeline ladder is scanned once for all GPUs.
    let plan = Plan { task: Task::Train, model: model(64, 80), ..Plan::default() };
    fit_with(&plan, &FitOptions::default(), None, counting).expect("valid");
    let lad = ladders(&plan, MAX_GPUS);
    let scanned: usize = lad.iter().filter(|l| !l.strategy.monotone()).map(|l| l.layouts.len()).sum();
    let bisected = lad.iter().filter(|l| l.strategy.monotone()).count();
    assert_eq!(calls.get(), scanned + bisected);
}

proptest! {
    #[test]
    fn best_fits_and_never_undercuts_the_lower_bound(
        params in 1e8f64..2e12,
        train in any::<bool>(),
        headroom in 0.0f64..40.0,
    ) {
        let mut plan = infer(64, 80, WeightFormat::Bf16);
        plan.hardware.headroom_pct = headroom;
        if train {
            plan.task = Task::Train;
        }
        let r = run(&plan, params, 327_680.0);
        for g in &r.rows {
            if let Some(b) = &g.best {
                prop_assert!(b.per_gpu_bytes <= g.usable.bytes);
                prop_assert!(u64::from(b.gpus) >= g.lower_bound.gpus);
                prop_assert!(g.options.iter().all(|o| o.gpus >= b.gpus));
                prop_assert!(b.headroom.is_finite() && (0.0..=1.0).contains(&b.headroom));
                // No smaller layout of the same strategy fits (checks the bisection).
                let mut engine = toy(params, 327_680.0);
                let lad = ladders(&plan, MAX_GPUS);
                for o in &g.options {
                    let ladder = lad.iter().find(|l| l.strategy == o.strategy).expect("ladder");
                    for p in ladder.layouts.iter().filter(|p| p.gpus < o.gpus) {
                        let smaller = engine(&Plan { parallel: p.clone(), ..plan.clone() }).expect("toy");
                        prop_assert!(smaller.per_gpu_bytes > g.usable.bytes);
                    }
                }
            } else {
                prop_assert!(g.flags.iter().any(|f| f.id == FlagId::NoFit));
            }
        }
    }
}
