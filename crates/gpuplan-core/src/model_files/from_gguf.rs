//! A GGUF header as a planner model: llama.cpp's `{arch}.*` keys give the
//! shape, the tensor infos give the exact bytes and parameter count.

use super::gguf::{self, Header};
use super::{Assumption, FileError, Imported};
use crate::model::WeightFormat;
use crate::model::{Arch, Attention, Mlp, Origin, SlidingWindow, Stored};

/// Reads the first bytes of a `.gguf` file.
pub fn import(bytes: &[u8]) -> Result<Imported, FileError> {
    from_header(&gguf::read(bytes)?)
}

/// A model from a GGUF header (one file's, or a split file's merged).
pub(super) fn from_header(header: &Header) -> Result<Imported, FileError> {
    let mut out = Imported::new(Origin::Gguf);
    let arch_name = header.architecture().unwrap_or("").to_string();
    out.note_read("general.architecture", &arch_name);
    let mut get = |key: &str| {
        let v = header.arch_u64(key);
        if let Some(v) = v {
            out.note_read(&format!("{arch_name}.{key}"), v);
        }
        v
    };
    let c = |v: Option<u64>| v.and_then(|v| u32::try_from(v).ok()).unwrap_or(0);
    let layers = c(get("block_count"));
    let hidden = c(get("embedding_length"));
    let heads = c(get("attention.head_count"));
    let kv_heads = get("attention.head_count_kv").map(|v| c(Some(v)));
    let key_length = get("attention.key_length");
    let experts = c(get("expert_count"));
    let experts_active = c(get("expert_used_count"));
    let expert_width = get("expert_feed_forward_length");
    let ffn = c(get("feed_forward_length"));
    let shared = c(get("expert_shared_count"));
    let leading_dense = c(get("leading_dense_block_count"));
    let context = get("context_length");
    let window = get("attention.sliding_window");
    let kv_lora = get("attention.kv_lora_rank");
    let q_lora = get("attention.q_lora_rank");
    let rope = get("rope.dimension_count");
    let value_length = get("attention.value_length");
    let missing: Vec<&'static str> =
        [("block_count", layers), ("embedding_length", hidden), ("attention.head_count", heads)]
            .iter()
            .filter(|(_, v)| *v == 0)
            .map(|(k, _)| *k)
            .collect();
    if !missing.is_empty() {
        return Err(FileError::NotAModel { missing });
    }
    let vocab = vocab(header, &mut out, hidden);
    let attention = match kv_lora {
        Some(rank) => Attention::Mla {
            kv_lora_rank: c(Some(rank)),
            q_lora_rank: c(q_lora),
            rope_dim: c(rope),
            nope_dim: c(key_length).saturating_sub(c(rope)),
            v_head_dim: c(value_length),
        },
        None => Attention::Standard,
    };
    let kv_heads = kv_heads.unwrap_or_else(|| {
        out.assume("attention.head_count_kv", heads, Assumption::Default);
        heads
    });
    let moe = experts > 0;
    let (params, bytes) = totals(header, &mut out);
    out.arch = Arch {
        params: Some(params),
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim: if matches!(attention, Attention::Mla { .. }) {
            None
        } else {
            key_length.map(|k| c(Some(k)))
        },
        intermediate: if moe { expert_width.map_or(ffn, |w| c(Some(w))) } else { ffn },
        vocab,
        tied_embeddings: !header.tensors.iter().any(|t| t.name == "output.weight"),
        mlp: Mlp::Swiglu,
        experts,
        experts_active,
        shared_experts: shared,
        dense_layers: if moe { leading_dense } else { 0 },
        dense_intermediate: if moe && leading_dense > 0 { ffn } else { 0 },
        attention,
        sliding: window.map(|w| SlidingWindow { window: c(Some(w)), local: 1, global: 1 }),
        max_context: context.unwrap_or(4096),
        stored: None,
        origin: Some(Origin::Gguf),
    };
    if window.is_some() {
        out.assume("sliding layers", "1 sliding : 1 full", Assumption::Simplified);
    }
    if context.is_none() {
        out.assume("context_length", 4096, Assumption::Default);
    }
    let format = file_format(header, &mut out, bytes * 8.0 / params.max(1.0));
    out.arch.stored = Some(Stored { format, bytes });
    out.format = Some(format);
    Ok(out)
}

/// The vocabulary from the tokenizer's token list, else the embedding's shape.
fn vocab(header: &Header, out: &mut Imported, hidden: u32) -> u32 {
    if let Some(gguf::Value::Array { len, .. }) = header.get("tokenizer.ggml.tokens") {
        out.note_read("tokenizer.ggml.tokens", len);
        return u32::try_from(*len).unwrap_or(0);
    }
    let from_shape = header
        .tensors
        .iter()
        .find(|t| t.name == "token_embd.weight")
        .and_then(|t| t.dims.iter().copied().find(|&d| d != u64::from(hidden)))
        .and_then(|d| u32::try_from(d).ok())
        .unwrap_or(0);
    out.assume("vocab", from_shape, Assumption::Derived);
    from_shape
}

/// Exact parameters and bytes over every tensor.
fn totals(header: &Header, out: &mut Imported) -> (f64, f64) {
    let (mut params, mut bytes) = (0.0, 0.0);
    for t in &header.tensors {
        match t.bytes() {
            Some(b) => {
                params += t.elements();
                bytes += b;
            }
            None => out.ignored.push(format!("{} (ggml type {})", t.name, t.ggml_type)),
        }
    }
    out.note_read("tensors", header.tensors.len());
    out.note_read("tensor bytes", format!("{bytes}"));
    (params, bytes)
}

/// `general.file_type` (llama.cpp's `llama_ftype`), else the GGUF format
/// nearest to the file's average bits per weight.
fn file_format(header: &Header, out: &mut Imported, bpw: f64) -> WeightFormat {
    use WeightFormat as W;
    let named = header.get("general.file_type").and_then(gguf::Value::as_u64).and_then(|t| {
        Some(match t {
            0 => W::Fp32,
            1 | 32 => W::Bf16,
            7 => W::GgufQ8_0,
            10 | 21 => W::GgufQ2K,
            11 => W::GgufQ3KS,
            13 => W::GgufQ3KL,
            14 => W::GgufQ4KS,
            15 => W::GgufQ4KM,
            16 => W::GgufQ5KS,
            17 => W::GgufQ5KM,
            18 => W::GgufQ6K,
            19 => W::GgufIq2Xxs,
            30 => W::GgufIq4Xs,
            38 => W::Mxfp4,
            _ => return None,
        })
    });
    if let Some(f) = named {
        out.note_read("general.file_type", format!("{f:?}"));
        return f;
    }
    let nearest = W::ALL
        .iter()
        .copied()
        .filter(|f| f.is_gguf())
        .min_by(|a, b| {
            let d = |f: W| (f.bits() - bpw).abs();
            d(*a).total_cmp(&d(*b))
        })
        .unwrap_or(W::GgufQ4KM);
    out.assume("general.file_type", format!("{nearest:?} ({bpw:.2} bits/weight)"), Assumption::Derived);
    nearest
}
