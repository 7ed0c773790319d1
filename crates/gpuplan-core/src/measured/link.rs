//! A reading in a share link: `tool:format` then one letter and a number
//! per figure (`vllm:text:o2400:t45.2:p12.1:c32`), so a colleague opens the
//! plan as re-planned and sees what was measured, with which tool.

use super::{Format, Reading, Serving, Training, MAX_GPU_BYTES, MAX_MS, MAX_TOK_S};

impl Reading {
    /// The link's text for this reading.
    pub fn to_link(&self) -> String {
        let mut parts = vec![
            crate::names::variant(&self.tool).unwrap_or_default().to_string(),
            crate::names::variant(&self.format).unwrap_or_default().to_string(),
        ];
        let mut put = |letter: char, v: Option<f64>| {
            if let Some(v) = v {
                parts.push(format!("{letter}{v}"));
            }
        };
        if let Some(s) = &self.serving {
            put('o', Some(s.output_tok_s));
            put('t', s.ttft_ms);
            put('p', s.tpot_ms);
            put('r', s.requests_per_s);
            put('c', s.max_concurrency.map(|c| c as f64));
            put('i', s.prompt_tok_s);
        }
        if let Some(t) = &self.training {
            put('g', t.tokens_per_s_per_gpu);
            put('s', t.samples_per_s);
            put('a', t.peak_allocated_bytes.map(|b| b as f64));
            put('m', t.peak_reserved_bytes.map(|b| b as f64));
        }
        parts.join(":")
    }

    /// The reading a link's text holds; None when any part is unreadable,
    /// so a damaged link drops the reading, never the plan.
    pub fn from_link(text: &str) -> Option<Reading> {
        let mut parts = text.split(':');
        let tool = crate::names::parse(parts.next()?)?;
        let format: Format = crate::names::parse(parts.next()?)?;
        let mut s = Serving::default();
        let mut t = Training::default();
        let (mut serving, mut training) = (false, false);
        for part in parts {
            let letter = part.chars().next()?;
            let v: f64 = part.get(1..)?.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
            let within = |max: f64| (v <= max).then_some(v);
            match letter {
                'o' => (s.output_tok_s, serving) = (within(MAX_TOK_S)?, true),
                't' => s.ttft_ms = Some(within(MAX_MS)?),
                'p' => s.tpot_ms = Some(within(MAX_MS)?),
                'r' => s.requests_per_s = Some(within(MAX_TOK_S)?),
                'c' => s.max_concurrency = Some(within(1.0e7)? as u64),
                'i' => s.prompt_tok_s = Some(within(MAX_TOK_S)?),
                'g' => (t.tokens_per_s_per_gpu, training) = (Some(within(MAX_TOK_S)?), true),
                's' => (t.samples_per_s, training) = (Some(within(MAX_TOK_S)?), true),
                'a' => (t.peak_allocated_bytes, training) = (Some(within(MAX_GPU_BYTES)? as u64), true),
                'm' => (t.peak_reserved_bytes, training) = (Some(within(MAX_GPU_BYTES)? as u64), true),
                _ => return None,
            }
        }
        Some(Reading { tool, format, serving: serving.then_some(s), training: training.then_some(t) })
    }
}
