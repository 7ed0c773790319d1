//! Plain timing harness (no criterion: one file, no dependency): the full
//! report (estimate + fit search + cost) for the example plans, natively.
//! `cargo bench -p gpuplan-core` prints median and p90 per plan.

#![allow(clippy::disallowed_methods, reason = "a native bench reads the clock")]

use std::hint::black_box;
use std::time::Instant;

use gpuplan_core::fit::{self, FitOptions};
use gpuplan_core::lang::Lang;
use gpuplan_core::memory;
use gpuplan_core::plan::{Method, Plan, Task};
use gpuplan_core::report::evaluate;

fn plans() -> Vec<(&'static str, Plan)> {
    let infer = Plan::default();
    let mut train = Plan { task: Task::Train, ..Plan::default() };
    train.training.method = Method::Lora;
    let mut big = Plan { task: Task::Train, ..Plan::default() };
    big.model = gpuplan_core::model::ModelSpec::Preset { id: "llama-3.1-70b".into() };
    big.parallel.gpus = 8;
    vec![("infer 8B", infer), ("LoRA 8B", train), ("full FT 70B x8", big)]
}

/// Median and p90 of single calls, in µs, after a warm-up.
fn time<T>(f: impl Fn() -> T) -> (f64, f64) {
    for _ in 0..20 {
        black_box(f());
    }
    let mut times: Vec<f64> = (0..300)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times.get(((times.len() as f64) * q) as usize).copied().unwrap_or(f64::NAN);
    (at(0.5), at(0.9))
}

fn main() {
    println!("{:<18} {:<22} {:>12} {:>12}", "plan", "stage", "median µs", "p90 µs");
    for (name, plan) in plans() {
        let stages: [(&str, (f64, f64)); 3] = [
            ("memory estimate", time(|| memory::estimate(black_box(&plan)))),
            ("fit search (catalog)", time(|| fit::fit(black_box(&plan), &FitOptions::default()))),
            ("full report", time(|| evaluate(black_box(&plan), Lang::En))),
        ];
        for (stage, (median, p90)) in stages {
            println!("{name:<18} {stage:<22} {median:>12.1} {p90:>12.1}");
        }
    }
}
