//! A serving row's plan and replica through the product's own path (memory
//! engine, then `serving::replica`), shared by the serving tests.

use gpuplan_core::hardware::{self, Gpu};
use gpuplan_core::memory::estimate;
use gpuplan_core::model::{Arch, ModelSpec};
use gpuplan_core::placement::{ModelSize, Placement};
use gpuplan_core::plan::*;
use gpuplan_core::serving::{self, llama_quant, Replica};
use gpuplan_core::speed::inference_tflops;

use crate::ServingRow;

/// Shapes the presets do not hold, from each model's config.json:
/// meta-llama/Llama-2-7b-hf, -13b-hf and -70b-hf, Qwen/Qwen2.5-0.5B-Instruct,
/// google/gemma-2b (Gemma 1: one KV head of 256, GeGLU of the same three
/// matrices as a gated MLP, tied embeddings), Qwen/Qwen3-0.6B (heads of 128
/// wider than hidden ÷ heads, tied embeddings).
pub fn stated_arch(model: &str) -> Option<Arch> {
    let (params, layers, hidden, heads, kv_heads, intermediate, vocab, tied) = match model {
        "llama-2-7b" => (6.74e9, 32, 4096, 32, 32, 11008, 32000, false),
        "llama-2-70b" => (68.98e9, 80, 8192, 64, 8, 28672, 32000, false),
        "llama-2-13b" => (13.02e9, 40, 5120, 40, 40, 13824, 32000, false),
        "qwen2.5-0.5b" => (0.494e9, 24, 896, 14, 2, 4864, 151_936, true),
        "gemma-2b" => (2.506e9, 18, 2048, 8, 1, 16384, 256_000, true),
        "qwen3-0.6b" => (0.596e9, 28, 1024, 16, 8, 3072, 151_936, true),
        _ => return None,
    };
    Some(Arch {
        params: Some(params),
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim: (model == "qwen3-0.6b").then_some(128),
        intermediate,
        vocab,
        tied_embeddings: tied,
        max_context: 4096,
        ..Arch::default()
    })
}

pub fn parse<T: serde::de::DeserializeOwned>(what: &str, v: &str) -> T {
    gpuplan_core::names::parse(v).unwrap_or_else(|| panic!("unknown {what} {v}"))
}

/// The sources of llama-bench runs by default builds before PR 8075
/// (2024-06), which multiplied quantised weights in passes of more than 32
/// tokens through an FP16 copy and cuBLAS: PR 4766 (2024-01) and PR 6017
/// (2024-03). The MMQ tables of mid-2024 on ran MMQ.
pub const PRE_MMQ_SOURCES: [&str; 2] = ["llamacpp-4090", "llamacpp-a100-pcie"];

/// The row's plan: its model, formats, engine, GPU and tensor-parallel group.
pub fn plan(row: &ServingRow) -> Plan {
    let model = stated_arch(&row.model)
        .map_or_else(|| ModelSpec::Preset { id: row.model.clone() }, |arch| ModelSpec::Custom { arch });
    let mut p = Plan { model, ..Plan::default() };
    let i = &mut p.inference;
    i.weights = parse("weights", &row.weights);
    i.kv_dtype = parse("kv dtype", &row.kv_dtype);
    i.engine = parse("engine", &row.engine);
    if PRE_MMQ_SOURCES.contains(&row.source.as_str()) {
        i.engine_release = llama_quant::PRE_MMQ.into();
    }
    i.context = (row.prompt + row.output).max(1);
    i.concurrency = 1;
    i.prompt_tokens = row.prompt.max(1);
    i.output_tokens = row.output.max(1);
    p.parallel = Parallel { gpus: row.tp, tp: row.tp, pp: 1, shard: Shard::None };
    p.hardware.gpu = row.gpu.clone();
    p
}

/// The row's replica through the product's own path (memory engine, then
/// `serving::replica`); its factors are replaced by the fit's. Its KV pool
/// is what the row's plan needs (one sequence at prompt + output).
pub fn replica(row: &ServingRow) -> Replica {
    replica_with(row, None)
}

/// The same, its KV pool `kv_fraction` of what the card leaves free after
/// the weights and the workspace (TensorRT-LLM's
/// `kv_cache_free_gpu_mem_fraction`, vLLM's share of the card in the same
/// way): the replica as a full-load run sizes it.
pub fn replica_on_card(row: &ServingRow, kv_fraction: f64) -> Replica {
    replica_with(row, Some(kv_fraction))
}

fn replica_with(row: &ServingRow, kv_fraction: Option<f64>) -> Replica {
    let p = plan(row);
    let gpu: &Gpu = hardware::find(&row.gpu).unwrap_or_else(|| panic!("unknown gpu {}", row.gpu));
    let m = estimate(&p).unwrap_or_else(|e| panic!("{}: {e:?}", row.case));
    let arch = p.model.arch().expect("transformer").into_owned();
    let size = ModelSize { total: m.params, active: m.active_params };
    let needed = m.per_gpu_bytes;
    let fixed = needed.saturating_sub(m.components.kv_cache.bytes);
    let card = (gpu.memory_gb * 1e9) as u64;
    let usable = kv_fraction.map_or(needed, |f| fixed + (card.saturating_sub(fixed) as f64 * f) as u64);
    let at = Placement {
        gpu,
        parallel: &p.parallel,
        weights_bytes: m.components.weights.bytes,
        kv_bytes: m.components.kv_cache.bytes,
        per_gpu_bytes: needed,
        usable_bytes: usable,
    };
    let tflops = inference_tflops(gpu, p.inference.weights).expect("tflops");
    serving::replica(&p, &at, &arch, size, gpu.bandwidth_tbs.expect("bandwidth"), tflops)
}
