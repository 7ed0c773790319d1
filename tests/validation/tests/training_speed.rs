//! gpuplan's training time against measured throughput
//! (data/training-speed-public.csv).
//!
//! Utilisation is what the time formula divides by: the engine's FLOPs per
//! token (recompute included) × measured tokens per second per GPU ÷ the
//! card's dense 16-bit peak. Each GPU class and method takes the median over
//! its fit rows; the test recomputes the medians and fails if a default in
//! `training_mfu` drifts from them. Check rows are then timed with the
//! defaults, as a plan that names no MFU is: their errors are printed and
//! bounded (docs/training.md, "Utilisation defaults").

use std::collections::BTreeMap;

use gpuplan_core::hardware::{find, Gpu};
use gpuplan_core::memory::estimate_on;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::placement::ModelSize;
use gpuplan_core::plan::*;
use gpuplan_core::speed::{training_run, training_tflops, training_time, TrainingRun};
use gpuplan_core::training_mfu::{default_mfu, MfuClass, DEQUANT_BYTES_PER_WEIGHT};
use gpuplan_validation::stats::median;
use gpuplan_validation::{qwen_v1, speed_rows, SpeedRow, TRAINING_SPEED};

/// Largest time error of a check row, and of their median. The per-row
/// bound covers two spreads the defaults do not model (docs/training.md):
/// compiled torchtune runs 1.25-1.55× faster than the eager PEFT runs the
/// A100 LoRA value comes from, and below 512 tokens per micro-batch fixed
/// per-step costs make eager runs up to 1.8× slower than their FLOPs.
const MAX_ERROR: f64 = 0.6;
const MAX_MEDIAN: f64 = 0.15;

fn method(row: &SpeedRow) -> Result<Method, String> {
    gpuplan_core::names::parse(&row.method).ok_or(format!("method {}", row.method))
}

fn model(name: &str) -> ModelSpec {
    match qwen_v1(name) {
        Some(arch) => ModelSpec::Custom { arch },
        None => ModelSpec::Preset { id: name.into() },
    }
}

/// The plan the row states, as far as its FLOPs go.
fn plan(row: &SpeedRow) -> Result<Plan, String> {
    let method = method(row)?;
    let mut training =
        Training { method, grad_ckpt: ckpt(row)?, batch: row.batch, seq: row.seq, ..Training::default() };
    if method != Method::Full {
        training.lora_rank = row.rank.parse().map_err(|_| format!("rank {:?}", row.rank))?;
        training.lora_targets = match row.targets.as_str() {
            "all_linear" => LoraTargets::AllLinear,
            other => return Err(format!("targets {other}")),
        };
        training.base_weights = Some(match row.base.as_str() {
            "bf16" => WeightFormat::Bf16,
            "nf4" => WeightFormat::Nf4,
            "gptq-int4" => WeightFormat::GptqInt4,
            other => return Err(format!("base {other}")),
        });
    }
    Ok(Plan { task: Task::Train, model: model(&row.model), training, ..Plan::default() })
}

fn ckpt(row: &SpeedRow) -> Result<GradCkpt, String> {
    match row.grad_ckpt.as_str() {
        "full" => Ok(GradCkpt::Full),
        "none" => Ok(GradCkpt::None),
        other => Err(format!("grad_ckpt {other}")),
    }
}

/// The row's plan and model size: a Qwen v1 shape or a preset through the
/// memory engine, or an MPT parameter count (full training needs no more).
fn sized(row: &SpeedRow) -> Result<(Plan, ModelSize), String> {
    let mut plan = plan(row)?;
    if let Some(params) = row.model.strip_prefix("mpt:") {
        plan.model = ModelSpec::default();
        let params: f64 = params.parse().map_err(|_| format!("params {params}"))?;
        return Ok((plan, ModelSize::dense(params)));
    }
    let r = estimate_on(&plan, None).map_err(|e| format!("{e:?}"))?;
    Ok((plan, ModelSize { total: r.params, active: r.active_params }))
}

struct Measured<'a> {
    row: &'a SpeedRow,
    gpu: &'static Gpu,
    /// The run as a plan without an MFU times it, on one GPU.
    run: TrainingRun,
    tokens_per_s: f64,
}

impl Measured<'_> {
    /// The engine's FLOPs per token.
    fn method(&self) -> Method {
        self.run.mfu_default.map_or(Method::Full, |d| d.method)
    }

    fn flops(&self) -> f64 {
        self.run.work.per_token().0
    }

    /// Engine FLOPs × measured tokens/s ÷ dense peak.
    fn achieved(&self) -> f64 {
        self.tokens_per_s * self.flops() / (self.run.tflops * 1e12)
    }

    /// Seconds per token per GPU with the defaults.
    fn predicted_seconds(&self) -> f64 {
        training_time(&self.run).map(|t| t.hours.value * 3600.0 / self.run.tokens).unwrap_or(f64::NAN)
    }

    /// Time error with the defaults: predicted ÷ measured − 1.
    fn error(&self) -> f64 {
        self.predicted_seconds() * self.tokens_per_s - 1.0
    }

    /// Seconds per micro-batch.
    fn micro_batch_seconds(&self) -> f64 {
        (self.row.batch * self.row.seq) as f64 / self.tokens_per_s
    }
}

fn measured(row: &SpeedRow) -> Result<Measured<'_>, String> {
    let gpu = find(&row.gpu).ok_or(format!("gpu {}", row.gpu))?;
    let tflops = training_tflops(gpu, Precision::Mixed).ok_or("no 16-bit TFLOPS")?;
    let (mut plan, size) = sized(row)?;
    plan.training.dataset_tokens = 1e6;
    Ok(Measured {
        row,
        gpu,
        run: training_run(&plan, gpu, 1, tflops, size),
        tokens_per_s: row.tokens_per_s_per_gpu()?,
    })
}

/// Bytes per weight-use the measured Q-LoRA step spends over its LoRA twin
/// (same model, length and card): extra seconds per micro-batch × bandwidth
/// ÷ (uses × 4-bit weights).
fn dequant_bytes(qlora: &Measured, lora: &Measured) -> Option<f64> {
    let d = qlora.run.dequant?;
    let extra = qlora.micro_batch_seconds() - lora.micro_batch_seconds();
    Some(extra * d.bandwidth_tbs * 1e12 / (f64::from(d.uses) * d.weights))
}

#[test]
fn default_utilisation_is_the_fit_rows_median_and_times_the_check_rows() {
    let rows = speed_rows(TRAINING_SPEED).unwrap();
    let runs: Vec<Measured> =
        rows.iter().map(|r| measured(r).unwrap_or_else(|e| panic!("{}: {e}", r.case))).collect();
    println!(
        "{:<24} {:<6} {:>10} {:>9} {:>8} {:>8}",
        "case", "split", "tok/s/GPU", "achieved", "default", "error"
    );
    let mut cells: BTreeMap<(String, String), (Vec<f64>, f64)> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut dequant = Vec::new();
    for m in &runs {
        let d = default_mfu(m.gpu, m.method());
        let error = m.error();
        println!(
            "{:<24} {:<6} {:>10.0} {:>8.1}% {:>7.1}% {:>+7.1}%  {:?} {:?}",
            m.row.case,
            m.row.split,
            m.tokens_per_s,
            m.achieved() * 100.0,
            d.value * 100.0,
            error * 100.0,
            d.class,
            m.method()
        );
        if m.row.split == "fit" && m.method() == Method::Qlora {
            let twin = runs.iter().find(|l| {
                l.method() == Method::Lora
                    && (&l.row.model, l.row.seq, &l.row.gpu) == (&m.row.model, m.row.seq, &m.row.gpu)
            });
            let bytes = twin.and_then(|l| dequant_bytes(m, l));
            let bytes = bytes.unwrap_or_else(|| panic!("{}: no LoRA twin to fit on", m.row.case));
            println!("{:<24} dequantisation {bytes:.2} B per weight-use", m.row.case);
            dequant.push(bytes);
        } else if m.row.split == "fit" {
            let key = (format!("{:?}", d.class), format!("{:?}", m.method()));
            cells.entry(key).or_insert((Vec::new(), d.value)).0.push(m.achieved());
        } else {
            errors.push((m.row.case.as_str(), error));
        }
    }
    for ((class, method), (achieved, default)) in cells {
        let n = achieved.len();
        let fit = median(achieved);
        println!("fit {class} {method}: median of {n} = {:.3}, default {default:.3}", fit);
        assert!(
            (fit - default).abs() <= 0.0005,
            "{class} {method}: fit {fit:.3} but the default is {default:.3}"
        );
    }
    let n = dequant.len();
    let fit = median(dequant);
    println!(
        "fit dequantisation: median of {n} = {fit:.1} B per weight-use, default {DEQUANT_BYTES_PER_WEIGHT}"
    );
    assert!((fit - DEQUANT_BYTES_PER_WEIGHT).abs() <= 0.05, "dequantisation fit {fit:.2} B");
    let abs: Vec<f64> = errors.iter().map(|(_, e)| e.abs()).collect();
    let med = median(abs);
    println!("check rows: {}, median |error| {:.1}%", errors.len(), med * 100.0);
    for (case, e) in &errors {
        assert!(e.abs() <= MAX_ERROR, "{case}: time error {:+.1}% exceeds {MAX_ERROR}", e * 100.0);
    }
    assert!(med <= MAX_MEDIAN, "median time error {:.1}% exceeds {MAX_MEDIAN}", med * 100.0);
}

#[test]
fn classes_in_the_data_are_the_ones_the_defaults_name() {
    let rows = speed_rows(TRAINING_SPEED).unwrap();
    let classes: Vec<MfuClass> =
        rows.iter().filter_map(|r| find(&r.gpu)).map(gpuplan_core::training_mfu::class_of).collect();
    for c in [MfuClass::Hopper, MfuClass::Ampere, MfuClass::Geforce] {
        assert!(classes.contains(&c), "{c:?} has no measured row");
    }
}
