//! gpuplan's estimates against measured peak memory (data/validation-public.csv).
//! Prints estimate, measurement and error per row; fails if any reproduced
//! row is off by more than 25 % or the median by more than 10 %.
//!
//! Like with like: the CSV's units are honoured (GB = 10^9, GiB = 2^30,
//! MiB = 2^20 bytes). The Qwen rows come from PyTorch runs whose README calls
//! them "peak GPU memory" without naming the counter; PyTorch's peak
//! counters leave out the CUDA context, so those rows are compared with
//! gpuplan's total minus its CUDA context (both are printed). KV rows are
//! compared with the KV-cache component alone, and paged optimizer state,
//! which lives in CUDA managed memory, is left out of the PyTorch peak.

use gpuplan_core::memory::{estimate_on, MemoryResult};
use gpuplan_core::model::WeightFormat;
use gpuplan_core::model::{Arch, ModelSpec};
use gpuplan_core::plan::*;
use gpuplan_validation::{mha, qwen_v1, rows, Row, DATA};

/// What a row's number is compared with.
#[derive(Clone, Copy)]
enum Metric {
    /// gpuplan's total minus the CUDA context (PyTorch's peak counters).
    TorchPeak,
    /// The KV-cache component.
    KvCache,
}

struct Reproduction {
    plan: Plan,
    metric: Metric,
    /// Why the row is shown but left out of the pass/fail check, if it is.
    left_out: Option<&'static str>,
}

fn format(weights: &str) -> Result<WeightFormat, String> {
    match weights {
        "bf16" => Ok(WeightFormat::Bf16),
        "gptq-int4" => Ok(WeightFormat::GptqInt4),
        "gptq-int8" => Ok(WeightFormat::GptqInt8),
        other => Err(format!("weights {other}")),
    }
}

fn num(field: &str, v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| format!("{field} {v:?}"))
}

/// The plan a row states, or why it cannot be reproduced from it.
fn reproduce(row: &Row) -> Result<Reproduction, String> {
    match row.case.as_str() {
        // The log also gives the pool's inputs: weights 14.96 GiB (gpuplan: 14.96 GiB), activation
        // peak 9.37 GiB, non-torch 0.10 GiB. That activation peak is far above vLLM's default
        // profile (1.26 GiB for the same model in vLLM PR 10511; gpuplan derives 1.03 GiB), so
        // the run used a max_num_batched_tokens the row does not state: the pool size itself
        // cannot be reproduced. What can be is the cache the pool holds: 5691 blocks × 16 tokens.
        "vllm-llama3-8b-kv" => Ok(Reproduction {
            plan: infer_plan(
                ModelSpec::Preset { id: "llama-3.1-8b".into() },
                WeightFormat::Bf16,
                5691 * 16,
                1,
            ),
            metric: Metric::KvCache,
            left_out: None,
        }),
        // llama.cpp log: n_ctx 512, f16 cache.
        "llamacpp-mixtral-kv-512" => Ok(Reproduction {
            plan: Plan {
                inference: Inference { engine: Engine::LlamaCpp, ..infer_plan_inference(512) },
                ..infer_plan(ModelSpec::Preset { id: "mixtral-8x7b".into() }, WeightFormat::Bf16, 512, 1)
            },
            metric: Metric::KvCache,
            left_out: None,
        }),
        case if case.starts_with("tt-") => reproduce_torchtune(row),
        case if case.starts_with("litgpt-") => reproduce_litgpt(row),
        _ => reproduce_qwen(row),
    }
}

fn method(row: &Row) -> Result<Method, String> {
    gpuplan_core::names::parse(&row.method).ok_or(format!("method {}", row.method))
}

fn train_plan(model: ModelSpec, training: Training, parallel: Parallel) -> Plan {
    Plan { task: Task::Train, model, training, parallel, ..Plan::default() }
}

/// torchtune's README rows: each recipe's default config of 2024-09 at batch 2, packed
/// 2048, no gradient accumulation. LoRA targets q, v, output and the MLP (all linear
/// but k: k's adapter is 0.16 % of the trainable parameters).
fn reproduce_torchtune(row: &Row) -> Result<Reproduction, String> {
    let left_out = match row.case.as_str() {
        "tt-8b-full-a6000" | "tt-8b-lora-a6000" => Some(TORCHTUNE_A6000),
        "tt-70b-full-8xa100" => Some(TORCHTUNE_CPU_OFFLOAD),
        _ => None,
    };
    let (id, rank, gpus) = match row.model.as_str() {
        "Llama-3.1-8B" => ("llama-3.1-8b", 8, 1),
        "Llama-3.1-70B" => ("llama-3.1-70b", 16, 8),
        "Llama-3.1-405B" => ("llama-3.1-405b", 16, 8),
        other => return Err(format!("model {other}")),
    };
    let method = method(row)?;
    let full = method == Method::Full;
    let training = Training {
        method,
        lora_rank: rank,
        lora_targets: LoraTargets::AllLinear,
        precision: Precision::PureBf16,
        optimizer: if full { Optimizer::PagedAdamw8bit } else { Optimizer::Adamw },
        opt_in_bwd: full,
        grad_accum: 1,
        batch: num("batch", &row.batch)?,
        seq: num("seq", &row.seq)?,
        grad_ckpt: GradCkpt::Full,
        loss: Loss::Chunked,
        flash_attn: true,
        ..Training::default()
    };
    let shard = if gpus > 1 { Shard::Fsdp } else { Shard::None };
    let parallel = Parallel { gpus, tp: 1, pp: 1, shard };
    let plan = train_plan(ModelSpec::Preset { id: id.into() }, training, parallel);
    Ok(Reproduction { plan, metric: Metric::TorchPeak, left_out })
}

const TORCHTUNE_A6000: &str =
    "left out: the README gives the same model, batch and length as the 4090 row at \
     twice the memory, so the A6000 run changed settings it does not state";
const TORCHTUNE_CPU_OFFLOAD: &str =
    "left out: FSDP CPU offload keeps parameters, gradients and optimizer state \
     in host memory, which no plan option describes";

/// Llama 2 shapes from their config.json.
fn llama2(model: &str) -> Option<Arch> {
    match model {
        "Llama-2-7B" => Some(mha((32, 4096, 32, 11008, 32_000, 4096))),
        "Llama-2-13B" => Some(mha((40, 5120, 40, 13824, 32_000, 4096))),
        _ => None,
    }
}

/// LitGPT's resource table: finetune/lora.py of 2023-10 with its defaults. Its loss
/// runs lm_head in chunks of 128 tokens with a bf16 cross-entropy (closest option:
/// chunked; with a 32k vocabulary the logits are 1 % of the peak). Its LoRA dropout
/// of 0.05 keeps a mask and a dropped copy of the q/v input per layer that the plan
/// has no option for (1304 tokens × 32 layers × 3 h B = 0.5 GB on 7B, 2.4 %).
fn reproduce_litgpt(row: &Row) -> Result<Reproduction, String> {
    let arch = llama2(&row.model).ok_or(format!("model {}", row.model))?;
    let method = method(row)?;
    let batch = num("batch", &row.batch)?;
    let training = Training {
        method,
        lora_rank: 8,
        lora_targets: LoraTargets::Qv,
        base_weights: (method == Method::Qlora).then_some(WeightFormat::Nf4),
        precision: Precision::PureBf16,
        optimizer: Optimizer::Adamw,
        // batch_size 128 ÷ micro_batch_size.
        grad_accum: u32::try_from(128 / batch).map_err(|e| e.to_string())?,
        batch,
        seq: num("seq", &row.seq)?,
        grad_ckpt: GradCkpt::None,
        loss: Loss::Chunked,
        flash_attn: true,
        ..Training::default()
    };
    let plan = train_plan(ModelSpec::Custom { arch }, training, Parallel::default());
    Ok(Reproduction { plan, metric: Metric::TorchPeak, left_out: None })
}

fn infer_plan_inference(context: u64) -> Inference {
    Inference { context, concurrency: 1, ..Inference::default() }
}

fn infer_plan(model: ModelSpec, weights: WeightFormat, context: u64, prompt: u64) -> Plan {
    Plan {
        task: Task::Infer,
        model,
        inference: Inference {
            weights,
            context,
            concurrency: 1,
            prompt_tokens: prompt,
            engine: Engine::Transformers,
            ..Inference::default()
        },
        ..Plan::default()
    }
}

fn reproduce_qwen(row: &Row) -> Result<Reproduction, String> {
    let arch = qwen_v1(&row.model).ok_or(format!("model {}", row.model))?;
    let model = ModelSpec::Custom { arch };
    let seq = num("seq", &row.seq)?;
    match row.task.as_str() {
        // README: "encoding 2048 tokens as context (and generating single token)" and
        // "generating 8192 tokens (with single token as context)".
        "infer" => {
            let (prompt, left_out) = if seq == 8192 { (1, Some(GENERATE_8192)) } else { (seq, None) };
            Ok(Reproduction {
                plan: infer_plan(model, format(&row.weights)?, seq, prompt),
                metric: Metric::TorchPeak,
                left_out,
            })
        }
        // finetune.py / finetune_*_single_gpu.sh: LoRA r 64 on c_attn, c_proj, w1, w2 (every
        // linear layer), --gradient_checkpointing, FlashAttention 2, AdamW; Q-LoRA loads the
        // GPTQ Int4 checkpoint and runs under DeepSpeed ZeRO-2 (ds_config_zero2.json) with fp16.
        "train" => {
            let qlora = row.method == "qlora";
            let training = Training {
                method: if qlora { Method::Qlora } else { Method::Lora },
                lora_rank: 64,
                lora_targets: LoraTargets::AllLinear,
                base_weights: Some(format(&row.weights)?),
                precision: Precision::Mixed,
                optimizer: Optimizer::Adamw,
                grad_accum: 8,
                batch: num("batch", &row.batch)?,
                seq,
                grad_ckpt: GradCkpt::Full,
                flash_attn: true,
                ..Training::default()
            };
            let shard = if qlora { Shard::Zero2 } else { Shard::None };
            Ok(Reproduction {
                plan: Plan {
                    task: Task::Train,
                    model,
                    training,
                    parallel: Parallel { gpus: 1, tp: 1, pp: 1, shard },
                    ..Plan::default()
                },
                metric: Metric::TorchPeak,
                left_out: None,
            })
        }
        other => Err(format!("task {other}")),
    }
}

/// Why the 8192-token generation rows are shown but not counted.
const GENERATE_8192: &str = "left out: Qwen v1's remote code (transformers 4.32) returns a new tuple \
     cache each step, so generate() still holds the previous step's K/V while every layer's new one is built \
     with torch.cat: two copies coexist at the end of each step. gpuplan models today's Transformers \
     DynamicCache, updated in place (one copy); the row's software is not an engine gpuplan models";

/// bitsandbytes' paged optimizers keep their state in CUDA managed memory
/// (`cudaMallocManaged`), which PyTorch's counters do not see: it pages to
/// host memory when the GPU runs short.
fn paged_state(plan: &Plan, r: &MemoryResult) -> u64 {
    if plan.training.optimizer == Optimizer::PagedAdamw8bit {
        r.components.optimizer.bytes
    } else {
        0
    }
}

fn compared(plan: &Plan, r: &MemoryResult, metric: Metric) -> f64 {
    match metric {
        Metric::TorchPeak => (r.per_gpu_bytes - r.cuda_context_bytes - paged_state(plan, r)) as f64,
        Metric::KvCache => r.components.kv_cache.bytes as f64,
    }
}

#[test]
fn estimates_match_measurements() {
    let rows = rows(DATA).unwrap();
    let mut errors = Vec::new();
    println!("{:<26} {:>12} {:>12} {:>8}  unit", "case", "estimate", "measured", "error");
    for row in &rows {
        let measured = row.measured_bytes().unwrap();
        let scale = measured / row.measured;
        match reproduce(row) {
            Err(why) => panic!("{}: cannot build the plan: {why}", row.case),
            Ok(rep) => {
                let r = estimate_on(&rep.plan, None).unwrap_or_else(|e| panic!("{}: {e:?}", row.case));
                let est = compared(&rep.plan, &r, rep.metric);
                let err = (est - measured) / measured;
                let extra = match rep.left_out {
                    Some(why) if row.task == "infer" => {
                        let two = (est + r.components.kv_cache.bytes as f64) / scale;
                        format!("two KV copies {two:.2}; {why}")
                    }
                    Some(why) => why.to_string(),
                    None => {
                        errors.push((row.case.clone(), err));
                        format!("total incl. CUDA ctx {:.2}", r.per_gpu_bytes as f64 / scale)
                    }
                };
                println!(
                    "{:<26} {:>12.2} {:>12.2} {:>+7.1}%  {:<4} {extra}",
                    row.case,
                    est / scale,
                    row.measured,
                    err * 100.0,
                    row.unit,
                );
            }
        }
    }
    let mut abs: Vec<f64> = errors.iter().map(|(_, e)| e.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let median = if abs.len() % 2 == 1 {
        abs[abs.len() / 2]
    } else {
        (abs[abs.len() / 2 - 1] + abs[abs.len() / 2]) / 2.0
    };
    println!("rows compared: {}, median |error| {:.1}%", abs.len(), median * 100.0);
    assert_eq!(
        abs.len() + 6,
        rows.len(),
        "every row but the three generation rows and three torchtune rows is counted"
    );
    for (case, e) in &errors {
        assert!(e.abs() <= 0.25, "{case}: error {:+.1}% exceeds 25%", e * 100.0);
    }
    assert!(median <= 0.10, "median error {:.1}% exceeds 10%", median * 100.0);
}
