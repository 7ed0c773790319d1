//! Trainer logs. torchtune's recipes log each step as
//! `Step 3 | loss:… lr:… tokens_per_second_per_gpu:… peak_memory_alloc:…`
//! (memory in GiB, with `log_peak_memory_stats`). The Hugging Face Trainer
//! ends with `train_samples_per_second` (in its metrics dict or its
//! "train metrics" block); its peak memory is what the script prints of
//! `torch.cuda.max_memory_reserved()` / `max_memory_allocated()`.

use super::{number, Format, Notice, Reading, Tool, Training, MAX_GPU_BYTES, MAX_TOK_S};

const GIB: f64 = 1_073_741_824.0;

/// None when the text is no trainer's log.
pub(super) fn read(text: &str) -> Option<Result<Reading, Notice>> {
    if text.contains("tokens_per_second_per_gpu") || text.contains("peak_memory_alloc") {
        Some(torchtune(text))
    } else if text.contains("train_samples_per_second") || text.contains("max_memory_reserved") {
        Some(hf_trainer(text))
    } else {
        None
    }
}

/// The value after `key:` on a torchtune line.
fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|kv| kv.strip_prefix(key)?.strip_prefix(':'))
}

fn torchtune(text: &str) -> Result<Reading, Notice> {
    let tool = Tool::Torchtune;
    let mut speeds = Vec::new();
    let mut alloc: Option<f64> = None;
    let mut reserved: Option<f64> = None;
    for line in text.lines() {
        if let Some(v) = value(line, "tokens_per_second_per_gpu") {
            speeds.push(
                number(v, 0.0, MAX_TOK_S)
                    .ok_or(Notice::BadNumber { tool, field: "tokens_per_second_per_gpu" })?,
            );
        }
        for (key, peak) in [("peak_memory_alloc", &mut alloc), ("peak_memory_reserved", &mut reserved)] {
            if let Some(v) = value(line, key) {
                let gib =
                    number(v, 0.0, MAX_GPU_BYTES / GIB).ok_or(Notice::BadNumber { tool, field: key })?;
                *peak = Some(peak.map_or(gib, |p| p.max(gib)));
            }
        }
    }
    if speeds.is_empty() && alloc.is_none() && reserved.is_none() {
        return Err(Notice::Incomplete { tool, missing: "tokens_per_second_per_gpu" });
    }
    let training = Training {
        tokens_per_s_per_gpu: steady(&speeds),
        samples_per_s: None,
        peak_allocated_bytes: alloc.map(|g| (g * GIB) as u64),
        peak_reserved_bytes: reserved.map(|g| (g * GIB) as u64),
    };
    Ok(Reading { tool, format: Format::Text, serving: None, training: Some(training) })
}

/// The median step after the first (the first includes compilation and warm-up).
fn steady(speeds: &[f64]) -> Option<f64> {
    let mut rest: Vec<f64> = speeds.get(1..).filter(|r| !r.is_empty()).unwrap_or(speeds).to_vec();
    rest.sort_by(f64::total_cmp);
    rest.get(rest.len() / 2).copied()
}

/// The number after `key` and its separators (`': `, ` = `), and the word after it.
fn after<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let (_, rest) = line.split_once(key)?;
    let rest = rest.trim_start_matches(['\'', '"', ':', '=', ' ', '(', ')']);
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(rest.len());
    let (num, tail) = rest.split_at(end);
    let unit = tail.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default();
    Some((num, unit))
}

/// Bytes from a figure and its unit; a bare number is bytes.
fn bytes(num: &str, unit: &str, field: &'static str) -> Result<u64, Notice> {
    let tool = Tool::HfTrainer;
    let scale = match unit {
        "" | "B" | "bytes" => 1.0,
        "MB" => 1e6,
        "MiB" => 1_048_576.0,
        "GB" => 1e9,
        "GiB" => GIB,
        _ => return Err(Notice::OtherUnit { tool, field, expected: "B, MB, MiB, GB, GiB" }),
    };
    number(num, 0.0, MAX_GPU_BYTES / scale)
        .map(|v| (v * scale) as u64)
        .ok_or(Notice::BadNumber { tool, field })
}

fn hf_trainer(text: &str) -> Result<Reading, Notice> {
    let tool = Tool::HfTrainer;
    let mut t = Training::default();
    for line in text.lines() {
        if let Some((num, _)) = after(line, "train_samples_per_second") {
            t.samples_per_s = Some(
                number(num, 0.0, MAX_TOK_S)
                    .ok_or(Notice::BadNumber { tool, field: "train_samples_per_second" })?,
            );
        }
        if let Some((num, unit)) = after(line, "max_memory_reserved") {
            t.peak_reserved_bytes = Some(bytes(num, unit, "max_memory_reserved")?);
        }
        if let Some((num, unit)) = after(line, "max_memory_allocated") {
            t.peak_allocated_bytes = Some(bytes(num, unit, "max_memory_allocated")?);
        }
    }
    if t.samples_per_s.is_none() && t.peak_reserved_bytes.is_none() {
        return Err(Notice::Incomplete { tool, missing: "train_samples_per_second" });
    }
    Ok(Reading { tool, format: Format::Text, serving: None, training: Some(t) })
}
