//! What each serving engine achieves on the hardware: the share of memory
//! bandwidth and dense TFLOPS its kernels reach, and a fixed cost per step
//! (scheduling, sampling, kernel launches). The factors are fitted on the
//! measured rows in `tests/validation/data/serving-public.csv` by the fit in
//! `tests/validation/tests/serving.rs` (`core_factors_are_the_fit`), which
//! fails when these constants drift from what the rows give. Engines with no
//! rows of their own take vLLM's factors and say so. docs/serving.md has the
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
    /// Fixed cost of every step, seconds.
    pub step_overhead_s: f64,
    /// Prompt tokens one step takes in (chunked prefill budget, or the
    /// engine's micro-batch).
    pub prefill_chunk: u32,
    /// Where the factors come from.
    pub source: &'static str,
}

const FIT: &str = "fitted on the serving calibration rows (docs/serving.md)";

/// The factors of an engine.
pub fn efficiency(engine: Engine) -> Efficiency {
    match engine {
        // vLLM's online server schedules 2048 tokens per step by default
        // (max_num_batched_tokens for the OpenAI server on most GPUs).
        Engine::Vllm => Efficiency {
            bandwidth: VLLM.0,
            compute: VLLM.1,
            compute_fp8: VLLM.2,
            step_overhead_s: VLLM.3,
            prefill_chunk: 2048,
            source: FIT,
        },
        // SGLang: chunked_prefill_size 8192 on large GPUs; no rows of its own.
        Engine::Sglang => Efficiency {
            bandwidth: VLLM.0,
            compute: VLLM.1,
            compute_fp8: VLLM.2,
            step_overhead_s: VLLM.3,
            prefill_chunk: 8192,
            source: "vLLM's factors (no SGLang rows yet); docs/serving.md",
        },
        // TensorRT-LLM: max_num_tokens 8192 by default.
        Engine::Trtllm => Efficiency {
            bandwidth: TRTLLM.0,
            compute: TRTLLM.1,
            compute_fp8: TRTLLM.2,
            step_overhead_s: TRTLLM.3,
            prefill_chunk: 8192,
            source: FIT,
        },
        // llama.cpp: n_ubatch 512 tokens per pass.
        Engine::LlamaCpp => Efficiency {
            bandwidth: LLAMA_CPP.0,
            compute: LLAMA_CPP.1,
            compute_fp8: LLAMA_CPP.2,
            step_overhead_s: LLAMA_CPP.3,
            prefill_chunk: 512,
            source: FIT,
        },
        // Transformers generate(): the whole prompt in one pass; no rows of
        // its own (eager PyTorch without CUDA graphs is slower than this).
        Engine::Transformers => Efficiency {
            bandwidth: VLLM.0,
            compute: VLLM.1,
            compute_fp8: VLLM.2,
            step_overhead_s: VLLM.3,
            prefill_chunk: u32::MAX,
            source: "vLLM's factors (no Transformers rows yet): likely optimistic; docs/serving.md",
        },
    }
}

/// (bandwidth share, 16-bit compute share, FP8 compute share, step overhead
/// s) per engine, from the fit. A factor an engine's rows leave open (no
/// FP8 rows outside TensorRT-LLM's) is the fit on all engines' rows.
pub const VLLM: (f64, f64, f64, f64) = (0.87, 0.37, 0.50, 0.0031);
pub const TRTLLM: (f64, f64, f64, f64) = (1.00, 0.61, 0.52, 0.0070);
pub const LLAMA_CPP: (f64, f64, f64, f64) = (1.00, 0.79, 0.50, 0.0024);

/// The relative spread of the expected figures: the 80th percentile of the
/// leave-one-source-out |error| in the calibration table (docs/serving.md).
pub const SPREAD: f64 = 0.31;
