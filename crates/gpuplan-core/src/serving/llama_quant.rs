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
}

impl Mmq {
    /// The kernel's rate over the 16-bit GEMMs' rate on the same GPU.
    pub fn scale(&self) -> f64 {
        self.int8_ratio * self.factor
    }

    /// The kernel and its factors, in `lang`.
    pub fn label(&self, lang: Lang) -> String {
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

/// The MMQ kernel of a llama.cpp plan with GGUF weights on `gpu`.
pub fn mmq(engine: Engine, weights: WeightFormat, gpu: &Gpu) -> Option<Mmq> {
    if engine != Engine::LlamaCpp {
        return None;
    }
    let kernel = kernel(weights)?;
    Some(Mmq { kernel, int8_ratio: int8_ratio(gpu), factor: factor(kernel) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware;

    #[test]
    fn only_llama_cpp_gguf_weights_take_an_mmq_kernel() {
        let gpu = hardware::find("rtx-4090").expect("in the catalog");
        assert_eq!(mmq(Engine::Vllm, WeightFormat::GgufQ4KM, gpu), None);
        assert_eq!(mmq(Engine::LlamaCpp, WeightFormat::Bf16, gpu), None);
        let q4 = mmq(Engine::LlamaCpp, WeightFormat::GgufQ4KM, gpu).expect("an MMQ kernel");
        assert_eq!((q4.kernel, q4.int8_ratio), ("q4_K", 2.0));
        assert!(q4.label(Lang::En).contains("q4_K") && q4.label(Lang::Zh).contains("q4_K"));
        let q3 = mmq(Engine::LlamaCpp, WeightFormat::GgufQ3KL, gpu).expect("an MMQ kernel");
        assert_eq!(q3.factor, POOLED, "no rows of its own");
        let v100 = hardware::find("v100-sxm2").expect("in the catalog");
        assert_eq!(mmq(Engine::LlamaCpp, WeightFormat::GgufQ8_0, v100).map(|m| m.int8_ratio), Some(1.0));
    }
}
