//! The result `vllm bench serve --save-result` writes (SGLang's
//! `--output-file` writes the same keys, one object per line).

use serde_json::Value;

use super::{number, Format, Notice, Reading, Serving, Tool, MAX_MS, MAX_TOK_S};

pub(super) fn read(text: &str) -> Result<Reading, Notice> {
    // A JSON Lines file holds one run per line: the last is read.
    let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(text);
    let v: Value =
        serde_json::from_str(text).or_else(|_| serde_json::from_str(last)).map_err(|_| Notice::Unknown)?;
    let obj = v.as_object().ok_or(Notice::Unknown)?;
    if !obj.contains_key("output_throughput") && !obj.contains_key("median_ttft_ms") {
        return Err(Notice::Unknown);
    }
    let sglang = obj.get("backend").and_then(Value::as_str).is_some_and(|b| b.starts_with("sglang"))
        || obj.contains_key("total_output_tokens_retokenized")
        || obj.contains_key("output_throughput_retokenized");
    let tool = if sglang { Tool::Sglang } else { Tool::Vllm };
    let get = |key: &'static str, max: f64| -> Result<Option<f64>, Notice> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => x
                .as_f64()
                .filter(|f| f.is_finite() && (0.0..=max).contains(f))
                .map(Some)
                .ok_or(Notice::BadNumber { tool, field: key }),
        }
    };
    let output = get("output_throughput", MAX_TOK_S)?
        .ok_or(Notice::Incomplete { tool, missing: "output_throughput" })?;
    let concurrency = obj
        .get("max_concurrency")
        .and_then(|c| c.as_f64().or_else(|| c.as_str().and_then(|s| number(s, 1.0, 1.0e7))))
        .filter(|c| (1.0..=1.0e7).contains(c))
        .map(|c| c as u64);
    let serving = Serving {
        output_tok_s: output,
        ttft_ms: get("median_ttft_ms", MAX_MS)?,
        tpot_ms: get("median_tpot_ms", MAX_MS)?,
        requests_per_s: get("request_throughput", MAX_TOK_S)?,
        max_concurrency: concurrency,
        prompt_tok_s: None,
    };
    Ok(Reading { tool, format: Format::Json, serving: Some(serving), training: None })
}
