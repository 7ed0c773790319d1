//! Any bytes as a price sheet (CSV or JSON): importing never panics, every
//! offer it loads is valid, and the offers file it exports reads back to
//! the same offers.
#![no_main]
use gpuplan_core::market::{export, import, Defaults};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let defaults = Defaults { provider: "fuzz", date: "2026-12-04", source: "fuzz" };
    let sheet = import(&text, &defaults);
    for (i, offer) in sheet.offers.iter().enumerate() {
        let mut errs = Vec::new();
        offer.validate(&format!("offers[{i}]"), &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
    }
    let again = import(&export(&sheet.offers, &sheet.items), &defaults);
    assert_eq!(again.offers, sheet.offers);
    assert_eq!(again.items, sheet.items);
});
