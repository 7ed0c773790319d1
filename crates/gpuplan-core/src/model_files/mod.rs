//! A model's shape read from the files people already have: a Hugging Face
//! `config.json`, a GGUF header, a safetensors header or its index. Only
//! headers are read; the page hands over the first bytes of a file, never
//! the file. Each import says what it read, what it assumed and what it
//! ignored, so a reader can check it against the model card.

use serde::Serialize;

use crate::lang::Lang;
use crate::model::WeightFormat;
use crate::model::{Arch, Origin};
use crate::text::{self, Key};

pub mod config;
pub mod files;
mod from_gguf;
mod from_safetensors;
pub mod gguf;
pub mod safetensors;

pub use from_gguf::import as import_gguf;
pub use from_safetensors::{import as import_safetensors, import_index as import_safetensors_index};

/// Bytes a reader needs before it can go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Truncated {
    pub need_at_least: u64,
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FileError {
    /// The file ends inside its header (the page may read a longer slice).
    Truncated(Truncated),
    /// Not a file of the format asked for (wrong magic number).
    NotThisFormat,
    /// A version or value type this reader does not know.
    Unsupported { what: String },
    /// Lengths or counts no real file has (2^63 tensors, a header past the file's end).
    Absurd { what: String },
    /// Text that does not parse (JSON errors carry their line and column).
    Malformed { what: String },
    /// Parsed, but without the fields a transformer shape needs.
    NotAModel { missing: Vec<&'static str> },
    /// Some shards of a split checkpoint, not all of them.
    MissingParts { given: u64, total: u64 },
}

impl FileError {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            FileError::Truncated(t) => text::fill(Key::FileTruncated, lang, &[("bytes", &t.need_at_least)]),
            FileError::NotThisFormat => text::get(Key::FileNotThisFormat, lang).into(),
            FileError::Unsupported { what } => text::fill(Key::FileUnsupported, lang, &[("what", what)]),
            FileError::Absurd { what } => text::fill(Key::FileAbsurd, lang, &[("what", what)]),
            FileError::Malformed { what } => text::fill(Key::FileMalformed, lang, &[("what", what)]),
            FileError::NotAModel { missing } => {
                text::fill(Key::FileNotAModel, lang, &[("missing", &missing.join(", "))])
            }
            FileError::MissingParts { given, total } => {
                text::fill(Key::FileMissingParts, lang, &[("given", given), ("total", total)])
            }
        }
    }
}

/// One field of an import: the key as the file names it and the value used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Item {
    pub key: String,
    pub value: String,
}

/// Why a value was assumed rather than read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Assumption {
    /// The file does not state it; the value is the format's documented default.
    Default,
    /// Derived from other fields (hidden ÷ heads, a tensor's shape).
    Derived,
    /// The file's layout is richer than the planner's (interleaved MoE
    /// layers, per-layer head counts); the value keeps the totals right.
    Simplified,
    /// An unknown `model_type`: read from the fields that are present.
    UnknownType,
}

impl Assumption {
    pub fn label(self, lang: Lang) -> &'static str {
        let key = match self {
            Assumption::Default => Key::AssumedDefault,
            Assumption::Derived => Key::AssumedDerived,
            Assumption::Simplified => Key::AssumedSimplified,
            Assumption::UnknownType => Key::AssumedUnknownType,
        };
        text::get(key, lang)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assumed {
    pub key: String,
    pub value: String,
    pub why: Assumption,
}

/// A model read from a file: its shape, its stored format where the file
/// says, and the account of what was read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Imported {
    pub kind: Origin,
    pub arch: Arch,
    /// The checkpoint's weight format, where the file states it.
    pub format: Option<WeightFormat>,
    pub read: Vec<Item>,
    pub assumed: Vec<Assumed>,
    /// Keys the planner has no use for (or could not interpret).
    pub ignored: Vec<String>,
}

impl Imported {
    fn new(kind: Origin) -> Self {
        Self {
            kind,
            arch: Arch::default(),
            format: None,
            read: Vec::new(),
            assumed: Vec::new(),
            ignored: Vec::new(),
        }
    }

    fn note_read(&mut self, key: &str, value: impl ToString) {
        self.read.push(Item { key: key.into(), value: value.to_string() });
    }

    fn assume(&mut self, key: &str, value: impl ToString, why: Assumption) {
        self.assumed.push(Assumed { key: key.into(), value: value.to_string(), why });
    }
}

#[cfg(test)]
mod tests;
