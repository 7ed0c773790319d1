//! NVFP4 on Blackwell against TensorRT-LLM's published full-load tables
//! (data/serving-nvfp4.csv). Nothing is fitted here: each row is predicted
//! with the core's factors, NVFP4 weights and activations on the card's FP4
//! tensor cores at the engine's FP8 compute share, the KV cache in FP8. A
//! full-load run is modelled as a closed loop at the largest batch the KV
//! pool holds (at most TensorRT-LLM's default `max_batch_size`, 2048). The
//! test prints each row beside the same lengths as MXFP4 (weight-only at the
//! 16-bit rate, the nearest format before NVFP4) and the same table's FP8
//! H200 row, and fails past median |error| 15 % or worst 40 %.

use gpuplan_core::serving::{at_concurrency, Workload};
use gpuplan_validation::serving_plan::replica_on_card;
use gpuplan_validation::stats::median;
use gpuplan_validation::ServingRow;

const DATA: &str = include_str!("../data/serving-nvfp4.csv");

/// TensorRT-LLM's default `kv_cache_free_gpu_mem_fraction`.
const KV_FRACTION: f64 = 0.90;
/// TensorRT-LLM's default `max_batch_size` (LLM API, v1.0).
const MAX_BATCH: f64 = 2048.0;

struct Row {
    case: String,
    gpu: String,
    prompt: u64,
    output: u64,
    measured: f64,
    control_gpu: String,
    control_weights: String,
    control_measured: f64,
}

fn rows() -> Vec<Row> {
    let lines = DATA.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).skip(1);
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [case, gpu, prompt, output, measured, control_gpu, control_weights, control_measured, _release, _date, _url] =
                f.as_slice()
            else {
                panic!("expected 11 fields: {line}");
            };
            let num = |v: &str| v.parse::<f64>().unwrap_or_else(|e| panic!("{case}: {v}: {e}"));
            Row {
                case: case.to_string(),
                gpu: gpu.to_string(),
                prompt: num(prompt) as u64,
                output: num(output) as u64,
                measured: num(measured),
                control_gpu: control_gpu.to_string(),
                control_weights: control_weights.to_string(),
                control_measured: num(control_measured),
            }
        })
        .collect()
}

/// Output tokens/s of Llama 3.1 70B's shape in `weights` on one `gpu` at full load.
fn full_load(case: &str, gpu: &str, weights: &str, prompt: u64, output: u64) -> f64 {
    let row = ServingRow {
        case: case.into(),
        source: "trtllm-perf-overview".into(),
        engine: "trtllm".into(),
        model: "llama-3.1-70b".into(),
        weights: weights.into(),
        kv_dtype: "fp8".into(),
        gpu: gpu.into(),
        tp: 1,
        kind: "full".into(),
        batch: 1,
        prompt,
        output,
        measured: 0.0,
        unit: "tok/s".into(),
        per: "gpu".into(),
        date: String::new(),
        url: String::new(),
    };
    let r = replica_on_card(&row, KV_FRACTION);
    let w = Workload::new(prompt, output, 0.0);
    let batch = r.kv_sequences(w.tokens_in_flight()).floor().clamp(1.0, MAX_BATCH);
    at_concurrency(&r, &w, batch).tokens_per_s
}

#[test]
fn nvfp4_full_load_is_within_thresholds() {
    println!("| case | measured tok/s | predicted | err | as MXFP4 (weight-only) | err | FP8 H200 control measured | predicted | err |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut errs = Vec::new();
    let mut ratio_errs = Vec::new();
    for r in rows() {
        let p = full_load(&r.case, &r.gpu, "nvfp4", r.prompt, r.output);
        let old = full_load(&r.case, &r.gpu, "mxfp4", r.prompt, r.output);
        let c = full_load(&r.case, &r.control_gpu, &r.control_weights, r.prompt, r.output);
        let err = |pred: f64, m: f64| pred / m - 1.0;
        println!(
            "| {} | {:.0} | {p:.0} | {:+.0} % | {old:.0} | {:+.0} % | {:.0} | {c:.0} | {:+.0} % |",
            r.case,
            r.measured,
            100.0 * err(p, r.measured),
            100.0 * err(old, r.measured),
            r.control_measured,
            100.0 * err(c, r.control_measured)
        );
        errs.push(err(p, r.measured).abs());
        ratio_errs.push(err(p / c, r.measured / r.control_measured).abs());
    }
    let worst = |e: &[f64]| e.iter().copied().fold(0.0, f64::max);
    println!(
        "NVFP4: {} rows, median |err| {:.1} %, worst {:.1} %",
        errs.len(),
        100.0 * median(errs.clone()),
        100.0 * worst(&errs)
    );
    println!(
        "NVFP4 ÷ the FP8 H200 control: median |err| {:.1} %, worst {:.1} %",
        100.0 * median(ratio_errs.clone()),
        100.0 * worst(&ratio_errs)
    );
    assert!(median(errs.clone()) <= 0.15, "median |error| past 15 %");
    assert!(worst(&errs) <= 0.40, "worst |error| past 40 %");
}
