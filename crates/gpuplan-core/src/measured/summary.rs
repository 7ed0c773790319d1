//! The summary `vllm bench serve` and SGLang's `bench_serving` print: one
//! `Label (unit): value` per line under "Serving Benchmark Result". Both
//! tools print the same labels; SGLang's adds a `Backend:` line.

use super::{number, Format, Notice, Reading, Serving, Tool, MAX_MS, MAX_TOK_S};

const HEAD: &str = "Serving Benchmark Result";

pub(super) fn is_summary(text: &str) -> bool {
    text.contains(HEAD)
}

/// A line's label, its unit (inside the last parentheses) and its value.
struct Line<'a> {
    label: &'a str,
    unit: &'a str,
    value: &'a str,
}

fn line(raw: &str) -> Option<Line<'_>> {
    // Logs quoted in scripts or issues start their lines with "# " or "> ".
    let l = raw.trim().trim_start_matches(['#', '>', ' ']);
    let (key, value) = l.split_once(':')?;
    let (label, unit) = match key.rsplit_once('(') {
        Some((label, unit)) => (label.trim(), unit.trim_end().trim_end_matches(')')),
        None => (key.trim(), ""),
    };
    Some(Line { label, unit, value: value.trim() })
}

/// The last result block in the paste (a run at several loads prints several).
fn last_block(text: &str) -> &str {
    text.rfind(HEAD).and_then(|i| text.get(i..)).unwrap_or(text)
}

pub(super) fn read(text: &str) -> Result<Reading, Notice> {
    let block = last_block(text);
    let tool =
        if block.lines().filter_map(line).any(|l| l.label == "Backend") { Tool::Sglang } else { Tool::Vllm };
    let lines: Vec<Line> = block.lines().filter_map(line).collect();
    let find = |label: &str| lines.iter().find(|l| l.label.eq_ignore_ascii_case(label));
    let figure = |label: &'static str, unit: &'static str, max: f64| -> Result<Option<f64>, Notice> {
        let Some(l) = find(label) else { return Ok(None) };
        if !l.unit.eq_ignore_ascii_case(unit) {
            return Err(Notice::OtherUnit { tool, field: label, expected: unit });
        }
        number(l.value, 0.0, max).map(Some).ok_or(Notice::BadNumber { tool, field: label })
    };
    let output = figure("Output token throughput", "tok/s", MAX_TOK_S)?
        .ok_or(Notice::Incomplete { tool, missing: "Output token throughput (tok/s)" })?;
    if output <= 0.0 {
        return Err(Notice::BadNumber { tool, field: "Output token throughput" });
    }
    // Older versions print the cap above the block.
    let concurrency = text
        .lines()
        .rev()
        .filter_map(line)
        .find(|l| l.label == "Maximum request concurrency" || l.label == "Max request concurrency")
        .and_then(|l| number(l.value, 1.0, 1.0e7))
        .map(|c| c as u64);
    let serving = Serving {
        output_tok_s: output,
        ttft_ms: figure("Median TTFT", "ms", MAX_MS)?,
        tpot_ms: figure("Median TPOT", "ms", MAX_MS)?,
        requests_per_s: figure("Request throughput", "req/s", MAX_TOK_S)?,
        max_concurrency: concurrency,
        prompt_tok_s: None,
    };
    Ok(Reading { tool, format: Format::Text, serving: Some(serving), training: None })
}
