//! The kernel-derived serving shares (data/kernel-factors.csv, written by
//! `kernel_factors.py` from aiconfigurator's measured kernel tables) against
//! the core's copy of them, the catalog and the end-to-end fit.
//!
//! `core_table_is_the_csv` fails when the core's `KERNEL_SHARES` drift from
//! the committed CSV; `kernel_and_end_to_end_factors_disagree_by` prints, for
//! each GPU with both, how far the kernels' absolute shares are from the
//! end-to-end fit (docs/serving.md has the table).

use gpuplan_core::hardware::{self, kernels, kernels::KERNEL_SHARES};
use gpuplan_core::serving::engine::{self, CALIBRATED_GPUS};
use gpuplan_validation::{serving_rows, SERVING};

const CSV: &str = include_str!("../data/kernel-factors.csv");

/// The CSV's rows as (column → value) pairs.
fn csv_rows() -> Vec<Vec<(String, String)>> {
    let mut lines = CSV.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header: Vec<String> = lines.next().expect("header").split(',').map(str::to_string).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

fn get<'a>(row: &'a [(String, String)], column: &str) -> &'a str {
    row.iter().find(|(c, _)| c == column).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no {column}"))
}

fn num(row: &[(String, String)], column: &str) -> Option<f64> {
    let v = get(row, column);
    (!v.is_empty()).then(|| v.parse().unwrap_or_else(|_| panic!("{column}: {v}")))
}

#[test]
fn core_table_is_the_csv() {
    let rows = csv_rows();
    assert_eq!(rows.len(), KERNEL_SHARES.len(), "rows");
    assert!(CSV.contains(kernels::SOURCE), "the CSV names the source version the core names");
    for (row, core) in rows.iter().zip(KERNEL_SHARES) {
        let what = format!("{} {} {}", core.gpu, core.engine, core.release);
        assert_eq!(
            (get(row, "gpu"), get(row, "engine"), get(row, "release")),
            (core.gpu, core.engine, core.release)
        );
        let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() < 5e-4,
            (None, None) => true,
            _ => false,
        };
        assert!(close(num(row, "bandwidth_share"), Some(core.bandwidth)), "{what}: bandwidth");
        assert!(close(num(row, "compute_share"), Some(core.compute)), "{what}: compute");
        assert!(close(num(row, "compute_fp8_share"), core.compute_fp8), "{what}: fp8");
        assert!(close(num(row, "gemm_fixed_us"), Some(core.gemm_fixed_s * 1e6)), "{what}: fixed");
        assert_eq!(get(row, "current") == "1", core.current, "{what}: current");
        // The shares are of the catalog's peaks: the CSV says which it used.
        let gpu = hardware::find(core.gpu).expect("catalog gpu");
        assert_eq!(num(row, "bandwidth_tbs"), gpu.bandwidth_tbs, "{what}: bandwidth peak");
        assert_eq!(num(row, "bf16_tflops"), gpu.bf16_tflops, "{what}: bf16 peak");
        assert_eq!(num(row, "fp8_tflops"), gpu.fp8_tflops, "{what}: fp8 peak");
    }
}

#[test]
fn calibrated_gpus_are_the_serving_rows_gpus() {
    let rows = serving_rows(SERVING).expect("parses");
    let mut gpus: Vec<&str> = rows.iter().map(|r| r.gpu.as_str()).collect();
    gpus.sort_unstable();
    gpus.dedup();
    assert_eq!(gpus, CALIBRATED_GPUS);
}

/// The end-to-end fit of the engine whose factors `engine` runs on.
fn fit_of(engine: &str) -> engine::Factors {
    match engine {
        "trtllm" => engine::TRTLLM,
        _ => engine::VLLM,
    }
}

/// Signed gap of the kernels' share from the fit's, as a percentage of the fit's.
fn gap(kernel: f64, fit: f64) -> String {
    format!("{:+.0} %", (kernel / fit - 1.0) * 100.0)
}

#[test]
fn kernel_and_end_to_end_factors_disagree_by() {
    println!(
        "| GPU | engine | release | bandwidth kernels / fit | compute kernels / fit | FP8 kernels / fit |"
    );
    println!("|---|---|---|---:|---:|---:|");
    for k in KERNEL_SHARES.iter().filter(|k| CALIBRATED_GPUS.contains(&k.gpu)) {
        let f = fit_of(k.engine);
        let fp8 =
            k.compute_fp8.map_or("–".to_string(), |v| format!("{v:.2} / {:.2} ({})", f.2, gap(v, f.2)));
        println!(
            "| {} | {} | {} | {:.2} / {:.2} ({}) | {:.2} / {:.2} ({}) | {fp8} |",
            k.gpu,
            k.engine,
            k.release,
            k.bandwidth,
            f.0,
            gap(k.bandwidth, f.0),
            k.compute,
            f.1,
            gap(k.compute, f.1)
        );
        assert!(k.bandwidth > 0.0 && k.compute > 0.0);
    }
}
