//! Runtime workspace for inference: the CUDA context plus what the engine
//! allocates beside weights and KV cache. Each engine sizes it differently:
//! - Transformers allocates as it goes: the prefill of the prompt is the peak.
//! - vLLM profiles one forward of `max_num_batched_tokens` tokens (default
//!   8192) with sampling logits for `max_num_seqs` (default 256) sequences.
//! - llama.cpp reserves a compute buffer for one micro-batch (`n_ubatch`
//!   512) in f32, logits included.

use crate::derivation::why;
use crate::model::Arch;
use crate::plan::{Engine, Inference};

use super::activations::inference_elements_per_token;
use super::split::Split;
use crate::derivation;

/// CUDA context, cuBLAS/cuDNN handles and kernels: 512 MiB, within the
/// 300 MiB–2 GiB that memory.md reports across stacks.
pub const CUDA_CONTEXT: f64 = 512.0 * 1024.0 * 1024.0;

pub const SOURCE: &str = "memory.md \"Runtime overhead\"; vLLM defaults (max_num_batched_tokens 8192, \
     max_num_seqs 256) and startup profile; llama.cpp n_ubatch 512";

/// The forward pass an engine sizes its workspace by.
struct Pass {
    tokens: f64,
    element: f64,
    logit_rows: f64,
    logit_copies: f64,
    what: &'static str,
}

fn pass(inf: &Inference) -> Pass {
    match inf.engine {
        Engine::Transformers => {
            let prompt = inf.prompt_tokens.min(inf.context) as f64;
            let seqs = inf.concurrency as f64;
            // generate() keeps only the last position's logits, upcast to fp32.
            Pass { tokens: prompt * seqs, element: 2.0, logit_rows: seqs, logit_copies: 1.0, what: "prefill" }
        }
        // fp32 logits and probabilities for every scheduled sequence.
        Engine::Vllm | Engine::Sglang | Engine::Trtllm => {
            Pass { tokens: 8192.0, element: 2.0, logit_rows: 256.0, logit_copies: 2.0, what: "profile" }
        }
        Engine::LlamaCpp => {
            Pass { tokens: 512.0, element: 4.0, logit_rows: 512.0, logit_copies: 1.0, what: "ubatch" }
        }
    }
}

/// Workspace bytes on one GPU, with the derivation.
pub fn bytes(arch: &Arch, split: &Split, inf: &Inference) -> (f64, String) {
    let p = pass(inf);
    let per_token = inference_elements_per_token(arch, split);
    let layer = p.tokens * per_token * p.element;
    let logits = p.logit_rows * f64::from(arch.vocab) * 4.0 * p.logit_copies;
    let total = CUDA_CONTEXT + layer + logits;
    let derivation = why!(
        "CUDA ctx {} + {} T {}·{} el·{} B + logits {}·V {}·4 B{} = {}",
        derivation::size(CUDA_CONTEXT),
        p.what,
        derivation::count(p.tokens),
        derivation::count(per_token),
        derivation::num(p.element),
        derivation::count(p.logit_rows),
        arch.vocab,
        if p.logit_copies > 1.0 { why!("·{}", derivation::num(p.logit_copies)) } else { String::new() },
        derivation::size(total)
    );
    (total, derivation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Shard;

    const ONE: Split = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };

    #[test]
    fn vllm_profile_matches_the_logged_activation_peak() {
        // vLLM PR 10511 log, Meta-Llama-3-8B on one GPU: activation peak 1.26 GiB. The
        // derived 1.03 GiB leaves out the sampler's sort buffers for top-p/top-k.
        let inf = Inference { engine: Engine::Vllm, ..Inference::default() };
        let (b, _) = bytes(&Arch::default(), &ONE, &inf);
        let peak_gib = (b - CUDA_CONTEXT) / f64::from(1u32 << 30);
        assert!((peak_gib - 1.26).abs() / 1.26 < 0.25, "{peak_gib}");
    }

    #[test]
    fn transformers_prefill_grows_with_prompt() {
        let short = Inference { engine: Engine::Transformers, prompt_tokens: 128, ..Inference::default() };
        let long = Inference { prompt_tokens: 4096, ..short.clone() };
        assert!(bytes(&Arch::default(), &ONE, &short).0 < bytes(&Arch::default(), &ONE, &long).0);
    }
}
