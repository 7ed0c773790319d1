//! Waiting under random arrivals. A traffic target's requests arrive at
//! random (a Poisson process, as `vllm bench serve --request-rate`,
//! SGLang's `bench_serving` and TensorRT-LLM's serving benchmark send them),
//! so a prompt can arrive while others are still being prefilled and wait
//! for them. The steady state of [`super::load`] holds the mean load; this
//! adds the wait its fluctuation causes.
//!
//! The prefill slot is a single server of prompt tokens: a step carries at
//! most the engine's chunk of prompt tokens, so the slot takes prompt tokens
//! at `chunk ÷ t_full` per second, `t_full` being the step that carries a
//! full chunk beside the decoding batch. A request's service is its prompt,
//! `S = prompt ÷ chunk × t_full` (the same for every request of a plan:
//! deterministic), and the slot's utilisation is `ρ = λ × S`. Poisson
//! arrivals at one deterministic server (M/D/1) wait on average, by the
//! Pollaczek–Khinchine formula with `E[S²] = S²`,
//!
//! ```text
//! W = λ E[S²] ÷ (2 (1 − ρ)) = ρ S ÷ (2 (1 − ρ))
//! ```
//!
//! (Kleinrock, *Queueing Systems* vol. 1, 1975, eq. 5.72; any M/G/1 text).
//! A request arriving at random finds, on average, the time-average number
//! of others in service (PASTA: Poisson arrivals see time averages; Wolff,
//! Operations Research 30, 1982), c by Little's law, so it decodes in a batch
//! of c + 1 and prefills beside c others, where each of c closed-loop
//! clients sees c − 1 others. A step's time is linear in the sequences and
//! prompt tokens it carries, so the mean over the fluctuating load is the
//! step at that mean.
//!
//! The engine's HTTP server adds its own time to a streamed first token
//! (`Efficiency::front_end_s`, fitted per engine on open-loop rows).

use super::load::{at_concurrency, Queue, SteadyState, Workload, BISECT};
use super::step::Replica;

/// Utilisation past which the wait is taken as unbounded: at 0.98 the mean
/// wait is already 24.5 services.
pub const SATURATED: f64 = 0.98;

/// The M/D/1 mean wait of `rate` arrivals per second at a server taking
/// `service_s` each; None at or past [`SATURATED`].
pub fn md1_wait(rate: f64, service_s: f64) -> Option<f64> {
    let rho = rate * service_s;
    if !(rho.is_finite() && rate >= 0.0 && service_s >= 0.0) || rho >= SATURATED {
        return None;
    }
    Some(rho * service_s / (2.0 * (1.0 - rho)))
}

/// One request's service on the prefill slot of replica `r` in steady state
/// `s`: its prompt at the rate of a step carrying a full chunk beside the
/// others' decoding.
pub fn service_s(r: &Replica, w: &Workload, s: &SteadyState) -> f64 {
    let chunk = f64::from(r.efficiency.prefill_chunk.max(1));
    let others = (s.micro_batch - 1.0).max(0.0);
    let full = r.chunk_step(others, w.decode_context(), chunk, w.prompt_tokens / 2.0);
    let stages = f64::from(r.pp.max(1));
    w.prompt_new / chunk * full.seconds() * stages
}

/// The wait of requests arriving at random at the steady state's rate, or
/// None when the prefill slot is saturated.
pub fn queue(r: &Replica, w: &Workload, s: &SteadyState) -> Option<Queue> {
    let rate = s.requests_per_s;
    let service = service_s(r, w, s);
    let wait = md1_wait(rate, service)?;
    let front_end_s = r.efficiency.front_end_s;
    Some(Queue { rate, service_s: service, utilisation: rate * service, wait_s: wait, front_end_s })
}

/// The replica at mean concurrency `c` as a request arriving at random sees
/// it: its steps those of c + 1 sequences, its rate what c serves.
pub fn seen_by_arrival(r: &Replica, w: &Workload, c: f64) -> SteadyState {
    let mean = at_concurrency(r, w, c);
    let seen = at_concurrency(r, w, c + 1.0);
    SteadyState {
        concurrency: c,
        requests_per_s: mean.requests_per_s,
        tokens_per_s: mean.tokens_per_s,
        ..seen
    }
}

/// Random arrivals at mean concurrency `c`: the steps they see, the first
/// token later by the wait for the slot and the server's own time; None when
/// the slot is saturated.
pub fn arriving(r: &Replica, w: &Workload, c: f64) -> Option<SteadyState> {
    let s = seen_by_arrival(r, w, c);
    let q = queue(r, w, &s)?;
    Some(SteadyState { ttft_s: s.ttft_s + q.wait_s + q.front_end_s, queue: Some(q), ..s })
}

/// The concurrency an arrival rate of `rate` requests/s settles at, its
/// first token including the wait of random arrivals; None when the replica
/// cannot sustain it below `max_concurrency` or its prefill slot saturates.
pub fn at_rate(r: &Replica, w: &Workload, rate: f64, max_concurrency: f64) -> Option<SteadyState> {
    let top = at_concurrency(r, w, max_concurrency);
    if rate.is_nan() || rate <= 0.0 || top.requests_per_s < rate {
        return None;
    }
    let (mut lo, mut hi) = (0.0_f64, max_concurrency);
    for _ in 0..BISECT {
        let mid = (lo + hi) / 2.0;
        if at_concurrency(r, w, mid).requests_per_s < rate {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    arriving(r, w, hi)
}
