//! Plan, rent, measure, plan again: the figures a benchmark or a training
//! run printed on the rented machine ([`crate::measured`]) beside what the
//! plan expected, the likely causes when they fall outside the expected
//! range, and the plan made again from them (the GPUs for the targets, the
//! run's hours and the bill).

use serde::Serialize;

use crate::error::FieldError;
use crate::lang::Lang;
use crate::measured::{Reading, Tool};
use crate::money::Money;
use crate::offers::Offer;
use crate::plan::{Engine, Measured, Plan, Task};
use crate::selection::Selection;
use crate::text::{self, Key};

pub use crate::training_mfu::SPREAD as TRAIN_SPREAD;

/// A figure both expected and measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Output tokens per second of one replica at the benchmark's load.
    OutputTokS,
    /// One sequence's generation speed (llama-bench's tg).
    DecodeTokS,
    TtftMs,
    TpotMs,
    TokensPerSPerGpu,
    /// Peak bytes PyTorch reserved on one GPU.
    PeakMemory,
}

impl Metric {
    /// More is better for speeds, less for latencies and memory.
    fn higher_is_better(self) -> bool {
        matches!(self, Metric::OutputTokS | Metric::DecodeTokS | Metric::TokensPerSPerGpu)
    }
}

/// Expected and measured, side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub metric: Metric,
    pub unit: &'static str,
    /// The plan's expected value and its range.
    pub expected: f64,
    pub low: f64,
    pub high: f64,
    pub measured: f64,
    /// measured ÷ expected − 1, percent.
    pub deviation_pct: f64,
    pub inside: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every figure inside its range: the machine delivers the plan.
    Delivers,
    /// A figure on the bad side of its range.
    Worse,
    /// Better than the range: the benchmark's load probably differs from the plan's.
    Better,
    /// The reading holds no figure the plan has an expectation for.
    NothingToCompare,
}

/// A likely cause of a figure worse than expected, with the acceptance
/// step that checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    PowerCap,
    PcieWidth,
    Thermal,
    EngineSettings,
    Quantisation,
}

impl Cause {
    /// The checklist item that checks it.
    pub fn step(self) -> &'static str {
        match self {
            Cause::PowerCap | Cause::Thermal => "acc-power",
            Cause::PcieWidth => "acc-pcie",
            Cause::EngineSettings | Cause::Quantisation => "acc-bench",
        }
    }

    pub fn text(self, engine: Option<Engine>, lang: Lang) -> String {
        let key = match self {
            Cause::PowerCap => Key::CausePowerCap,
            Cause::PcieWidth => Key::CausePcieWidth,
            Cause::Thermal => Key::CauseThermal,
            Cause::Quantisation => Key::CauseQuantisation,
            Cause::EngineSettings => match engine {
                Some(Engine::Vllm) => Key::CauseSettingsVllm,
                Some(Engine::Sglang) => Key::CauseSettingsSglang,
                Some(Engine::Trtllm) => Key::CauseSettingsTrtllm,
                Some(Engine::LlamaCpp) => Key::CauseSettingsLlamaCpp,
                Some(Engine::Transformers) => Key::CauseSettingsServing,
                None => Key::CauseSettingsTraining,
            },
        };
        text::fill(key, lang, &[("step", &self.step())])
    }
}

/// GPUs, run hours and bill of a plan's chosen configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub gpus: u32,
    pub run_hours: Option<f64>,
    pub total: Option<Money>,
}

impl Outcome {
    fn of(s: &Selection) -> Outcome {
        Outcome {
            gpus: s.gpus,
            run_hours: s.option.as_ref().map(|o| o.run_hours),
            total: s.option.as_ref().map(|o| o.total),
        }
    }
}

/// Expected vs measured, and the plan made again from the measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Readback {
    pub tool: Tool,
    pub rows: Vec<Row>,
    pub verdict: Verdict,
    /// Worse than expected: where to look first, each with its acceptance step.
    pub causes: Vec<Cause>,
    /// The plan with the measurement as its figures (`bench`, and the
    /// measured throughput or utilisation the engines plan from).
    pub plan: Plan,
    pub before: Option<Outcome>,
    pub after: Option<Outcome>,
}

impl Readback {
    /// The verdict in words.
    pub fn verdict_text(&self, lang: Lang) -> String {
        let key = match self.verdict {
            Verdict::Delivers => Key::VerdictDelivers,
            Verdict::Worse => Key::VerdictWorse,
            Verdict::Better => Key::VerdictBetter,
            Verdict::NothingToCompare => Key::VerdictNothing,
        };
        text::fill(key, lang, &[("tool", &self.tool.name())])
    }

    /// The likely causes in words, each naming its acceptance step.
    pub fn cause_texts(&self, lang: Lang) -> Vec<String> {
        let engine = (self.plan.task == Task::Infer).then_some(self.plan.inference.engine);
        self.causes.iter().map(|c| c.text(engine, lang)).collect()
    }
}

/// Why a reading cannot be set beside a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mismatch {
    /// A serving benchmark for a training plan, or the reverse.
    WrongTask {
        task: Task,
    },
    /// The plan names no GPU to measure.
    NoGpu,
    Invalid {
        errors: Vec<FieldError>,
    },
}

impl Mismatch {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Mismatch::WrongTask { task: Task::Infer } => text::get(Key::MismatchServing, lang).into(),
            Mismatch::WrongTask { task: Task::Train } => text::get(Key::MismatchTraining, lang).into(),
            Mismatch::NoGpu => text::get(Key::MismatchNoGpu, lang).into(),
            Mismatch::Invalid { errors } => {
                errors.iter().map(|e| e.message(lang)).collect::<Vec<_>>().join("; ")
            }
        }
    }
}

/// The plan as it was before this GPU was measured: the expected figures
/// come from the models, not from an earlier reading. Measurements of other
/// GPUs stay.
fn unmeasured(plan: &Plan) -> Plan {
    let mut p = plan.clone();
    if p.bench.take().is_some_and(|b| b.training.is_some()) {
        p.training.mfu = None;
    }
    p
}

/// `reading` beside `plan` (priced against `offers`), and the plan again from it.
pub fn readback(plan: &Plan, reading: &Reading, offers: &[Offer], lang: Lang) -> Result<Readback, Mismatch> {
    let mut base = unmeasured(plan);
    let task = base.task;
    let fits = match task {
        Task::Infer => reading.serving.is_some(),
        Task::Train => reading.training.is_some(),
    };
    if !fits {
        return Err(Mismatch::WrongTask { task });
    }
    let invalid = |errors| Mismatch::Invalid { errors };
    let mut before = crate::report::evaluate_with(&base, offers, lang).map_err(invalid)?;
    let gpu = before.selection.as_ref().ok_or(Mismatch::NoGpu)?.gpu.clone();
    if base.inference.measured.iter().any(|m| m.gpu == gpu) {
        base.inference.measured.retain(|m| m.gpu != gpu);
        before = crate::report::evaluate_with(&base, offers, lang).map_err(invalid)?;
    }
    let s = before.selection.as_ref().ok_or(Mismatch::NoGpu)?;
    let (rows, applied) = match task {
        Task::Infer => serving(&base, s, reading),
        Task::Train => training(&base, s, reading),
    };
    let verdict = verdict(&rows);
    let causes = if verdict == Verdict::Worse { causes(&base, reading) } else { Vec::new() };
    let after = crate::report::evaluate_with(&applied, offers, lang).map_err(invalid)?;
    Ok(Readback {
        tool: reading.tool,
        rows,
        verdict,
        causes,
        before: Some(Outcome::of(s)),
        after: after.selection.as_ref().map(Outcome::of),
        plan: applied,
    })
}

fn row(metric: Metric, unit: &'static str, (expected, low, high): (f64, f64, f64), measured: f64) -> Row {
    let deviation_pct = if expected > 0.0 { (measured / expected - 1.0) * 100.0 } else { 0.0 };
    Row {
        metric,
        unit,
        expected,
        low,
        high,
        measured,
        deviation_pct,
        inside: (low..=high).contains(&measured),
    }
}

fn serving(plan: &Plan, s: &Selection, reading: &Reading) -> (Vec<Row>, Plan) {
    let mut applied = plan.clone();
    applied.bench = Some(reading.clone());
    let Some(m) = &reading.serving else { return (Vec::new(), applied) };
    let replica = s.tp.max(1).saturating_mul(s.pp.max(1));
    applied
        .inference
        .measured
        .push(Measured { gpu: s.gpu.clone(), tok_s: m.output_tok_s / f64::from(replica) });
    let Some(e) = s.speed.as_ref().and_then(|sp| sp.inference.as_ref()).and_then(|i| i.expected.as_ref())
    else {
        return (Vec::new(), applied);
    };
    let est = |x: &crate::serving::Estimate| (x.value, x.low, x.high);
    let mut rows = Vec::new();
    if reading.tool == Tool::LlamaBench {
        rows.push(row(Metric::DecodeTokS, "tok/s", est(&e.decode_tps_per_sequence), m.output_tok_s));
    } else {
        let out = plan.inference.output_tokens as f64;
        let r = &e.requests_per_s;
        rows.push(row(
            Metric::OutputTokS,
            "tok/s",
            (r.value * out, r.low * out, r.high * out),
            m.output_tok_s,
        ));
        if let Some(t) = m.ttft_ms {
            rows.push(row(Metric::TtftMs, "ms", est(&e.ttft_ms), t));
        }
    }
    if let Some(t) = m.tpot_ms {
        rows.push(row(Metric::TpotMs, "ms", est(&e.tpot_ms), t));
    }
    (rows, applied)
}

fn training(plan: &Plan, s: &Selection, reading: &Reading) -> (Vec<Row>, Plan) {
    let mut applied = plan.clone();
    applied.bench = Some(reading.clone());
    let Some(m) = &reading.training else { return (Vec::new(), applied) };
    let gpus = f64::from(s.gpus.max(1));
    let mut rows = Vec::new();
    // The Trainer counts samples over all GPUs; a sample is one sequence.
    let measured = m.tokens_per_s_per_gpu.or(m.samples_per_s.map(|x| x * plan.training.seq as f64 / gpus));
    let time = s.speed.as_ref().and_then(|sp| sp.training.as_ref());
    if let (Some(measured), Some(time)) = (measured, time) {
        let tokens = plan.training.dataset_tokens * plan.training.epochs;
        let expected = tokens / (time.hours.value * 3600.0) / gpus;
        if expected.is_finite() && expected > 0.0 {
            let range = (expected, expected * (1.0 - TRAIN_SPREAD), expected * (1.0 + TRAIN_SPREAD));
            rows.push(row(Metric::TokensPerSPerGpu, "tok/s", range, measured));
            // Utilisation scales the compute time; the measured speed sets it.
            let used = plan.training.mfu.or(time.mfu_default.map(|d| d.value)).unwrap_or(0.0);
            let mfu = used * measured / expected;
            if mfu.is_finite() && mfu > 0.0 {
                applied.training.mfu = Some(mfu.clamp(0.01, 1.0));
            }
        }
    }
    if let Some(peak) = m.peak_reserved_bytes.or(m.peak_allocated_bytes) {
        let expected = s.per_gpu_bytes as f64;
        rows.push(row(Metric::PeakMemory, "B", (expected, 0.0, s.usable_bytes as f64), peak as f64));
    }
    (rows, applied)
}

fn verdict(rows: &[Row]) -> Verdict {
    if rows.is_empty() {
        return Verdict::NothingToCompare;
    }
    let worse = |r: &&Row| if r.metric.higher_is_better() { r.measured < r.low } else { r.measured > r.high };
    if rows.iter().any(|r| worse(&r)) {
        Verdict::Worse
    } else if rows.iter().all(|r| r.inside) {
        Verdict::Delivers
    } else {
        Verdict::Better
    }
}

/// Where to look first when a figure is worse: the machine (power, PCIe,
/// heat), then the settings the run used.
fn causes(plan: &Plan, reading: &Reading) -> Vec<Cause> {
    let mut out = vec![Cause::PowerCap, Cause::Thermal];
    // PCIe carries the weights on load and, without NVLink, the traffic between GPUs.
    if plan.parallel.gpus > 1 || reading.tool == Tool::LlamaBench {
        out.push(Cause::PcieWidth);
    }
    out.push(Cause::EngineSettings);
    if plan.task == Task::Infer {
        out.push(Cause::Quantisation);
    }
    out
}

#[cfg(test)]
mod tests;
