//! safetensors headers: an 8-byte little-endian length, then a JSON object
//! of tensor name → {dtype, shape, data_offsets} (format spec in the
//! `safetensors` crate's README). `model.safetensors.index.json` maps tensor
//! names to shard files and states the total size.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{FileError, Truncated};

/// The format's own cap on the header (the reference reader refuses more).
pub const MAX_HEADER: u64 = 100_000_000;

#[derive(Clone, Debug, Deserialize)]
struct RawTensor {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: [u64; 2],
}

/// One tensor of a safetensors file.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub name: String,
    pub dtype: String,
    pub shape: Vec<u64>,
    /// Bytes in the file, from its data offsets.
    pub bytes: u64,
}

impl Tensor {
    pub fn elements(&self) -> f64 {
        self.shape.iter().map(|&d| d as f64).product()
    }
}

/// Bytes the 8-byte length says the header takes, after it.
pub fn header_len(first8: &[u8]) -> Result<u64, FileError> {
    let Some(b) = first8.get(..8) else {
        return Err(FileError::Truncated(Truncated { need_at_least: 8 }));
    };
    let mut len = [0u8; 8];
    len.copy_from_slice(b);
    let n = u64::from_le_bytes(len);
    if n > MAX_HEADER {
        return Err(FileError::Absurd { what: format!("header of {n} bytes") });
    }
    Ok(n)
}

/// The tensors of a safetensors file, from its first 8 + header bytes.
/// `file_size`, when known, catches a header that points past the file.
pub fn read(bytes: &[u8], file_size: Option<u64>) -> Result<Vec<Tensor>, FileError> {
    let n = header_len(bytes)?;
    if let Some(size) = file_size {
        if n.saturating_add(8) > size {
            return Err(FileError::Absurd { what: format!("header of {n} bytes in a {size}-byte file") });
        }
    }
    let end = usize::try_from(n.saturating_add(8)).unwrap_or(usize::MAX);
    let json = bytes.get(8..end).ok_or(FileError::Truncated(Truncated { need_at_least: n + 8 }))?;
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_slice(json).map_err(|e| FileError::Malformed { what: e.to_string() })?;
    let mut out = Vec::with_capacity(raw.len());
    for (name, v) in raw {
        if name == "__metadata__" {
            continue;
        }
        let t: RawTensor = serde_json::from_value(v)
            .map_err(|e| FileError::Malformed { what: format!("tensor {name}: {e}") })?;
        let [begin, stop] = t.data_offsets;
        if stop < begin {
            return Err(FileError::Malformed { what: format!("tensor {name}: data offsets run backwards") });
        }
        out.push(Tensor { name, dtype: t.dtype, shape: t.shape, bytes: stop - begin });
    }
    Ok(out)
}

#[derive(Clone, Debug, Deserialize)]
struct RawIndex {
    #[serde(default)]
    metadata: IndexMeta,
    weight_map: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct IndexMeta {
    total_size: Option<f64>,
}

/// What a `model.safetensors.index.json` states.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// Bytes of all shards' tensors, as the index states.
    pub total_size: Option<f64>,
    pub tensor_names: Vec<String>,
    pub shards: usize,
}

pub fn read_index(text: &str) -> Result<Index, FileError> {
    let raw: RawIndex =
        serde_json::from_str(text).map_err(|e| FileError::Malformed { what: e.to_string() })?;
    let mut files: Vec<&String> = raw.weight_map.values().collect();
    files.sort();
    files.dedup();
    Ok(Index {
        total_size: raw.metadata.total_size,
        shards: files.len(),
        tensor_names: raw.weight_map.keys().cloned().collect(),
    })
}
