//! How fast: training time and inference throughput. Every figure says
//! whether it is an upper bound, a lower bound or an estimate, and carries the
//! formula with the numbers substituted. Formulas: reference memory.md
//! ("Compute, time and speed") and seed 002 §4.
//!
//! - Training FLOPs per token from `training_flops` (6·P full, 4·P + 6·A
//!   LoRA, one more forward with full recompute); MoE uses active
//!   parameters. Time = FLOPs ÷ (GPUs × dense TFLOPS × MFU), plus QLoRA's
//!   dequantisation; the MFU is the plan's or the measured default
//!   (`training_mfu`).
//! - Decode at small batch is memory bound: each step reads the weights once
//!   (active experts only for MoE) plus every sequence's KV cache.
//! - Prefill is compute bound: 2·P FLOPs per prompt token.

use serde::Serialize;

use crate::derivation::{n, pct};
use crate::error::{FieldError, Limit, Problem};
use crate::figure::{Basis, Figure};
use crate::hardware::Gpu;
use crate::lang::Lang;
use crate::model::Arch;
use crate::model::WeightFormat;
use crate::placement::{ModelSize, Placement};
use crate::plan::{GradCkpt, Inference, Method, Plan, Precision, Task};
use crate::serving::{self, Expected, Replica, TargetCount, Targets, Workload};
use crate::text::{self, Key};
use crate::training_flops::Work;
use crate::training_mfu::{default_mfu, MfuDefault, DEQUANT_BYTES_PER_WEIGHT};

/// The seeds' debugging buffer on training time (seed 002 step 4: 30-50 % extra).
pub const DEBUG_BUFFER: (f64, f64) = (0.3, 0.5);

/// A training run to time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingRun {
    pub work: Work,
    /// Tokens processed in total (dataset tokens × epochs).
    pub tokens: f64,
    pub gpus: u32,
    /// Dense TFLOPS per GPU at the training precision.
    pub tflops: f64,
    pub mfu: f64,
    /// Where `mfu` comes from when the plan left it to the default.
    pub mfu_default: Option<MfuDefault>,
    /// QLoRA's dequantisation, which costs memory traffic, not FLOPs.
    pub dequant: Option<Dequant>,
}

/// QLoRA expands every 4-bit matrix to 16 bits before each use, once per
/// micro-batch: forward, backward, and the recompute's forward.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dequant {
    /// 4-bit weights a micro-batch passes through (the whole model, on
    /// whichever GPUs hold it).
    pub weights: f64,
    pub uses: u32,
    /// Tokens in one micro-batch (batch × sequence).
    pub micro_batch_tokens: f64,
    /// Memory bandwidth per GPU, TB/s.
    pub bandwidth_tbs: f64,
}

impl Dequant {
    /// GPU-seconds per trained token, with the formula.
    fn per_token(&self) -> (f64, String) {
        let bytes = f64::from(self.uses) * self.weights * DEQUANT_BYTES_PER_WEIGHT;
        let seconds = bytes / (self.bandwidth_tbs * 1e12) / self.micro_batch_tokens;
        let txt = format!(
            "{} uses × {} weights × {} B ÷ {} TB/s ÷ {} tokens per micro-batch",
            self.uses,
            n(self.weights),
            n(DEQUANT_BYTES_PER_WEIGHT),
            n(self.bandwidth_tbs),
            n(self.micro_batch_tokens)
        );
        (seconds, txt)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainingTime {
    pub flops: Figure,
    pub hours: Figure,
    /// With the seeds' 30-50 % debugging buffer: low and high end.
    pub buffered_hours: (Figure, Figure),
    /// The measured default the hours rest on; None when the plan set the MFU.
    pub mfu_default: Option<MfuDefault>,
}

/// Run time of a training job (an estimate: it rests on the MFU).
pub fn training_time(run: &TrainingRun) -> Result<TrainingTime, Vec<FieldError>> {
    let mut errs = Vec::new();
    Limit::real(1.0, 1.0e15).check_f64("model.params", run.work.params, &mut errs);
    Limit::real(1.0, 1.0e19).check_f64("training.dataset_tokens", run.tokens, &mut errs);
    Limit::int(1, 100_000).check_u64("parallel.gpus", run.gpus.into(), &mut errs);
    Limit::real(0.001, 1.0e6).check_f64("hardware.custom.bf16_tflops", run.tflops, &mut errs);
    Limit::real(0.01, 1.0).check_f64("training.mfu", run.mfu, &mut errs);
    if !errs.is_empty() {
        return Err(errs);
    }
    let (per_token, per_token_txt) = run.work.per_token();
    let flops = per_token * run.tokens;
    let rate = f64::from(run.gpus) * run.tflops * 1e12 * run.mfu;
    let compute = flops / rate;
    let (dequant, dequant_txt) = match run.dequant.map(|d| d.per_token()) {
        Some((per_token, txt)) => {
            let s = per_token * run.tokens / f64::from(run.gpus);
            (s, format!(" + dequantisation D {} ÷ {} GPU × {txt} = {} s", n(run.tokens), run.gpus, n(s)))
        }
        None => (0.0, String::new()),
    };
    let seconds = compute + dequant;
    let hours = seconds / 3600.0;
    // A default fitted on measured runs gives an expected value; the user's
    // own MFU is an assumption.
    let basis = if run.mfu_default.is_some() { Basis::Calibrated } else { Basis::Estimate };
    let mfu_txt = match &run.mfu_default {
        Some(d) => format!("{} MFU (default: {})", pct(run.mfu), d.source),
        None => format!("{} MFU", pct(run.mfu)),
    };
    let buffered = |share: f64| Figure {
        value: hours * (1.0 + share),
        unit: "h",
        basis,
        derivation: format!("{} h × (1 + {})", n(hours), pct(share)),
    };
    Ok(TrainingTime {
        flops: Figure {
            value: flops,
            unit: "FLOP",
            basis: Basis::Estimate,
            derivation: format!("({per_token_txt}) × D {} = {}", n(run.tokens), n(flops)),
        },
        hours: Figure {
            value: hours,
            unit: "h",
            basis,
            derivation: format!(
                "{} FLOP ÷ ({} GPU × {} TFLOPS × {mfu_txt}) = {} s{dequant_txt}; {} s = {} h",
                n(flops),
                run.gpus,
                n(run.tflops),
                n(compute),
                n(seconds),
                n(hours)
            ),
        },
        buffered_hours: (buffered(DEBUG_BUFFER.0), buffered(DEBUG_BUFFER.1)),
        mfu_default: run.mfu_default,
    })
}

/// One model replica serving requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Serving {
    /// Memory bandwidth per GPU, TB/s.
    pub bandwidth_tbs: f64,
    /// Dense TFLOPS per GPU at the serving precision.
    pub tflops: f64,
    /// GPUs in the replica (tp × pp) and how many pipeline stages.
    pub gpus: u32,
    pub stages: u32,
    /// Weight bytes each GPU holds (its shard) and the share a token reads.
    pub weight_bytes_per_gpu: f64,
    pub size: ModelSize,
    /// KV bytes per token of context on each GPU.
    pub kv_bytes_per_token_per_gpu: f64,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    pub concurrency: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InferenceSpeed {
    /// Tokens per second one sequence can see (upper bound).
    pub decode_tps_per_sequence: Figure,
    /// Tokens per second for all `concurrency` sequences together (upper bound).
    pub decode_tps_total: Figure,
    /// Time to process one prompt (lower bound).
    pub prefill_seconds: Figure,
    /// Requests per second the replica can serve (upper bound).
    pub requests_per_s: Figure,
}

/// Throughput bounds of one replica. Bounds, not measurements: the seeds say
/// to measure single-card QPS with the engine's benchmark (seed 002 §4.2).
pub fn inference_speed(s: &Serving) -> Result<InferenceSpeed, Vec<FieldError>> {
    let mut errs = Vec::new();
    Limit::real(0.001, 1000.0).check_f64("hardware.custom.bandwidth_tbs", s.bandwidth_tbs, &mut errs);
    Limit::real(0.001, 1.0e6).check_f64("hardware.custom.bf16_tflops", s.tflops, &mut errs);
    Limit::int(1, 100_000).check_u64("parallel.gpus", s.gpus.into(), &mut errs);
    Limit::int(1, 100_000).check_u64("parallel.pp", s.stages.into(), &mut errs);
    Limit::real(1.0, 1.0e15).check_f64("model.params", s.size.active, &mut errs);
    Limit::real(0.0, 1.0e16).check_f64("memory.weights", s.weight_bytes_per_gpu, &mut errs);
    Limit::real(0.0, 1.0e12).check_f64("memory.kv_cache", s.kv_bytes_per_token_per_gpu, &mut errs);
    Limit::int(1, 10_000_000).check_u64("inference.prompt_tokens", s.prompt_tokens, &mut errs);
    Limit::int(1, 10_000_000).check_u64("inference.output_tokens", s.output_tokens, &mut errs);
    Limit::int(1, 100_000).check_u64("inference.concurrency", s.concurrency, &mut errs);
    if !errs.is_empty() {
        return Err(errs);
    }
    let conc = s.concurrency as f64;
    let bandwidth = s.bandwidth_tbs * 1e12;
    let weights_read = s.weight_bytes_per_gpu * s.size.active_share();
    // Average context while decoding: the prompt plus half the output.
    let mean_context = s.prompt_tokens as f64 + s.output_tokens as f64 / 2.0;
    let kv_read = s.kv_bytes_per_token_per_gpu * mean_context;
    // One decode step of one stage reads its weights once and every sequence's KV.
    let step = (weights_read + conc * kv_read) / bandwidth;
    if !(step > 0.0 && step.is_finite()) {
        // Nothing read per token: no memory bound to state.
        return Err(vec![FieldError::new("memory.weights", Problem::OutOfRange { min: 1.0, max: 1.0e16 })]);
    }
    let stages = f64::from(s.stages);
    let per_seq = 1.0 / (stages * step);
    let total = conc / step;
    let step_text = format!(
        "({} B weights read + {} seq × {} B KV) ÷ {} TB/s = {} s/step",
        n(weights_read),
        s.concurrency,
        n(kv_read),
        n(s.bandwidth_tbs),
        n(step)
    );
    let compute = f64::from(s.gpus) * s.tflops * 1e12;
    let prefill_flops = 2.0 * s.size.active * s.prompt_tokens as f64;
    let prefill = prefill_flops / compute;
    let request_time = prefill + s.output_tokens as f64 / per_seq;
    let memory_rps = conc / request_time;
    let compute_rps = compute / (2.0 * s.size.active * (s.prompt_tokens + s.output_tokens) as f64);
    let rps = memory_rps.min(compute_rps);
    Ok(InferenceSpeed {
        decode_tps_per_sequence: Figure {
            value: per_seq,
            unit: "token/s",
            basis: Basis::UpperBound,
            derivation: format!("1 ÷ ({} stage × {step_text}) = {} token/s", s.stages, n(per_seq)),
        },
        decode_tps_total: Figure {
            value: total,
            unit: "token/s",
            basis: Basis::UpperBound,
            derivation: format!("{} seq ÷ {} s/step = {} token/s", s.concurrency, n(step), n(total)),
        },
        prefill_seconds: Figure {
            value: prefill,
            unit: "s",
            basis: Basis::LowerBound,
            derivation: format!(
                "2 × {} × {} prompt tokens ÷ ({} GPU × {} TFLOPS) = {} s",
                n(s.size.active),
                s.prompt_tokens,
                s.gpus,
                n(s.tflops),
                n(prefill)
            ),
        },
        requests_per_s: Figure {
            value: rps,
            unit: "req/s",
            basis: Basis::UpperBound,
            derivation: format!(
                "min({} seq ÷ ({} s prefill + {} tokens ÷ {} token/s), {} FLOP/s ÷ (2 × {} × {} tokens)) = {} req/s",
                s.concurrency,
                n(prefill),
                s.output_tokens,
                n(per_seq),
                n(compute),
                n(s.size.active),
                s.prompt_tokens + s.output_tokens,
                n(rps)
            ),
        },
    })
}

/// Dense TFLOPS a training precision runs at, when the catalog knows it.
/// The 16-bit column is FP16 on parts without BF16 (T4, V100); the catalog
/// has no FP32 figure.
pub fn training_tflops(gpu: &Gpu, precision: Precision) -> Option<f64> {
    match precision {
        Precision::Mixed | Precision::PureBf16 => gpu.bf16_tflops,
        Precision::Fp32 => None,
    }
}

/// Dense TFLOPS for serving: FP8 weights use the FP8 rate where the tensor
/// cores run FP8 (W8A8), NVFP4 the FP4 rate on Blackwell (W4A4);
/// everything else computes in 16-bit ([`crate::tensor_path`]).
pub fn inference_tflops(gpu: &Gpu, weights: WeightFormat) -> Option<f64> {
    crate::tensor_path::tensor_tflops(gpu, weights)
}

/// Serving figures of one replica: what to plan with, and the physics bounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InferenceFigures {
    /// None when the KV pool holds no sequence or the load cannot be served.
    pub expected: Option<Expected>,
    pub bound: InferenceSpeed,
    /// What the expected figures describe, kept for the curve across
    /// concurrency, which is swept only for the GPU a reader looks at; not
    /// part of the answer.
    #[serde(skip)]
    pub sweep: Option<Sweep>,
}

/// The replica, its workload and the plan's targets behind the expected figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub replica: Replica,
    pub workload: Workload,
    pub targets: Targets,
}

impl InferenceFigures {
    /// Total decode throughput to plan with: the expected value, or the
    /// bound when there is none.
    pub fn decode_tps_total(&self) -> Figure {
        self.expected
            .as_ref()
            .map_or_else(|| self.bound.decode_tps_total.clone(), |e| e.decode_tps_total.figure())
    }
}

/// The speed figures of one option, or why they are missing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeedSummary {
    pub training: Option<TrainingTime>,
    pub inference: Option<InferenceFigures>,
    /// GPUs the plan's targets need on this GPU type, when a QPS target is set.
    pub gpus_for_target: Option<TargetCount>,
    pub missing: Option<Missing>,
}

impl SpeedSummary {
    fn missing(why: Missing) -> Self {
        Self { training: None, inference: None, gpus_for_target: None, missing: Some(why) }
    }

    /// The serving curve of the replica the expected figures describe, with
    /// the plan's targets; None for training or without a replica to sweep.
    pub fn curve(&self) -> Option<serving::curve::Curve> {
        let figures = self.inference.as_ref()?;
        let s = figures.sweep.as_ref()?;
        let replicas = self.gpus_for_target.as_ref().map(|c| c.replicas);
        let operating = figures.expected.as_ref().map(|e| e.concurrency);
        serving::curve::curve(&s.replica, &s.workload, &s.targets, replicas, operating)
    }

    /// A number that is smaller for faster options (training hours, or the
    /// inverse of decode throughput), for ranking; infinite when unknown.
    pub fn slowness(&self) -> f64 {
        if let Some(t) = &self.training {
            t.hours.value
        } else if let Some(i) = &self.inference {
            1.0 / i.decode_tps_total().value
        } else {
            f64::INFINITY
        }
    }
}

/// What one token of the plan's training computes.
pub fn training_work(plan: &Plan, size: ModelSize) -> Work {
    let t = &plan.training;
    let recompute = t.grad_ckpt == GradCkpt::Full;
    match (t.method, plan.model.arch()) {
        (Method::Lora | Method::Qlora, Some(arch)) => {
            let adapters = crate::memory::adapter_params(&arch, t) * size.active_share();
            Work::lora(size.active, adapters, recompute)
        }
        _ => Work::full(size.active, recompute),
    }
}

/// The run a training plan times on `gpus` of a part with `tflops` dense:
/// the plan's MFU or the measured default, and QLoRA's dequantisation.
pub fn training_run(plan: &Plan, gpu: &Gpu, gpus: u32, tflops: f64, size: ModelSize) -> TrainingRun {
    let t = &plan.training;
    let (mfu, mfu_default) = match t.mfu {
        Some(mfu) => (mfu, None),
        None => {
            let d = default_mfu(gpu, t.method);
            (d.value, Some(d))
        }
    };
    let recompute = t.grad_ckpt == GradCkpt::Full;
    // A custom GPU without a bandwidth cannot time it: left out.
    let bandwidth = gpu.bandwidth_tbs.filter(|bw| *bw > 0.0 && bw.is_finite());
    let dequant = bandwidth.filter(|_| t.method == Method::Qlora).map(|bandwidth_tbs| Dequant {
        weights: size.total,
        uses: if recompute { 3 } else { 2 },
        micro_batch_tokens: (t.batch.saturating_mul(t.seq)).max(1) as f64,
        bandwidth_tbs,
    });
    TrainingRun {
        work: training_work(plan, size),
        tokens: t.dataset_tokens * t.epochs,
        gpus,
        tflops,
        mfu,
        mfu_default,
        dequant,
    }
}

/// Speed of a plan at a placement: training time or serving bounds.
pub fn summary(plan: &Plan, at: &Placement, size: Option<ModelSize>) -> SpeedSummary {
    let Some(size) = size.filter(|_| plan.model.arch().is_some()) else {
        return SpeedSummary::missing(Missing::NotTransformer);
    };
    let known = |x: Option<f64>| x.filter(|v| *v > 0.0 && v.is_finite());
    match plan.task {
        Task::Train => {
            let t = &plan.training;
            let Some(tflops) = known(training_tflops(at.gpu, t.precision)) else {
                return SpeedSummary::missing(Missing::NoTflops);
            };
            let run = training_run(plan, at.gpu, at.parallel.gpus, tflops, size);
            match training_time(&run) {
                Ok(time) => SpeedSummary {
                    training: Some(time),
                    inference: None,
                    gpus_for_target: None,
                    missing: None,
                },
                Err(_) => SpeedSummary::missing(Missing::OutOfRange),
            }
        }
        Task::Infer => {
            let inf = &plan.inference;
            let Some(bandwidth) = known(at.gpu.bandwidth_tbs) else {
                return SpeedSummary::missing(Missing::NoBandwidth);
            };
            let Some(tflops) = known(inference_tflops(at.gpu, inf.weights)) else {
                return SpeedSummary::missing(Missing::NoTflops);
            };
            let p = at.parallel;
            let replica = p.tp.max(1).saturating_mul(p.pp.max(1));
            let cached_tokens = plan.model.arch().map_or(1, |a| crate::memory::kv_tokens(&a, inf)) as f64;
            let serving = Serving {
                bandwidth_tbs: bandwidth,
                tflops,
                gpus: replica,
                stages: p.pp.max(1),
                weight_bytes_per_gpu: at.weights_bytes as f64,
                size,
                kv_bytes_per_token_per_gpu: at.kv_bytes as f64 / cached_tokens,
                prompt_tokens: inf.prompt_tokens,
                output_tokens: inf.output_tokens,
                concurrency: inf.concurrency,
            };
            let Ok(bound) = inference_speed(&serving) else {
                return SpeedSummary::missing(Missing::OutOfRange);
            };
            let Some(arch) = plan.model.arch() else {
                return SpeedSummary::missing(Missing::NotTransformer);
            };
            let r = serving::replica(plan, at, &arch, size, bandwidth, tflops);
            let (expected, gpus_for_target, sweep) = serve(plan, at, &arch, &r);
            SpeedSummary {
                training: None,
                inference: Some(InferenceFigures { expected, bound, sweep }),
                gpus_for_target,
                missing: None,
            }
        }
    }
}

/// The serving plan's targets.
pub fn targets(inf: &Inference) -> Targets {
    let ms = |v: f64| (v > 0.0).then_some(v / 1e3);
    Targets { qps: inf.target_qps, ttft_s: ms(inf.ttft_ms), tpot_s: ms(inf.tpot_ms) }
}

/// Expected figures, the count for the targets and the replica they
/// describe. With a QPS target, the chosen layout's replicas share the
/// traffic; without, one replica runs at the plan's concurrency.
fn serve(plan: &Plan, at: &Placement, arch: &Arch, r: &Replica) -> Served {
    let inf = &plan.inference;
    let w = Workload::new(inf.prompt_tokens, inf.output_tokens, inf.prefix_hit);
    let t = targets(inf);
    let layouts = layouts(plan, at, arch, r);
    let count = if t.qps <= 0.0 {
        None
    } else if let Some(m) = inf.measured.iter().find(|m| m.gpu == at.gpu.id) {
        serving::sizing::from_measured(m.tok_s, &w, t.qps, r.tp, r.pp)
    } else {
        serving::sizing::for_targets(&layouts, &w, &t)
    };
    let chosen = count.as_ref().and_then(|c| layouts.iter().find(|l| l.tp == c.tp)).unwrap_or(r);
    let max_kv = chosen.kv_sequences(w.tokens_in_flight()).max(1.0);
    let state = if t.qps > 0.0 {
        let replicas = count.as_ref().map_or(1, |c| c.replicas.max(1));
        serving::at_rate(chosen, &w, t.qps / f64::from(replicas), max_kv)
    } else {
        Some(serving::at_concurrency(chosen, &w, inf.concurrency as f64))
    };
    let expected = state
        .filter(|s| s.tpot_s.is_finite() && s.ttft_s.is_finite() && s.requests_per_s > 0.0)
        .map(|s| serving::expected(chosen, &w, &s, &t));
    (expected, count, Some(Sweep { replica: chosen.clone(), workload: w, targets: t }))
}

/// What [`serve`] answers.
type Served = (Option<Expected>, Option<TargetCount>, Option<Sweep>);

/// The fit's layout, and wider tensor-parallel groups inside one server
/// (not for llama.cpp, whose tensor split is its row split: it scales by
/// replicas of its layer split).
fn layouts(plan: &Plan, at: &Placement, arch: &Arch, r: &Replica) -> Vec<Replica> {
    let per_node = plan.hardware.gpus_per_node.max(1);
    let mut out = vec![r.clone()];
    if plan.inference.engine == crate::plan::Engine::LlamaCpp {
        return out;
    }
    let mut tp = r.tp.saturating_mul(2);
    while tp <= per_node && arch.heads.is_multiple_of(tp) {
        out.push(r.widened(at.gpu, tp));
        tp = tp.saturating_mul(2);
    }
    out
}

/// Why a speed figure is missing, in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// The catalog has no dense TFLOPS for this part at this precision.
    NoTflops,
    NoBandwidth,
    /// Not a transformer: no token-based speed model.
    NotTransformer,
    /// The engine's figures fall outside the speed model's accepted range.
    OutOfRange,
}

impl Missing {
    pub fn text(self, lang: Lang) -> &'static str {
        let key = match self {
            Missing::NoTflops => Key::SpeedMissingNoTflops,
            Missing::NoBandwidth => Key::SpeedMissingNoBandwidth,
            Missing::NotTransformer => Key::SpeedMissingNotTransformer,
            Missing::OutOfRange => Key::SpeedMissingOutOfRange,
        };
        text::get(key, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn seed_002_a100_example_takes_about_62_hours() {
        // Seed 002 §4.1: 6 × 7e9 × D = 4.2e19 FLOPs (the seed writes D as
        // 1e10 tokens, but its product 4.2e19 and its 37 h / 62 h follow from
        // D = 1e9), one A100 at 312 TFLOPS and 60 % MFU.
        let run = TrainingRun {
            work: Work::full(7e9, false),
            tokens: 1e9,
            gpus: 1,
            tflops: 312.0,
            mfu: 0.6,
            mfu_default: None,
            dequant: None,
        };
        let t = training_time(&run).expect("valid");
        assert!(close(t.flops.value, 4.2e19, 1e-12));
        // 4.2e19 / (312e12 × 0.6) = 224,359 s = 62.3 h.
        assert!(close(t.hours.value, 62.32, 1e-3), "{}", t.hours.value);
        assert_eq!(t.hours.basis, Basis::Estimate);
        assert!(t.hours.derivation.contains("312 TFLOPS"), "{}", t.hours.derivation);
        // At 100 % the seed's 134,615 s ≈ 37 h.
        let ideal = training_time(&TrainingRun { mfu: 1.0, ..run }).expect("valid");
        assert!(close(ideal.hours.value * 3600.0, 134_615.0, 1e-5));
        assert!(close(t.buffered_hours.0.value, 62.32 * 1.3, 1e-3));
        assert!(close(t.buffered_hours.1.value, 62.32 * 1.5, 1e-3));
    }

    #[test]
    fn full_recompute_costs_8pd_and_more_gpus_divide_the_time() {
        let run = TrainingRun {
            work: Work::full(1e9, true),
            tokens: 1e10,
            gpus: 8,
            tflops: 989.0,
            mfu: 0.4,
            mfu_default: None,
            dequant: None,
        };
        let t = training_time(&run).expect("valid");
        assert!(close(t.flops.value, 8e19, 1e-12));
        // 8e19 / (8 × 989e12 × 0.4) = 25,278 s.
        assert!(close(t.hours.value, 8e19 / (8.0 * 989e12 * 0.4) / 3600.0, 1e-12));
        assert!(t.flops.derivation.contains("recompute 2·P 1.00e9"), "{}", t.flops.derivation);
    }

    #[test]
    fn the_default_mfu_is_calibrated_and_qlora_pays_its_dequantisation() {
        let a100 = crate::hardware::find("a100-80-sxm").expect("a100");
        let mut plan = Plan { task: Task::Train, ..Plan::default() };
        plan.training.method = Method::Qlora;
        plan.training.grad_ckpt = GradCkpt::Full;
        plan.training.batch = 1;
        plan.training.seq = 2048;
        plan.training.dataset_tokens = 1e9;
        let run = training_run(&plan, a100, 1, 312.0, ModelSize::dense(7e9));
        assert_eq!(run.mfu, crate::training_mfu::AMPERE_LORA);
        let t = training_time(&run).expect("valid");
        assert_eq!(t.hours.basis, Basis::Calibrated);
        // Three uses of 7e9 weights at 16.5 B over 2.039 TB/s per 2048-token micro-batch.
        let dequant = 1e9 * 3.0 * 7e9 * DEQUANT_BYTES_PER_WEIGHT / 2.039e12 / 2048.0;
        let compute = t.flops.value / (312e12 * run.mfu);
        assert!(close(t.hours.value * 3600.0, compute + dequant, 1e-9), "{}", t.hours.derivation);
        assert!(t.hours.derivation.contains("default: median"), "{}", t.hours.derivation);
        plan.training.mfu = Some(0.5);
        plan.training.method = Method::Lora;
        let own = training_time(&training_run(&plan, a100, 1, 312.0, ModelSize::dense(7e9))).expect("valid");
        assert_eq!((own.hours.basis, own.mfu_default), (Basis::Estimate, None));
        assert!(!own.hours.derivation.contains("dequantisation"), "{}", own.hours.derivation);
    }

    #[test]
    fn invalid_training_inputs_are_named() {
        let run = TrainingRun {
            work: Work::full(7e9, false),
            tokens: f64::NAN,
            gpus: 0,
            tflops: 312.0,
            mfu: 1.5,
            mfu_default: None,
            dequant: None,
        };
        let errs = training_time(&run).expect_err("invalid");
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["training.dataset_tokens", "parallel.gpus", "training.mfu"]);
    }

    fn serving() -> Serving {
        // 7B dense in bf16 on one RTX 4090: 1.008 TB/s, 165 TFLOPS.
        Serving {
            bandwidth_tbs: 1.008,
            tflops: 165.0,
            gpus: 1,
            stages: 1,
            weight_bytes_per_gpu: 14e9,
            size: ModelSize::dense(7e9),
            kv_bytes_per_token_per_gpu: 131_072.0,
            prompt_tokens: 1000,
            output_tokens: 200,
            concurrency: 1,
        }
    }

    #[test]
    fn decode_is_bandwidth_over_bytes_read() {
        let s = inference_speed(&serving()).expect("valid");
        // KV read: 131,072 B × (1000 + 100) tokens = 144.2 MB.
        let step = (14e9 + 131_072.0 * 1100.0) / 1.008e12;
        assert!(close(s.decode_tps_per_sequence.value, 1.0 / step, 1e-12));
        assert!(close(s.decode_tps_per_sequence.value, 71.3, 1e-3), "{}", s.decode_tps_per_sequence.value);
        assert_eq!(s.decode_tps_per_sequence.basis, Basis::UpperBound);
        // Prefill: 2 × 7e9 × 1000 / 165e12 = 0.0848 s, a lower bound on time.
        assert!(close(s.prefill_seconds.value, 1.4e13 / 165e12, 1e-12));
        assert_eq!(s.prefill_seconds.basis, Basis::LowerBound);
        // One sequence at a time: 1 / (0.0848 + 200 / 71.3) = 0.347 req/s.
        assert!(close(s.requests_per_s.value, 1.0 / (1.4e13 / 165e12 + 200.0 * step), 1e-12));
    }

    #[test]
    fn concurrency_shares_the_weight_read_and_moe_reads_active_experts() {
        let batch = inference_speed(&Serving { concurrency: 16, ..serving() }).expect("valid");
        let step = (14e9 + 16.0 * 131_072.0 * 1100.0) / 1.008e12;
        assert!(close(batch.decode_tps_total.value, 16.0 / step, 1e-12));
        let moe = Serving { size: ModelSize { total: 7e9, active: 1.75e9 }, ..serving() };
        let m = inference_speed(&moe).expect("valid");
        let moe_step = (3.5e9 + 131_072.0 * 1100.0) / 1.008e12;
        assert!(close(m.decode_tps_per_sequence.value, 1.0 / moe_step, 1e-12));
    }

    #[test]
    fn pipeline_stages_add_up_per_sequence_and_compute_caps_requests() {
        let pp = inference_speed(&Serving { stages: 2, gpus: 2, ..serving() }).expect("valid");
        let one = inference_speed(&serving()).expect("valid");
        assert!(close(pp.decode_tps_per_sequence.value * 2.0, one.decode_tps_per_sequence.value, 1e-12));
        // Huge concurrency: the compute side binds, 165e12 / (2 × 7e9 × 1200) = 9.82 req/s.
        let many =
            inference_speed(&Serving { concurrency: 100_000, kv_bytes_per_token_per_gpu: 0.0, ..serving() })
                .expect("valid");
        assert!(close(many.requests_per_s.value, 165e12 / (1.4e10 * 1200.0), 1e-12));
    }

    #[test]
    fn nothing_read_per_token_is_an_error_not_infinity() {
        let empty = Serving { weight_bytes_per_gpu: 0.0, kv_bytes_per_token_per_gpu: 0.0, ..serving() };
        let errs = inference_speed(&empty).expect_err("no bound");
        assert_eq!(errs[0].field, "memory.weights");
    }

    #[test]
    fn tflops_follow_precision_and_hardware() {
        let h100 = crate::hardware::find("h100-sxm").expect("h100");
        let a100 = crate::hardware::find("a100-80-sxm").expect("a100");
        assert_eq!(inference_tflops(h100, WeightFormat::Fp8), Some(1979.0));
        assert_eq!(inference_tflops(a100, WeightFormat::Fp8), Some(312.0));
        assert_eq!(inference_tflops(h100, WeightFormat::Bf16), Some(989.0));
        assert_eq!(training_tflops(a100, Precision::Mixed), Some(312.0));
        assert_eq!(training_tflops(a100, Precision::Fp32), None);
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_give_finite_positive_figures(
            bw in 0.01f64..20.0,
            tflops in 1.0f64..20_000.0,
            weights in 1e6f64..1e13,
            kv in 0.0f64..1e7,
            prompt in 1u64..200_000,
            output in 1u64..50_000,
            conc in 1u64..10_000,
            pp in 1u32..16,
        ) {
            let s = Serving {
                bandwidth_tbs: bw,
                tflops,
                gpus: pp,
                stages: pp,
                weight_bytes_per_gpu: weights,
                size: ModelSize::dense(weights),
                kv_bytes_per_token_per_gpu: kv,
                prompt_tokens: prompt,
                output_tokens: output,
                concurrency: conc,
            };
            let r = inference_speed(&s).expect("valid");
            for f in [&r.decode_tps_per_sequence, &r.decode_tps_total, &r.prefill_seconds, &r.requests_per_s] {
                proptest::prop_assert!(f.value.is_finite() && f.value > 0.0, "{f:?}");
            }
            proptest::prop_assert!(r.decode_tps_total.value >= r.decode_tps_per_sequence.value);
        }
    }

    #[test]
    fn numbers_print_with_three_significant_digits() {
        assert_eq!(n(4.2e19), "4.20e19");
        assert_eq!(n(62.324), "62.3");
        assert_eq!(n(312.0), "312");
        assert_eq!(n(0.6), "0.60");
        assert_eq!(n(0.0), "0.00");
    }
}
