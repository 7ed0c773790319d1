//! Plain timing harness (no criterion: one file, no dependency): the full
//! report (estimate + fit search + cost) for the example plans, natively.
//! `cargo bench -p gpuplan-core` prints median and p90 per plan.

use std::hint::black_box;
use std::time::Instant;

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

fn main() {
    println!("{:<18} {:>12} {:>12} {:>8}", "plan", "median µs", "p90 µs", "runs");
    for (name, plan) in plans() {
        // Warm up, then time single calls so the spread is visible.
        for _ in 0..20 {
            let _ = black_box(evaluate(black_box(&plan)));
        }
        let mut times: Vec<f64> = (0..400)
            .map(|_| {
                let t = Instant::now();
                let _ = black_box(evaluate(black_box(&plan)));
                t.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times.get(((times.len() as f64) * q) as usize).copied().unwrap_or(f64::NAN);
        println!("{name:<18} {:>12.1} {:>12.1} {:>8}", at(0.5), at(0.9), times.len());
    }
}
