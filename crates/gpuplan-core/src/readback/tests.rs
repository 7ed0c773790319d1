//! Readings from real outputs beside plans that match them.

use super::*;
use crate::measured::read;
use crate::model::{ModelSpec, WeightFormat};
use crate::plan::Method;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../tests/fixtures/measured/", $name))
    };
}

fn back(plan: &Plan, text: &str) -> Readback {
    let reading = read(text).expect("a reading");
    readback(plan, &reading, &crate::offers::defaults(), Lang::En).expect("comparable")
}

/// Llama 3.1 8B on one H100 with vLLM, 20 requests a second to serve.
fn vllm_plan() -> Plan {
    let mut plan = Plan::default();
    plan.inference.target_qps = 20.0;
    plan.inference.concurrency = 32;
    plan
}

#[test]
fn a_vllm_summary_sets_the_measured_throughput_and_the_count_follows() {
    let plan = vllm_plan();
    let r = back(&plan, fixture!("vllm_summary.txt"));
    let metrics: Vec<Metric> = r.rows.iter().map(|row| row.metric).collect();
    assert_eq!(metrics, [Metric::OutputTokS, Metric::TtftMs, Metric::TpotMs]);
    let m = r.plan.inference.measured.first().expect("a measured entry");
    assert_eq!(m.gpu, "h100-sxm");
    assert!((m.tok_s - 6582.87).abs() < 1e-9, "one GPU per replica: {}", m.tok_s);
    assert!(r.plan.bench.is_some());
    // 6582.87 tok/s ÷ 256 output tokens = 25.7 req/s per GPU: one GPU for 20 req/s.
    assert_eq!(r.after.as_ref().map(|o| o.gpus), Some(1));
    // A card measuring a tenth of that needs about ten times the GPUs, and the bill follows.
    let slow = fixture!("vllm_summary.txt").replace("6582.87", "658.29");
    let s = back(&plan, &slow);
    let (after, before) = (s.after.expect("priced"), s.before.expect("priced"));
    assert!(after.gpus >= 8, "{after:?}");
    assert!(after.total > before.total, "{after:?} vs {before:?}");
    assert_eq!(s.verdict, Verdict::Worse);
    assert!(s.causes.contains(&Cause::EngineSettings) && s.causes.contains(&Cause::PowerCap));
}

#[test]
fn inside_the_range_the_machine_delivers_the_plan() {
    let plan = vllm_plan();
    let first = back(&plan, fixture!("vllm_summary.txt"));
    // A run that measures exactly the expected figures.
    let e: Vec<(Metric, f64)> = first.rows.iter().map(|r| (r.metric, r.expected)).collect();
    let text = format!(
        "============ Serving Benchmark Result ============\nOutput token throughput (tok/s): {}\nMedian TTFT (ms): {}\nMedian TPOT (ms): {}\n",
        e[0].1, e[1].1, e[2].1
    );
    let r = back(&first.plan, &text);
    assert_eq!(r.verdict, Verdict::Delivers, "{:?}", r.rows);
    assert!(r.rows.iter().all(|row| row.deviation_pct.abs() < 1e-6));
    assert!(r.causes.is_empty());
    #[cfg(not(feature = "zh"))]
    assert!(r.verdict_text(Lang::En).contains("delivers the plan"));
    // Measured again: the earlier reading does not move the expectation.
    assert_eq!(r.plan.inference.measured.len(), 1);
}

#[test]
fn llama_bench_is_compared_with_one_sequence_speed() {
    let mut plan = Plan::default();
    plan.inference.engine = Engine::LlamaCpp;
    plan.inference.weights = WeightFormat::GgufQ4KM;
    plan.hardware.gpu = "rtx-4090".into();
    let r = back(&plan, fixture!("llama_bench.md"));
    assert_eq!(r.rows.first().map(|row| row.metric), Some(Metric::DecodeTokS));
    assert!(r
        .rows
        .iter()
        .all(|row| row.expected > 0.0 && row.low <= row.expected && row.expected <= row.high));
}

#[test]
fn a_lora_log_sets_the_utilisation_and_the_hours_follow() {
    let mut plan = Plan { task: Task::Train, ..Plan::default() };
    plan.training.method = Method::Lora;
    plan.model = ModelSpec::Preset { id: "llama-3.1-8b".into() };
    let r = back(&plan, fixture!("torchtune_memory.log"));
    assert_eq!(r.tool, Tool::Torchtune);
    let speed = r.rows.iter().find(|row| row.metric == Metric::TokensPerSPerGpu).expect("a speed row");
    assert_eq!(speed.measured, 15001.66796875);
    let mem = r.rows.iter().find(|row| row.metric == Metric::PeakMemory).expect("a memory row");
    assert!(mem.inside, "4.5 GiB fits an H100: {mem:?}");
    let mfu = r.plan.training.mfu.expect("set from the measurement");
    let (before, after) = (r.before.expect("priced"), r.after.expect("priced"));
    let (b, a) = (before.run_hours.expect("hours"), after.run_hours.expect("hours"));
    // Faster than expected: fewer hours, in proportion while the utilisation stays below 1.
    if mfu < 1.0 {
        assert!((a / b - speed.expected / speed.measured).abs() < 0.02, "{a} vs {b}");
    }
    assert!(a < b);
}

#[test]
fn a_serving_benchmark_for_a_training_plan_is_refused_with_a_reason() {
    let plan = Plan { task: Task::Train, ..Plan::default() };
    let reading = read(fixture!("vllm_summary.txt")).expect("a reading");
    let err = readback(&plan, &reading, &crate::offers::defaults(), Lang::Zh).expect_err("another task");
    assert_eq!(err, Mismatch::WrongTask { task: Task::Train });
    assert!(!err.message(Lang::Zh).is_empty());
}

#[test]
fn the_replanned_plan_travels_in_the_share_link_with_its_source() {
    let r = back(&vllm_plan(), fixture!("vllm_summary.txt"));
    let query = crate::share::encode(&r.plan, None, None);
    assert!(query.contains("bench=vllm"), "{query}");
    let link = crate::share::decode(&query);
    assert!(link.ignored.is_empty(), "{:?}", link.ignored);
    assert_eq!(link.plan, r.plan);
    // A damaged reading is left out; the rest of the plan still opens.
    let damaged = query.replace("bench=vllm", "bench=vlm");
    let link = crate::share::decode(&damaged);
    assert_eq!(link.plan.bench, None);
    assert_eq!(link.plan.inference.measured, r.plan.inference.measured);
    assert_eq!(link.ignored.len(), 1);
}

#[test]
fn measurements_of_other_gpus_stay_in_the_plan() {
    let mut plan = vllm_plan();
    plan.inference.measured.push(Measured { gpu: "a100-80-sxm".into(), tok_s: 1234.0 });
    plan.inference.measured.push(Measured { gpu: "h100-sxm".into(), tok_s: 1.0 });
    let r = back(&plan, fixture!("vllm_summary.txt"));
    let gpus: Vec<(&str, f64)> =
        r.plan.inference.measured.iter().map(|m| (m.gpu.as_str(), m.tok_s)).collect();
    assert_eq!(gpus, [("a100-80-sxm", 1234.0), ("h100-sxm", 6582.87)]);
    // The expected figures ignore the earlier H100 figure: the same as without it.
    assert_eq!(r.rows, back(&vllm_plan(), fixture!("vllm_summary.txt")).rows);
}
