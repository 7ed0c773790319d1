//! Engine-level tests: hand-computed values and the invariants.

use super::*;
use crate::model::{Arch, Generic};
use crate::plan::*;

const GB: f64 = 1e9;

fn infer(engine: Engine, context: u64, concurrency: u64) -> Plan {
    Plan {
        task: Task::Infer,
        inference: Inference { engine, context, concurrency, prompt_tokens: 1, ..Inference::default() },
        ..Plan::default()
    }
}

fn train(method: Method) -> Plan {
    Plan {
        task: Task::Train,
        training: Training { method, batch: 1, seq: 2048, grad_ckpt: GradCkpt::Full, ..Training::default() },
        ..Plan::default()
    }
}

#[test]
fn llama_8b_transformers_inference_by_hand() {
    let r = estimate(&infer(Engine::Transformers, 8192, 1)).unwrap();
    let c = &r.components;
    assert_eq!(c.weights.bytes, 16_060_522_496);
    assert_eq!(c.kv_cache.bytes, 8192 * 131_072);
    assert_eq!((c.gradients.bytes, c.optimizer.bytes, c.activations.bytes), (0, 0, 0));
    assert_eq!(r.per_gpu_bytes, c.total().unwrap());
    assert_eq!(r.peak_kind, PeakKind::Allocated);
    assert!(c.kv_cache.derivation.ends_with("= 1.07 GB"), "{}", c.kv_cache.derivation);
    assert!(!c.weights.source.is_empty() && !c.workspace.source.is_empty());
}

#[test]
fn vllm_reports_the_reservation_beside_the_need() {
    let plan = infer(Engine::Vllm, 8192, 1);
    let r = estimate_on(&plan, Some(80.0 * GB)).unwrap();
    assert_eq!(r.peak_kind, PeakKind::Reserved);
    assert_eq!(r.reserved_bytes, Some(72_000_000_000));
    let c = &r.components;
    // The CUDA context lies outside vLLM's budget.
    let outside = super::runtime::CUDA_CONTEXT as u64;
    let pool = 72_000_000_000 - c.weights.bytes - (c.workspace.bytes - outside);
    assert!(r.kv_pool_bytes.unwrap().abs_diff(pool) <= 1);
    // The need (what must fit) does not depend on the card.
    assert_eq!(r.per_gpu_bytes, estimate_on(&plan, None).unwrap().per_gpu_bytes);
    assert!(r.reserved_derivation.starts_with("util 0.9 × 80.00 GB = 72.00 GB"), "{}", r.reserved_derivation);
    // Without a card there is no reservation to report.
    let open = estimate_on(&plan, None).unwrap();
    assert_eq!(open.reserved_bytes, None);
    assert!(open.notes.iter().any(|n| n.id == "vllm_pool_unknown"));
    // The plan's GPU supplies the memory: a custom one when chosen, else the catalog's.
    let mut on_custom = plan.clone();
    on_custom.hardware.gpu = "custom".into();
    on_custom.hardware.custom = Some(crate::hardware::Gpu { memory_gb: 40.0, ..Default::default() });
    assert_eq!(estimate(&on_custom).unwrap().reserved_bytes, Some(36_000_000_000));
    let h100 = crate::hardware::find("h100-sxm").unwrap().memory_gb * 1e9 * 0.9;
    assert_eq!(estimate(&plan).unwrap().reserved_bytes, Some(h100 as u64));
}

#[test]
fn paged_engines_hold_the_tokens_in_flight_and_others_the_full_context() {
    // 64 requests of 1,024 prompt + 256 output tokens: 1,152 resident on
    // average, 72 blocks of 16; Llama 3 8B keeps 128 KiB per token.
    let mut plan = infer(Engine::Vllm, 8192, 64);
    (plan.inference.prompt_tokens, plan.inference.output_tokens) = (1024, 256);
    let paged = estimate_on(&plan, Some(80.0 * GB)).unwrap();
    assert_eq!(paged.components.kv_cache.bytes, 64 * 1152 * 131_072);
    let mut hf = plan.clone();
    hf.inference.engine = Engine::Transformers;
    assert_eq!(estimate(&hf).unwrap().components.kv_cache.bytes, 64 * 8192 * 131_072);
    // One sequence: room for the full context, or vLLM does not start.
    let one = infer(Engine::Vllm, 8192, 1);
    assert_eq!(estimate_on(&one, Some(80.0 * GB)).unwrap().components.kv_cache.bytes, 8192 * 131_072);
}

#[test]
fn vllm_pool_too_small_is_noted() {
    let mut plan = infer(Engine::Vllm, 131_072, 64);
    (plan.inference.prompt_tokens, plan.inference.output_tokens) = (120_000, 11_072);
    let r = estimate_on(&plan, Some(80.0 * GB)).unwrap();
    assert!(r.per_gpu_bytes > 72_000_000_000);
    assert!(r.kv_pool_bytes.unwrap() < r.components.kv_cache.bytes);
    assert!(r.notes.iter().any(|n| n.id == "vllm_pool_short"));
}

#[test]
fn full_finetune_mixed_adam_is_16_bytes_per_param() {
    // Accumulated gradients stay resident through the next forward: all 16 B count.
    let mut plan = train(Method::Full);
    plan.training.grad_accum = 4;
    let r = estimate(&plan).unwrap();
    let c = &r.components;
    let p = 8_030_261_248.0;
    assert_eq!(c.weights.bytes as f64, 2.0 * p);
    assert_eq!(c.gradients.bytes as f64, 2.0 * p);
    assert_eq!(c.optimizer.bytes as f64, 12.0 * p);
    assert_eq!(r.trainable_params, p);
    let pure = Plan {
        training: Training { precision: Precision::PureBf16, ..train(Method::Full).training },
        ..train(Method::Full)
    };
    assert_eq!(estimate(&pure).unwrap().components.optimizer.bytes as f64, 4.0 * p);
}

#[test]
fn optimizers_by_state_size() {
    let p = 8_030_261_248.0;
    let opt = |o: Optimizer| {
        let mut plan = train(Method::Full);
        plan.training.optimizer = o;
        estimate(&plan).unwrap().components.optimizer.bytes as f64
    };
    assert_eq!(opt(Optimizer::Sgd), 8.0 * p);
    assert_eq!(opt(Optimizer::Lion), 8.0 * p);
    assert!((opt(Optimizer::Adamw8bit) - 6.0 * p).abs() / p < 0.01);
    assert_eq!(opt(Optimizer::PagedAdamw8bit), opt(Optimizer::Adamw8bit));
    // Adafactor: master copy plus factored (rows + cols) statistics, far below one state.
    let ada = opt(Optimizer::Adafactor);
    assert!(ada > 4.0 * p && ada < 4.1 * p, "{}", ada / p);
}

#[test]
fn optimizer_in_backward_drops_the_gradient_buffer() {
    let mut plan = train(Method::Full);
    plan.training.opt_in_bwd = true;
    let g = estimate(&plan).unwrap().components.gradients.bytes;
    // the largest tensor: the 128256 × 4096 embedding, in bf16
    assert_eq!(g, 128_256 * 4096 * 2);
}

#[test]
fn one_micro_batch_makes_gradients_as_the_logits_go() {
    // One micro-batch per step: the 16 GB of bf16 gradients are made in
    // backward, after the loss's logits are freed; the peak counts only what
    // they add over the forward peak.
    let one = estimate(&train(Method::Full)).unwrap();
    let mut accum = train(Method::Full);
    accum.training.grad_accum = 4;
    let four = estimate(&accum).unwrap();
    let g: f64 = 2.0 * 8_030_261_248.0;
    // The last layer's recompute takes the logits' place first: what the
    // gradients can reuse is the logits less that layer.
    let freed = 2048.0 * (128_256.0 * 10.0 - (2.0 * 83_968.0 + 128.0));
    assert_eq!(one.components.gradients.bytes as f64, (g - freed).round());
    assert_eq!(four.components.gradients.bytes as f64, g);
    assert_eq!(four.per_gpu_bytes - one.per_gpu_bytes, freed as u64);
    assert!(one.components.gradients.derivation.contains("made in backward"));
}

#[test]
fn zero_stages_per_gpu() {
    let p: f64 = 8_030_261_248.0;
    let at = |shard: Shard| {
        let mut plan = train(Method::Full);
        plan.training.grad_accum = 4;
        plan.parallel = Parallel { gpus: 8, tp: 1, pp: 1, shard };
        estimate(&plan).unwrap().components
    };
    let z1 = at(Shard::Zero1);
    assert_eq!(z1.optimizer.bytes as f64, (12.0 * p / 8.0).round());
    // DeepSpeed keeps an fp32 gradient partition beside the bf16 buffer.
    assert_eq!(z1.gradients.bytes as f64, (2.0 * p + 4.0 * p / 8.0).round());
    let z2 = at(Shard::Zero2);
    assert_eq!(z2.gradients.bytes as f64, (6.0 * p / 8.0).round());
    let fsdp = at(Shard::Fsdp);
    let unit: f64 = 128_256.0 * 4096.0; // the embedding is larger than one block
    assert_eq!(fsdp.weights.bytes as f64, (2.0 * p / 8.0 + 4.0 * unit).round());
    assert_eq!(fsdp.gradients.bytes as f64, (2.0 * p / 8.0).round());
}

#[test]
fn lora_counts_adapters_and_qlora_quantises_the_base() {
    let lora = estimate(&train(Method::Lora)).unwrap();
    // r 16 on all linear layers: 32 × 16 × (q 8192 + k 5120 + v 5120 + o 8192 + 3 × 18432)
    let adapters = 32.0 * 16.0 * (8192.0 + 5120.0 + 5120.0 + 8192.0 + 3.0 * 18432.0);
    assert_eq!(lora.trainable_params, adapters);
    assert_eq!(lora.components.optimizer.bytes as f64, 12.0 * adapters);
    let qlora = estimate(&train(Method::Qlora)).unwrap();
    assert!(qlora.components.weights.bytes < lora.components.weights.bytes / 2);
    assert!(qlora.components.workspace.bytes > lora.components.workspace.bytes);
}

#[test]
fn generic_model_sizes_by_params_and_stated_activations() {
    let model =
        ModelSpec::Generic { generic: Generic { params: 2.6e9, activation_gb: 4.0, flops_per_item: 0.0 } };
    let plan = Plan { model: model.clone(), ..Plan::default() };
    let r = estimate(&plan).unwrap();
    assert_eq!(r.components.weights.bytes, 5_200_000_000);
    assert_eq!(r.components.activations.bytes, 4_000_000_000);
    let t = Plan { model, task: Task::Train, ..Plan::default() };
    assert_eq!(estimate(&t).unwrap().components.optimizer.bytes, 31_200_000_000);
    let lora = Plan { training: Training { method: Method::Lora, ..Training::default() }, ..t };
    let errs = estimate(&lora).unwrap_err();
    assert_eq!(errs[0].field, "training.method");
}

#[test]
fn absurd_inputs_are_errors_not_overflow() {
    let arch =
        Arch { layers: 1000, kv_heads: 10_000, heads: 10_000, head_dim: Some(100_000), ..Arch::default() };
    let mut plan = infer(Engine::Transformers, 10_000_000, 100_000);
    plan.model = ModelSpec::Custom { arch };
    let errs = estimate(&plan).unwrap_err();
    assert!(errs.iter().any(|e| e.field == "inference.context"), "{errs:?}");
    let bad = Plan { parallel: Parallel { gpus: 0, ..Parallel::default() }, ..Plan::default() };
    assert_eq!(estimate(&bad).unwrap_err()[0].field, "parallel.gpus");
}

#[test]
fn inverse_questions_find_the_boundary() {
    let plan = infer(Engine::Transformers, 8192, 1);
    let budget = 24_000_000_000;
    let ctx = max_context(&plan, budget).unwrap().unwrap();
    let at = |c: u64| {
        let mut p = plan.clone();
        p.inference.context = c;
        estimate(&p).unwrap().per_gpu_bytes
    };
    assert!(at(ctx) <= budget && at(ctx + 1) > budget);
    let n = max_batch(&plan, budget).unwrap().unwrap();
    assert!(n >= 1);
    assert_eq!(max_context(&plan, 1_000_000).unwrap(), None);
    assert_eq!(max_concurrency(&plan, budget).unwrap(), Some(n));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn engine() -> impl Strategy<Value = Engine> {
        prop_oneof![Just(Engine::Vllm), Just(Engine::Transformers), Just(Engine::LlamaCpp)]
    }

    fn ckpt() -> impl Strategy<Value = GradCkpt> {
        prop_oneof![Just(GradCkpt::None), Just(GradCkpt::Selective), Just(GradCkpt::Full)]
    }

    fn preset() -> impl Strategy<Value = String> {
        proptest::sample::select(
            crate::model::presets::all().iter().map(|p| p.id.to_string()).collect::<Vec<_>>(),
        )
    }

    fn per_gpu(plan: &Plan) -> u64 {
        estimate_on(plan, Some(80e9)).unwrap().per_gpu_bytes
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The fit search's text-free mode changes no number, and ends with the call.
        #[test]
        fn quiet_gives_the_same_bytes_without_text(
            id in preset(), e in engine(), m in prop_oneof![Just(Method::Full), Just(Method::Lora), Just(Method::Qlora)],
            training in any::<bool>(), tp in prop_oneof![Just(1u32), Just(2), Just(8)]
        ) {
            let mut plan = if training { train(m) } else { infer(e, 8192, 4) };
            plan.model = ModelSpec::Preset { id };
            plan.parallel.gpus = tp;
            plan.parallel.tp = tp;
            let loud = estimate_on(&plan, Some(80e9));
            let quiet = crate::derivation::quiet(|| estimate_on(&plan, Some(80e9)));
            prop_assert_eq!(loud.is_ok(), quiet.is_ok());
            if let (Ok(loud), Ok(quiet)) = (loud, quiet) {
                prop_assert_eq!(loud.per_gpu_bytes, quiet.per_gpu_bytes);
                let pairs = loud.components.all().into_iter().zip(quiet.components.all());
                for (a, b) in pairs {
                    prop_assert_eq!(a.bytes, b.bytes);
                    prop_assert!(b.derivation.is_empty() || a.derivation == b.derivation);
                }
                prop_assert!(!loud.components.weights.derivation.is_empty());
            }
            prop_assert!(!estimate_on(&plan, Some(80e9)).map(|r| r.components.weights.derivation.is_empty()).unwrap_or(false));
        }

        #[test]
        fn more_context_or_concurrency_never_needs_less(
            id in preset(), e in engine(), ctx in 1u64..200_000, n in 1u64..64, extra in 1u64..50_000
        ) {
            let mut plan = infer(e, ctx, n);
            plan.model = ModelSpec::Preset { id };
            let base = per_gpu(&plan);
            let mut longer = plan.clone();
            longer.inference.context = ctx + extra;
            prop_assert!(per_gpu(&longer) >= base);
            let mut wider = plan.clone();
            wider.inference.concurrency = n + 1;
            prop_assert!(per_gpu(&wider) >= base);
        }

        #[test]
        fn more_seq_or_batch_never_needs_less(
            id in preset(), c in ckpt(), seq in 1u64..16_384, b in 1u64..8, flash in any::<bool>()
        ) {
            let mut plan = train(Method::Full);
            plan.model = ModelSpec::Preset { id };
            plan.training.grad_ckpt = c;
            plan.training.seq = seq;
            plan.training.batch = b;
            plan.training.flash_attn = flash;
            let base = per_gpu(&plan);
            let mut longer = plan.clone();
            longer.training.seq = seq + 1;
            prop_assert!(per_gpu(&longer) >= base);
            let mut wider = plan.clone();
            wider.training.batch = b + 1;
            prop_assert!(per_gpu(&wider) >= base);
        }

        #[test]
        fn qlora_le_lora_le_full(
            id in preset(), c in ckpt(), seq in 1u64..16_384, rank in 1u32..256, p in 0usize..3
        ) {
            let precision = [Precision::Mixed, Precision::PureBf16, Precision::Fp32][p];
            let at = |m: Method| {
                let mut plan = train(m);
                plan.model = ModelSpec::Preset { id: id.clone() };
                plan.training.grad_ckpt = c;
                plan.training.seq = seq;
                plan.training.lora_rank = rank;
                plan.training.precision = precision;
                per_gpu(&plan)
            };
            let (full, lora, qlora) = (at(Method::Full), at(Method::Lora), at(Method::Qlora));
            prop_assert!(lora <= full, "lora {lora} > full {full}");
            prop_assert!(qlora <= lora, "qlora {qlora} > lora {lora}");
        }

        #[test]
        // From two GPUs up: a single GPU makes its gradients during backward,
        // while data parallelism keeps them in buffers (DDP buckets, DeepSpeed
        // partitions), so the first extra GPU may add memory per GPU.
        fn more_gpus_never_raise_per_gpu_memory(
            id in preset(), s in 0usize..5, gpus in 2u32..64, task in any::<bool>()
        ) {
            let shard = [Shard::None, Shard::Zero1, Shard::Zero2, Shard::Zero3, Shard::Fsdp][s];
            let at = |g: u32| {
                let mut plan = if task { train(Method::Full) } else { infer(Engine::Transformers, 8192, 4) };
                plan.model = ModelSpec::Preset { id: id.clone() };
                plan.parallel = Parallel { gpus: g, tp: 1, pp: 1, shard };
                per_gpu(&plan)
            };
            prop_assert!(at(gpus + 1) <= at(gpus));
        }

        #[test]
        fn tensor_and_pipeline_parallel_never_raise_per_gpu_memory(
            id in preset(), task in any::<bool>(), k in 0u32..3
        ) {
            let at = |tp: u32, pp: u32| {
                let mut plan = if task { train(Method::Full) } else { infer(Engine::Transformers, 8192, 4) };
                plan.model = ModelSpec::Preset { id: id.clone() };
                plan.parallel = Parallel { gpus: tp * pp, tp, pp, shard: Shard::None };
                estimate_on(&plan, None).map(|r| r.per_gpu_bytes)
            };
            let t = 1u32 << k;
            if let (Ok(one), Ok(split)) = (at(t, 1), at(t * 2, 1)) {
                prop_assert!(split <= one);
            }
            if let (Ok(one), Ok(split)) = (at(1, t), at(1, t * 2)) {
                prop_assert!(split <= one);
            }
        }

        #[test]
        fn components_add_up_to_the_total(id in preset(), task in any::<bool>(), e in engine()) {
            let plan = if task {
                train(Method::Lora)
            } else {
                infer(e, 4096, 2)
            };
            let plan = Plan { model: ModelSpec::Preset { id }, ..plan };
            let r = estimate_on(&plan, Some(141e9)).unwrap();
            prop_assert_eq!(r.per_gpu_bytes, r.components.total().unwrap());
        }
    }
}

/// Seed 002's weights × 1.2-1.5 beside the total, with the ratio, and why
/// they part when the KV cache grows.
#[test]
#[cfg(not(any(feature = "zh", feature = "en")))]
fn the_weights_rule_of_thumb_sits_beside_the_total() {
    let note = |r: &MemoryResult| r.notes.iter().find(|n| n.id == "rule_of_thumb").cloned();
    let r = estimate(&infer(Engine::Transformers, 4096, 1)).expect("valid");
    let n = note(&r).expect("note");
    let ratio = r.per_gpu_bytes as f64 / r.components.weights.bytes as f64;
    assert!(n.en.contains(&format!("weights × {ratio:.2}")) && n.en.contains("1.2-1.5"), "{}", n.en);
    let busy = estimate(&infer(Engine::Transformers, 32_768, 64)).expect("valid");
    let n = note(&busy).expect("note");
    assert!(n.en.contains("too low for this plan") && n.zh.contains("偏低"), "{}", n.en);
    assert!(note(&estimate(&train(Method::Lora)).expect("valid")).is_none(), "inference only");
}
