//! How fast llama.cpp multiplies GGUF-quantised weights in a prompt pass.
//! Since mid-2024 its CUDA backend multiplies a quantised matrix by a batch
//! of tokens with its MMQ kernels by default: each tile of weights is
//! unpacked from its blocks in shared memory and multiplied on the int8
//! tensor cores against the activations quantised to 8 bits, instead of
//! writing an FP16 copy of the matrix for cuBLAS. Their rate is the int8
//! peak times a share that depends on the block type (how much unpacking a
//! tile takes); generation (one token) stays a read of the quantised bytes.
//! The shares are fitted on public llama-bench tables per block type by
//! `tests/validation/tests/serving.rs` (`core_mmq_factors_are_the_fit`);
//! docs/serving.md has the rows and the held-out error.
//!
//! Builds before that rework (the plan's engine release [`PRE_MMQ`])
//! multiplied a pass of more than 32 tokens ([`CUBLAS_ABOVE`], ggml-cuda's
//! `MMQ_MAX_BATCH_SIZE` then) by writing an FP16 copy of each quantised
//! matrix and handing it to cuBLAS (PR 3412): the 16-bit rate, and the copy
//! written and read again, [`COPY_BYTES`] a weight, on top of the quantised
//! read.

use serde::Serialize;

use crate::derivation::n;
use crate::hardware::Gpu;
use crate::lang::Lang;
use crate::model::WeightFormat;
use crate::plan::Engine;
use crate::text::{self, Key};

/// The MMQ kernel one plan's weights run through.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mmq {
    /// ggml's block type the kernel unpacks (`q4_K`); the K-quant mixes
    /// (`_S`, `_M`, `_L`) are named for their main type.
    pub kernel: &'static str,
    /// The int8 tensor peak over the 16-bit rate the GEMMs otherwise run at.
    pub int8_ratio: f64,
    /// The kernel's achieved share of the int8 peak over the 16-bit GEMMs'
    /// share of theirs (fitted; the pooled value for a type without rows).
    pub factor: f64,
    /// A build before the MMQ rework: passes of more than [`CUBLAS_ABOVE`]
    /// tokens go through an FP16 copy and cuBLAS at the 16-bit rate.
    pub fp16_copy: bool,
}

pub use crate::plan::{LLAMA_CPP_BUILDS as BUILDS, LLAMA_CPP_PRE_MMQ as PRE_MMQ};

/// Passes of more tokens than this took the FP16 copy and cuBLAS in
/// pre-rework builds (ggml-cuda's `MMQ_MAX_BATCH_SIZE`, 32).
pub const CUBLAS_ABOVE: f64 = 32.0;

/// Bytes a weight the FP16 copy costs a pass: 2 written, 2 read by cuBLAS.
pub const COPY_BYTES: f64 = 4.0;

impl Mmq {
    /// The kernel's rate over the 16-bit GEMMs' rate on the same GPU.
    pub fn scale(&self) -> f64 {
        if self.fp16_copy {
            1.0
        } else {
            self.int8_ratio * self.factor
        }
    }

    /// Bytes a weight of extra traffic in a pass of `tokens` tokens: the
    /// FP16 copy of a pre-rework build's cuBLAS pass, else none.
    pub fn copy_bytes_per_weight(&self, tokens: f64) -> f64 {
        if self.fp16_copy && tokens > CUBLAS_ABOVE {
            COPY_BYTES
        } else {
            0.0
        }
    }

    /// The kernel and its factors, in `lang`.
    pub fn label(&self, lang: Lang) -> String {
        if self.fp16_copy {
            return text::fill(Key::LlamaFp16Copy, lang, &[("kernel", &self.kernel)]);
        }
        let (ratio, factor) = (n(self.int8_ratio), n(self.factor));
        text::fill(Key::LlamaMmq, lang, &[("kernel", &self.kernel), ("ratio", &ratio), ("factor", &factor)])
    }
}

/// The fitted factor per block type with rows in the serving table.
pub const FACTORS: &[(&str, f64)] =
    &[("q2_K", 0.41), ("q4_K", 0.57), ("q5_K", 0.34), ("q6_K", 0.40), ("q8_0", 0.38)];

/// The factor fitted on every quantised prompt row at once: the block types
/// without rows of their own (q3_K, the i-quants) take it.
pub const POOLED: f64 = 0.45;

/// The block type whose kernel multiplies `w`; none for unquantised formats.
fn kernel(w: WeightFormat) -> Option<&'static str> {
    use WeightFormat as W;
    Some(match w {
        W::GgufQ2K => "q2_K",
        W::GgufQ3KS | W::GgufQ3KL => "q3_K",
        W::GgufQ4KS | W::GgufQ4KM => "q4_K",
        W::GgufQ5KS | W::GgufQ5KM => "q5_K",
        W::GgufQ6K => "q6_K",
        W::GgufQ8_0 => "q8_0",
        W::GgufIq4Xs => "iq4_xs",
        W::GgufIq2Xxs => "iq2_xxs",
        _ => return None,
    })
}

/// The fitted factor of a block type, or the pooled one.
fn factor(kernel: &str) -> f64 {
    FACTORS.iter().find(|(k, _)| *k == kernel).map_or(POOLED, |(_, f)| *f)
}

/// NVIDIA's int8 tensor cores (compute capability 7.5 on) run at twice the
/// full 16-bit tensor rate; older parts and GPUs without a compute
/// capability in the catalog are taken at the 16-bit rate.
fn int8_ratio(gpu: &Gpu) -> f64 {
    match gpu.compute_capability.parse::<f64>() {
        Ok(cc) if cc >= 7.5 => 2.0,
        _ => 1.0,
    }
}

/// The MMQ kernel of a llama.cpp plan with GGUF weights on `gpu` in the
/// build `release` names (a pre-rework build copies to FP16 instead).
pub fn mmq(engine: Engine, weights: WeightFormat, gpu: &Gpu, release: &str) -> Option<Mmq> {
    if engine != Engine::LlamaCpp {
        return None;
    }
    let kernel = kernel(weights)?;
    let fp16_copy = release == PRE_MMQ;
    Some(Mmq { kernel, int8_ratio: int8_ratio(gpu), factor: factor(kernel), fp16_copy })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware;

    #[test]
    fn only_llama_cpp_gguf_weights_take_an_mmq_kernel() {
        let gpu = hardware::find("rtx-4090").expect("in the catalog");
        let now = crate::plan::CURRENT_RELEASE;
        assert_eq!(mmq(Engine::Vllm, WeightFormat::GgufQ4KM, gpu, now), None);
        assert_eq!(mmq(Engine::LlamaCpp, WeightFormat::Bf16, gpu, now), None);
        let q4 = mmq(Engine::LlamaCpp, WeightFormat::GgufQ4KM, gpu, now).expect("an MMQ kernel");
        assert_eq!((q4.kernel, q4.int8_ratio), ("q4_K", 2.0));
        assert!(q4.label(Lang::En).contains("q4_K") && q4.label(Lang::Zh).contains("q4_K"));
        assert_eq!(q4.copy_bytes_per_weight(512.0), 0.0);
        let q3 = mmq(Engine::LlamaCpp, WeightFormat::GgufQ3KL, gpu, now).expect("an MMQ kernel");
        assert_eq!(q3.factor, POOLED, "no rows of its own");
        let v100 = hardware::find("v100-sxm2").expect("in the catalog");
        assert_eq!(mmq(Engine::LlamaCpp, WeightFormat::GgufQ8_0, v100, now).map(|m| m.int8_ratio), Some(1.0));
    }

    #[test]
    fn a_pre_rework_build_copies_to_fp16_for_cublas_past_32_tokens() {
        let gpu = hardware::find("a100-80-pcie").expect("in the catalog");
        let old = mmq(Engine::LlamaCpp, WeightFormat::GgufQ8_0, gpu, PRE_MMQ).expect("a kernel");
        assert_eq!(old.scale(), 1.0, "the 16-bit rate");
        assert_eq!((old.copy_bytes_per_weight(32.0), old.copy_bytes_per_weight(512.0)), (0.0, COPY_BYTES));
        assert!(old.label(Lang::En).contains("FP16") && old.label(Lang::Zh).contains("FP16"));
    }
}
