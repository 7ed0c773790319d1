//! A model's shape read from the files people already have: a Hugging Face
//! `config.json`, a GGUF header, a safetensors header or its index. Only
//! headers are read; the page hands over the first bytes of a file, never
//! the file. Each import says what it read, what it assumed and what it
//! ignored, so a reader can check it against the model card.

use serde::Serialize;

use crate::lang::Lang;
use crate::model::WeightFormat;
use crate::model::{Arch, Origin};

pub mod config;
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
}

impl FileError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang.written()) {
            (FileError::Truncated(t), Lang::Zh) => {
                format!("文件在头部中途结束（至少需要 {} 字节）", t.need_at_least)
            }
            (FileError::Truncated(t), Lang::En) => {
                format!("the file ends inside its header (needs at least {} bytes)", t.need_at_least)
            }
            (FileError::NotThisFormat, _) => {
                lang.pick("不是这种格式的文件", "not a file of this format").into()
            }
            (FileError::Unsupported { what }, Lang::Zh) => format!("不支持：{what}"),
            (FileError::Unsupported { what }, Lang::En) => format!("not supported: {what}"),
            (FileError::Absurd { what }, Lang::Zh) => format!("头部声明的长度不可能成立：{what}"),
            (FileError::Absurd { what }, Lang::En) => format!("the header declares impossible sizes: {what}"),
            (FileError::Malformed { what }, Lang::Zh) => format!("格式错误：{what}"),
            (FileError::Malformed { what }, Lang::En) => format!("malformed: {what}"),
            (FileError::NotAModel { missing }, Lang::Zh) => {
                format!("缺少模型结构字段：{}", missing.join(", "))
            }
            (FileError::NotAModel { missing }, Lang::En) => {
                format!("missing the model's shape fields: {}", missing.join(", "))
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
        match self {
            Assumption::Default => {
                lang.pick("文件未写，取格式默认值", "not in the file: the format's default")
            }
            Assumption::Derived => lang.pick("由其他字段推出", "derived from other fields"),
            Assumption::Simplified => {
                lang.pick("结构比规划器细，按总量折算", "finer layout than the planner's: totals kept")
            }
            Assumption::UnknownType => lang.pick(
                "未知的 model_type，按已有字段读取",
                "unknown model_type: read from the fields present",
            ),
        }
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
