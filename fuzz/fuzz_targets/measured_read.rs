//! Any bytes as a benchmark's or trainer's output: figures or a notice,
//! never a panic; every figure read is finite and not negative, a reading
//! survives the share link unchanged, and setting it beside the default
//! plan of its task never panics.
#![no_main]
use gpuplan_core::measured::{read, Reading};
use gpuplan_core::plan::{Plan, Task};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(r) = read(&text) else { return };
    if let Some(s) = &r.serving {
        let all = [Some(s.output_tok_s), s.ttft_ms, s.tpot_ms, s.requests_per_s, s.prompt_tok_s];
        assert!(all.into_iter().flatten().all(|v| v.is_finite() && v >= 0.0), "{s:?}");
    }
    if let Some(t) = &r.training {
        let all = [t.tokens_per_s_per_gpu, t.samples_per_s];
        assert!(all.into_iter().flatten().all(|v| v.is_finite() && v >= 0.0), "{t:?}");
    }
    assert_eq!(Reading::from_link(&r.to_link()).as_ref(), Some(&r));
    let task = if r.training.is_some() { Task::Train } else { Task::Infer };
    let plan = Plan { task, ..Plan::default() };
    let offers = gpuplan_core::offers::defaults();
    let _ = gpuplan_core::readback::readback(&plan, &r, &offers, gpuplan_core::lang::Lang::En);
});
