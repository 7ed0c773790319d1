//! A big price sheet read and ranked, natively: a synthetic SkyPilot
//! per-region sheet (`SHEET_ROWS` rows, 100,000 by default) is imported and
//! the default plan priced against its offers. Prints the time of each step
//! and the peak memory reading added, counted by a wrapping allocator.

#![allow(clippy::disallowed_methods, reason = "a native bench reads the clock")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use gpuplan_core::lang::Lang;
use gpuplan_core::market::{self, Defaults};
use gpuplan_core::plan::Plan;
use gpuplan_core::report::evaluate_with;

#[path = "../tests/support/sheet.rs"]
mod sheet;

/// The system allocator, counting bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its value, seconds and the peak bytes it added.
fn measure<T>(f: impl FnOnce() -> T) -> (T, f64, usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    let value = black_box(f());
    let secs = t.elapsed().as_secs_f64();
    (value, secs, PEAK.load(Ordering::Relaxed).saturating_sub(base))
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
