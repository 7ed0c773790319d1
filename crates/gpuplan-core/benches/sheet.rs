//! A big price sheet read and ranked, natively: a synthetic SkyPilot
//! per-region sheet (`SHEET_ROWS` rows, 100,000 by default) is imported and
//! the default plan priced against its offers. Prints the time of each step
//! and the peak resident memory each adds.

#![allow(clippy::disallowed_methods, reason = "a native bench reads the clock")]

use std::hint::black_box;
use std::time::Instant;

use gpuplan_core::lang::Lang;
use gpuplan_core::market::{self, Defaults};
use gpuplan_core::plan::Plan;
use gpuplan_core::report::evaluate_with;

#[path = "../tests/support/sheet.rs"]
mod sheet;

/// A line of /proc/self/status in bytes ("VmRSS", "VmHWM"); 0 off Linux.
fn status_kb(key: &str) -> usize {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = text.lines().find(|l| l.starts_with(key)).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|kb| kb.parse::<usize>().ok()).unwrap_or(0) * 1024
}

/// Runs `f`, returning its value, seconds and the peak resident memory it
/// added (Linux resets the peak on writing 5 to clear_refs).
fn measure<T>(f: impl FnOnce() -> T) -> (T, f64, usize) {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let base = status_kb("VmRSS");
    let t = Instant::now();
    let value = black_box(f());
    let secs = t.elapsed().as_secs_f64();
    (value, secs, status_kb("VmHWM").saturating_sub(base))
}

fn main() {
    let rows: usize = std::env::var("SHEET_ROWS").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let text = sheet::skypilot(rows);
    let defaults = Defaults { provider: "bench", date: "2026-12-01", source: "synthetic sheet" };
    let (import, read_s, read_peak) = measure(|| market::import(&text, &defaults));
    let plan = Plan::default();
    let (report, rank_s, rank_peak) = measure(|| evaluate_with(&plan, &import.offers, Lang::En));
    let options = report.as_ref().map_or(0, |r| r.cost.options.len());
    println!(
        "{:<34} {:>10} {:>12} {:>14}",
        "synthetic SkyPilot sheet", "seconds", "peak MB", "bytes per row"
    );
    let mb = |bytes: usize| bytes as f64 / 1.0e6;
    let per_row = |bytes: usize| bytes / rows.max(1);
    let (sheet_mb, offers) = (mb(text.len()), import.offers.len());
    println!(
        "read {rows} rows ({sheet_mb:.1} MB, {offers} offers) {read_s:>7.3} {:>12.1} {:>14}",
        mb(read_peak),
        per_row(read_peak)
    );
    println!(
        "rank ({options} options)                {rank_s:>10.3} {:>12.1} {:>14}",
        mb(rank_peak),
        per_row(rank_peak)
    );
}
