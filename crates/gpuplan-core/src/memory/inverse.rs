//! The inverse questions: the longest context and the largest batch that fit
//! in a per-GPU budget. The estimate grows monotonically with both, so a
//! binary search over the accepted range finds the boundary.

use serde::Serialize;

use crate::derivation::count;
use crate::error::FieldError;
use crate::plan::{Parallel, Plan, Task};

use super::estimate_on;

/// Largest value in `1..=hi` for which the plan, with `set` applied, needs
/// at most `budget` bytes per GPU; `None` when even 1 does not fit.
fn search(
    plan: &Plan,
    budget: u64,
    hi: u64,
    set: fn(&mut Plan, u64),
) -> Result<Option<u64>, Vec<FieldError>> {
    estimate_on(plan, None)?;
    let fits = |v: u64| {
        let mut p = plan.clone();
        set(&mut p, v);
        // Values so large the estimate overflows do not fit.
        crate::derivation::quiet(|| estimate_on(&p, None)).is_ok_and(|r| r.per_gpu_bytes <= budget)
    };
    Ok(crate::bisect::largest(hi, fits))
}

/// Longest context (inference) or sequence length (training), in tokens,
/// that fits in `budget_bytes` per GPU. Not capped at the model's trained
/// context: compare with `Arch::max_context`.
pub fn max_context(plan: &Plan, budget_bytes: u64) -> Result<Option<u64>, Vec<FieldError>> {
    match plan.task {
        Task::Infer => search(plan, budget_bytes, 10_000_000, |p, v| p.inference.context = v),
        Task::Train => search(plan, budget_bytes, 10_000_000, |p, v| p.training.seq = v),
    }
}

/// Most sequences at once that fit in `budget_bytes` per GPU: concurrent
/// requests for inference, the micro-batch for training.
pub fn max_batch(plan: &Plan, budget_bytes: u64) -> Result<Option<u64>, Vec<FieldError>> {
    match plan.task {
        Task::Infer => search(plan, budget_bytes, 100_000, |p, v| p.inference.concurrency = v),
        Task::Train => search(plan, budget_bytes, 100_000, |p, v| p.training.batch = v),
    }
}

/// The longest sequence a plan runs on one layout: a training sequence at
/// the plan's micro-batch and method, or a serving context at the plan's
/// concurrency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Longest {
    /// The longest length whose estimate fits the budget, in tokens.
    pub tokens: u64,
    /// `sequence` (training) or `context` (serving).
    pub of: &'static str,
    /// The per-GPU bytes it fits in: the card's usable memory.
    pub budget_bytes: u64,
    /// The model's trained context, which the figure is not capped at.
    pub model_context: u64,
    pub derivation: String,
}

/// The longest sequence (training) or context (serving) that fits
/// `budget_bytes` per GPU with the plan on `layout`; None when the plan is
/// invalid or one token does not fit.
pub fn longest_on(plan: &Plan, layout: &Parallel, budget_bytes: u64) -> Option<Longest> {
    let p = Plan { parallel: layout.clone(), ..plan.clone() };
    let tokens = max_context(&p, budget_bytes).ok()??;
    let model_context = p.model.arch().map_or(0, |a| a.max_context);
    let (of, at) = match p.task {
        Task::Train => ("sequence", format!("micro-batch {}", p.training.batch)),
        Task::Infer => ("context", format!("{} concurrent", p.inference.concurrency)),
    };
    let derivation = format!(
        "the longest {of} whose peak per GPU fits {} B at {at} (bisection on the memory estimate): {} tokens; the model was trained to {}",
        count(budget_bytes as f64),
        count(tokens as f64),
        count(model_context as f64)
    );
    Some(Longest { tokens, of, budget_bytes, model_context, derivation })
}

/// The same question under the name inference users ask it.
pub fn max_concurrency(plan: &Plan, budget_bytes: u64) -> Result<Option<u64>, Vec<FieldError>> {
    max_batch(plan, budget_bytes)
}
