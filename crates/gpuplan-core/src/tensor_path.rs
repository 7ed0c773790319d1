//! The tensor cores a plan's GEMMs run on, by weight format and card: FP8
//! weights (with FP8 activations) on FP8 tensor cores where the card has
//! them; NVFP4 weights and activations on NVIDIA's FP4 tensor cores
//! (Blackwell: compute capability 10.x and 12.x, whose `mma` takes FP4 e2m1
//! operands with an FP8 e4m3 scale per 16 values); everything else at the
//! 16-bit rate, weight-only formats dequantising to 16 bit first. NVFP4 is
//! NVIDIA's format: AMD's MI355X multiplies OCP MXFP4 (a power-of-two scale
//! per 32 values) in hardware, not NVFP4's per-16 FP8 scales, and on cards
//! without FP4 tensor cores engines run NVFP4 checkpoints weight-only (vLLM
//! dequantises them through its FP4 Marlin kernels on Ampere and Hopper).

use serde::Serialize;

use crate::hardware::{Gpu, HwFormat, Stack, Support};
use crate::model::WeightFormat;

/// Where the GEMMs of a weight format run on one card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TensorPath {
    /// 16-bit tensor cores (weight-only formats dequantised to 16 bit).
    Bf16,
    /// FP8 tensor cores.
    Fp8,
    /// NVIDIA FP4 tensor cores with NVFP4 block scales.
    Fp4,
}

impl TensorPath {
    /// A low-precision path: the engine's FP8 compute share applies (no
    /// calibration rows of its own for FP4; docs/serving.md "NVFP4").
    pub fn low_precision(self) -> bool {
        self != TensorPath::Bf16
    }
}

/// The path `weights` take on `gpu`.
pub fn tensor_path(gpu: &Gpu, weights: WeightFormat) -> TensorPath {
    let has = |f| gpu.supports(f) == Support::Yes;
    match weights {
        WeightFormat::Fp8 if has(HwFormat::Fp8) => TensorPath::Fp8,
        WeightFormat::Nvfp4 if gpu.stack == Stack::Cuda && has(HwFormat::Fp4) => TensorPath::Fp4,
        _ => TensorPath::Bf16,
    }
}

/// The dense tensor TFLOPS the GEMMs run at: the path's rate, falling back
/// to the next wider format where the catalog lacks it.
pub fn tensor_tflops(gpu: &Gpu, weights: WeightFormat) -> Option<f64> {
    match tensor_path(gpu, weights) {
        TensorPath::Fp4 => gpu.fp4_tflops.or(gpu.fp8_tflops).or(gpu.bf16_tflops),
        TensorPath::Fp8 => gpu.fp8_tflops.or(gpu.bf16_tflops),
        TensorPath::Bf16 => gpu.bf16_tflops,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware;

    fn gpu(id: &str) -> &'static Gpu {
        hardware::find(id).expect(id)
    }

    #[test]
    fn nvfp4_runs_on_fp4_cores_only_on_blackwell() {
        for (id, path) in [
            ("b200", TensorPath::Fp4),
            ("rtx-pro-6000", TensorPath::Fp4),
            ("gb200", TensorPath::Fp4),
            ("h100-sxm", TensorPath::Bf16),
            ("a100-80-sxm", TensorPath::Bf16),
            ("mi355x", TensorPath::Bf16),
        ] {
            assert_eq!(tensor_path(gpu(id), WeightFormat::Nvfp4), path, "{id}");
        }
        assert_eq!(tensor_tflops(gpu("b200"), WeightFormat::Nvfp4), Some(9000.0));
        assert_eq!(tensor_tflops(gpu("h100-sxm"), WeightFormat::Nvfp4), Some(989.0));
        // MXFP4 stays weight-only: its engines dequantise it for 16-bit GEMMs.
        assert_eq!(tensor_path(gpu("b200"), WeightFormat::Mxfp4), TensorPath::Bf16);
        assert_eq!(tensor_path(gpu("h100-sxm"), WeightFormat::Fp8), TensorPath::Fp8);
    }
}
