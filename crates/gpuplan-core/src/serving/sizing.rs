//! GPUs a traffic target needs: for each layout (replica × tensor-parallel
//! width), the most requests/s one replica sustains while meeting the TTFT
//! and TPOT targets with its KV pool (the first token including the wait of
//! random arrivals, [`super::arrivals`]), then whole replicas for the target
//! QPS; the cheapest count wins. A throughput the user measured on one GPU
//! replaces the model (seed 002 §4.3: target QPS ÷ measured single-card QPS).

use serde::Serialize;

use super::arrivals::{arriving, seen_by_arrival};
use super::load::{at_concurrency, largest, Workload};
use super::step::Replica;
use crate::derivation::n;
use crate::figure::Basis;

/// The targets a plan sets (medians).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Targets {
    pub qps: f64,
    pub ttft_s: Option<f64>,
    pub tpot_s: Option<f64>,
}

/// What limits how many requests a replica takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Binding {
    /// More sequences would push the time per output token past the target.
    Tpot,
    /// More sequences would push the time to first token past the target.
    Ttft,
    /// The KV pool holds no more sequences.
    KvCapacity,
    /// The user's measured single-GPU throughput.
    Measured,
}

/// The GPU count meeting the targets on one GPU type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetCount {
    pub gpus: u32,
    pub replicas: u32,
    pub tp: u32,
    pub pp: u32,
    pub binds: Binding,
    /// Requests/s one replica sustains within the targets.
    pub replica_rps: f64,
    /// Sequences per replica at that rate (the model's; none for a measurement).
    pub concurrency: Option<f64>,
    pub basis: Basis,
    pub derivation: String,
}

/// Largest count the search reports.
const MAX_REPLICAS: f64 = 100_000.0;

/// The best layout among `layouts` (replicas of the same part), or None when
/// no layout meets the TTFT target even unloaded.
pub fn for_targets(layouts: &[Replica], w: &Workload, t: &Targets) -> Option<TargetCount> {
    let mut best: Option<TargetCount> = None;
    for r in layouts {
        let Some(c) = capacity(r, w, t) else { continue };
        let better = best.as_ref().is_none_or(|b| c.gpus < b.gpus);
        if better {
            best = Some(c);
        }
    }
    best
}

/// One layout's count.
fn capacity(r: &Replica, w: &Workload, t: &Targets) -> Option<TargetCount> {
    let kv = r.kv_sequences(w.tokens_in_flight()).min(1.0e6);
    if kv < 1.0 {
        return None;
    }
    let (mut c, mut binds) = (kv.floor(), Binding::KvCapacity);
    if let Some(tpot) = t.tpot_s {
        let fits = largest(kv, |n| seen_by_arrival(r, w, n as f64).tpot_s <= tpot)? as f64;
        if fits < c {
            (c, binds) = (fits, Binding::Tpot);
        }
    }
    // Random arrivals: the first token waits for the prompts ahead of it,
    // and past a saturated prefill slot it waits without bound; below one
    // sequence in flight on average the replica takes a fraction of the
    // traffic one sequence would.
    let ttft = t.ttft_s.unwrap_or(f64::INFINITY);
    let fits = ttft_cap(r, w, c, ttft)?;
    if fits < c {
        (c, binds) = (fits, Binding::Ttft);
    }
    let s = at_concurrency(r, w, c);
    let replicas = (t.qps / s.requests_per_s).ceil().clamp(1.0, MAX_REPLICAS);
    let per_replica = r.tp.max(1) * r.pp.max(1);
    let gpus = (replicas as u32).saturating_mul(per_replica);
    let why = match binds {
        Binding::Tpot => "TPOT target",
        Binding::Ttft => "TTFT target",
        _ => "KV pool",
    };
    Some(TargetCount {
        gpus,
        replicas: replicas as u32,
        tp: r.tp,
        pp: r.pp,
        binds,
        replica_rps: s.requests_per_s,
        concurrency: Some(c),
        basis: Basis::Calibrated,
        derivation: format!(
            "{} seq per replica ({why} binds) → {} req/s; ⌈{} req/s ÷ {} req/s⌉ = {} replica × {per_replica} GPU (tp {}, pp {}) = {gpus} GPU",
            n(c),
            n(s.requests_per_s),
            n(t.qps),
            n(s.requests_per_s),
            n(replicas),
            r.tp,
            r.pp
        ),
    })
}

/// The least mean concurrency the TTFT search considers.
const FLOOR: f64 = 1.0e-3;

/// Bisection steps on the concurrency under a TTFT target: 2^-30 of the range.
const STEPS: usize = 30;

/// The largest mean concurrency up to `top` (sequences in flight, not
/// necessarily whole) whose first token under random arrivals at the rate
/// it serves meets `ttft` (it rises with the load); None when even a
/// trickle of traffic misses it.
fn ttft_cap(r: &Replica, w: &Workload, top: f64, ttft: f64) -> Option<f64> {
    let meets = |c: f64| arriving(r, w, c).is_some_and(|s| s.ttft_s <= ttft);
    if meets(top) {
        return Some(top);
    }
    if !meets(FLOOR) {
        return None;
    }
    let (mut lo, mut hi) = (FLOOR, top);
    for _ in 0..STEPS {
        let mid = (lo + hi) / 2.0;
        if meets(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// Seed 002 §4.3 with the user's own figure: GPUs = ⌈target QPS ÷ (measured
/// token/s ÷ output tokens)⌉, in whole replicas of `per_replica` GPUs.
pub fn from_measured(tok_s: f64, w: &Workload, qps: f64, tp: u32, pp: u32) -> Option<TargetCount> {
    if !(tok_s > 0.0 && tok_s.is_finite() && qps > 0.0) {
        return None;
    }
    let card_qps = tok_s / w.output_tokens;
    let per_replica = tp.max(1) * pp.max(1);
    let cards = (qps / card_qps).ceil();
    let replicas = (cards / f64::from(per_replica)).ceil().clamp(1.0, MAX_REPLICAS);
    let gpus = (replicas as u32).saturating_mul(per_replica);
    Some(TargetCount {
        gpus,
        replicas: replicas as u32,
        tp,
        pp,
        binds: Binding::Measured,
        replica_rps: card_qps * f64::from(per_replica),
        concurrency: None,
        basis: Basis::Measured,
        derivation: format!(
            "your measurement: {} token/s ÷ {} output tokens = {} req/s per GPU; ⌈{} ÷ {}⌉ = {} GPU → {} replica × {per_replica} GPU = {gpus} GPU",
            n(tok_s),
            n(w.output_tokens),
            n(card_qps),
            n(qps),
            n(card_qps),
            n(cards),
            n(replicas)
        ),
    })
}
