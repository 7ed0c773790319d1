//! What nvidia-smi shows for a training run against runs that report both
//! PyTorch's allocated peak and nvidia-smi (data/training-reserved-public.csv).
//!
//! Like with like: the rows' nvidia-smi figure holds the CUDA context (the
//! reading less the one before the run), their allocated figure does not, so
//! each row is predicted as the core does it: allocated × ratio + CUDA
//! context, at most the card (80 GiB). The four ratios (packed or varying
//! batches, one GPU or several) are the medians of (nvidia-smi − context) ÷
//! allocated over the fitting sources' runs with memory to spare (allocated
//! under 80 % of the card: near the card the allocator releases its cache, so
//! those rows show the cap, not the ratio). `core_ratios_are_the_fit` fails
//! when the core's constants drift from those medians; the held-out rows
//! (other benchmark campaigns, other models) must stay within median 15 %
//! and worst 30 %; every row is printed with its error.

use gpuplan_core::memory::{smi_shown, SMI_RATIOS};
use gpuplan_validation::stats::median;
use gpuplan_validation::{reserved_rows, ReservedRow, TRAINING_RESERVED};

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
const CARD_GIB: f64 = 80.0;
const CONTEXT_GIB: f64 = 0.5;

fn rows() -> Vec<ReservedRow> {
    reserved_rows(TRAINING_RESERVED).expect("the reserved table parses")
}

fn packed(r: &ReservedRow) -> bool {
    r.data == "packed"
}

/// nvidia-smi as the core predicts it for the row, GiB.
fn predicted(r: &ReservedRow) -> f64 {
    smi_shown(r.allocated_gib * GIB, packed(r), r.gpus, Some(CARD_GIB * GIB)) / GIB
}

fn error(r: &ReservedRow) -> f64 {
    (predicted(r) - r.smi_gib) / r.smi_gib
}

#[test]
fn core_ratios_are_the_fit() {
    let rows = rows();
    assert_eq!(rows.len(), 284);
    for ratio in SMI_RATIOS {
        let fit: Vec<f64> = rows
            .iter()
            .filter(|r| r.role == "fit" && packed(r) == ratio.packed && (r.gpus > 1) == ratio.several)
            .filter(|r| r.allocated_gib < 0.8 * CARD_GIB)
            .map(|r| (r.smi_gib - CONTEXT_GIB) / r.allocated_gib)
            .collect();
        let m = median(fit.clone());
        println!(
            "packed {} several {}: {} runs, median {m:.3}, core {}",
            ratio.packed,
            ratio.several,
            fit.len(),
            ratio.value
        );
        assert!(
            (m - ratio.value).abs() < 0.006,
            "the core's ratio {} is not the fit's median {m:.3}",
            ratio.value
        );
    }
}

#[test]
fn nvidia_smi_held_out_is_within_the_thresholds() {
    let rows = rows();
    let mut by_group: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    println!(
        "{:<16} {:<9} {:<8} {:>4} {:<6} {:>9} {:>9} {:>9} {:>7}",
        "case", "role", "data", "gpus", "method", "alloc", "smi", "predicted", "error"
    );
    for r in &rows {
        let e = error(r);
        println!(
            "{:<16} {:<9} {:<8} {:>4} {:<6} {:>9.2} {:>9.2} {:>9.2} {:>+6.1}%  {}",
            r.case,
            r.role,
            r.data,
            r.gpus,
            r.method,
            r.allocated_gib,
            r.smi_gib,
            predicted(r),
            e * 100.0,
            r.model
        );
        let source = r.case.rsplit_once('-').map_or(r.case.as_str(), |(s, _)| s);
        let key = format!("{} {source} {} {}", r.role, r.data, r.method);
        by_group.entry(key).or_default().push(e.abs());
    }
    for (group, errs) in &by_group {
        let worst = errs.iter().copied().fold(0.0, f64::max);
        println!(
            "{group:<36} {:>4} rows  median {:>5.1} %  worst {:>5.1} %",
            errs.len(),
            median(errs.clone()) * 100.0,
            worst * 100.0
        );
    }
    let held: Vec<f64> = rows.iter().filter(|r| r.role == "held_out").map(|r| error(r).abs()).collect();
    let fit: Vec<f64> = rows.iter().filter(|r| r.role == "fit").map(|r| error(r).abs()).collect();
    let (m, worst) = (median(held.clone()), held.iter().copied().fold(0.0, f64::max));
    println!("held out: {} rows, median {:.1} %, worst {:.1} %", held.len(), m * 100.0, worst * 100.0);
    println!(
        "fitting rows: {} rows, median {:.1} %, worst {:.1} %",
        fit.len(),
        median(fit.clone()) * 100.0,
        fit.iter().copied().fold(0.0, f64::max) * 100.0
    );
    assert!(m <= 0.15, "held-out median {:.1} % > 15 %", m * 100.0);
    assert!(worst <= 0.30, "held-out worst {:.1} % > 30 %", worst * 100.0);
}
