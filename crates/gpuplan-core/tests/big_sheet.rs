//! A provider's whole catalog reads in time in step with its rows: 20,000
//! synthetic SkyPilot rows in a debug build, far inside a bound a quadratic
//! reader (each row searching every earlier offer) misses by a wide margin
//! (docs/performance.md has the release timings).

#![allow(clippy::disallowed_methods, reason = "a native test reads the clock")]

use std::time::Instant;

use gpuplan_core::market::{import, Defaults};

#[path = "support/sheet.rs"]
mod sheet;

#[test]
fn twenty_thousand_rows_read_in_linear_time() {
    let text = sheet::skypilot(20_000);
    let defaults = Defaults { provider: "big", date: "2026-12-01", source: "synthetic" };
    let t = Instant::now();
    let read = import(&text, &defaults);
    let secs = t.elapsed().as_secs_f64();
    // Zones merge: about one offer per three rows of the four cards in six
    // the catalog has (the last instance's rows are cut short).
    assert!((4_400..4_500).contains(&read.offers.len()), "{} offers", read.offers.len());
    assert_eq!(read.unmapped.len(), 1, "one card the catalog lacks");
    assert!(read.notices.is_empty(), "{:?}", read.notices.first());
    assert!(secs < 3.0, "{secs:.2} s to read 20,000 rows");
}
