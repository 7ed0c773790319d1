//! Sequences in flight under a serving target. With a QPS target, each
//! replica holds the sequences Little's law gives at its share of the
//! traffic (requests/s × seconds per request), and the serving sizing already
//! counts them against the KV pool. When that is more than the plan's
//! concurrency, the memory figures count them too, so that the peak is what
//! the running service holds rather than what one request alone would.

use serde::Serialize;

use crate::error::FieldError;
use crate::memory::{MemoryResult, Note};
use crate::plan::{Plan, Task};
use crate::present;
use crate::selection::Selection;
use crate::text::{self, Key};

/// Most sequences a plan may set (`inference.concurrency`).
const MAX_SEQUENCES: f64 = 100_000.0;

/// The sequences one replica holds at the plan's targets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct InFlight {
    /// Whole sequences the memory figures count: the mean, rounded up.
    pub sequences: u64,
    /// The mean by Little's law.
    pub mean: f64,
    /// Requests/s each replica takes.
    pub replica_rps: f64,
}

/// Whether the plan sets a traffic target whose load can outgrow its concurrency.
pub fn targeted(plan: &Plan) -> bool {
    plan.task == Task::Infer && plan.inference.target_qps > 0.0
}

/// The sequences in flight per replica of the selection (the plan's GPU at
/// the layout the bill prices, whose figures the serving block shows) under
/// the plan's targets, when they are more than the plan's concurrency.
pub fn on_selection(plan: &Plan, selection: Option<&Selection>) -> Option<InFlight> {
    if !targeted(plan) {
        return None;
    }
    let e = selection?.speed.as_ref()?.inference.as_ref()?.expected.as_ref()?;
    let mean = e.concurrency;
    if !mean.is_finite() || mean <= 0.0 {
        return None;
    }
    let sequences = mean.ceil().min(MAX_SEQUENCES) as u64;
    (sequences > plan.inference.concurrency).then_some(InFlight {
        sequences,
        mean,
        replica_rps: e.requests_per_s.value,
    })
}

/// The plan's memory, counting the sequences its targets put in flight when
/// they are more than its concurrency (`base` is the plan's own estimate).
pub fn memory(
    plan: &Plan,
    selection: Option<&Selection>,
    base: MemoryResult,
) -> Result<MemoryResult, Vec<FieldError>> {
    let Some(load) = on_selection(plan, selection) else { return Ok(base) };
    let mut raised = plan.clone();
    raised.inference.concurrency = load.sequences;
    let mut m = crate::memory::estimate(&raised)?;
    m.notes.insert(0, note(&load, plan.inference.concurrency));
    Ok(m)
}

/// What the figures count, and why, in both languages.
fn note(load: &InFlight, set: u64) -> Note {
    let seconds = load.mean / load.replica_rps.max(f64::MIN_POSITIVE);
    let t = text::both(
        Key::NoteInFlight,
        &[
            ("n", &load.sequences),
            ("mean", &present::amount(load.mean)),
            ("rps", &present::amount(load.replica_rps)),
            ("secs", &present::amount(seconds)),
            ("set", &set),
        ],
    );
    Note { id: "in_flight", zh: t.zh, en: t.en }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::{fit, FitOptions};

    fn selected(plan: &Plan) -> Option<Selection> {
        crate::selection::layout(plan, &fit(plan, &FitOptions::default()).unwrap()).unwrap()
    }

    /// The default plan (an 8B model on an H100, one sequence) at 20 QPS
    /// with TPOT ≤ 30 ms: the replica holds tens of sequences, and the KV
    /// cache and the peak count them.
    #[test]
    fn a_qps_target_raises_the_sequences_the_memory_counts() {
        let mut plan = Plan::default();
        let alone = crate::memory::estimate(&plan).unwrap();
        (plan.inference.target_qps, plan.inference.tpot_ms) = (20.0, 30.0);
        let sel = selected(&plan);
        let load = on_selection(&plan, sel.as_ref()).unwrap();
        let speed = sel.as_ref().and_then(|s| s.speed.as_ref()).unwrap();
        let mean = speed.inference.as_ref().unwrap().expected.as_ref().unwrap();
        assert_eq!(load.sequences, mean.concurrency.ceil() as u64);
        assert!(load.sequences > 10, "{load:?}");
        let m = memory(&plan, sel.as_ref(), crate::memory::estimate(&plan).unwrap()).unwrap();
        let mut raised = plan.clone();
        raised.inference.concurrency = load.sequences;
        let direct = crate::memory::estimate(&raised).unwrap();
        assert_eq!(m.per_gpu_bytes, direct.per_gpu_bytes);
        assert!(m.components.kv_cache.bytes > 4 * alone.components.kv_cache.bytes);
        assert!(m.per_gpu_bytes > alone.per_gpu_bytes);
        assert_eq!(m.notes.first().map(|n| n.id), Some("in_flight"));
        let said = format!("{}{}", m.notes[0].zh, m.notes[0].en);
        assert!(said.contains(&load.sequences.to_string()), "{said}");
        // A concurrency above the load stays as set, and so does a plan without a QPS target.
        plan.inference.concurrency = load.sequences + 5;
        assert_eq!(on_selection(&plan, selected(&plan).as_ref()), None);
        let mut still = Plan::default();
        still.inference.tpot_ms = 30.0;
        assert_eq!(on_selection(&still, selected(&still).as_ref()), None);
    }
}
