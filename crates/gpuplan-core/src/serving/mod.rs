//! Serving: the expected latency and throughput of a replica under
//! continuous batching, and the GPUs a traffic target needs. Expected values
//! rest on efficiency factors fitted to measured runs ([`engine`]); the
//! physics bounds stay in [`crate::speed`].

pub mod arrivals;
pub mod curve;
pub mod engine;
pub mod llama_quant;
pub mod llama_split;
pub mod load;
mod replica;
pub mod sizing;
pub mod step;

use serde::Serialize;

pub use arrivals::at_rate;
pub use engine::{efficiency, efficiency_on, releases, Efficiency, FactorBasis, SPREAD};
pub use llama_split::LlamaSplit;
pub use load::{at_concurrency, max_concurrency_for_tpot, SteadyState, Workload};
pub use replica::replica;
pub use sizing::{Binding, TargetCount, Targets};
pub use step::{Link, Moe, Replica, Step};

use crate::derivation::{n, pct};
use crate::figure::Basis;

/// An expected figure with its range, kind and derivation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    pub unit: &'static str,
    pub basis: Basis,
    pub derivation: String,
}

impl Estimate {
    /// The value as a plain figure (for tables that show one number).
    pub fn figure(&self) -> crate::figure::Figure {
        crate::figure::Figure {
            value: self.value,
            unit: self.unit,
            basis: self.basis,
            derivation: self.derivation.clone(),
        }
    }

    /// A calibrated figure, its range the calibration's spread.
    fn calibrated(value: f64, unit: &'static str, derivation: String) -> Self {
        Self {
            value,
            low: value * (1.0 - SPREAD),
            high: value * (1.0 + SPREAD),
            unit,
            basis: Basis::Calibrated,
            derivation,
        }
    }
}

/// What a buyer plans with: expected figures of one replica at its load.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expected {
    pub ttft_ms: Estimate,
    pub tpot_ms: Estimate,
    pub decode_tps_per_sequence: Estimate,
    pub decode_tps_total: Estimate,
    pub requests_per_s: Estimate,
    /// Sequences in flight at this load (closed loop, or by Little's law).
    pub concurrency: f64,
    /// Sequences the KV pool holds at prompt + output tokens each.
    pub max_concurrency_kv: f64,
    /// Largest concurrency whose TPOT meets the plan's target, when it has one.
    pub max_concurrency_for_tpot: Option<u64>,
    pub compute_bound: bool,
    pub efficiency: Efficiency,
}

/// Expected figures of `s`, a steady state of replica `r`.
pub fn expected(r: &Replica, w: &Workload, s: &SteadyState, targets: &Targets) -> Expected {
    let e = &r.efficiency;
    let step = &s.step;
    let pp = r.pp.max(1);
    // llama.cpp's quantised GEMMs: the int8 peak and the block type's factor.
    let mmq = r.mmq.map_or(String::new(), |m| {
        if m.fp16_copy {
            format!(" (FP16 copy of {} for cuBLAS)", m.kernel)
        } else {
            format!(" × int8 {} × MMQ {} {}", n(m.int8_ratio), m.kernel, n(m.factor))
        }
    });
    let step_text = format!(
        "{pp} stage × ({} ms overhead + memory {} ms at {} TB/s × {} + compute {} ms at {} TFLOPS × {}{mmq} + attention {} ms + all-reduce {} ms)",
        n(step.overhead_s * 1e3),
        n(step.memory_s * 1e3),
        n(r.bandwidth_tbs),
        pct(e.bandwidth),
        n(step.compute_s * 1e3),
        n(r.tflops),
        pct(r.compute_share()),
        n(step.attention_s * 1e3),
        n(step.comm_s * 1e3),
    );
    let factors = match e.basis {
        FactorBasis::EndToEnd => "factors fitted end to end".to_string(),
        FactorBasis::Kernels => format!("factors carried by measured kernels, release {}", e.release),
        FactorBasis::SpecSheet => "factors fitted on other GPUs".to_string(),
    };
    let tpot_ms = s.tpot_s * 1e3;
    let ttft_ms = s.ttft_s * 1e3;
    let chunks = (w.prompt_new / f64::from(e.prefill_chunk).min(w.prompt_new)).ceil();
    let max_kv = r.kv_sequences(w.tokens_in_flight());
    let max_tpot = targets.tpot_s.and_then(|t| max_concurrency_for_tpot(r, w, t, max_kv));
    Expected {
        tpot_ms: Estimate::calibrated(
            tpot_ms,
            "ms",
            format!(
                "decode step of {} seq + {} prompt tokens: {step_text} = {} ms ({factors})",
                n(s.micro_batch),
                n(s.prefill_per_step),
                n(tpot_ms)
            ),
        ),
        ttft_ms: Estimate::calibrated(
            ttft_ms,
            "ms",
            format!(
                "{} prompt tokens to compute in {} chunk of ≤ {} beside {} decoding seq{}{} = {} ms",
                n(w.prompt_new),
                n(chunks),
                e.prefill_chunk.min(u32::try_from(w.prompt_new as u64).unwrap_or(u32::MAX)),
                n((s.micro_batch - 1.0).max(0.0)),
                if s.concurrency > 1.0 { ", + half a step's wait" } else { "" },
                s.queue.map_or(String::new(), |q| queue_text(&q)),
                n(ttft_ms)
            ),
        ),
        decode_tps_per_sequence: Estimate::calibrated(
            1.0 / s.tpot_s,
            "token/s",
            format!("1 ÷ {} ms TPOT = {} token/s", n(tpot_ms), n(1.0 / s.tpot_s)),
        ),
        decode_tps_total: Estimate::calibrated(
            s.tokens_per_s,
            "token/s",
            format!(
                "{} req/s × {} output tokens = {} token/s",
                n(s.requests_per_s),
                n(w.output_tokens),
                n(s.tokens_per_s)
            ),
        ),
        requests_per_s: Estimate::calibrated(
            s.requests_per_s,
            "req/s",
            format!(
                "{} seq ÷ ({} ms TTFT in the batch + {} × {} ms TPOT) = {} req/s",
                n(s.concurrency),
                n(s.ttft_in_batch_s() * 1e3),
                n((w.output_tokens - 1.0).max(0.0)),
                n(tpot_ms),
                n(s.requests_per_s)
            ),
        ),
        concurrency: s.concurrency,
        max_concurrency_kv: max_kv,
        max_concurrency_for_tpot: max_tpot,
        compute_bound: step.compute_bound(),
        efficiency: *e,
    }
}

/// The wait of random arrivals in words of the derivation.
fn queue_text(q: &load::Queue) -> String {
    format!(
        ", + {} ms waiting for the prompts ahead (Poisson arrivals at {} req/s on a prefill slot of {} ms each: M/D/1, ρ = {}, W = ρS ÷ 2(1 − ρ)) + {} ms of the server's own",
        n(q.wait_s * 1e3),
        n(q.rate),
        n(q.service_s * 1e3),
        n(q.utilisation),
        n(q.front_end_s * 1e3)
    )
}

#[cfg(test)]
mod tests;
