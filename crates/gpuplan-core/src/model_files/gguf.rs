//! GGUF headers: the metadata key-values and the tensor infos, read from the
//! first bytes of a file (the tensor data is never needed). Layout from
//! ggml's `docs/gguf.md` (versions 2 and 3, little-endian); block sizes per
//! tensor type from `ggml.c`'s `type_traits`.
//!
//! Every length in the header is checked against the bytes actually present
//! before anything is allocated, so a header claiming 2^63 entries costs
//! nothing: it is reported as truncated (the caller may offer more bytes) or
//! as absurd.

use std::collections::BTreeMap;

use super::{FileError, Truncated};

const MAGIC: &[u8; 4] = b"GGUF";
/// ggml's own limit on tensor rank.
const MAX_DIMS: u32 = 4;
/// More tensors than any published model has (DeepSeek-V3: about 1,900 per
/// GGUF shard); past this a header is treated as corrupt, not as a model.
pub const MAX_TENSORS: u64 = 1_000_000;
pub const MAX_KEYS: u64 = 100_000;

/// A metadata value. Arrays keep their length and, for numbers, their values
/// (per-layer head counts); long string arrays (the tokenizer's vocabulary)
/// keep only their length.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i128),
    Float(f64),
    Bool(bool),
    Text(String),
    Array { len: u64, numbers: Vec<f64> },
}

impl Value {
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Int(i) => u64::try_from(*i).ok(),
            // Per-layer arrays (head_count_kv of hybrid models): the largest layer.
            Value::Array { numbers, .. } => numbers
                .iter()
                .copied()
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
                .filter(|x| *x >= 0.0 && x.fract() == 0.0)
                .map(|x| x as u64),
            _ => None,
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }
}

/// One tensor's name, shape and storage type.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    pub name: String,
    pub dims: Vec<u64>,
    pub ggml_type: u32,
}

impl TensorInfo {
    pub fn elements(&self) -> f64 {
        self.dims.iter().map(|&d| d as f64).product()
    }

    /// Bytes in the file, from the type's block size; None for a type this
    /// reader does not know.
    pub fn bytes(&self) -> Option<f64> {
        let (block, size) = block_layout(self.ggml_type)?;
        Some((self.elements() / block as f64).ceil() * size as f64)
    }
}

/// A parsed GGUF header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub version: u32,
    pub metadata: BTreeMap<String, Value>,
    pub tensors: Vec<TensorInfo>,
    /// Bytes the header took: the part of the file that was read.
    pub header_bytes: u64,
}

impl Header {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.get(key)
    }

    /// `general.architecture`, the prefix of the model's own keys.
    pub fn architecture(&self) -> Option<&str> {
        self.get("general.architecture").and_then(Value::as_text)
    }

    /// `{arch}.{key}` as a whole number.
    pub fn arch_u64(&self, key: &str) -> Option<u64> {
        let arch = self.architecture()?;
        self.get(&format!("{arch}.{key}")).and_then(Value::as_u64)
    }
}

/// (elements per block, bytes per block) of a ggml tensor type.
pub fn block_layout(ggml_type: u32) -> Option<(u32, u32)> {
    Some(match ggml_type {
        0 => (1, 4),      // F32
        1 => (1, 2),      // F16
        2 => (32, 18),    // Q4_0
        3 => (32, 20),    // Q4_1
        6 => (32, 22),    // Q5_0
        7 => (32, 24),    // Q5_1
        8 => (32, 34),    // Q8_0
        9 => (32, 36),    // Q8_1
        10 => (256, 84),  // Q2_K
        11 => (256, 110), // Q3_K
        12 => (256, 144), // Q4_K
        13 => (256, 176), // Q5_K
        14 => (256, 210), // Q6_K
        15 => (256, 292), // Q8_K
        16 => (256, 66),  // IQ2_XXS
        17 => (256, 74),  // IQ2_XS
        18 => (256, 98),  // IQ3_XXS
        19 => (256, 50),  // IQ1_S
        20 => (32, 18),   // IQ4_NL
        21 => (256, 110), // IQ3_S
        22 => (256, 82),  // IQ2_S
        23 => (256, 136), // IQ4_XS
        24 => (1, 1),     // I8
        25 => (1, 2),     // I16
        26 => (1, 4),     // I32
        27 => (1, 8),     // I64
        28 => (1, 8),     // F64
        29 => (256, 56),  // IQ1_M
        30 => (1, 2),     // BF16
        34 => (256, 54),  // TQ1_0
        35 => (256, 66),  // TQ2_0
        39 => (32, 17),   // MXFP4
        _ => return None,
    })
}

/// Reads a GGUF header from the start of a file. `Truncated` says how many
/// bytes at least are needed when `bytes` ends inside the header.
pub fn read(bytes: &[u8]) -> Result<Header, FileError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.take(4)? != MAGIC {
        return Err(FileError::NotThisFormat);
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(FileError::Unsupported { what: format!("GGUF version {version}") });
    }
    let tensor_count = r.u64()?;
    let kv_count = r.u64()?;
    if tensor_count > MAX_TENSORS || kv_count > MAX_KEYS {
        return Err(FileError::Absurd { what: format!("{tensor_count} tensors, {kv_count} keys") });
    }
    let mut metadata = BTreeMap::new();
    for _ in 0..kv_count {
        let key = r.string()?;
        let value = r.value()?;
        metadata.insert(key, value);
    }
    // Each tensor info takes at least 24 bytes: refuse counts the file cannot hold
    // before reserving room for them.
    r.need(tensor_count.saturating_mul(24))?;
    let mut tensors = Vec::with_capacity(usize::try_from(tensor_count).unwrap_or(0));
    for _ in 0..tensor_count {
        tensors.push(r.tensor_info()?);
    }
    Ok(Header { version, metadata, tensors, header_bytes: r.pos as u64 })
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Fails as truncated unless `n` more bytes are present.
    fn need(&self, n: u64) -> Result<(), FileError> {
        let have = (self.bytes.len() - self.pos.min(self.bytes.len())) as u64;
        if n > have {
            let need_at_least = (self.pos as u64).saturating_add(n);
            return Err(FileError::Truncated(Truncated { need_at_least }));
        }
        Ok(())
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], FileError> {
        self.need(n)?;
        let end = self.pos + n as usize;
        let out = self
            .bytes
            .get(self.pos..end)
            .ok_or(FileError::Truncated(Truncated { need_at_least: end as u64 }))?;
        self.pos = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], FileError> {
        let s = self.take(N as u64)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, FileError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, FileError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, FileError> {
        let len = self.u64()?;
        let raw = self.take(len)?;
        // Names are UTF-8 by the spec; a broken one is kept readable, not refused.
        Ok(String::from_utf8_lossy(raw).into_owned())
    }

    /// A scalar of GGUF value type `t` as a number, text or bool.
    fn scalar(&mut self, t: u32) -> Result<Value, FileError> {
        Ok(match t {
            0 => Value::Int(self.array::<1>()?[0].into()),
            1 => Value::Int(i8::from_le_bytes(self.array()?).into()),
            2 => Value::Int(u16::from_le_bytes(self.array()?).into()),
            3 => Value::Int(i16::from_le_bytes(self.array()?).into()),
            4 => Value::Int(self.u32()?.into()),
            5 => Value::Int(i32::from_le_bytes(self.array()?).into()),
            6 => Value::Float(f32::from_le_bytes(self.array()?).into()),
            7 => Value::Bool(self.array::<1>()?[0] != 0),
            8 => Value::Text(self.string()?),
            10 => Value::Int(self.u64()?.into()),
            11 => Value::Int(i64::from_le_bytes(self.array()?).into()),
            12 => Value::Float(f64::from_le_bytes(self.array()?)),
            other => return Err(FileError::Unsupported { what: format!("GGUF value type {other}") }),
        })
    }

    fn value(&mut self) -> Result<Value, FileError> {
        let t = self.u32()?;
        if t != 9 {
            return self.scalar(t);
        }
        let item = self.u32()?;
        let len = self.u64()?;
        if item == 9 {
            return Err(FileError::Unsupported { what: "nested GGUF arrays".into() });
        }
        // Every element takes at least one byte: a length past the bytes present
        // is truncation (or a lie), found before the loop runs.
        self.need(len)?;
        let mut numbers = Vec::new();
        for _ in 0..len {
            match self.scalar(item)? {
                Value::Int(i) if numbers.len() < 4096 => numbers.push(i as f64),
                Value::Float(f) if numbers.len() < 4096 => numbers.push(f),
                _ => {}
            }
        }
        Ok(Value::Array { len, numbers })
    }

    fn tensor_info(&mut self) -> Result<TensorInfo, FileError> {
        let name = self.string()?;
        let n_dims = self.u32()?;
        if n_dims > MAX_DIMS {
            return Err(FileError::Absurd { what: format!("tensor {name}: {n_dims} dimensions") });
        }
        let dims = (0..n_dims).map(|_| self.u64()).collect::<Result<Vec<_>, _>>()?;
        let ggml_type = self.u32()?;
        let _offset = self.u64()?;
        Ok(TensorInfo { name, dims, ggml_type })
    }
}

/// Writes `header` as a GGUF v3 header (no tensor data): the inverse of
/// [`read`], for tests and tools that need a file of a given shape.
pub fn write(header: &Header) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend(header.version.to_le_bytes());
    out.extend((header.tensors.len() as u64).to_le_bytes());
    out.extend((header.metadata.len() as u64).to_le_bytes());
    for (key, value) in &header.metadata {
        write_string(&mut out, key);
        write_value(&mut out, value);
    }
    let mut offset = 0u64;
    for t in &header.tensors {
        write_string(&mut out, &t.name);
        out.extend((t.dims.len() as u32).to_le_bytes());
        for d in &t.dims {
            out.extend(d.to_le_bytes());
        }
        out.extend(t.ggml_type.to_le_bytes());
        out.extend(offset.to_le_bytes());
        offset += t.bytes().unwrap_or(0.0) as u64;
    }
    out
}

fn write_string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// Whole numbers as i64 (type 11), floats as f64 (12); arrays of numbers
/// keep their values, other arrays are written as that many empty strings.
fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Int(i) => {
            out.extend(11u32.to_le_bytes());
            out.extend((*i as i64).to_le_bytes());
        }
        Value::Float(f) => {
            out.extend(12u32.to_le_bytes());
            out.extend(f.to_le_bytes());
        }
        Value::Bool(b) => {
            out.extend(7u32.to_le_bytes());
            out.push(u8::from(*b));
        }
        Value::Text(s) => {
            out.extend(8u32.to_le_bytes());
            write_string(out, s);
        }
        Value::Array { len, numbers } if numbers.len() as u64 == *len => {
            out.extend(9u32.to_le_bytes());
            out.extend(12u32.to_le_bytes());
            out.extend(len.to_le_bytes());
            for n in numbers {
                out.extend(n.to_le_bytes());
            }
        }
        Value::Array { len, .. } => {
            out.extend(9u32.to_le_bytes());
            out.extend(8u32.to_le_bytes());
            out.extend(len.to_le_bytes());
            for _ in 0..*len {
                write_string(out, "");
            }
        }
    }
}
