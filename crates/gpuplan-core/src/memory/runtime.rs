//! Runtime workspace for inference: the CUDA context plus what the engine
//! allocates beside weights and KV cache. Each engine sizes it differently:
//! - Transformers allocates as it goes: the prefill of the prompt is the peak.
//! - vLLM profiles one forward of `max_num_batched_tokens` tokens and one
//!   sampler pass over `max_num_seqs` rows, and keeps the larger peak; NCCL
//!   buffers come on top with tensor parallelism. The CUDA context and the
//!   CUDA graphs lie outside its `gpu_memory_utilization` budget.
//!   SGLang and TensorRT-LLM borrow this model: no public log of theirs was
//!   found to calibrate their own.
//! - llama.cpp reserves a compute buffer for one micro-batch (`n_ubatch`
//!   512) in f32, logits included.

use super::fmt::why;
use crate::model::Arch;
use crate::plan::{Engine, Inference, Shard};

use super::activations::inference_elements_per_token;
use super::fmt;
use super::split::Split;

/// CUDA context, cuBLAS/cuDNN handles and kernels: 512 MiB, within the
/// 300 MiB–2 GiB that memory.md reports across stacks.
pub const CUDA_CONTEXT: f64 = 512.0 * 1024.0 * 1024.0;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// vLLM's profile sizes (`vllm/engine/arg_utils.py`, defaults below 70 GiB
/// cards and on A100s; H100-class cards default to 1024 sequences since 0.10).
const PROFILE_TOKENS: f64 = 8192.0;
const PROFILE_SEQS: f64 = 256.0;

/// The sampler's peak in fp32 logit-sized copies. The profile samples every
/// row with top-k = vocab − 1 and top-p 0.99, so logits, sorted values, int64
/// indices (two copies), softmax and cumulative sums live together. Fitted on
/// the logged activation peaks of data/vllm-memory-public.csv (the
/// validation test `core_sampler_copies_are_the_fit` holds it to the fit).
pub const SAMPLER_COPIES: f64 = 9.7;

/// NCCL buffers per ring neighbour of a tensor-parallel rank:
/// NCCL_BUFFSIZE 4 MiB × 2 directions × 32 channels = 0.25 GiB; vLLM issue
/// 15815 logs 0.30 GiB of non-torch memory at TP 2. A rank has one
/// neighbour at TP 2 and two from TP 3 on.
const NCCL_PER_PEER: f64 = 4.0 * 1024.0 * 1024.0 * 2.0 * 32.0;

/// CUDA graphs of the decode batch sizes: 0.5 GiB, within the 0.17–2.4 GiB
/// public logs show (vLLM PR 5515, issue 7553, club-3090 issue 127).
pub const CUDA_GRAPHS: f64 = 0.5 * GIB;

pub const SOURCE: &str =
    "memory.md \"Runtime overhead\"; vLLM arg_utils.py defaults (max_num_batched_tokens \
     8192, max_num_seqs 256) and its startup profile (activation peak = max(forward, sampler), calibrated on \
     tests/validation/data/vllm-memory-public.csv; SGLang and TensorRT-LLM borrow vLLM's); NCCL_BUFFSIZE; \
     CUDA graphs from vLLM logs; llama.cpp n_ubatch 512";

/// What a profiled engine's startup measures, in bytes on one GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// The forward of `tokens` tokens at its largest layer.
    pub forward: f64,
    /// One fp32 logit row per sequence over the vocabulary: `seqs × V × 4 B`.
    pub logits: f64,
    /// NCCL buffers of the tensor-parallel group.
    pub non_torch: f64,
}

impl Profile {
    /// The activation peak with `copies` logit-sized buffers in the sampler.
    pub fn activation(&self, copies: f64) -> f64 {
        self.forward.max(copies * self.logits)
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
        non_torch: NCCL_PER_PEER * f64::from(split.tp.saturating_sub(1).min(2)),
    }
}

/// Workspace on one GPU: all of it, the part inside a pooling engine's
/// utilisation budget, and the derivation.
pub struct Workspace {
    pub total: f64,
    pub in_budget: f64,
    pub derivation: String,
}

/// Workspace bytes on one GPU, with the derivation.
pub fn bytes(arch: &Arch, split: &Split, inf: &Inference) -> Workspace {
    match inf.engine {
        Engine::Vllm | Engine::Sglang | Engine::Trtllm => profiled(arch, split),
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
fn profiled(arch: &Arch, split: &Split) -> Workspace {
    let p = profile(arch, split.tp, PROFILE_TOKENS, PROFILE_SEQS);
    let in_budget = p.activation(SAMPLER_COPIES) + p.non_torch;
    let total = CUDA_CONTEXT + in_budget + CUDA_GRAPHS;
    let derivation = why!(
        "CUDA ctx {} + max(profile {} T {}, sampler {}×{}·V {}·4 B {}) + NCCL {} + CUDA graphs {} = {}",
        fmt::size(CUDA_CONTEXT),
        fmt::count(PROFILE_TOKENS),
        fmt::size(p.forward),
        fmt::num(SAMPLER_COPIES),
        fmt::count(PROFILE_SEQS),
        arch.vocab,
        fmt::size(SAMPLER_COPIES * p.logits),
        fmt::size(p.non_torch),
        fmt::size(CUDA_GRAPHS),
        fmt::size(total)
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
        fmt::size(CUDA_CONTEXT),
        fmt::count(tokens),
        fmt::count(per_token),
        fmt::num(element),
        fmt::count(rows),
        arch.vocab,
        fmt::size(total)
    );
    Workspace { total, in_budget: total - CUDA_CONTEXT, derivation }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Split = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };

    fn llama3_8b() -> Arch {
        crate::presets::find("llama-3.1-8b").map(|p| p.arch()).unwrap()
    }

    #[test]
    fn vllm_profile_matches_the_logged_activation_peak() {
        // vLLM PR 10511 log, Meta-Llama-3-8B on one H100: activation peak 1.26 GiB, the
        // same at TP 2: the sampler's rows, not the sharded forward, set the peak.
        for tp in [1, 2] {
            let peak = profile(&llama3_8b(), tp, 8192.0, 256.0).activation(SAMPLER_COPIES) / GIB;
            assert!((peak - 1.26).abs() / 1.26 < 0.1, "tp {tp}: {peak}");
        }
    }

    #[test]
    fn vllm_workspace_keeps_context_and_graphs_outside_the_budget() {
        let inf = Inference { engine: Engine::Vllm, ..Inference::default() };
        let ws = bytes(&llama3_8b(), &ONE, &inf);
        assert!((ws.total - ws.in_budget - CUDA_CONTEXT - CUDA_GRAPHS).abs() < 1.0);
        assert!(ws.derivation.contains("sampler") && ws.derivation.contains("CUDA graphs"));
    }

    #[test]
    fn nccl_buffers_are_per_ring_neighbour() {
        let one = profile(&llama3_8b(), 1, 8192.0, 256.0);
        let eight = profile(&llama3_8b(), 8, 8192.0, 256.0);
        assert_eq!(one.non_torch, 0.0);
        assert!((eight.non_torch / GIB - 0.5).abs() < 1e-9);
    }

    #[test]
    fn transformers_prefill_grows_with_prompt() {
        let short = Inference { engine: Engine::Transformers, prompt_tokens: 128, ..Inference::default() };
        let long = Inference { prompt_tokens: 4096, ..short.clone() };
        assert!(bytes(&Arch::default(), &ONE, &short).total < bytes(&Arch::default(), &ONE, &long).total);
    }
}
