//! gpuplan's estimates against measured peak memory (data/validation-public.csv).
//! Prints estimate, measurement and error per row; fails if any reproduced
//! row is off by more than 25 % or the median by more than 10 %.
//!
//! Like with like: the CSV's units are honoured (GB = 10^9, GiB = 2^30,
//! MiB = 2^20 bytes). The Qwen rows come from PyTorch runs whose README calls
//! them "peak GPU memory" without naming the counter; PyTorch's peak
//! counters leave out the CUDA context, so those rows are compared with
//! gpuplan's total minus its CUDA context (both are printed). KV rows are
//! compared with the KV-cache component alone.

use gpuplan_core::memory::{estimate_on, MemoryResult};
use gpuplan_core::model::{Arch, ModelSpec};
use gpuplan_core::plan::*;
use gpuplan_validation::{rows, Row, DATA};

/// Qwen (v1) shapes from their config.json: MHA (kv_heads = heads), SwiGLU
/// with the per-matrix width (ffn_hidden_size / 2), untied embeddings.
fn qwen_v1(model: &str) -> Option<Arch> {
    let (layers, hidden, heads, intermediate, vocab) = match model {
        m if m.starts_with("Qwen-7B") => (32, 4096, 32, 11008, 151_936),
        m if m.starts_with("Qwen-14B") => (40, 5120, 40, 13696, 152_064),
        m if m.starts_with("Qwen-72B") => (80, 8192, 64, 24576, 152_064),
        _ => return None,
    };
    Some(Arch {
        params: None,
        layers,
        hidden,
        heads,
        kv_heads: heads,
        head_dim: None,
        intermediate,
        vocab,
        tied_embeddings: false,
        max_context: 8192,
        ..Arch::default()
    })
}

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
        _ => reproduce_qwen(row),
    }
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

fn compared(r: &MemoryResult, metric: Metric) -> f64 {
    match metric {
        Metric::TorchPeak => (r.per_gpu_bytes - r.cuda_context_bytes) as f64,
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
                let est = compared(&r, rep.metric);
                let err = (est - measured) / measured;
                let extra = match rep.left_out {
                    Some(why) => {
                        let two = (est + r.components.kv_cache.bytes as f64) / scale;
                        format!("two KV copies {two:.2}; {why}")
                    }
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
    assert_eq!(abs.len() + 3, rows.len(), "every row but the three generation rows is counted");
    for (case, e) in &errors {
        assert!(e.abs() <= 0.25, "{case}: error {:+.1}% exceeds 25%", e * 100.0);
    }
    assert!(median <= 0.10, "median error {:.1}% exceeds 10%", median * 100.0);
}
