//! Steady state of one replica under continuous batching: a closed loop of
//! `c` sequences (each starts a new request when its last one ends), or the
//! concurrency an arrival rate settles at (Little's law: c = λ · time per
//! request). Under an arrival rate the first token also waits for the
//! prompts that arrived before it ([`super::arrivals::at_rate`]).

use serde::Serialize;

use super::step::{Replica, Step};

/// The wait a request adds to its first token under random arrivals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Queue {
    /// Arrivals per second at the replica.
    pub rate: f64,
    /// One request's time on the prefill slot, seconds.
    pub service_s: f64,
    /// The slot's utilisation, λ × S.
    pub utilisation: f64,
    /// Mean wait for the slot, seconds.
    pub wait_s: f64,
    /// The HTTP server's own time to the streamed first token, seconds.
    pub front_end_s: f64,
}

/// One request: prompt tokens (those the prefix cache does not hold) and
/// generated tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Workload {
    pub prompt_tokens: f64,
    /// Prompt tokens the engine computes: the prompt less prefix-cache hits.
    pub prompt_new: f64,
    pub output_tokens: f64,
}

impl Workload {
    pub fn new(prompt: u64, output: u64, prefix_hit: f64) -> Self {
        let p = prompt as f64;
        Self { prompt_tokens: p, prompt_new: (p * (1.0 - prefix_hit)).max(1.0), output_tokens: output as f64 }
    }

    /// Mean context a decode step attends to: the prompt and half the output.
    pub(crate) fn decode_context(&self) -> f64 {
        self.prompt_tokens + self.output_tokens / 2.0
    }

    /// Tokens one sequence holds in the KV pool at its longest.
    pub fn tokens_in_flight(&self) -> f64 {
        self.prompt_tokens + self.output_tokens
    }
}

/// The replica at one concurrency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SteadyState {
    pub concurrency: f64,
    pub ttft_s: f64,
    pub tpot_s: f64,
    pub requests_per_s: f64,
    pub tokens_per_s: f64,
    /// The decode step of one stage at this load.
    pub step: Step,
    /// Prompt tokens of other requests riding along in each decode step.
    pub prefill_per_step: f64,
    /// Sequences per step of one stage (micro-batch).
    pub micro_batch: f64,
    /// The wait of random arrivals, already in `ttft_s` (None for a closed
    /// loop, whose clients send the next request when the last ends).
    pub queue: Option<Queue>,
}

impl SteadyState {
    /// The first token without the wait of random arrivals and the server's
    /// own time: what the batch's concurrency (Little's law) rests on.
    pub fn ttft_in_batch_s(&self) -> f64 {
        self.ttft_s - self.queue.map_or(0.0, |q| q.wait_s + q.front_end_s)
    }
}

/// Fixed-point passes for the prefill that rides along in decode steps: each
/// changes the step time by a few percent at most, so three settle it.
const PASSES: usize = 3;

/// A closed loop of `c` sequences on the replica.
pub fn at_concurrency(r: &Replica, w: &Workload, c: f64) -> SteadyState {
    let mut state = pass(r, w, c, 0.0);
    for _ in 1..PASSES {
        state = pass(r, w, c, state.prefill_per_step);
    }
    state
}

/// One pass with `prefill` prompt tokens of other requests in each decode step.
fn pass(r: &Replica, w: &Workload, c: f64, prefill: f64) -> SteadyState {
    let pp = f64::from(r.pp.max(1));
    // Micro-batches in flight through the pipeline: at most one per stage.
    let micro = c.clamp(1.0, pp);
    let batch = (c / micro).max(1.0);
    let chunk = f64::from(r.efficiency.prefill_chunk).min(w.prompt_new);
    let chunks = (w.prompt_new / chunk).ceil();
    let step = r.step(batch, w.decode_context(), prefill, w.prompt_tokens / 2.0);
    let tpot = pp * step.seconds();
    // A request joins at the next step: half a step's wait on average.
    let wait = if c > 1.0 { tpot / 2.0 } else { 0.0 };
    let others = (batch - 1.0).max(0.0);
    // Only the last chunk ends the prompt and needs its logits.
    let last = r.step(others, w.decode_context(), chunk, w.prompt_tokens / 2.0);
    let earlier = r.chunk_step(others, w.decode_context(), chunk, w.prompt_tokens / 2.0);
    let ttft = wait + pp * ((chunks - 1.0).max(0.0) * earlier.seconds() + last.seconds());
    let request = ttft + (w.output_tokens - 1.0).max(0.0) * tpot;
    let rps = c / request;
    SteadyState {
        concurrency: c,
        ttft_s: ttft,
        tpot_s: tpot,
        requests_per_s: rps,
        tokens_per_s: rps * w.output_tokens,
        step,
        // Other requests' prompts, spread over the decode steps.
        prefill_per_step: (c - 1.0).max(0.0) / c * rps * w.prompt_new * tpot / micro,
        micro_batch: batch,
        queue: None,
    }
}

/// Bisection steps on the concurrency: 2^-40 of the range.
pub(crate) const BISECT: usize = 40;

/// The largest whole concurrency (up to `max_concurrency`) whose TPOT meets
/// `tpot_s`, or None when even one sequence misses it.
pub fn max_concurrency_for_tpot(r: &Replica, w: &Workload, tpot_s: f64, max_concurrency: f64) -> Option<u64> {
    largest(max_concurrency, |c| at_concurrency(r, w, c as f64).tpot_s <= tpot_s)
}

/// The largest whole concurrency up to `top` that `meets` (latency rises
/// with the batch); None when one sequence already fails.
pub fn largest(top: f64, meets: impl Fn(u64) -> bool) -> Option<u64> {
    crate::bisect::largest(top.floor().clamp(1.0, 1.0e6) as u64, meets)
}
