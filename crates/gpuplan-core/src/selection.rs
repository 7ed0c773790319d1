//! The chosen configuration of one workload: a GPU type, how many of it,
//! the layout over them and the purchase option that pays for them.
//!
//! It is decided once per report, and the bill, the checklist, the
//! acceptance commands, the snippets, the CLI and the JS API all read it, so
//! that no part of the answer can name another count than the bill.
//!
//! - GPU type: the one the plan names (`hardware.gpu`).
//! - Layout: the plan's own (`parallel`) when it fits that GPU; otherwise the
//!   fit's smallest layout that does. With a serving QPS target, the count
//!   the targets need (replicas of the layout the sizing chose).
//! - Purchase option: the cheapest option on that GPU that meets the plan
//!   (memory, and a training run's deadline).

use std::fmt::Display;

use serde::Serialize;

use crate::cost::{Category, CostReport, OptionCost, OptionKind};
use crate::error::FieldError;
use crate::fit::{FitReport, GpuFit};
use crate::hardware::Gpu;
use crate::lang::Lang;
use crate::money::Money;
use crate::offers::Pricing;
use crate::placement::{ModelSize, Placement};
use crate::plan::{Parallel, Plan, Shard, Task};
use crate::speed::SpeedSummary;
use crate::text::{self, Key};

/// Where the layout comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The plan's own parallel settings: they fit the chosen GPU.
    Plan,
    /// The plan's settings do not fit; the fit's smallest layout that does.
    Fit,
    /// Nothing fits the chosen GPU within the search: the plan's settings, as asked.
    DoesNotFit,
}

/// The purchase option of the selection, as the bill prices it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Purchase {
    /// The option's id in the cost report ("offer-id/option").
    pub id: String,
    pub kind: OptionKind,
    pub offer: String,
    pub offer_name: String,
    pub instances: u32,
    pub gpus_per_instance: u32,
    pub total: Money,
    /// Hours of work on the GPUs (training), and the hours billed to the end of the horizon.
    pub run_hours: f64,
    pub horizon_hours: f64,
    /// List, marketplace or auction price.
    pub pricing: Pricing,
    /// Parts of the bill the offer has no price for (the total leaves them out).
    pub unpriced: Vec<Category>,
}

impl Purchase {
    fn of(o: &OptionCost) -> Purchase {
        Purchase {
            id: o.id.clone(),
            kind: o.kind,
            offer: o.offer.to_string(),
            offer_name: o.offer_name.to_string(),
            instances: o.instances,
            gpus_per_instance: o.gpus_per_instance,
            total: o.total,
            run_hours: o.run_hours,
            horizon_hours: o.horizon_hours,
            pricing: o.pricing,
            unpriced: o.unpriced.clone(),
        }
    }
}

/// One workload's configuration: what to order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Selection {
    pub gpu: String,
    pub gpu_name: String,
    /// The plan's own card (`hardware.custom`).
    pub custom: bool,
    pub basis: Basis,
    /// Every GPU the workload runs on at once: tp × pp × replicas.
    pub gpus: u32,
    pub tp: u32,
    pub pp: u32,
    pub shard: Shard,
    /// Copies of the model: data-parallel ranks in training, serving replicas.
    pub replicas: u32,
    /// Servers at the plan's GPUs per server.
    pub nodes: u32,
    /// The memory engine's peak on the busiest GPU of this layout, and what
    /// the card offers the plan.
    pub per_gpu_bytes: u64,
    pub usable_bytes: u64,
    /// Speed at this layout (training time, serving figures and the count for the targets).
    pub speed: Option<SpeedSummary>,
    /// None when no offer on this GPU meets the plan.
    pub option: Option<Purchase>,
    /// llama.cpp's `--split-mode` for this layout; None for other engines.
    pub llama_cpp_split: Option<crate::serving::LlamaSplit>,
    /// The longest training sequence (at the plan's micro-batch and method)
    /// or serving context (at its concurrency) that fits this card's usable
    /// memory on this layout; None when one token does not.
    pub longest: Option<crate::memory::Longest>,
}

impl Selection {
    /// The layout as the memory engine takes it.
    pub fn parallel(&self) -> Parallel {
        Parallel { gpus: self.gpus, tp: self.tp, pp: self.pp, shard: self.shard }
    }

    /// "4 × GeForce RTX 4090 (4 replicas of 1 GPU, the plan's layout) · Example · monthly, 4 instances"
    pub fn describe(&self, lang: Lang) -> String {
        let (layout, basis) = (self.layout(lang), self.basis_text(lang));
        let holes: [(&str, &dyn Display); 4] =
            [("gpus", &self.gpus), ("gpu", &self.gpu_name), ("layout", &layout), ("basis", &basis)];
        let head = text::fill(Key::SelectionHead, lang, &holes);
        match &self.option {
            Some(o) => {
                let holes: [(&str, &dyn Display); 4] = [
                    ("head", &head),
                    ("offer", &o.offer_name),
                    ("kind", &o.kind.label(lang)),
                    ("instances", &o.instances),
                ];
                let option = text::fill(Key::SelectionOption, lang, &holes);
                let note = match o.pricing {
                    Pricing::List => return option,
                    Pricing::Marketplace => text::get(Key::PricingMarketplace, lang),
                    Pricing::Auction => text::get(Key::PricingAuction, lang),
                };
                let (open, close) = (lang.pick("（", " ("), lang.pick("）", ")"));
                format!("{option}{open}{note}{close}")
            }
            None => text::fill(Key::SelectionNoOffer, lang, &[("head", &head)]),
        }
    }

    /// The layout in words: "tp 2 · pp 1, 2 replicas, ZeRO-3".
    pub fn layout(&self, lang: Lang) -> String {
        let mut layout = vec![format!("tp {} · pp {}", self.tp, self.pp)];
        if self.replicas > 1 {
            layout.push(text::fill(Key::SelectionReplicas, lang, &[("n", &self.replicas)]));
        }
        if self.shard != Shard::None {
            layout.push(crate::names::variant(&self.shard).unwrap_or_default().to_string());
        }
        layout.join(text::get(Key::ListSeparator, lang))
    }

    /// Why this configuration: the plan's own layout, the fewest GPUs that
    /// hold it, or none that does.
    pub fn basis_text(&self, lang: Lang) -> &'static str {
        let key = match self.basis {
            Basis::Plan => Key::BasisPlan,
            Basis::Fit => Key::BasisFit,
            Basis::DoesNotFit => Key::BasisDoesNotFit,
        };
        text::get(key, lang)
    }

    /// Whether the cost option `o` is on this selection's GPU.
    pub fn on_gpu(&self, o: &OptionCost) -> bool {
        *o.gpu == *self.gpu || (self.custom && &*o.gpu == "custom")
    }

    /// The cheapest option on this GPU that meets the plan (options come
    /// meeting first, cheapest first).
    pub(crate) fn with_option(mut self, cost: &CostReport) -> Selection {
        self.option = cost.options.iter().find(|o| o.meets && self.on_gpu(o)).map(Purchase::of);
        self
    }

    /// The GPUs the bill needs and, for training, the run's hours at this
    /// layout; None without a run length (no published TFLOPS).
    pub(crate) fn run_hours(&self, task: Task) -> Option<f64> {
        match task {
            Task::Infer => Some(0.0),
            Task::Train => {
                let hours = self.speed.as_ref()?.training.as_ref()?.hours.value;
                hours.is_finite().then_some(hours)
            }
        }
    }
}

/// The selection's GPU and layout for a valid plan (its option comes after
/// the bill, [`Selection::with_option`]). None when the plan names no GPU
/// ("custom" without a card).
pub(crate) fn layout(plan: &Plan, fit: &FitReport) -> Result<Option<Selection>, Vec<FieldError>> {
    let (Some(gpu), Some(row)) = (plan.hardware.chosen(), fit.rows.iter().find(|r| r.chosen)) else {
        return Ok(None);
    };
    let own = crate::derivation::quiet(|| crate::memory::estimate_on(plan, None))?;
    let usable = row.usable.bytes;
    let size = Some(ModelSize { total: own.params, active: own.active_params });
    let (basis, parallel, per_gpu, speed) = if own.per_gpu_bytes <= usable {
        let c = &own.components;
        let at = Placement {
            gpu,
            parallel: &plan.parallel,
            weights_bytes: c.weights.bytes,
            kv_bytes: c.kv_cache.bytes,
            per_gpu_bytes: own.per_gpu_bytes,
            usable_bytes: usable,
        };
        (Basis::Plan, plan.parallel.clone(), own.per_gpu_bytes, Some(crate::speed::summary(plan, &at, size)))
    } else if let Some(best) = &row.best {
        let p = Parallel { gpus: best.gpus, tp: best.tp, pp: best.pp, shard: best.shard };
        (Basis::Fit, p, best.per_gpu_bytes, row.speed.clone())
    } else {
        (Basis::DoesNotFit, plan.parallel.clone(), own.per_gpu_bytes, None)
    };
    Ok(Some(build(plan, gpu, row, basis, &parallel, per_gpu, speed)))
}

fn build(
    plan: &Plan,
    gpu: &Gpu,
    row: &GpuFit,
    basis: Basis,
    p: &Parallel,
    per_gpu_bytes: u64,
    speed: Option<SpeedSummary>,
) -> Selection {
    // A serving target sets the count: replicas of the layout its sizing chose.
    let target = speed.as_ref().and_then(|s| s.gpus_for_target.as_ref()).filter(|_| plan.task == Task::Infer);
    let (gpus, tp, pp) = match target {
        Some(t) => (t.gpus.max(1), t.tp.max(1), t.pp.max(1)),
        None => (p.gpus.max(1), p.tp.max(1), p.pp.max(1)),
    };
    let replicas = (gpus / tp.saturating_mul(pp).max(1)).max(1);
    let replica = Parallel { gpus: tp.saturating_mul(pp), tp, pp, shard: p.shard };
    Selection {
        gpu: gpu.id.to_string(),
        gpu_name: gpu.name.to_string(),
        custom: row.custom,
        basis,
        gpus,
        tp,
        pp,
        shard: p.shard,
        replicas,
        nodes: gpus.div_ceil(plan.hardware.gpus_per_node.max(1)),
        per_gpu_bytes,
        usable_bytes: row.usable.bytes,
        speed,
        option: None,
        llama_cpp_split: crate::serving::LlamaSplit::of(plan, &replica),
        longest: crate::memory::longest_on(plan, &replica_layout(plan, p, &replica), row.usable.bytes),
    }
}

/// The layout the longest figure holds: the serving replica (whose memory is
/// per replica), the plan's training layout otherwise.
fn replica_layout(plan: &Plan, p: &Parallel, replica: &Parallel) -> Parallel {
    match plan.task {
        Task::Infer => replica.clone(),
        Task::Train => p.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over every example: the checklist names the selection's count, the
    /// bill buys exactly the instances that count needs, and the layout fits.
    #[test]
    fn checklist_bill_and_fit_name_one_count() {
        for e in crate::examples::all() {
            let r = crate::report::evaluate(&e.plan, Lang::En).expect("valid example");
            let s = r.selection.as_ref().unwrap_or_else(|| panic!("{}: no selection", e.id));
            let title = format!("{} × {}", s.gpus, s.gpu_name);
            assert!(r.checklist.title.contains(&title), "{}: {} vs {title}", e.id, r.checklist.title);
            let o = s.option.as_ref().unwrap_or_else(|| panic!("{}: no option", e.id));
            assert_eq!(o.instances, s.gpus.div_ceil(o.gpus_per_instance), "{}: {o:?}", e.id);
            let bill = r.cost.options.iter().find(|b| b.id == o.id).expect("the option is in the bill");
            assert!(s.on_gpu(bill) && bill.meets, "{}", e.id);
            assert!(s.per_gpu_bytes <= s.usable_bytes, "{}: the selection fits", e.id);
            assert_eq!(s.gpus, s.tp * s.pp * s.replicas, "{}", e.id);
            let count = r.checklist.sections.iter().flat_map(|x| &x.items).find(|i| i.id == "gpu-count");
            let item = count.expect("every plan states its GPU count");
            let said = if s.gpus == 1 { "Single-GPU plan".to_string() } else { format!("{} GPUs", s.gpus) };
            if Lang::En.carried() {
                assert!(item.text.contains(&said), "{}: {}", e.id, item.text);
            }
        }
    }
}
