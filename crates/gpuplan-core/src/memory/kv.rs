//! KV cache: what each token leaves behind in every layer. Standard
//! attention stores K and V for the KV heads (tensor parallel splits the
//! heads, at least one per GPU); MLA stores the compressed latent plus the
//! decoupled RoPE key (replicated on every tensor-parallel rank); windowed
//! layers hold at most the window.

use crate::derivation::why;
use crate::model::{Arch, Attention};
use crate::plan::KvDtype;

use super::split::Split;
use crate::derivation;

pub const SOURCE: &str = "memory.md \"KV cache (inference)\": 2·L·k·d·bytes per token; MLA kv_lora_rank + \
     rope dims (DeepSeek-V2/V3 paper); sliding windows (Mistral, Gemma 3, gpt-oss configs)";

/// Bytes per cached element. Int8 / Int4 are llama.cpp's q8_0 / q4_0 blocks
/// (32 values with an fp16 scale).
pub fn element_bytes(dtype: KvDtype) -> f64 {
    match dtype {
        KvDtype::Fp32 => 4.0,
        KvDtype::Bf16 => 2.0,
        KvDtype::Fp8 => 1.0,
        KvDtype::Int8 => 8.5 / 8.0,
        KvDtype::Int4 => 4.5 / 8.0,
    }
}

/// Elements one token stores in one layer on one GPU, and its notation.
fn elements_per_layer(arch: &Arch, split: &Split) -> (f64, String) {
    match arch.attention {
        Attention::Standard => {
            let heads = arch.kv_heads.div_ceil(split.tp).max(1);
            let d = arch.head_dim();
            let e = 2.0 * f64::from(heads) * f64::from(d);
            let k = if split.tp > 1 {
                why!("⌈k {}/tp {}⌉ {heads}", arch.kv_heads, split.tp)
            } else {
                why!("k {heads}")
            };
            (e, why!("2·{k}·d {d}"))
        }
        Attention::Mla { kv_lora_rank, rope_dim, .. } => {
            let e = f64::from(kv_lora_rank) + f64::from(rope_dim);
            (e, why!("(c_kv {kv_lora_rank} + d_rope {rope_dim})"))
        }
    }
}

/// Layers with full attention and layers with a window, over the whole model.
pub fn layer_split(arch: &Arch) -> (u32, u32) {
    let Some(w) = arch.sliding else { return (arch.layers, 0) };
    let period = w.local.saturating_add(w.global).max(1);
    let local = (0..arch.layers).filter(|i| i % period < w.local).count();
    let local = u32::try_from(local).unwrap_or(arch.layers);
    (arch.layers.saturating_sub(local), local)
}

/// Token-layers `seqs` sequences of `context` tokens each keep: windowed
/// layers hold at most the window.
pub fn token_layers(arch: &Arch, context: u64, seqs: u64) -> f64 {
    let (full, local) = layer_split(arch);
    let ctx = context as f64;
    let window = arch.sliding.map_or(ctx, |w| ctx.min(f64::from(w.window)));
    seqs as f64 * (f64::from(full) * ctx + f64::from(local) * window)
}

/// KV bytes on the busiest GPU for `seqs` sequences of `context` tokens each.
pub fn bytes(arch: &Arch, dtype: KvDtype, split: &Split, context: u64, seqs: u64) -> (f64, String) {
    let (elems, elems_txt) = elements_per_layer(arch, split);
    let eb = element_bytes(dtype);
    let (full, local) = layer_split(arch);
    let stage = split.stage_fraction(arch.layers);
    let total = token_layers(arch, context, seqs) * elems * eb * stage;
    let layers_txt = if local > 0 {
        let w = arch.sliding.map_or(0, |w| w.window);
        why!("(L_full {full}·s {context} + L_win {local}·min(s, {w}))")
    } else {
        why!("L {}·s {context}", arch.layers)
    };
    let stage_txt = if split.pp > 1 {
        why!("·{}/{}", split.stage_layers(arch.layers), arch.layers)
    } else {
        String::new()
    };
    let derivation = why!(
        "n {seqs}·{layers_txt}·{elems_txt}·{} B{stage_txt} = {}",
        derivation::num(eb),
        derivation::size(total)
    );
    (total, derivation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets::find;
    use crate::plan::Shard;

    fn split(tp: u32) -> Split {
        Split { tp, pp: 1, dp: 1, shard: Shard::None }
    }

    #[test]
    fn llama3_8b_is_128_kib_per_token() {
        // memory.md: 32 layers × 8 KV heads × d 128 → 131,072 bytes/token.
        let (b, d) = bytes(&Arch::default(), KvDtype::Bf16, &split(1), 1, 1);
        assert_eq!(b, 131_072.0);
        assert!(d.starts_with("n 1·L 32·s 1·2·k 8·d 128·2 B"), "{d}");
        let (fp8, _) = bytes(&Arch::default(), KvDtype::Fp8, &split(1), 1, 1);
        assert_eq!(fp8, 65_536.0);
    }

    #[test]
    fn deepseek_v3_mla_is_70272_bytes_per_token() {
        let arch = find("deepseek-v3").unwrap().arch();
        let (b, _) = bytes(&arch, KvDtype::Bf16, &split(1), 1, 1);
        assert_eq!(b, 70_272.0);
        // the latent is not split by tensor parallel
        let (b8, _) = bytes(&arch, KvDtype::Bf16, &split(8), 1, 1);
        assert_eq!(b8, 70_272.0);
    }

    #[test]
    fn tp_splits_kv_heads_but_keeps_one_per_gpu() {
        let arch = find("qwen3-30b-a3b").unwrap().arch(); // 4 KV heads
        let one = bytes(&arch, KvDtype::Bf16, &split(1), 1000, 1).0;
        assert_eq!(bytes(&arch, KvDtype::Bf16, &split(2), 1000, 1).0, one / 2.0);
        assert_eq!(bytes(&arch, KvDtype::Bf16, &split(8), 1000, 1).0, one / 4.0);
    }

    #[test]
    fn sliding_layers_cap_at_the_window() {
        let gemma = find("gemma-3-27b").unwrap().arch(); // 62 layers: 52 local, 10 global
        assert_eq!(layer_split(&gemma), (10, 52));
        let per_layer_token = 2.0 * 16.0 * 128.0 * 2.0;
        let (b, _) = bytes(&gemma, KvDtype::Bf16, &split(1), 32768, 1);
        assert_eq!(b, (10.0 * 32768.0 + 52.0 * 1024.0) * per_layer_token);
        let gpt_oss = find("gpt-oss-20b").unwrap().arch();
        assert_eq!(layer_split(&gpt_oss), (12, 12));
        let mistral = find("mistral-7b").unwrap().arch();
        let (at_4k, _) = bytes(&mistral, KvDtype::Bf16, &split(1), 4096, 1);
        let (at_32k, _) = bytes(&mistral, KvDtype::Bf16, &split(1), 32768, 1);
        assert_eq!(at_4k, at_32k);
    }

    #[test]
    fn mixtral_512_tokens_is_64_mib() {
        // llama.cpp issue 4381: K 32 MiB + V 32 MiB at n_ctx 512, f16.
        let arch = find("mixtral-8x7b").unwrap().arch();
        let (b, _) = bytes(&arch, KvDtype::Bf16, &split(1), 512, 1);
        assert_eq!(b, 64.0 * 1024.0 * 1024.0);
    }
}
