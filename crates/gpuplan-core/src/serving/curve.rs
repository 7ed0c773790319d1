//! One replica's latency and throughput across concurrency: the steady
//! state at log-spaced loads from one sequence up to what the KV pool holds,
//! with the plan's targets as lines to read them against. The page charts
//! these points as they are; every number in them comes from [`at_concurrency`].

use serde::Serialize;

use super::load::{at_concurrency, Workload};
use super::sizing::Targets;
use super::step::Replica;

/// The replica at one concurrency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    pub concurrency: f64,
    pub tpot_ms: f64,
    /// Output tokens/s of all sequences together.
    pub tok_s_total: f64,
    pub requests_per_s: f64,
}

/// The points with what to read them against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Curve {
    pub points: Vec<Point>,
    /// The plan's median TPOT target, ms.
    pub tpot_target_ms: Option<f64>,
    /// Output tokens/s each replica must deliver for the QPS target.
    pub needed_tok_s: Option<f64>,
    /// The concurrency the expected figures are at.
    pub operating: Option<f64>,
}

/// Beyond a million sequences the pool is not what limits a replica; the
/// cap also bounds the sweep to 21 doublings.
const MAX_CONCURRENCY: f64 = 1_048_576.0;

/// 1, 2, 4, … up to `top` (floored, capped), with `top` itself; empty when
/// not even one sequence fits.
pub fn concurrencies(top: f64) -> Vec<f64> {
    let top = if top.is_nan() { 0.0 } else { top.min(MAX_CONCURRENCY).floor() };
    let mut out: Vec<f64> =
        std::iter::successors(Some(1.0), |c| Some(c * 2.0)).take_while(|c| *c <= top).collect();
    if out.last().is_some_and(|last| *last < top) {
        out.push(top);
    }
    out
}

/// The steady state at each concurrency the KV pool allows; points the
/// model cannot give a finite answer for are left out.
pub fn sweep(r: &Replica, w: &Workload) -> Vec<Point> {
    concurrencies(r.kv_sequences(w.tokens_in_flight()))
        .into_iter()
        .map(|c| {
            let s = at_concurrency(r, w, c);
            Point {
                concurrency: c,
                tpot_ms: s.tpot_s * 1e3,
                tok_s_total: s.tokens_per_s,
                requests_per_s: s.requests_per_s,
            }
        })
        .filter(|p| [p.tpot_ms, p.tok_s_total, p.requests_per_s].iter().all(|v| v.is_finite() && *v > 0.0))
        .collect()
}

/// The curve of replica `r` serving `w`, with the targets' lines: the
/// TPOT target, and the output each of `replicas` must deliver for the QPS
/// target. `operating` is the load the expected figures are at. None when
/// the pool holds no sequence.
pub fn curve(
    r: &Replica,
    w: &Workload,
    t: &Targets,
    replicas: Option<u32>,
    operating: Option<f64>,
) -> Option<Curve> {
    let points = sweep(r, w);
    if points.is_empty() {
        return None;
    }
    let needed = replicas.map(|n| t.qps / f64::from(n.max(1)) * w.output_tokens);
    Some(Curve {
        points,
        tpot_target_ms: t.tpot_s.map(|s| s * 1e3),
        needed_tok_s: needed.filter(|v| v.is_finite() && *v > 0.0),
        operating,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::plan::{Engine, Plan};

    #[test]
    fn concurrencies_double_up_to_the_pool() {
        assert_eq!(concurrencies(10.7), [1.0, 2.0, 4.0, 8.0, 10.0]);
        assert_eq!(concurrencies(8.0), [1.0, 2.0, 4.0, 8.0]);
        assert_eq!(concurrencies(1.0), [1.0]);
        assert!(concurrencies(0.9).is_empty());
        assert!(concurrencies(f64::NAN).is_empty());
        let huge = concurrencies(f64::INFINITY);
        assert_eq!((huge.len(), huge.last()), (21, Some(&MAX_CONCURRENCY)), "bounded work");
    }

    /// The chosen GPU's curve for a plan, through the report.
    fn curve(plan: &Plan) -> Curve {
        let r = crate::report::evaluate(plan, Lang::En).expect("valid plan");
        let s = r.selection.expect("a selection");
        s.speed.as_ref().expect("speed").curve().expect("a curve")
    }

    fn check(c: &Curve, what: &str) {
        assert!(c.points.len() >= 2, "{what}: {:?}", c.points);
        for p in &c.points {
            for v in [p.concurrency, p.tpot_ms, p.tok_s_total, p.requests_per_s] {
                assert!(v.is_finite() && v > 0.0, "{what}: {p:?}");
            }
        }
        for pair in c.points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(b.concurrency > a.concurrency, "{what}");
            assert!(b.tpot_ms >= a.tpot_ms, "{what}: TPOT rises with the batch: {a:?} {b:?}");
            assert!(b.tok_s_total >= a.tok_s_total, "{what}: throughput grows up to the pool: {a:?} {b:?}");
        }
    }

    #[test]
    fn tpot_rises_and_throughput_grows_up_to_the_pool() {
        for gpu in ["h100-sxm", "l4", "rtx-4090", "a100-80-sxm"] {
            for engine in [Engine::Vllm, Engine::LlamaCpp, Engine::Transformers] {
                let mut plan = Plan::default();
                plan.hardware.gpu = gpu.into();
                plan.inference.engine = engine;
                check(&curve(&plan), &format!("{gpu} {engine:?}"));
            }
        }
    }

    #[test]
    fn the_examples_give_sound_curves() {
        for e in crate::examples::all().into_iter().filter(|e| e.plan.task == crate::plan::Task::Infer) {
            check(&curve(&e.plan), e.id);
        }
    }

    #[test]
    fn targets_become_lines_and_the_expected_load_a_mark() {
        let mut plan = Plan::default();
        plan.inference.target_qps = 10.0;
        plan.inference.tpot_ms = 40.0;
        let c = curve(&plan);
        assert_eq!(c.tpot_target_ms, Some(40.0));
        let r = crate::report::evaluate(&plan, Lang::En).unwrap();
        let count = r.selection.unwrap().speed.unwrap().gpus_for_target.unwrap();
        let needed = 10.0 / f64::from(count.replicas) * 256.0;
        assert!((c.needed_tok_s.unwrap() - needed).abs() < 1e-9 * needed);
        let at = c.operating.expect("the expected figures' load");
        assert!(at > 0.0 && at <= c.points.last().unwrap().concurrency);
        let plain = curve(&Plan::default());
        assert_eq!((plain.tpot_target_ms, plain.needed_tok_s), (None, None));
    }

    #[test]
    fn training_has_no_curve() {
        let plan = Plan { task: crate::plan::Task::Train, ..Plan::default() };
        let r = crate::report::evaluate(&plan, Lang::En).unwrap();
        let s = r.selection.unwrap();
        assert!(s.speed.as_ref().unwrap().curve().is_none());
    }
}
