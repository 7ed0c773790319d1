//! `llama-bench` in its three readable outputs: the Markdown table (the
//! default), `-o csv` and `-o json` (or `jsonl`). A `tg` test is one
//! sequence generating tokens, a `pp` test one prompt processed; each row
//! gives the mean tokens per second over the repetitions.

use serde_json::Value;

use super::{number, Format, Notice, Reading, Serving, Tool, MAX_TOK_S};

const TOOL: Tool = Tool::LlamaBench;

/// Generation and prompt speeds, from the first row of each kind.
#[derive(Default)]
struct Speeds {
    tg: Option<f64>,
    pp: Option<f64>,
}

impl Speeds {
    fn add(&mut self, n_prompt: f64, n_gen: f64, ts: f64) {
        if n_gen > 0.0 && n_prompt == 0.0 {
            self.tg = self.tg.or(Some(ts));
        } else if n_prompt > 0.0 && n_gen == 0.0 {
            self.pp = self.pp.or(Some(ts));
        }
    }

    fn reading(self, format: Format) -> Result<Reading, Notice> {
        let tg = self.tg.ok_or(Notice::Incomplete { tool: TOOL, missing: "tg (n_gen)" })?;
        if tg <= 0.0 {
            return Err(Notice::BadNumber { tool: TOOL, field: "t/s" });
        }
        let serving = Serving {
            output_tok_s: tg,
            tpot_ms: Some(1000.0 / tg),
            prompt_tok_s: self.pp,
            max_concurrency: Some(1),
            ..Serving::default()
        };
        Ok(Reading { tool: TOOL, format, serving: Some(serving), training: None })
    }
}

fn cells(row: &str) -> Vec<&str> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

pub(super) fn is_markdown(text: &str) -> bool {
    text.lines().any(|l| {
        let c = cells(l);
        l.trim_start().starts_with('|') && c.contains(&"test") && c.contains(&"t/s")
    })
}

/// "tg 128", "tg128", "pp512 @ d512": the kind and its token count.
fn test_kind(cell: &str) -> Option<(&str, f64)> {
    let t = cell.split('@').next().unwrap_or_default().trim();
    let kind = t.get(..2)?;
    let n = number(t.get(2..)?, 1.0, 1.0e9)?;
    matches!(kind, "tg" | "pp").then_some((kind, n))
}

pub(super) fn read_markdown(text: &str) -> Result<Reading, Notice> {
    let mut rows = text.lines().filter(|l| l.trim_start().starts_with('|'));
    let header = rows.next().map(cells).unwrap_or_default();
    let at = |name: &str| header.iter().position(|h| *h == name);
    let (Some(test), Some(ts)) = (at("test"), at("t/s")) else {
        return Err(Notice::Incomplete { tool: TOOL, missing: "test, t/s" });
    };
    let mut speeds = Speeds::default();
    for row in rows {
        let c = cells(row);
        let (Some(kind), Some(value)) = (c.get(test).and_then(|t| test_kind(t)), c.get(ts)) else {
            continue;
        };
        // "132.19 ± 0.55": the mean, then its standard deviation.
        let mean = value.split('±').next().unwrap_or_default();
        let v = number(mean, 0.0, MAX_TOK_S).ok_or(Notice::BadNumber { tool: TOOL, field: "t/s" })?;
        match kind {
            ("tg", _) => speeds.add(0.0, 1.0, v),
            _ => speeds.add(1.0, 0.0, v),
        }
    }
    speeds.reading(Format::Markdown)
}

pub(super) fn is_csv(text: &str) -> bool {
    text.lines().next().is_some_and(|h| h.contains("avg_ts") && h.contains("n_gen") && h.contains(','))
}

/// A CSV row's fields, with quoted fields (which may hold commas) unquoted.
fn fields(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for ch in row.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

pub(super) fn read_csv(text: &str) -> Result<Reading, Notice> {
    let mut lines = text.lines();
    let header = fields(lines.next().unwrap_or_default());
    let at = |name: &str| header.iter().position(|h| h == name);
    let (Some(p), Some(g), Some(ts)) = (at("n_prompt"), at("n_gen"), at("avg_ts")) else {
        return Err(Notice::Incomplete { tool: TOOL, missing: "n_prompt, n_gen, avg_ts" });
    };
    let mut speeds = Speeds::default();
    for row in lines.filter(|l| !l.trim().is_empty()) {
        let f = fields(row);
        let get = |i: usize, field: &'static str, max: f64| {
            f.get(i).and_then(|s| number(s, 0.0, max)).ok_or(Notice::BadNumber { tool: TOOL, field })
        };
        speeds.add(get(p, "n_prompt", 1.0e9)?, get(g, "n_gen", 1.0e9)?, get(ts, "avg_ts", MAX_TOK_S)?);
    }
    speeds.reading(Format::Csv)
}

pub(super) fn read_json(text: &str) -> Result<Reading, Notice> {
    let rows: Vec<Value> = match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(rows)) => rows,
        Ok(_) => return Err(Notice::Unknown),
        // JSON Lines: one test per line.
        Err(_) => text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()
            .map_err(|_| Notice::Unknown)?,
    };
    if !rows.iter().any(|r| r.get("avg_ts").is_some()) {
        return Err(Notice::Unknown);
    }
    let mut speeds = Speeds::default();
    for r in &rows {
        let get = |key: &'static str, max: f64| {
            r.get(key)
                .and_then(Value::as_f64)
                .filter(|v| v.is_finite() && (0.0..=max).contains(v))
                .ok_or(Notice::BadNumber { tool: TOOL, field: key })
        };
        speeds.add(get("n_prompt", 1.0e9)?, get("n_gen", 1.0e9)?, get("avg_ts", MAX_TOK_S)?);
    }
    speeds.reading(Format::Json)
}
