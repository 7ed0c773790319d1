//! `--measured FILE`: what a benchmark or a training run printed on the
//! rented machine, set beside the plan's expected figures; the plan is then
//! made again from it (`gpuplan_core::readback`). A file the readers cannot
//! use ends the command with one line saying what was expected.

use std::io::Read;

use gpuplan_core::lang::Lang;
use gpuplan_core::measured::{self, MAX_BYTES};
use gpuplan_core::offers::Offer;
use gpuplan_core::plan::Plan;
use gpuplan_core::present::amount as num;
use gpuplan_core::present::{bytes, Unit};
use gpuplan_core::readback::{self, Metric, Readback};

use crate::args::Flags;
use crate::error::CliError;

/// The file named by `--measured` (- for stdin): its path and at most one
/// byte more than the readers take, so a huge file is refused unread.
pub fn file(flags: &mut Flags) -> Result<Option<(String, String)>, CliError> {
    let Some(path) = flags.value("measured")? else { return Ok(None) };
    let fail = |e: std::io::Error| CliError(format!("--measured {path}: {e}"));
    let mut raw = Vec::new();
    let limit = MAX_BYTES as u64 + 1;
    if path == "-" {
        std::io::stdin().take(limit).read_to_end(&mut raw).map_err(fail)?;
    } else {
        std::fs::File::open(&path).and_then(|f| f.take(limit).read_to_end(&mut raw)).map_err(fail)?;
    }
    Ok(Some((path, String::from_utf8_lossy(&raw).into_owned())))
}

/// Reads the figures, sets them beside `plan` and replaces it with the plan
/// made again from them.
pub fn apply(
    (path, text): &(String, String),
    plan: &mut Plan,
    offers: &[Offer],
    lang: Lang,
) -> Result<Readback, CliError> {
    let reading =
        measured::read(text).map_err(|n| CliError(format!("--measured {path}: {}", n.message(lang))))?;
    let r = readback::readback(plan, &reading, offers, lang)
        .map_err(|m| CliError(format!("--measured {path}: {}", m.message(lang))))?;
    plan.clone_from(&r.plan);
    Ok(r)
}

fn figure(metric: Metric, v: f64) -> String {
    match metric {
        Metric::PeakMemory => bytes(v.max(0.0) as u64, Unit::Gib),
        _ => num(v),
    }
}

fn name(metric: Metric, lang: Lang) -> &'static str {
    match metric {
        Metric::OutputTokS => lang.pick("输出 token/s（每副本）", "output tok/s (replica)"),
        Metric::DecodeTokS => lang.pick("单序列 token/s", "one sequence tok/s"),
        Metric::TtftMs => lang.pick("TTFT 中位数 ms", "median TTFT ms"),
        Metric::TpotMs => lang.pick("TPOT 中位数 ms", "median TPOT ms"),
        Metric::TokensPerSPerGpu => lang.pick("每卡 token/s", "tok/s per GPU"),
        Metric::PeakMemory => lang.pick("每卡显存峰值", "peak memory per GPU"),
    }
}

/// Expected and measured side by side, the verdict, the likely causes and what changed.
pub fn text(r: &Readback, lang: Lang) -> String {
    let mut out = format!(
        "{} ({})\n{:<24} {:>28} {:>12} {:>10}\n",
        lang.pick("实测与预期", "Measured vs expected"),
        r.tool.name(),
        "",
        lang.pick("预期（范围）", "expected (range)"),
        lang.pick("实测", "measured"),
        lang.pick("偏差", "deviation"),
    );
    for row in &r.rows {
        let range = format!(
            "{} ({}–{})",
            figure(row.metric, row.expected),
            figure(row.metric, row.low),
            figure(row.metric, row.high)
        );
        let mark = if row.inside { "" } else { lang.pick(" 超出范围", " outside") };
        out.push_str(&format!(
            "{:<24} {:>28} {:>12} {:>+9.1}%{mark}\n",
            name(row.metric, lang),
            range,
            figure(row.metric, row.measured),
            row.deviation_pct
        ));
    }
    out.push_str(&r.verdict_text(lang));
    out.push('\n');
    for c in r.cause_texts(lang) {
        out.push_str(&format!("  - {c}\n"));
    }
    if let (Some(b), Some(a)) = (&r.before, &r.after) {
        let money = |m: Option<gpuplan_core::money::Money>| m.map_or_else(|| "-".to_string(), |m| m.text());
        let hours = |h: Option<f64>| h.map_or_else(|| "-".to_string(), num);
        out.push_str(&format!(
            "{}: GPU {} → {}; {} {} → {}; {} {} → {}\n",
            lang.pick("按实测重新规划", "Planned again from the measurement"),
            b.gpus,
            a.gpus,
            lang.pick("运行小时", "run hours"),
            hours(b.run_hours),
            hours(a.run_hours),
            lang.pick("费用", "bill"),
            money(b.total),
            money(a.total),
        ));
    }
    out
}
