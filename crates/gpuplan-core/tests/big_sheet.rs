//! A provider's whole catalog reads in time in step with its rows. A reader
//! that searched every earlier offer for each row's id took 14 s for 100,000
//! rows (docs/performance.md); the check here compares, in one process and
//! so under one machine load, a sheet whose rows are all distinct offers with
//! one whose rows all merge into one offer: a search makes the first many
//! times slower, an index barely at all.

#![allow(clippy::disallowed_methods, reason = "a native test reads the clock")]

use std::time::Instant;

use gpuplan_core::market::{import, Defaults, Import};

#[path = "support/sheet.rs"]
mod sheet;

const DEFAULTS: Defaults = Defaults { provider: "big", date: "2026-12-01", source: "synthetic" };

/// `rows` H100 rows, each its own instance or all one instance.
fn rows(rows: usize, distinct: bool) -> String {
    let mut out = String::from("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n");
    for row in 0..rows {
        let instance = if distinct { row } else { 0 };
        out.push_str(&format!("i{instance},H100,8,{}.5,r1\n", 20 + row % 7));
    }
    out
}

/// The shortest of two reads, in seconds, and the last read.
fn read(text: &str) -> (f64, Import) {
    let mut best = f64::INFINITY;
    let mut last = Import::default();
    for _ in 0..2 {
        let t = Instant::now();
        last = import(text, &DEFAULTS);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, last)
}

#[test]
fn reading_is_linear_in_the_rows() {
    let (distinct, apart) = read(&rows(10_000, true));
    let (merged, one) = read(&rows(10_000, false));
    assert_eq!((apart.offers.len(), one.offers.len()), (10_000, 1));
    // The searching reader took 24x as long for distinct offers (1.76 s against
    // 0.07 s in a debug build), a ratio that grows with the rows.
    assert!(distinct < 8.0 * merged, "{distinct:.3} s for distinct offers, {merged:.3} s merged");
}

#[test]
fn zones_merge_and_other_cards_are_counted() {
    let read = import(&sheet::skypilot(2_400), &DEFAULTS);
    // 100 instances × 8 regions × 3 zones: 4 in 6 instances on catalog cards,
    // one offer per instance and region.
    assert_eq!(read.offers.len(), 100 / 6 * 4 * 8 + 4 * 8);
    assert_eq!(read.unmapped.len(), 1, "one card the catalog lacks");
    assert!(read.notices.is_empty(), "{:?}", read.notices.first());
}
