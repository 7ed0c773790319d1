//! Any JSON plan file: the report is either a list of field errors or a
//! result that serialises; it never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(plan) = serde_json::from_slice::<gpuplan_core::plan::Plan>(data) else { return };
    if let Ok(report) = gpuplan_core::report::evaluate(&plan, gpuplan_core::lang::Lang::Zh) {
        assert!(serde_json::to_string(&report).is_ok());
    }
});
