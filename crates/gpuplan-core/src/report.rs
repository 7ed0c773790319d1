//! The report: everything the page, the CLI and the JS API show for a plan,
//! from one call. Each section comes from its own engine; this module only
//! connects them (memory → fit → speed → cost).

use serde::Serialize;

use crate::checklist::Checklist;
use crate::cost::{CostInputs, CostReport, Demand, Horizon, Need};
use crate::error::FieldError;
use crate::fit::{FitOptions, FitReport, GpuFit, Usable};
use crate::lang::Lang;
use crate::memory::MemoryResult;
use crate::offers::Offer;
use crate::plan::{Plan, Task};
use crate::selection::{Basis, Selection};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub memory: MemoryResult,
    pub fit: FitReport,
    pub cost: CostReport,
    /// What to order: the plan's GPU, its count and layout, and the
    /// purchase option. None when the plan names no GPU.
    pub selection: Option<Selection>,
    /// The only part in words: the checklist, in the language asked for.
    pub checklist: Checklist,
}

/// The whole answer for a plan with the default offers, or every invalid field.
pub fn evaluate(plan: &Plan, lang: Lang) -> Result<Report, Vec<FieldError>> {
    evaluate_with(plan, &crate::offers::defaults_in(lang), lang)
}

/// The whole answer priced against `offers` (the defaults, or a host's sheet on top).
/// With `hardware.cheapest`, the selection's GPU is the one of the cheapest
/// option that meets the plan: the report is made again on that GPU, so that
/// every section names it.
pub fn evaluate_with(plan: &Plan, offers: &[Offer], lang: Lang) -> Result<Report, Vec<FieldError>> {
    let named = on_named_gpu(plan, offers, lang)?;
    match cheapest_gpu(plan, &named) {
        Some(gpu) => {
            let mut there = plan.clone();
            there.hardware.gpu = gpu;
            on_named_gpu(&there, offers, lang)
        }
        None => Ok(named),
    }
}

/// The GPU id of the cheapest meeting option, when the plan asks for it and it is another GPU.
fn cheapest_gpu(plan: &Plan, r: &Report) -> Option<String> {
    if !plan.hardware.cheapest {
        return None;
    }
    let best = r.cost.options.iter().find(|o| r.cost.best.as_ref() == Some(&o.id))?;
    // "custom" offers price the plan's own card, which has its own id.
    let gpu = match (&*best.gpu, &plan.hardware.custom) {
        ("custom", Some(card)) => card.id.to_string(),
        (id, _) => id.to_string(),
    };
    (gpu != plan.hardware.gpu).then_some(gpu)
}

/// The whole answer on the GPU the plan names.
fn on_named_gpu(plan: &Plan, offers: &[Offer], lang: Lang) -> Result<Report, Vec<FieldError>> {
    let base = crate::memory::estimate(plan)?;
    let fit = crate::fit::fit(plan, &FitOptions::default())?;
    let layout = crate::selection::layout(plan, &fit)?;
    let memory = crate::in_flight::memory(plan, layout.as_ref(), base)?;
    let cost = crate::cost::compare(&cost_inputs(plan), &demand(plan, &fit, layout.as_ref()), offers, lang)?;
    let selection = layout.map(|s| s.with_option(&cost));
    let facts = crate::checklist::facts(plan, &memory, selection.as_ref(), offers)?;
    let checklist = crate::checklist::build(&facts, lang, &plan.ticks)?;
    Ok(Report { memory, fit, cost, selection, checklist })
}

/// The part of the report a page shows first: peak memory and the plan's
/// own GPU. It costs microseconds where the whole report costs a millisecond,
/// so a page can show it within the frame of a keystroke and the rest after.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Headline {
    pub memory: MemoryResult,
    /// The GPU the plan names and the memory it offers the plan.
    pub gpu: Option<(String, Usable)>,
}

/// The headline for a plan, or every invalid field (the same list, and the
/// same figures, as `evaluate` gives). Under a traffic target the memory
/// counts the sequences in flight of the selection, from the fit of the
/// plan's GPU alone.
pub fn headline(plan: &Plan) -> Result<Headline, Vec<FieldError>> {
    let mut memory = crate::memory::estimate(plan)?;
    if crate::in_flight::targeted(plan) {
        let only = FitOptions { chosen_only: true, ..FitOptions::default() };
        let fit = crate::fit::fit(plan, &only);
        if let Ok(Some(selection)) = fit.and_then(|f| crate::selection::layout(plan, &f)) {
            memory = crate::in_flight::memory(plan, Some(&selection), memory)?;
        }
    }
    let gpu = plan.hardware.chosen().map(|g| (g.name.to_string(), crate::fit::usable(g, plan)));
    Ok(Headline { memory, gpu })
}

/// The task decides the horizon: a training run is priced as one run, a
/// service over the months the user sets.
fn cost_inputs(plan: &Plan) -> CostInputs {
    let horizon = match plan.task {
        Task::Train => Horizon::Run,
        Task::Infer => Horizon::Serve,
    };
    CostInputs { horizon, ..plan.cost.clone() }
}

/// What each GPU type that can run the plan needs: its GPU count (with
/// replicas for a target QPS) and, for training, the run's hours. The
/// plan's own GPU is billed for the selection's layout.
fn demand(plan: &Plan, fit: &FitReport, selection: Option<&Selection>) -> Demand {
    let needs = fit
        .rows
        .iter()
        .filter_map(|row| match selection.filter(|_| row.chosen) {
            Some(s) => selected(plan.task, s),
            None => need(plan.task, row),
        })
        .collect();
    let unfit = fit.rows.iter().filter(|row| row.best.is_none()).map(|row| row.gpu_id.clone()).collect();
    Demand { needs, unfit, qps: plan.inference.target_qps, response_kb: plan.inference.response_kb }
}

/// None when the GPU cannot run the plan, or when a training run's length is
/// unknown on it (no published TFLOPS): a bill of zero hours would mislead.
fn need(task: Task, row: &GpuFit) -> Option<Need> {
    let gpus = row.priced_gpus()?;
    let run_hours = match task {
        Task::Train => row.speed.as_ref()?.training.as_ref()?.hours.value,
        Task::Infer => 0.0,
    };
    run_hours.is_finite().then(|| Need { gpu: row.gpu_id.clone(), gpus, run_hours, custom: row.custom })
}

/// The bill's need for the selection: its count and run hours; None when
/// it does not fit or has no run length.
fn selected(task: Task, s: &Selection) -> Option<Need> {
    if s.basis == Basis::DoesNotFit {
        return None;
    }
    let run_hours = s.run_hours(task)?;
    Some(Need { gpu: s.gpu.clone(), gpus: s.gpus, run_hours, custom: s.custom })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_plan_reports_every_section() {
        let r = evaluate(&Plan::default(), Lang::En).unwrap();
        assert!(r.memory.per_gpu_bytes > 16_000_000_000, "8B bf16 weights alone are 16 GB");
        assert!(r.fit.rows.iter().any(|row| row.gpu_id == "h100-sxm" && row.best.is_some()));
        assert!(r.cost.best.is_some(), "some default offer serves an 8B model");
    }

    #[test]
    fn headline_agrees_with_the_report() {
        let mut plan = Plan::default();
        plan.hardware.gpu = "l4".into();
        let r = evaluate(&plan, Lang::En).unwrap();
        let h = headline(&plan).unwrap();
        assert_eq!(h.memory, r.memory);
        let chosen = r.fit.rows.iter().find(|g| g.chosen).unwrap();
        assert_eq!(h.gpu, Some((chosen.gpu_name.clone(), chosen.usable.clone())));
        // The alias "custom" picks the plan's own card everywhere at once.
        let mine = crate::hardware::Gpu { id: "my-card".into(), memory_gb: 40.0, ..Default::default() };
        let mut custom = plan.clone();
        (custom.hardware.gpu, custom.hardware.custom) = ("custom".into(), Some(mine));
        let r = evaluate(&custom, Lang::En).unwrap();
        let h = headline(&custom).unwrap();
        let chosen = r.fit.rows.iter().find(|g| g.chosen).unwrap();
        assert!(chosen.custom && h.gpu == Some((chosen.gpu_name.clone(), chosen.usable.clone())));
        let facts =
            crate::checklist::facts(&custom, &r.memory, r.selection.as_ref(), &crate::offers::defaults())
                .unwrap();
        assert_eq!(facts.gpu.map(|g| g.id), Some("my-card".into()));
        plan.inference.context = 0;
        assert_eq!(headline(&plan).unwrap_err(), evaluate(&plan, Lang::En).unwrap_err());
    }

    /// Under a traffic target the headline counts the sequences in flight,
    /// as the report does, from the fit of the plan's GPU alone.
    #[test]
    fn headline_under_a_target_counts_the_sequences_in_flight() {
        let mut plan = Plan::default();
        (plan.inference.target_qps, plan.inference.tpot_ms) = (20.0, 30.0);
        let r = evaluate(&plan, Lang::En).unwrap();
        let h = headline(&plan).unwrap();
        assert_eq!(h.memory, r.memory);
        assert!(r.memory.per_gpu_bytes > headline(&Plan::default()).unwrap().memory.per_gpu_bytes);
    }

    /// Asked for the cheapest, the selection moves to the cheapest option's GPU
    /// and every section names it.
    #[test]
    fn cheapest_moves_the_selection_to_the_cheapest_gpu() {
        let mut plan = crate::examples::find("chat-7b").map(|e| e.plan).unwrap_or_default();
        plan.hardware.gpu = "h100-sxm".into();
        let named = evaluate(&plan, Lang::En).unwrap();
        plan.hardware.cheapest = true;
        let r = evaluate(&plan, Lang::En).unwrap();
        let best = r.cost.options.iter().find(|o| r.cost.best.as_ref() == Some(&o.id)).unwrap();
        let s = r.selection.as_ref().unwrap();
        assert_eq!(s.option.as_ref().map(|o| &o.id), Some(&best.id), "the selection is the cheapest option");
        assert!(r.checklist.title.contains(&s.gpu_name), "{}", r.checklist.title);
        assert!(r.fit.rows.iter().any(|row| row.chosen && row.gpu_id == s.gpu));
        assert!(best.total <= named.selection.unwrap().option.unwrap().total);
    }

    #[test]
    fn training_is_priced_as_a_run() {
        let mut plan = Plan { task: Task::Train, ..Plan::default() };
        plan.training.method = crate::plan::Method::Lora;
        let r = evaluate(&plan, Lang::En).unwrap();
        let d = demand(&plan, &r.fit, r.selection.as_ref());
        assert!(d.needs.iter().all(|n| n.run_hours > 0.0), "{d:?}");
        assert!(d.needs.iter().any(|n| n.gpu == "h100-sxm"));
        assert!(d.needs.iter().any(|n| n.gpu == "h200-nvl"), "its datasheet's dense BF16 gives a run length");
        assert!(!d.needs.iter().any(|n| n.gpu == "ascend-910b"), "no TFLOPS published: no run length");
    }
    /// The CUDA version travels in the plan (and its link) to the checklist's driver floor.
    #[test]
    #[cfg(not(feature = "zh"))]
    fn cuda_in_the_plan_fills_the_driver_floor() {
        let link = crate::share::decode("?v=1&cuda=12.8");
        assert_eq!(link.plan.cuda, crate::plan::CudaVersion::parse("12.8"));
        assert!(crate::share::encode(&link.plan, None, None).contains("cuda=12.8"));
        let r = evaluate(&link.plan, Lang::En).unwrap();
        let items: Vec<_> = r.checklist.sections.iter().flat_map(|s| &s.items).collect();
        let sw = items.iter().find(|i| i.id == "stack").expect("stack item");
        assert!(sw.text.contains("CUDA 12.8 needs driver ≥ 570.26"), "{}", sw.text);
        let plain = evaluate(&Plan::default(), Lang::En).unwrap();
        let sw =
            plain.checklist.sections.iter().flat_map(|s| &s.items).find(|i| i.id == "stack").expect("stack");
        assert!(!sw.text.contains("needs driver"), "{}", sw.text);
    }
}
