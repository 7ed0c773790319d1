//! What a benchmark or a training run printed, read back: `vllm bench serve`
//! (its summary and its saved JSON), SGLang's `bench_serving`, `llama-bench`
//! (Markdown, CSV, JSON) and trainer logs (torchtune, the Hugging Face
//! Trainer). Readers only pick numbers out of text: they never echo the
//! text, and anything they cannot read gets a [`Notice`] that says what
//! they expected. The figures are measurements; `crate::readback` sets
//! them beside the plan's expected figures and plans again from them.

use serde::{Deserialize, Serialize};

use crate::lang::Lang;
use crate::text::{self, Key};

mod link;
mod llama_bench;
mod serve_json;
mod summary;
mod trainer;

#[cfg(test)]
mod tests;

/// The longest paste read, in bytes: a benchmark's summary or saved result
/// is a few kilobytes, a short training run's log a few hundred.
pub const MAX_BYTES: usize = 1 << 20;

/// The program that printed the figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    /// `vllm bench serve`.
    Vllm,
    /// `python -m sglang.bench_serving`.
    Sglang,
    /// `llama-bench`.
    LlamaBench,
    /// torchtune's recipes (`tune run`).
    Torchtune,
    /// The Hugging Face Trainer.
    HfTrainer,
}

impl Tool {
    /// The tool's name as people type it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Vllm => "vllm bench serve",
            Tool::Sglang => "sglang.bench_serving",
            Tool::LlamaBench => "llama-bench",
            Tool::Torchtune => "torchtune",
            Tool::HfTrainer => "Hugging Face Trainer",
        }
    }
}

/// How the tool wrote them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The printed summary or log lines.
    Text,
    Json,
    Markdown,
    Csv,
}

/// What a serving benchmark measured on one replica.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Serving {
    /// Output tokens per second over the whole run, all requests together
    /// (llama-bench: one sequence's generation speed).
    pub output_tok_s: f64,
    /// Median time to first token and per output token, ms.
    pub ttft_ms: Option<f64>,
    pub tpot_ms: Option<f64>,
    pub requests_per_s: Option<f64>,
    /// The benchmark's cap on requests in flight, when it set one.
    pub max_concurrency: Option<u64>,
    /// llama-bench: prompt processing, tokens per second.
    pub prompt_tok_s: Option<f64>,
}

/// What a training run logged.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Training {
    /// Tokens per second per GPU (torchtune logs it per step; the median of
    /// the steps after the first, which includes warm-up, is kept).
    pub tokens_per_s_per_gpu: Option<f64>,
    /// Samples per second over all GPUs (the Trainer's `train_samples_per_second`).
    pub samples_per_s: Option<f64>,
    /// Peak bytes PyTorch allocated and reserved on one GPU.
    pub peak_allocated_bytes: Option<u64>,
    pub peak_reserved_bytes: Option<u64>,
}

/// The figures read from one paste, and where they came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub tool: Tool,
    pub format: Format,
    pub serving: Option<Serving>,
    pub training: Option<Training>,
}

/// Why a paste gave no figures: each says what the reader expected.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// Longer than [`MAX_BYTES`].
    TooLong {
        bytes: usize,
        max_bytes: usize,
    },
    Empty,
    /// None of the outputs the readers know.
    Unknown,
    /// The tool's output, cut before the line that carries `missing`.
    Incomplete {
        tool: Tool,
        missing: &'static str,
    },
    /// A figure in a unit the reader does not take.
    OtherUnit {
        tool: Tool,
        field: &'static str,
        expected: &'static str,
    },
    /// A figure that is not a finite, positive number in a plausible range.
    BadNumber {
        tool: Tool,
        field: &'static str,
    },
}

impl Notice {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Notice::TooLong { bytes, max_bytes } => {
                text::fill(Key::MeasTooLong, lang, &[("bytes", bytes), ("max", max_bytes)])
            }
            Notice::Empty => text::get(Key::MeasEmpty, lang).into(),
            Notice::Unknown => text::get(Key::MeasUnknown, lang).into(),
            Notice::Incomplete { tool, missing } => {
                text::fill(Key::MeasIncomplete, lang, &[("tool", &tool.name()), ("missing", missing)])
            }
            Notice::OtherUnit { tool, field, expected } => text::fill(
                Key::MeasOtherUnit,
                lang,
                &[("tool", &tool.name()), ("field", field), ("expected", expected)],
            ),
            Notice::BadNumber { tool, field } => {
                text::fill(Key::MeasBadNumber, lang, &[("tool", &tool.name()), ("field", field)])
            }
        }
    }
}

/// The figures in `text`, whichever of the known tools printed it.
pub fn read(text: &str) -> Result<Reading, Notice> {
    if text.len() > MAX_BYTES {
        return Err(Notice::TooLong { bytes: text.len(), max_bytes: MAX_BYTES });
    }
    let t = text.trim();
    if t.is_empty() {
        return Err(Notice::Empty);
    }
    if t.starts_with('{') || t.starts_with('[') {
        // The Trainer prints its metrics as a Python dict, which is not JSON.
        for json in [serve_json::read, llama_bench::read_json] {
            match json(t) {
                Err(Notice::Unknown) => {}
                done => return done,
            }
        }
    }
    if summary::is_summary(t) {
        return summary::read(t);
    }
    if llama_bench::is_markdown(t) {
        return llama_bench::read_markdown(t);
    }
    if llama_bench::is_csv(t) {
        return llama_bench::read_csv(t);
    }
    trainer::read(t).unwrap_or(Err(Notice::Unknown))
}

/// A figure read as text: a finite number inside `lo..=hi`.
pub(crate) fn number(s: &str, lo: f64, hi: f64) -> Option<f64> {
    let v: f64 = s.trim().trim_matches(|c| c == '"' || c == '\'').parse().ok()?;
    (v.is_finite() && (lo..=hi).contains(&v)).then_some(v)
}

/// Tokens per second no GPU reaches (a whole server of the fastest parts
/// stays far below it); anything above is a misread or another unit.
pub(crate) const MAX_TOK_S: f64 = 1.0e8;
/// Latencies beyond an hour are no serving benchmark's.
pub(crate) const MAX_MS: f64 = 3.6e6;
/// Bytes no single GPU holds.
pub(crate) const MAX_GPU_BYTES: f64 = 1.0e13;
