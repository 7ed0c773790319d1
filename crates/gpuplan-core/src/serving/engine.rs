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
//!
//! The fit is per engine, on the GPUs of the calibration rows. On other GPUs
//! that NVIDIA's aiconfigurator measured kernels for (H200, B200, B300,
//! GB200, GB300, RTX PRO 6000), the fit's shares are carried over by the
//! kernels: each share × what the engine's GEMMs reach on that GPU ÷ what
//! they reach on the H100, where the fit has rows of all three engines. An
//! older engine release scales them the same way, by its kernels against
//! the current release's on the same GPU. The end-to-end fit stays the judge
//! where it has rows: kernels never replace it there.

use serde::Serialize;

use crate::hardware::kernels::{self, KernelShares};
use crate::lang::Lang;
use crate::plan::{Engine, CURRENT_RELEASE};
use crate::text::{self, Key};

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
    /// What the engine's HTTP server adds to a streamed first token beyond
    /// the steps (taking the request, tokenising, handing it to the
    /// scheduler, detokenising and streaming the token), seconds: fitted on
    /// open-loop rows ([`front_end_s`]); counted under a traffic target.
    pub front_end_s: f64,
    /// Where the factors come from.
    pub source: &'static str,
    /// What the factors rest on for this GPU.
    pub basis: FactorBasis,
    /// The engine release whose kernels scaled the factors ("" when none did).
    pub release: &'static str,
}

/// What an engine's factors rest on, for one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FactorBasis {
    /// The GPU has end-to-end calibration rows: the fit as it stands.
    EndToEnd,
    /// The fit carried to this GPU (or release) by measured kernels.
    Kernels,
    /// Neither: the fit on the catalog's spec-sheet peaks.
    SpecSheet,
}

/// The GPUs of the end-to-end calibration rows (data/serving-public.csv; a
/// validation test keeps the two equal).
pub const CALIBRATED_GPUS: &[&str] =
    &["a100-40-sxm", "a100-80-pcie", "a100-80-sxm", "h100-sxm", "l4", "l40s", "rtx-3090", "rtx-4090"];

/// The GPU whose kernels the fit is carried from: it has end-to-end rows of
/// vLLM, SGLang and TensorRT-LLM alike.
pub const ANCHOR_GPU: &str = "h100-sxm";

/// (bandwidth share, 16-bit compute share, FP8 compute share, overhead per
/// layer s, overhead per sequence s), as the fit gives them.
pub type Factors = (f64, f64, f64, f64, f64);

const FIT: &str = "fitted on the serving calibration rows (docs/serving.md)";

/// The factors of an engine.
pub fn efficiency(engine: Engine) -> Efficiency {
    match engine {
        // vLLM's online server schedules 2048 tokens per step by default
        // (max_num_batched_tokens for the OpenAI server on most GPUs).
        Engine::Vllm => fitted(VLLM, 2048, FIT).serving(engine),
        // SGLang: chunked_prefill_size 8192 on large GPUs; its one public
        // table with a full configuration checks vLLM's factors rather than
        // fitting its own.
        Engine::Sglang => {
            fitted(VLLM, 8192, "vLLM's factors, checked on SGLang's rows (docs/serving.md)").serving(engine)
        }
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
        front_end_s: 0.0,
        source,
        basis: FactorBasis::EndToEnd,
        release: "",
    }
}

/// The HTTP server's own time to a streamed first token, seconds, fitted on
/// the open-loop rows of `tests/validation/data/serving-open-loop.csv`
/// (`tests/validation/tests/open_loop.rs`, `core_front_end_is_the_fit`).
/// Engines without open-loop rows add nothing: their first token is the
/// engine's steps alone.
pub fn front_end_s(engine: Engine) -> f64 {
    match engine {
        Engine::Vllm => VLLM_FRONT_END_S,
        Engine::Sglang => SGLANG_FRONT_END_S,
        _ => 0.0,
    }
}

/// vLLM's, fitted on a vLLM 0.14.1 rate sweep (H200, Llama 3.1 70B FP8).
pub const VLLM_FRONT_END_S: f64 = 0.0265;
/// SGLang's, fitted on SGLang 0.3.0 at 4 and 8 req/s (A100, Llama 3.1 8B).
pub const SGLANG_FRONT_END_S: f64 = 0.004;

impl Efficiency {
    /// With the engine's HTTP server time.
    fn serving(self, engine: Engine) -> Self {
        Self { front_end_s: front_end_s(engine), ..self }
    }

    /// What the factors rest on, and for kernels which release, in `lang`.
    pub fn basis_text(&self, engine: Engine, lang: Lang) -> String {
        let key = match self.basis {
            FactorBasis::EndToEnd => Key::FactorsEndToEnd,
            FactorBasis::Kernels => Key::FactorsKernels,
            FactorBasis::SpecSheet => Key::FactorsSpecSheet,
        };
        let release = format!("{} {}", engine_name(engine), self.release);
        text::fill(key, lang, &[("release", &release)])
    }
}

fn engine_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Vllm => "vLLM",
        Engine::Sglang => "SGLang",
        Engine::Trtllm => "TensorRT-LLM",
        Engine::LlamaCpp => "llama.cpp",
        Engine::Transformers => "Transformers",
    }
}

/// The engine's id in the kernel tables, for the engines they cover.
fn kernel_engine(engine: Engine) -> Option<&'static str> {
    match engine {
        Engine::Vllm => Some("vllm"),
        Engine::Sglang => Some("sglang"),
        Engine::Trtllm => Some("trtllm"),
        Engine::LlamaCpp | Engine::Transformers => None,
    }
}

/// The factors of `engine` on the catalog GPU `gpu` at `release` ("current"
/// or one the kernel tables hold): the fit where the GPU has calibration
/// rows (scaled by the kernels of an older release when one is asked for),
/// the fit carried over by the GPU's kernels where the tables measured it,
/// and the fit on the spec sheet otherwise.
pub fn efficiency_on(engine: Engine, gpu: &str, release: &str) -> Efficiency {
    let fit = efficiency(engine);
    let calibrated = CALIBRATED_GPUS.contains(&gpu);
    let spec =
        Efficiency { basis: if calibrated { FactorBasis::EndToEnd } else { FactorBasis::SpecSheet }, ..fit };
    let current = kernel_engine(engine)
        .and_then(|id| kernels::kernel_shares(gpu, id, release))
        .is_none_or(|t| t.current);
    if calibrated && current {
        return spec;
    }
    // Against the same GPU's current release where the fit has rows on it,
    // else against the anchor's: the ratio then holds only what differs.
    let anchor = if calibrated { gpu } else { ANCHOR_GPU };
    carried_from(engine, gpu, anchor, release).unwrap_or(spec)
}

/// The fit of `engine` carried from `anchor` to `gpu` at `release` by their
/// measured kernels (the anchor at its current release); none where the
/// tables lack either.
pub fn carried_from(engine: Engine, gpu: &str, anchor: &str, release: &str) -> Option<Efficiency> {
    let id = kernel_engine(engine)?;
    let target = kernels::kernel_shares(gpu, id, release)?;
    let from = kernels::kernel_shares(anchor, id, CURRENT_RELEASE)?;
    Some(carried(&efficiency(engine), target, from))
}

/// The fit's shares × the target's kernel shares ÷ the anchor's, at most
/// the whole peak. The fixed costs stay the fit's: they are the engine's
/// launches, host work and small kernels, which the GEMM tables do not time.
fn carried(fit: &Efficiency, target: &KernelShares, anchor: &KernelShares) -> Efficiency {
    let scale = |share: f64, t: f64, a: f64| if a > 0.0 { (share * t / a).min(1.0) } else { share };
    let fp8 = match (target.compute_fp8, anchor.compute_fp8) {
        (Some(t), Some(a)) => scale(fit.compute_fp8, t, a),
        _ => scale(fit.compute_fp8, target.compute, anchor.compute),
    };
    Efficiency {
        bandwidth: scale(fit.bandwidth, target.bandwidth, anchor.bandwidth),
        compute: scale(fit.compute, target.compute, anchor.compute),
        compute_fp8: fp8,
        basis: FactorBasis::Kernels,
        release: target.release,
        source: KERNEL_SOURCE,
        ..*fit
    }
}

const KERNEL_SOURCE: &str = "the end-to-end fit carried over by measured kernels (docs/serving.md)";

/// The releases a plan can ask for with `engine` besides the current one:
/// those the kernel tables hold, llama.cpp's builds before the MMQ rework
/// (docs/serving.md), none for Transformers.
pub fn releases(engine: Engine) -> Vec<&'static str> {
    if engine == Engine::LlamaCpp {
        return super::llama_quant::BUILDS.to_vec();
    }
    kernel_engine(engine).map(kernels::releases).unwrap_or_default()
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
pub const SPREAD: f64 = 0.22;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gpu_says_what_its_factors_rest_on() {
        let on = |e, gpu| efficiency_on(e, gpu, CURRENT_RELEASE);
        assert_eq!(on(Engine::Vllm, "h100-sxm"), efficiency(Engine::Vllm), "the fit where it has rows");
        assert_eq!(on(Engine::Vllm, "t4").basis, FactorBasis::SpecSheet);
        assert_eq!(
            on(Engine::LlamaCpp, "b200").basis,
            FactorBasis::SpecSheet,
            "no kernel tables of llama.cpp"
        );
        let b200 = on(Engine::Vllm, "b200");
        assert_eq!((b200.basis, b200.release), (FactorBasis::Kernels, "0.24.0"));
        let (k, h) = (
            kernels::kernel_shares("b200", "vllm", "").unwrap(),
            kernels::kernel_shares("h100-sxm", "vllm", "").unwrap(),
        );
        assert!((b200.bandwidth - VLLM.0 * k.bandwidth / h.bandwidth).abs() < 1e-12);
        assert_eq!(b200.layer_overhead_s, VLLM.3, "fixed costs stay the fit's");
    }

    #[test]
    fn an_older_release_scales_the_fit_on_its_own_gpu() {
        let old = efficiency_on(Engine::Sglang, "h100-sxm", "0.5.6.post2");
        assert_eq!((old.basis, old.release), (FactorBasis::Kernels, "0.5.6.post2"));
        assert!(old.compute > efficiency(Engine::Sglang).compute, "its GEMMs reached more of the peak");
        assert!(releases(Engine::Sglang).contains(&"0.5.6.post2"));
        assert_eq!(releases(Engine::LlamaCpp), vec![crate::serving::llama_quant::PRE_MMQ]);
        let unknown = efficiency_on(Engine::Sglang, "h100-sxm", "0.1");
        assert_eq!(unknown.basis, FactorBasis::EndToEnd, "a release the tables lack is the current one");
    }

    #[test]
    fn the_basis_reads_in_both_languages() {
        let b200 = efficiency_on(Engine::Vllm, "b200", CURRENT_RELEASE);
        assert!(b200.basis_text(Engine::Vllm, Lang::En).contains("vLLM 0.24.0"));
        assert!(b200.basis_text(Engine::Vllm, Lang::Zh).contains("vLLM 0.24.0"));
    }
}
