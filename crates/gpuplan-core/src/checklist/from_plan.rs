//! Facts from a plan and its engines' results: the one place that maps the
//! memory estimate and the bill onto the checklist's input, for the page and the CLI.

use super::facts::Facts;
use crate::cost::{OptionKind, HOURS_PER_MONTH};
use crate::error::FieldError;
use crate::memory::MemoryResult;
use crate::model::ModelSpec;
use crate::offers::Offer;
use crate::plan::{Parallel, Plan, Precision, Task};
use crate::selection::{Purchase, Selection};

/// The facts of a valid plan. `memory` and `selection` are its memory
/// estimate and chosen configuration (from [`crate::report::evaluate_with`]
/// over `offers`): the GPU count, layout and purchase option come from the
/// selection only. The caller sets what the plan does not hold: `rented`
/// (default true) and `network_gbps`.
pub fn facts(
    plan: &Plan,
    memory: &MemoryResult,
    selection: Option<&Selection>,
    offers: &[Offer],
) -> Result<Facts, Vec<FieldError>> {
    let whole = whole_model(plan)?;
    // The selection's card (it may be the cheapest option's, not the one named).
    let gpu = match selection {
        Some(s) if s.custom => plan.hardware.custom.clone(),
        Some(s) => crate::hardware::find(&s.gpu).cloned(),
        None => plan.hardware.chosen().cloned(),
    };
    let option = selection.and_then(|s| s.option.as_ref());
    let p = selection.map_or_else(|| plan.parallel.clone(), Selection::parallel);
    let (inf, tr) = (&plan.inference, &plan.training);
    Ok(Facts {
        task: plan.task,
        model_name: model_name(&plan.model),
        params: memory.params,
        weights_bytes: whole.components.weights.bytes,
        weights: inf.weights,
        context: inf.context,
        concurrency: inf.concurrency,
        method: tr.method,
        precision: tr.precision,
        batch: tr.batch,
        seq: tr.seq,
        per_gpu_bytes: memory.per_gpu_bytes,
        headroom_pct: plan.hardware.headroom_pct,
        gpu,
        gpu_count: p.gpus.max(1),
        tensor_parallel: p.tp.max(1),
        pipeline_parallel: p.pp.max(1),
        shard: p.shard,
        nodes: selection
            .map_or_else(|| p.gpus.max(1).div_ceil(plan.hardware.gpus_per_node.max(1)), |s| s.nodes),
        checkpoint_bytes: (plan.task == Task::Train).then(|| checkpoint(plan, &whole)),
        option: option.map(|o| o.kind),
        egress_gb_month: egress_per_month(plan, option),
        egress_included_gb: option.and_then(|o| allowance(o, plan, offers)),
        rented: true,
        cuda: plan.cuda,
        long_run: long_run(plan, option),
        rental_hours: option.map(|o| if plan.task == Task::Train { o.run_hours } else { o.horizon_hours }),
        dataset_bytes: (plan.task == Task::Train).then(|| dataset_bytes(tr.dataset_tokens)),
        network_gbps: None,
        engine: inf.engine,
        prompt_tokens: inf.prompt_tokens,
        output_tokens: inf.output_tokens,
        model_repo: model_repo(&plan.model),
        serving_expected: selection
            .and_then(|s| s.speed.as_ref())
            .and_then(|sp| sp.inference.as_ref())
            .and_then(|i| i.expected.clone()),
        train_tok_s_per_gpu: selection.and_then(|s| train_speed(plan, s)),
        grad_accum: tr.grad_accum,
    })
}

/// Tokens per second per GPU the run's hours rest on.
fn train_speed(plan: &Plan, s: &Selection) -> Option<f64> {
    let time = s.speed.as_ref()?.training.as_ref()?;
    let tokens = plan.training.dataset_tokens * plan.training.epochs;
    let v = tokens / (time.hours.value * 3600.0) / f64::from(s.gpus.max(1));
    (v.is_finite() && v > 0.0).then_some(v)
}

/// A preset's repository: the first word of its source when it names one
/// ("meta-llama/Llama-3.1-8B config.json; …").
fn model_repo(spec: &ModelSpec) -> Option<String> {
    let ModelSpec::Preset { id } = spec else { return None };
    let word = crate::model::presets::find(id)?.source.split_whitespace().next()?;
    let repo = word.trim_end_matches([',', ';']);
    (repo.contains('/') && !repo.contains("://")).then(|| repo.to_string())
}

/// The memory engine on one unsplit GPU: whole-model weights and optimizer state.
fn whole_model(plan: &Plan) -> Result<MemoryResult, Vec<FieldError>> {
    let one = Plan { parallel: Parallel::default(), ..plan.clone() };
    crate::derivation::quiet(|| crate::memory::estimate(&one))
}

/// A resumable checkpoint: the trained weights (16-bit, or 32-bit in FP32
/// training) plus the optimizer's master copy and states; a frozen base is not saved.
fn checkpoint(plan: &Plan, whole: &MemoryResult) -> u64 {
    let per_weight = if plan.training.precision == Precision::Fp32 { 4.0 } else { 2.0 };
    let trained = whole.trainable_params * per_weight;
    let bytes = trained + whole.components.optimizer.bytes as f64;
    if bytes.is_finite() && bytes >= 0.0 {
        bytes.min(u64::MAX as f64) as u64
    } else {
        0
    }
}

/// Bytes per training token on disk: token ids as 32-bit integers, or about
/// four characters of English text per token.
const BYTES_PER_TOKEN: f64 = 4.0;

fn dataset_bytes(tokens: f64) -> u64 {
    let bytes = tokens * BYTES_PER_TOKEN;
    if bytes.is_finite() && bytes >= 0.0 {
        bytes.min(u64::MAX as f64) as u64
    } else {
        0
    }
}

fn model_name(spec: &ModelSpec) -> String {
    match spec {
        ModelSpec::Preset { id } => {
            crate::model::presets::find(id).map_or_else(|| id.clone(), |p| p.name.to_string())
        }
        ModelSpec::Custom { .. } | ModelSpec::Generic { .. } => String::new(),
    }
}

/// GB a month, as the bill counts it: a service's monthly figure (estimated
/// from QPS × response size when asked), or a run's total over the months it spans.
fn egress_per_month(plan: &Plan, option: Option<&Purchase>) -> f64 {
    let c = &plan.cost;
    match plan.task {
        Task::Infer if c.egress_auto && plan.inference.target_qps > 0.0 => {
            crate::cost::estimate_egress(
                plan.inference.target_qps,
                plan.inference.response_kb,
                c.hours_per_day,
            )
            .0
        }
        Task::Infer => c.egress_gb,
        Task::Train => {
            let hours = option.map_or(0.0, |o| o.horizon_hours);
            c.egress_gb / (hours / HOURS_PER_MONTH).ceil().max(1.0)
        }
    }
}

/// Egress a monthly server includes, for all its instances.
fn allowance(o: &Purchase, plan: &Plan, offers: &[Offer]) -> Option<f64> {
    if o.kind != OptionKind::Monthly {
        return None;
    }
    let offer = plan.cost.offers.iter().chain(offers).find(|x| x.id == o.offer)?;
    let monthly = offer.monthly.as_ref()?;
    Some(monthly.egress_gb * f64::from(o.instances))
}

/// Runs for a day or more, or serves around the clock.
fn long_run(plan: &Plan, option: Option<&Purchase>) -> bool {
    match plan.task {
        Task::Infer => plan.cost.hours_per_day >= 24.0,
        Task::Train => option.is_some_and(|o| o.run_hours >= 24.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Method;

    fn facts_of(plan: &Plan) -> Facts {
        let offers = crate::offers::defaults();
        let r = crate::report::evaluate_with(plan, &offers, crate::lang::Lang::En).expect("valid plan");
        facts(plan, &r.memory, r.selection.as_ref(), &offers).expect("valid plan")
    }

    #[test]
    fn default_plan_maps_onto_facts() {
        let plan = Plan::default();
        let f = facts_of(&plan);
        let mem = crate::memory::estimate(&plan).expect("valid");
        assert_eq!(f.per_gpu_bytes, mem.per_gpu_bytes);
        assert_eq!(f.gpu.as_ref().map(|g| g.id.as_ref()), Some("h100-sxm"));
        assert_eq!(f.model_name, "Llama 3.1 8B");
        assert!(f.checkpoint_bytes.is_none());
        // 8.03B BF16 weights on one GPU: about 16 GB.
        assert!((15.5e9..16.5e9).contains(&(f.weights_bytes as f64)), "{}", f.weights_bytes);
        assert!(f.long_run, "a service on 24 hours a day");
    }

    #[test]
    fn full_fine_tune_checkpoint_is_weights_plus_optimizer_state() {
        let mut plan = Plan { task: Task::Train, ..Plan::default() };
        plan.model = ModelSpec::Preset { id: "llama-3.1-70b".into() };
        plan.parallel = Parallel { gpus: 16, tp: 1, pp: 1, shard: crate::plan::Shard::Zero3 };
        let f = facts_of(&plan);
        let whole = whole_model(&plan).expect("valid");
        // Mixed precision AdamW: 2 B BF16 weights + 12 B master copy and moments per parameter.
        let want = whole.params * 14.0;
        let got = f.checkpoint_bytes.expect("training") as f64;
        assert!((got - want).abs() < 0.01 * want, "{got} vs {want}");
        assert!(got > 0.95e12, "a 70B full fine-tune checkpoint is about 1 TB: {got}");
        // The selection's count (16 ZeRO-3 ranks do not fit an H100, so the fit's), at 8 per server.
        assert!(f.gpu_count > 16 && f.nodes == f.gpu_count.div_ceil(8), "{} on {}", f.gpu_count, f.nodes);
    }

    #[test]
    fn lora_checkpoint_is_the_adapter_only() {
        let mut plan = Plan { task: Task::Train, ..Plan::default() };
        plan.training.method = Method::Lora;
        let f = facts_of(&plan);
        let ckpt = f.checkpoint_bytes.expect("training");
        assert!(ckpt < 2_000_000_000, "a rank-16 adapter and its state are small: {ckpt}");
        assert!(ckpt > 0);
    }
}
