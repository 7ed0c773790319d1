//! Weight storage: effective bits per weight by format, and the weights on
//! the busiest GPU. Quantised formats other than GGUF keep embeddings and
//! lm_head in 16-bit (bitsandbytes, GPTQ/AWQ, fp8, MXFP4 and NVFP4 checkpoints do);
//! GGUF bits are whole-file averages, embeddings included.

use crate::derivation::why;
use crate::model::Arch;
use crate::model::WeightFormat;

use super::split::{self, GroupKind, Split};
use crate::derivation;

pub const SOURCE: &str = "memory.md \"Weights: bytes per parameter\"; QLoRA paper (NF4 + double quant); \
     llama.cpp tools/quantize/README.md (GGUF bpw, Llama-3.1-8B); NVIDIA's NVFP4 blog (FP4 + FP8 scale per 16)";

/// Quantised below 16 bits (needs a dequantisation buffer in training).
pub fn is_quantized(f: WeightFormat) -> bool {
    f.bits() < 16.0
}

/// Bits of one group of weights in this format.
pub fn group_bits(f: WeightFormat, kind: GroupKind, moe: bool) -> f64 {
    match kind {
        GroupKind::Embeddings if f == WeightFormat::Fp32 || f.is_gguf() => f.bits(),
        GroupKind::Embeddings => 16.0,
        // MXFP4 checkpoints (gpt-oss) quantise only the routed experts of an MoE model.
        GroupKind::Attention | GroupKind::Mlp | GroupKind::Shared if f == WeightFormat::Mxfp4 && moe => 16.0,
        _ => f.bits(),
    }
}

/// Weights on the busiest GPU in format `f`, with the derivation.
pub fn bytes(arch: &Arch, f: WeightFormat, split: &Split) -> (f64, String) {
    let groups = split::groups(arch, split);
    let mut total = 0.0;
    let mut parts = Vec::new();
    for g in &groups {
        let bits = group_bits(f, g.kind, arch.is_moe());
        total += g.params * bits / 8.0;
        parts.push(why!("{} {}×{}b", g.kind.label(), derivation::count(g.params), derivation::num(bits)));
    }
    let derivation =
        why!("({}) ÷ 8 bit/B = {}{}", parts.join(" + "), derivation::size(total), split.note(arch.layers));
    match arch.stored {
        Some(stored) if stored.format == f => from_file(arch, f, split, total, stored.bytes),
        _ => (total, derivation),
    }
}

/// Bytes of the input embedding on one GPU of an unpipelined replica of
/// `tp` GPUs (vocab-parallel: each holds 1/tp of the rows): a
/// decode step gathers one row per token from it rather than reading it
/// whole. Tied embeddings are read whole by the LM head, and under pipeline
/// parallelism the stage that bounds the step is the one with the LM head,
/// so both give none.
pub fn gathered_bytes(arch: &Arch, f: WeightFormat, tp: u32, pp: u32) -> f64 {
    if arch.tied_embeddings || pp > 1 {
        return 0.0;
    }
    let rows = arch.shape_counts().embedding * arch.param_scale() / f64::from(tp.max(1));
    rows * group_bits(f, GroupKind::Embeddings, arch.is_moe()) / 8.0
}

/// The LM head on one GPU of `tp` (vocab-parallel): its parameters and
/// bytes. Tied embeddings are the head. Engines apply it only to the tokens
/// that need logits (decode tokens and the last token of each prompt), so a
/// step with none of them neither reads nor multiplies it.
pub fn head(arch: &Arch, f: WeightFormat, tp: u32) -> (f64, f64) {
    let counts = arch.shape_counts();
    let params = if arch.tied_embeddings { counts.embedding } else { counts.lm_head };
    let params = params * arch.param_scale() / f64::from(tp.max(1));
    (params, params * group_bits(f, GroupKind::Embeddings, arch.is_moe()) / 8.0)
}

/// Parameters of the untied input embedding on one GPU of `tp`: a gather,
/// no multiply (tied embeddings are counted as the head).
pub fn input_embedding_params(arch: &Arch, tp: u32) -> f64 {
    if arch.tied_embeddings {
        return 0.0;
    }
    arch.shape_counts().embedding * arch.param_scale() / f64::from(tp.max(1))
}

/// A file's exact bytes, split across GPUs in the shares the shape gives:
/// the formula's whole-model total only sets each GPU's fraction.
fn from_file(arch: &Arch, f: WeightFormat, split: &Split, on_gpu: f64, file_bytes: f64) -> (f64, String) {
    let one = Split { tp: 1, pp: 1, dp: 1, shard: crate::plan::Shard::None };
    let whole: f64 =
        split::groups(arch, &one).iter().map(|g| g.params * group_bits(f, g.kind, arch.is_moe()) / 8.0).sum();
    let share = if whole > 0.0 { (on_gpu / whole).min(1.0) } else { 1.0 };
    let bytes = file_bytes * share;
    let derivation = why!(
        "{} (file) × {} on this GPU = {}{}",
        derivation::size(file_bytes),
        derivation::num(share),
        derivation::size(bytes),
        split.note(arch.layers)
    );
    (bytes, derivation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Shard;

    const ONE: Split = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };

    #[test]
    fn bf16_is_two_bytes_per_param() {
        let (b, d) = bytes(&Arch::default(), WeightFormat::Bf16, &ONE);
        assert_eq!(b, 2.0 * 8_030_261_248.0);
        assert!(d.contains("16.06 GB"), "{d}");
    }

    #[test]
    fn nf4_keeps_embeddings_in_bf16() {
        let arch = Arch::default();
        let (b, _) = bytes(&arch, WeightFormat::Nf4, &ONE);
        let emb = 2.0 * 128_256.0 * 4096.0;
        let body = 8_030_261_248.0 - emb - 4096.0;
        let expect = emb * 2.0 + 4096.0 * 2.0 + body * 4.127 / 8.0;
        assert!((b - expect).abs() / expect < 1e-4, "{b} vs {expect}");
    }

    #[test]
    fn gguf_bits_cover_the_whole_file() {
        // Q4_K_M of Llama-3.1-8B: 4.89 bpw over all 8.03B weights = 4.91 GB.
        let (b, _) = bytes(&Arch::default(), WeightFormat::GgufQ4KM, &ONE);
        assert!((b - 8_030_261_248.0 * 4.89 / 8.0).abs() < 1.0);
    }

    #[test]
    fn mxfp4_quantises_only_experts_of_moe_models() {
        let gpt_oss = crate::model::presets::find("gpt-oss-120b").unwrap().arch();
        let (b, _) = bytes(&gpt_oss, WeightFormat::Mxfp4, &ONE);
        // 114.7B expert weights at 4.25 bits + about 2.1B others at 16 bits: about 65 GB.
        assert!((b / 1e9 - 65.1).abs() < 0.5, "{}", b / 1e9);
    }

    #[test]
    fn nvfp4_is_four_and_a_half_bits_with_16_bit_embeddings() {
        // FP4 values + an FP8 scale per 16: 4.5 bits; embeddings and head stay 16-bit.
        let arch = Arch::default();
        let (b, _) = bytes(&arch, WeightFormat::Nvfp4, &ONE);
        let emb = 2.0 * 128_256.0 * 4096.0;
        let body = 8_030_261_248.0 - emb - 4096.0;
        let expect = emb * 2.0 + 4096.0 * 2.0 + body * 4.5 / 8.0;
        assert!((b - expect).abs() / expect < 1e-4, "{b} vs {expect}");
    }

    #[test]
    fn every_format_has_bits_between_2_and_32() {
        for f in WeightFormat::ALL {
            let b = f.bits();
            assert!((2.0..=32.0).contains(&b), "{f:?}");
        }
    }
}
