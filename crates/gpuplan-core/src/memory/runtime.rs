//! Runtime workspace for inference: the CUDA context plus what the engine
//! allocates beside weights and KV cache. Each engine sizes it differently:
//! - Transformers allocates as it goes: the prefill of the prompt is the peak.
//! - vLLM profiles one forward of `max_num_batched_tokens` tokens and one
//!   sampler pass over `max_num_seqs` rows, and keeps the larger peak; NCCL
//!   buffers come on top with tensor parallelism, and the CUDA graphs, which
//!   it has profiled into its `gpu_memory_utilization` budget since 0.21.0
//!   (captured after sizing the KV pool before). The CUDA context lies
//!   outside the budget: vLLM measures from a snapshot taken after it.
//!   SGLang and TensorRT-LLM borrow this model: no public log of theirs was
//!   found to calibrate their own.
//! - llama.cpp reserves a compute buffer for one micro-batch (`n_ubatch`
//!   512) in f32, logits included.

use crate::derivation::why;
use crate::hardware::Gpu;
use crate::model::Arch;
use crate::plan::{Engine, Inference, Shard};

use super::activations::inference_elements_per_token;
use super::split::Split;
use crate::derivation;

/// CUDA context, cuBLAS/cuDNN handles and kernels: 512 MiB, within the
/// 300 MiB–2 GiB that memory.md reports across stacks.
pub const CUDA_CONTEXT: f64 = 512.0 * 1024.0 * 1024.0;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// vLLM's API-server defaults for the profile (`vllm/engine/arg_utils.py`,
/// vLLM 0.10 and later): `max_num_batched_tokens` and `max_num_seqs` on cards
/// of 70 GiB or more that are not A100s, and on the others.
const LARGE_CARD: (f64, f64) = (8192.0, 1024.0);
const SMALL_CARD: (f64, f64) = (2048.0, 256.0);

/// The profile's (tokens, sequences) on `card`; with no card known, the
/// larger defaults (the larger workspace).
pub fn profile_sizes(card: Option<&Gpu>) -> (f64, f64) {
    match card {
        Some(gpu) if !takes_large_defaults(gpu) => SMALL_CARD,
        _ => LARGE_CARD,
    }
}

/// vLLM's test: device memory of at least 70 GiB and "a100" not in the name.
pub fn takes_large_defaults(gpu: &Gpu) -> bool {
    let gib = gpu.memory_gb * 1e9 / GIB;
    // ASCII case folding: vLLM's device names are ASCII, and the page keeps
    // Unicode's case tables out of its bundle.
    let a100 = [&gpu.id, &gpu.name].iter().any(|s| s.to_ascii_lowercase().contains("a100"));
    gib >= 70.0 && !a100
}

/// The sampler's peak in fp32 logit-sized copies (`seqs × V × 4 B` each).
/// Fitted on the logged activation peaks of vLLM 0.17 and later in
/// data/vllm-memory-public.csv; the validation test
/// `core_factors_are_the_fit` holds it to the fit.
pub const SAMPLER_COPIES: f64 = 3.94;

/// The profile forward's peak over the elements `inference_elements_per_token`
/// counts (residual, norm output, the MLP's gate, up and product): the
/// temporaries it leaves out (rotary and QKV splits, fp32 casts). Fitted with
/// `SAMPLER_COPIES`, on the rows where the forward binds (CodeLlama, Granite).
pub const PROFILE_FORWARD: f64 = 1.25;

/// Non-torch memory vLLM's profile logs: on one GPU (cuBLAS workspaces and
/// allocator bookkeeping), and on each GPU of a tensor-parallel group, where
/// NCCL and the custom all-reduce add their buffers. Fitted as for
/// `SAMPLER_COPIES`.
pub const NON_TORCH_ALONE: f64 = 0.26 * GIB;
pub const NON_TORCH_GROUP: f64 = 2.11 * GIB;

/// CUDA graphs of the decode batch sizes (up to 512): a base and a share per
/// layer on the GPU, fitted on the "CUDA graph pool memory" vLLM 0.19 logged
/// in llm-d-planner's H100 sweep (0.64–1.79 GiB; `core_factors_are_the_fit`).
/// The per-layer share follows the number of graphs, not the width: vLLM
/// captures one piecewise graph per layer boundary for each capture size and
/// keeps only weak references to their outputs, so the pool holds about one
/// forward of the largest capture batch and the rest is each graph's own
/// cost. Of that share, `GRAPHS_KEPT` stays whole under tensor parallelism and
/// the rest is divided by the TP degree, as fitted (the logs shrink with TP).
pub const GRAPHS_BASE: f64 = 0.30 * GIB;
pub const GRAPHS_PER_LAYER: f64 = 0.020 * GIB;
pub const GRAPHS_KEPT: f64 = 0.65;

/// The CUDA graph pool on one GPU of `split`.
fn graphs(arch: &Arch, split: &Split) -> f64 {
    let layers = f64::from(arch.layers.div_ceil(split.pp.max(1)));
    GRAPHS_BASE + GRAPHS_PER_LAYER * layers * (GRAPHS_KEPT + (1.0 - GRAPHS_KEPT) / split.tp_f())
}

pub const SOURCE: &str = "memory.md \"Runtime overhead\"; vLLM arg_utils.py profile defaults by card; \
     vLLM startup logs (activation peak = max(forward, sampler), non-torch, CUDA graphs) calibrated on \
     tests/validation/data/vllm-memory-public.csv, docs/serving.md; SGLang and TensorRT-LLM borrow vLLM's; \
     llama.cpp n_ubatch 512";

/// What a profiled engine's startup measures, in bytes on one GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// The forward of `tokens` tokens at its largest layer, as counted (before
    /// `PROFILE_FORWARD`).
    pub forward: f64,
    /// One fp32 logit row per sequence over the vocabulary: `seqs × V × 4 B`.
    pub logits: f64,
    /// Non-torch memory: more with a tensor-parallel group (NCCL buffers).
    pub non_torch: f64,
}

impl Profile {
    /// The activation peak with `copies` logit-sized buffers in the sampler.
    pub fn activation(&self, copies: f64) -> f64 {
        (PROFILE_FORWARD * self.forward).max(copies * self.logits)
    }
}

/// vLLM's profile for a model split `tp` ways, at `tokens` batched tokens and
/// `seqs` sequences.
pub fn profile(arch: &Arch, tp: u32, tokens: f64, seqs: f64) -> Profile {
    let split = Split { tp: tp.max(1), pp: 1, dp: 1, shard: Shard::None };
    let per_token = inference_elements_per_token(arch, &split);
    Profile {
        forward: tokens * per_token * 2.0,
        logits: seqs * f64::from(arch.vocab) * 4.0,
        non_torch: if split.tp > 1 { NON_TORCH_GROUP } else { NON_TORCH_ALONE },
    }
}

/// Workspace on one GPU: all of it, the part inside a pooling engine's
/// utilisation budget, and the derivation.
pub struct Workspace {
    pub total: f64,
    pub in_budget: f64,
    pub derivation: String,
}

/// Workspace bytes on one GPU of `card` (vLLM's defaults depend on it), with
/// the derivation.
pub fn bytes(arch: &Arch, split: &Split, inf: &Inference, card: Option<&Gpu>) -> Workspace {
    match inf.engine {
        Engine::Vllm | Engine::Sglang | Engine::Trtllm => profiled(arch, split, profile_sizes(card)),
        Engine::Transformers => {
            let prompt = inf.prompt_tokens.min(inf.context) as f64;
            let seqs = inf.concurrency as f64;
            // generate() keeps only the last position's logits, upcast to fp32.
            pass(arch, split, prompt * seqs, 2.0, seqs, "prefill")
        }
        // f32 compute buffer; the logits of every position of the micro-batch.
        Engine::LlamaCpp => pass(arch, split, 512.0, 4.0, 512.0, "ubatch"),
    }
}

/// vLLM's profile at its default sizes, plus what lies outside its budget.
fn profiled(arch: &Arch, split: &Split, (tokens, seqs): (f64, f64)) -> Workspace {
    let p = profile(arch, split.tp, tokens, seqs);
    let graphs = graphs(arch, split);
    let in_budget = p.activation(SAMPLER_COPIES) + p.non_torch + graphs;
    let total = CUDA_CONTEXT + in_budget;
    let derivation = why!(
        "CUDA ctx {} + max(profile {} T ×{} {}, sampler {}×{} seqs·V {}·4 B {}) + non-torch {} + CUDA graphs {} = {}",
        derivation::size(CUDA_CONTEXT),
        derivation::count(tokens),
        derivation::num(PROFILE_FORWARD),
        derivation::size(PROFILE_FORWARD * p.forward),
        derivation::num(SAMPLER_COPIES),
        derivation::count(seqs),
        arch.vocab,
        derivation::size(SAMPLER_COPIES * p.logits),
        derivation::size(p.non_torch),
        derivation::size(graphs),
        derivation::size(total)
    );
    Workspace { total, in_budget, derivation }
}

/// An engine that allocates one pass of `tokens` tokens at `element` bytes and
/// fp32 logits for `rows` rows.
fn pass(arch: &Arch, split: &Split, tokens: f64, element: f64, rows: f64, what: &str) -> Workspace {
    let per_token = inference_elements_per_token(arch, split);
    let layer = tokens * per_token * element;
    let logits = rows * f64::from(arch.vocab) * 4.0;
    let total = CUDA_CONTEXT + layer + logits;
    let derivation = why!(
        "CUDA ctx {} + {what} {} T·{} el·{} B + logits {}·V {}·4 B = {}",
        derivation::size(CUDA_CONTEXT),
        derivation::count(tokens),
        derivation::count(per_token),
        derivation::num(element),
        derivation::count(rows),
        arch.vocab,
        derivation::size(total)
    );
    Workspace { total, in_budget: total - CUDA_CONTEXT, derivation }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Split = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };

    fn llama3_8b() -> Arch {
        crate::model::presets::find("llama-3.1-8b").map(|p| p.arch()).unwrap()
    }

    #[test]
    fn vllm_profile_matches_the_logged_activation_peak() {
        // llm-d-planner's vLLM 0.19.0 logs, Llama-3.1-8B on H100s: activation peak 1.89 GiB
        // at TP 1, 2 and 4 alike: the sampler's 1024 rows, not the sharded forward, set it.
        for tp in [1, 2, 4] {
            let peak = profile(&llama3_8b(), tp, 8192.0, 1024.0).activation(SAMPLER_COPIES) / GIB;
            assert!((peak - 1.89).abs() / 1.89 < 0.05, "tp {tp}: {peak}");
        }
    }

    #[test]
    fn vllm_workspace_keeps_the_context_outside_the_budget() {
        let inf = Inference { engine: Engine::Vllm, ..Inference::default() };
        let ws = bytes(&llama3_8b(), &ONE, &inf, None);
        assert!((ws.total - ws.in_budget - CUDA_CONTEXT).abs() < 1.0);
        assert!(ws.derivation.contains("sampler") && ws.derivation.contains("CUDA graphs"));
    }

    #[test]
    fn vllm_sizes_its_profile_by_the_card() {
        let card = |id| crate::hardware::find(id);
        assert_eq!(profile_sizes(card("h100-sxm")), (8192.0, 1024.0));
        assert_eq!(profile_sizes(card("rtx-4090")), (2048.0, 256.0));
        assert_eq!(profile_sizes(card("a100-80-sxm")), (2048.0, 256.0));
        assert_eq!(profile_sizes(None), (8192.0, 1024.0));
    }

    #[test]
    fn the_graph_pool_shrinks_with_tensor_parallelism_to_its_kept_share() {
        // llm-d-planner's vLLM 0.19 logs for Llama 3.1 8B: 0.91, 0.76, 0.67 GiB at TP 1, 2, 4.
        let at = |tp| graphs(&llama3_8b(), &Split { tp, ..ONE }) / GIB;
        assert!(at(1) > at(2) && at(2) > at(4), "{} {} {}", at(1), at(2), at(4));
        // At TP 4 the per-layer part keeps its share plus a quarter of the rest.
        let tp4 = (GRAPHS_BASE + GRAPHS_PER_LAYER * 32.0 * (GRAPHS_KEPT + (1.0 - GRAPHS_KEPT) / 4.0)) / GIB;
        assert!((at(4) - tp4).abs() < 1e-9 && (at(4) - 0.67).abs() < 0.15, "{}", at(4));
    }

    #[test]
    fn a_tensor_parallel_group_adds_its_buffers_once() {
        let at = |tp| profile(&llama3_8b(), tp, 8192.0, 1024.0).non_torch;
        assert_eq!(at(1), NON_TORCH_ALONE);
        assert_eq!((at(2), at(8)), (NON_TORCH_GROUP, NON_TORCH_GROUP));
    }

    #[test]
    fn transformers_prefill_grows_with_prompt() {
        let short = Inference { engine: Engine::Transformers, prompt_tokens: 128, ..Inference::default() };
        let long = Inference { prompt_tokens: 4096, ..short.clone() };
        let at = |inf: &Inference| bytes(&Arch::default(), &ONE, inf, None).total;
        assert!(at(&short) < at(&long));
    }
}
