//! safetensors headers as a planner model. The header gives exact bytes and
//! element counts; the shape is recovered from Hugging Face tensor names
//! (`model.layers.N.self_attn.q_proj.weight` ...). What names cannot tell
//! (the split of q_proj rows into heads × head_dim) is assumed and said;
//! a `config.json` beside it gives the exact shape.

use std::collections::BTreeSet;

use super::safetensors::{self, Tensor};
use super::{Assumption, FileError, Imported};
use crate::model::WeightFormat;
use crate::model::{Arch, Origin, Stored};

/// The head width most current models use; q_proj rows ÷ this = heads.
const COMMON_HEAD_DIM: u32 = 128;

/// Reads the first bytes of a `.safetensors` file (8 + header length).
pub fn import(bytes: &[u8], file_size: Option<u64>) -> Result<Imported, FileError> {
    from_tensors(&safetensors::read(bytes, file_size)?)
}

/// A model from the tensors of one file, or of every shard of a checkpoint.
pub(super) fn from_tensors(tensors: &[Tensor]) -> Result<Imported, FileError> {
    let mut out = Imported::new(Origin::Safetensors);
    let params: f64 = tensors.iter().map(Tensor::elements).sum();
    let total: f64 = tensors.iter().map(|t| t.bytes as f64).sum();
    out.note_read("tensors", tensors.len());
    out.note_read("tensor bytes", total);
    let names: Vec<&str> = tensors.iter().map(|t| t.name.as_str()).collect();
    let shape_of = |suffix: &str| tensors.iter().find(|t| t.name.ends_with(suffix)).map(|t| t.shape.clone());
    let mut arch = shape_from_names(&names, &mut out);
    let rows = |s: Option<Vec<u64>>| s.and_then(|s| s.first().copied()).and_then(|v| u32::try_from(v).ok());
    let embed = shape_of("embed_tokens.weight");
    arch.vocab = rows(embed.clone()).unwrap_or(0);
    arch.hidden = embed.and_then(|s| s.get(1).copied()).and_then(|v| u32::try_from(v).ok()).unwrap_or(0);
    let q_rows = rows(shape_of("layers.0.self_attn.q_proj.weight")).unwrap_or(0);
    let k_rows = rows(shape_of("layers.0.self_attn.k_proj.weight")).unwrap_or(0);
    arch.head_dim = Some(COMMON_HEAD_DIM);
    arch.heads = q_rows / COMMON_HEAD_DIM;
    arch.kv_heads = k_rows / COMMON_HEAD_DIM;
    out.assume("head_dim", COMMON_HEAD_DIM, Assumption::Default);
    arch.intermediate =
        rows(shape_of("mlp.gate_proj.weight").or_else(|| shape_of("experts.0.gate_proj.weight")))
            .unwrap_or(0);
    if arch.hidden == 0 || arch.heads == 0 || arch.layers == 0 {
        return Err(FileError::NotAModel { missing: vec!["embed_tokens", "layers.N.self_attn.q_proj"] });
    }
    let format = dominant_format(tensors, &mut out);
    let packed = format.is_none();
    if packed {
        // Packed integer tensors hold several weights per element: the count is not the parameters.
        out.assume("params", "from the shape", Assumption::Derived);
    } else {
        arch.params = Some(params);
    }
    arch.stored = format.map(|f| Stored { format: f, bytes: total });
    arch.origin = Some(Origin::Safetensors);
    out.arch = arch;
    out.format = format;
    Ok(out)
}

/// Reads a `model.safetensors.index.json`: the total size and tensor names.
pub fn import_index(text: &str) -> Result<Imported, FileError> {
    let index = safetensors::read_index(text)?;
    let mut out = Imported::new(Origin::SafetensorsIndex);
    out.note_read("weight_map", format!("{} tensors in {} files", index.tensor_names.len(), index.shards));
    let names: Vec<&str> = index.tensor_names.iter().map(String::as_str).collect();
    let mut arch = shape_from_names(&names, &mut out);
    if let Some(size) = index.total_size {
        out.note_read("metadata.total_size", size);
        // The index states bytes, not dtypes: the common 16-bit checkpoint is assumed.
        arch.params = Some(size / 2.0);
        arch.stored = Some(Stored { format: WeightFormat::Bf16, bytes: size });
        out.assume("dtype", "bf16", Assumption::Default);
        out.format = Some(WeightFormat::Bf16);
    }
    arch.origin = Some(Origin::SafetensorsIndex);
    out.arch = arch;
    Ok(out)
}

/// Layers, experts and tied embeddings from tensor names alone; the widths
/// stay at zero (a header fills them from shapes, an index cannot).
fn shape_from_names(names: &[&str], out: &mut Imported) -> Arch {
    let layer_ids = numbers_after(names, "layers.");
    let expert_ids = numbers_after(names, "experts.");
    let mut arch = Arch {
        params: None,
        layers: layer_ids.len() as u32,
        hidden: 0,
        heads: 0,
        kv_heads: 0,
        head_dim: None,
        intermediate: 0,
        vocab: 0,
        tied_embeddings: !names.iter().any(|n| n.ends_with("lm_head.weight")),
        experts: expert_ids.len() as u32,
        experts_active: 0,
        shared_experts: 0,
        dense_layers: 0,
        dense_intermediate: 0,
        sliding: None,
        ..Arch::default()
    };
    out.note_read("layers", arch.layers);
    if arch.experts > 0 {
        out.note_read("experts", arch.experts);
        arch.experts_active = 1;
        out.assume("experts per token", 1, Assumption::Default);
    }
    arch
}

/// Distinct integers that follow `marker` in the names (`layers.17.` → 17).
fn numbers_after(names: &[&str], marker: &str) -> BTreeSet<u32> {
    names
        .iter()
        .filter_map(|n| {
            let (_, rest) = n.split_once(marker)?;
            rest.split('.').next()?.parse().ok()
        })
        .collect()
}

/// The format holding most of the bytes; None for packed integer checkpoints.
fn dominant_format(tensors: &[Tensor], out: &mut Imported) -> Option<WeightFormat> {
    let mut by_dtype: Vec<(&str, u64)> = Vec::new();
    for t in tensors {
        match by_dtype.iter_mut().find(|(d, _)| *d == t.dtype) {
            Some((_, b)) => *b += t.bytes,
            None => by_dtype.push((&t.dtype, t.bytes)),
        }
    }
    let (dtype, _) = by_dtype.iter().max_by_key(|(_, b)| *b)?;
    out.note_read("dtype", dtype);
    match *dtype {
        "F32" => Some(WeightFormat::Fp32),
        "BF16" | "F16" => Some(WeightFormat::Bf16),
        "F8_E4M3" | "F8_E5M2" => Some(WeightFormat::Fp8),
        _ => None,
    }
}
