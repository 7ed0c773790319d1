//! What each serving engine achieves on the hardware: the share of memory
//! bandwidth and dense TFLOPS its kernels reach, and the fixed costs of a
//! step: per layer (its kernels' launch and start-up) and per sequence in
//! the batch (scheduling, sampling, detokenising and streaming its token).
//! The factors are fitted on the measured rows in
//! `tests/validation/data/serving-public.csv` by the fit in
//! `tests/validation/tests/serving.rs` (`core_factors_are_the_fit`), which
//! fails when these constants drift from what the rows give. SGLang takes
//! vLLM's factors and says so. docs/serving.md has the
//! calibration table and its held-out error.

use serde::Serialize;

use crate::plan::Engine;

/// Achieved efficiency of one engine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Efficiency {
    /// Achieved share of the catalog's memory bandwidth in a decode step.
    pub bandwidth: f64,
    /// Achieved share of the catalog's dense 16-bit TFLOPS in a compute-bound step.
    pub compute: f64,
    /// The same for FP8 weights on FP8 tensor cores, as a share of the FP8 peak.
    pub compute_fp8: f64,
    /// Fixed cost of every layer in every step, seconds.
    pub layer_overhead_s: f64,
    /// Fixed cost of every decoding sequence in every step, seconds.
    pub seq_overhead_s: f64,
    /// Prompt tokens one step takes in (chunked prefill budget, or the
    /// engine's micro-batch).
    pub prefill_chunk: u32,
    /// Where the factors come from.
    pub source: &'static str,
}

/// (bandwidth share, 16-bit compute share, FP8 compute share, overhead per
/// layer s, overhead per sequence s), as the fit gives them.
pub type Factors = (f64, f64, f64, f64, f64);

const FIT: &str = "fitted on the serving calibration rows (docs/serving.md)";

/// The factors of an engine.
pub fn efficiency(engine: Engine) -> Efficiency {
    match engine {
        // vLLM's online server schedules 2048 tokens per step by default
        // (max_num_batched_tokens for the OpenAI server on most GPUs).
        Engine::Vllm => fitted(VLLM, 2048, FIT),
        // SGLang: chunked_prefill_size 8192 on large GPUs; its one public
        // table with a full configuration checks vLLM's factors rather than
        // fitting its own.
        Engine::Sglang => fitted(VLLM, 8192, "vLLM's factors, checked on SGLang's rows (docs/serving.md)"),
        // TensorRT-LLM: max_num_tokens 8192 by default.
        Engine::Trtllm => fitted(TRTLLM, 8192, FIT),
        // llama.cpp: n_ubatch 512 tokens per pass.
        Engine::LlamaCpp => fitted(LLAMA_CPP, 512, FIT),
        // Transformers generate(): the whole prompt in one pass.
        Engine::Transformers => fitted(
            TRANSFORMERS,
            u32::MAX,
            "fitted on Transformers generate() rows (eager PyTorch, A100 80GB; docs/serving.md)",
        ),
    }
}

fn fitted(f: Factors, prefill_chunk: u32, source: &'static str) -> Efficiency {
    Efficiency {
        bandwidth: f.0,
        compute: f.1,
        compute_fp8: f.2,
        layer_overhead_s: f.3,
        seq_overhead_s: f.4,
        prefill_chunk,
        source,
    }
}

/// The fit per engine. An engine whose rows are all 16-bit (vLLM,
/// llama.cpp, Transformers) takes its 16-bit share for FP8 too: its own
/// kernels at another precision, not another engine's. Transformers' large
/// fixed costs are eager PyTorch's: each step's kernels launch one by one
/// from Python, and each sequence's sampling and stopping checks run on the
/// host.
pub const VLLM: Factors = (0.98, 0.78, 0.78, 80e-6, 60e-6);
pub const TRTLLM: Factors = (1.00, 0.76, 0.53, 110e-6, 0.0);
pub const LLAMA_CPP: Factors = (1.00, 0.48, 0.48, 160e-6, 0.0);
pub const TRANSFORMERS: Factors = (0.88, 0.76, 0.76, 510e-6, 730e-6);

/// The relative spread of the expected figures: the 80th percentile of the
/// leave-one-source-out |error| in the calibration table (docs/serving.md).
pub const SPREAD: f64 = 0.20;
