//! Any text as a share link: decoding never panics and always yields a valid
//! plan, and re-encoding that plan reads back to itself; as a project link,
//! at most the capped number of workloads, and a valid project reads back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let link = gpuplan_core::share::decode(&text);
    assert!(link.plan.validate().is_empty());
    let again = gpuplan_core::share::decode(&gpuplan_core::share::encode(&link.plan, link.lang, None));
    assert_eq!(again.plan, link.plan);
    let _ = gpuplan_core::report::evaluate(&link.plan, link.lang.unwrap_or_default());
    // The same text as a project link: bounded, and a valid project reads back to itself.
    let project = gpuplan_core::share::decode_project(&text).project;
    assert!(project.workloads.len() <= gpuplan_core::project::MAX_WORKLOADS);
    if project.validate().is_empty() {
        let again = gpuplan_core::share::encode_project(&project, None, None);
        assert_eq!(gpuplan_core::share::decode_project(&again).project, project);
    }
});
