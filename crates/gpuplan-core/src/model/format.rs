//! Weight storage formats and their effective bits per weight. Sources of the
//! bit widths: memory.md "Weights: bytes per parameter"; QLoRA paper (NF4 +
//! double quant); llama.cpp tools/quantize/README.md (GGUF bpw, Llama-3.1-8B).

use serde::{Deserialize, Serialize};

/// Weight storage format. [`WeightFormat::bits`] gives the effective bits
/// per weight (block scales included); the memory engine keeps embeddings
/// 16-bit where the format does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightFormat {
    Fp32,
    #[default]
    Bf16,
    Fp8,
    Int8,
    /// bitsandbytes NF4 / int4 with absmax per 64 (double-quantised).
    Nf4,
    /// GPTQ / AWQ int4, group size 128.
    GptqInt4,
    /// GPTQ int8, group size 128.
    GptqInt8,
    Mxfp4,
    /// NVIDIA NVFP4: FP4 e2m1 values, an FP8 e4m3 scale per 16 and an FP32
    /// scale per tensor; weights and activations alike on Blackwell's FP4
    /// tensor cores.
    Nvfp4,
    GgufQ2K,
    GgufQ3KS,
    GgufQ3KL,
    GgufQ4KS,
    GgufQ4KM,
    GgufQ5KS,
    GgufQ5KM,
    GgufQ6K,
    GgufQ8_0,
    GgufIq4Xs,
    GgufIq2Xxs,
}

impl WeightFormat {
    /// Every format, for flag parsing, pickers and exhaustive tests.
    pub const ALL: [WeightFormat; 20] = {
        use WeightFormat as W;
        [
            W::Fp32,
            W::Bf16,
            W::Fp8,
            W::Int8,
            W::Nf4,
            W::GptqInt4,
            W::GptqInt8,
            W::Mxfp4,
            W::Nvfp4,
            W::GgufQ2K,
            W::GgufQ3KS,
            W::GgufQ3KL,
            W::GgufQ4KS,
            W::GgufQ4KM,
            W::GgufQ5KS,
            W::GgufQ5KM,
            W::GgufQ6K,
            W::GgufQ8_0,
            W::GgufIq4Xs,
            W::GgufIq2Xxs,
        ]
    };

    /// Effective bits per weight of a linear layer in this format, block scales included.
    pub fn bits(self) -> f64 {
        use WeightFormat as W;
        match self {
            W::Fp32 => 32.0,
            W::Bf16 => 16.0,
            // DeepSeek-V3 style: one fp32 scale per 128×128 block.
            W::Fp8 => 8.0 + 32.0 / (128.0 * 128.0),
            // LLM.int8: int8 weights; row scales are negligible.
            W::Int8 => 8.0,
            // NF4 with an fp8 absmax per 64 and an fp32 scale per 256 absmaxes (double quantisation).
            W::Nf4 => 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0),
            // group 128: fp16 scale + zero point per group.
            W::GptqInt4 => 4.0 + 32.0 / 128.0,
            W::GptqInt8 => 8.0 + 32.0 / 128.0,
            // 4-bit values with one 8-bit scale per 32.
            W::Mxfp4 => 4.0 + 8.0 / 32.0,
            // 4-bit values with one FP8 scale per 16 (NVIDIA's NVFP4 blog and
            // the PTX ISA's block-scaled mma); the FP32 scale per tensor is
            // 4 bytes a matrix, under 1e-6 bit a weight.
            W::Nvfp4 => 4.0 + 8.0 / 16.0,
            W::GgufQ2K => 3.16,
            W::GgufQ3KS => 3.64,
            W::GgufQ3KL => 4.30,
            W::GgufQ4KS => 4.67,
            W::GgufQ4KM => 4.89,
            W::GgufQ5KS => 5.57,
            W::GgufQ5KM => 5.70,
            W::GgufQ6K => 6.56,
            W::GgufQ8_0 => 8.50,
            W::GgufIq4Xs => 4.46,
            W::GgufIq2Xxs => 2.38,
        }
    }

    /// A GGUF quantisation, whose bits are whole-file averages, embeddings included.
    pub fn is_gguf(self) -> bool {
        use WeightFormat as W;
        matches!(
            self,
            W::GgufQ2K
                | W::GgufQ3KS
                | W::GgufQ3KL
                | W::GgufQ4KS
                | W::GgufQ4KM
                | W::GgufQ5KS
                | W::GgufQ5KM
                | W::GgufQ6K
                | W::GgufQ8_0
                | W::GgufIq4Xs
                | W::GgufIq2Xxs
        )
    }
}
