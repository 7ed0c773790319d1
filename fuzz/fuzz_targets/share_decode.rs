//! Any text as a share link: decoding never panics and always yields a valid
//! plan, and re-encoding that plan reads back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let link = gpuplan_core::share::decode(&text);
    assert!(link.plan.validate().is_empty());
    let again = gpuplan_core::share::decode(&gpuplan_core::share::encode(&link.plan, link.lang, None));
    assert_eq!(again.plan, link.plan);
    let _ = gpuplan_core::report::evaluate(&link.plan, link.lang.unwrap_or_default());
});
