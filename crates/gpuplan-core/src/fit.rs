//! Fit: which GPUs can run the plan, how many, under which sharding, and what
//! to watch out for.
//!
//! Seed 000: nominal memory is not a budget, and GPUs do not simply add up.
//! `GPU_COUNT_CANDIDATE = ⌈peak ÷ usable⌉` is reported as the lower bound it
//! is; the count comes from the memory engine's per-GPU result for each
//! layout the workload allows, the smallest that fits under each strategy.
//!
//! The engine's per-GPU need depends on the layout, not on the card, so each
//! layout is estimated once (lazily) and compared against every card's usable
//! memory: the search over the catalog × 1-64 GPUs costs a few hundred
//! engine calls at most.

mod flags;

use serde::Serialize;

pub use flags::{Flag, FlagId, Severity, LONG_RUN_HOURS, NEAR_LIMIT};

use crate::derivation::n;
use crate::error::FieldError;
use crate::hardware::{catalog, Gpu, GpuClass};
use crate::lang::Lang;
use crate::memory::MemoryResult;
use crate::placement::{ModelSize, Placement};
use crate::plan::{Parallel, Plan, Shard, Task};
use crate::speed::{self, SpeedSummary};
use crate::text::{self, Key};

/// Largest GPU count the search tries.
pub const MAX_GPUS: u32 = 64;

/// Share of a GDDR6 card that holds ECC when ECC is on: such cards report
/// about 15/16 of their memory (nvidia-smi: T4 15,360 of 16,384 MiB; L4
/// 23,034 MiB and L40S 46,068 MiB of 24 and 48 GiB). HBM keeps ECC aside.
pub const GDDR6_ECC_SHARE: f64 = 1.0 / 16.0;

/// How the work is split. Preference at equal GPU count follows this order
/// (less communication first), except that a layout needing a fast link the
/// part lacks comes after one that does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// One GPU holds everything (for training: plain data parallel adds
    /// replicas, not memory).
    Single,
    Zero1,
    Zero2,
    Fsdp,
    Zero3,
    TensorParallel,
    Pipeline,
    TensorFsdp,
    TensorPipeline,
}

impl Strategy {
    /// Whether the per-GPU need can only fall as the GPU count grows: true
    /// when more GPUs divide the training state and leave each GPU's
    /// activations alone. Not for pipelines: under 1F1B the first stage holds
    /// up to pp micro-batches over ⌈layers ÷ pp⌉ layers, which can rise with pp.
    fn monotone(self) -> bool {
        matches!(
            self,
            Strategy::Zero1
                | Strategy::Zero2
                | Strategy::Fsdp
                | Strategy::Zero3
                | Strategy::TensorFsdp
                | Strategy::TensorParallel
        )
    }

    pub fn label(self, lang: Lang) -> &'static str {
        let key = match self {
            Strategy::Single => Key::SplitSingle,
            Strategy::Zero1 => Key::SplitZero1,
            Strategy::Zero2 => Key::SplitZero2,
            Strategy::Fsdp => Key::SplitFsdp,
            Strategy::Zero3 => Key::SplitZero3,
            Strategy::TensorParallel => Key::SplitTensor,
            Strategy::Pipeline => Key::SplitPipeline,
            Strategy::TensorFsdp => Key::SplitTensorFsdp,
            Strategy::TensorPipeline => Key::SplitTensorPipeline,
        };
        text::get(key, lang)
    }
}

/// Memory a card offers the plan: nominal less ECC and headroom.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Usable {
    pub nominal_bytes: u64,
    pub ecc_bytes: u64,
    /// Kept free: the user's headroom (driver, allocator fragmentation,
    /// spikes), or vLLM's 1 − gpu_memory_utilization if larger.
    pub headroom_bytes: u64,
    pub bytes: u64,
    pub derivation: String,
}

/// Usable bytes per GPU for this plan. The vendor's GB is taken as 10^9
/// bytes, at most the card's real size. The CUDA context is part of the
/// memory engine's workspace, so it is not subtracted twice here.
pub fn usable(gpu: &Gpu, plan: &Plan) -> Usable {
    let nominal = gpu.memory_gb * 1e9;
    let ecc_on_gddr6 = gpu.ecc && gpu.memory_type.starts_with("GDDR6");
    let ecc = if ecc_on_gddr6 { nominal * GDDR6_ECC_SHARE } else { 0.0 };
    let capacity = nominal - ecc;
    let share = plan.hardware.headroom_pct / 100.0;
    let pools = plan.task == Task::Infer && plan.inference.engine.pools();
    let pool_gap = if pools { 1.0 - plan.inference.gpu_mem_util } else { 0.0 };
    let kept = share.max(pool_gap).clamp(0.0, 1.0);
    let headroom = capacity * kept;
    let bytes = capacity - headroom;
    let kept_text = if pool_gap > share {
        format!("(1 − {} gpu_memory_utilization)", plan.inference.gpu_mem_util)
    } else {
        format!("{} % headroom", plan.hardware.headroom_pct)
    };
    let ecc_text = if ecc > 0.0 { format!(" − {} B ECC (1/16 of GDDR6)", n(ecc)) } else { String::new() };
    Usable {
        nominal_bytes: nominal as u64,
        ecc_bytes: ecc as u64,
        headroom_bytes: headroom as u64,
        bytes: bytes as u64,
        derivation: format!(
            "{} GB × 10^9{ecc_text} = {} B; × {kept_text} → {} B kept, {} B usable",
            gpu.memory_gb,
            n(capacity),
            n(headroom),
            n(bytes)
        ),
    }
}

/// GPU_COUNT_CANDIDATE (seed 000): a lower bound, never the answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LowerBound {
    pub gpus: u64,
    pub derivation: String,
}

fn lower_bound(peak: u64, usable: u64) -> LowerBound {
    let gpus = peak.div_ceil(usable.max(1));
    LowerBound {
        gpus,
        derivation: format!("⌈{} B peak ÷ {} B usable⌉ = {gpus}", n(peak as f64), n(usable as f64)),
    }
}

/// The smallest layout that fits under one strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitOption {
    pub strategy: Strategy,
    pub gpus: u32,
    pub tp: u32,
    pub pp: u32,
    pub shard: Shard,
    /// The memory engine's peak on the busiest GPU of this layout.
    pub per_gpu_bytes: u64,
    pub usable_bytes: u64,
    /// Share of usable memory left free (0-1).
    pub headroom: f64,
    /// Servers needed at the plan's GPUs per server.
    pub nodes: u32,
}

impl FitOption {
    fn used_share(&self) -> f64 {
        self.per_gpu_bytes as f64 / self.usable_bytes.max(1) as f64
    }

    fn parallel(&self) -> Parallel {
        Parallel { gpus: self.gpus, tp: self.tp, pp: self.pp, shard: self.shard }
    }
}

/// What the network between servers must carry when one server is not enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NetworkKind {
    /// Gradients or sharded states every step: RDMA (InfiniBand / RoCE).
    Rdma,
    /// Only activations at pipeline stage boundaries.
    Private,
    /// The servers share one NVLink domain (GB200/GB300 NVL72).
    Fabric,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Network {
    pub nodes: u32,
    pub gpus_per_node: u32,
    pub kind: NetworkKind,
    pub zh: String,
    pub en: String,
}

fn network(opt: &FitOption, gpu: &Gpu, per_node: u32) -> Option<Network> {
    let nodes = opt.nodes;
    if nodes <= 1 {
        return None;
    }
    let g = opt.gpus;
    let kind = if gpu.link_domain >= g {
        NetworkKind::Fabric
    } else if matches!(opt.strategy, Strategy::Pipeline | Strategy::TensorPipeline) {
        NetworkKind::Private
    } else {
        NetworkKind::Rdma
    };
    let key = match kind {
        NetworkKind::Rdma => Key::NetRdma,
        NetworkKind::Private => Key::NetPrivate,
        NetworkKind::Fabric => Key::NetFabric,
    };
    let holes: [(&str, &dyn std::fmt::Display); 4] =
        [("g", &g), ("nodes", &nodes), ("per_node", &per_node), ("domain", &gpu.link_domain)];
    let text = text::both(key, &holes);
    Some(Network { nodes, gpus_per_node: per_node, kind, zh: text.zh, en: text.en })
}

/// One GPU type: can it run the plan, how, and what to watch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuFit {
    pub gpu_id: String,
    pub gpu_name: String,
    pub class: GpuClass,
    /// The GPU the plan chose ([`crate::plan::HardwareChoice::chosen`]).
    pub chosen: bool,
    pub custom: bool,
    pub unverified: bool,
    pub usable: Usable,
    pub lower_bound: LowerBound,
    /// The recommended option: fewest GPUs, then least communication.
    pub best: Option<FitOption>,
    /// The smallest fitting layout under every strategy that fits at all,
    /// best first (fewest GPUs, then no missing fast link, then least
    /// communication).
    pub options: Vec<FitOption>,
    pub network: Option<Network>,
    pub flags: Vec<Flag>,
    pub speed: Option<SpeedSummary>,
}

impl GpuFit {
    /// The GPUs the bill prices on this card: the serving targets' count
    /// when the plan sets them, else the fitting layout's; None when no
    /// layout fits.
    pub fn priced_gpus(&self) -> Option<u32> {
        let fits = self.best.as_ref()?.gpus;
        let target = self.speed.as_ref().and_then(|s| s.gpus_for_target.as_ref());
        Some(target.map_or(fits, |t| t.gpus).max(1))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitReport {
    /// The single-GPU peak the lower bounds divide.
    pub single_gpu_bytes: u64,
    pub max_gpus: u32,
    /// Ranked: fits first, then fewer servers, fewer GPUs, fewer warnings, faster.
    pub rows: Vec<GpuFit>,
}

/// Settings of a fit search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// The machines are rented or hosted (gpuplan plans rentals): turns on the
    /// GeForce licence rule.
    pub hosted: bool,
    pub max_gpus: u32,
    /// Only the plan's own GPU (for a figure about it alone, such as the headline).
    pub chosen_only: bool,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self { hosted: true, max_gpus: MAX_GPUS, chosen_only: false }
    }
}

/// Fit the plan on every catalog GPU (and its custom GPU) with the memory
/// engine. The engine runs without a card (`estimate_on(.., None)`): its
/// per-GPU need does not depend on the card, only vLLM's reservation would.
pub fn fit(plan: &Plan, opts: &FitOptions) -> Result<FitReport, Vec<FieldError>> {
    // The search needs bytes only: the engine runs without its derivation text.
    let bytes_only = |p: &Plan| crate::derivation::quiet(|| crate::memory::estimate_on(p, None));
    let single = bytes_only(plan)?;
    let size = ModelSize { total: single.params, active: single.active_params };
    fit_with(plan, opts, Some(size), bytes_only)
}

/// Fit with a given memory estimator (the memory engine, or a stand-in in
/// tests) and the model's parameter counts for the speed figures.
pub fn fit_with<E>(
    plan: &Plan,
    opts: &FitOptions,
    size: Option<ModelSize>,
    estimate: E,
) -> Result<FitReport, Vec<FieldError>>
where
    E: FnMut(&Plan) -> Result<MemoryResult, Vec<FieldError>>,
{
    let errs = plan.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut gpus = candidates(plan);
    if opts.chosen_only {
        let chosen = plan.hardware.chosen();
        gpus.retain(|(g, _)| chosen.is_some_and(|c| std::ptr::eq(c, *g)));
    }
    let max_gpus = opts.max_gpus.clamp(1, 1024);
    let mut search = Search::new(plan, max_gpus, estimate);
    let single = search.single()?;
    let mut rows: Vec<GpuFit> = gpus
        .iter()
        .map(|(gpu, custom)| search.row(plan, gpu, *custom, single, opts, max_gpus, size))
        .collect();
    ttft_reachable(plan, &rows)?;
    // Slowness last and by `total_cmp`: std's sort wants a total order.
    rows.sort_by(|a, b| rank(a).cmp(&rank(b)).then(slowness(a).total_cmp(&slowness(b))));
    Ok(FitReport { single_gpu_bytes: single.per_gpu, max_gpus, rows })
}

/// A TTFT target below the chosen GPU's prefill time at peak TFLOPS (the
/// physics bound) is an error on the field, with the minimum in ms.
fn ttft_reachable(plan: &Plan, rows: &[GpuFit]) -> Result<(), Vec<FieldError>> {
    let target = plan.inference.ttft_ms;
    if plan.task != Task::Infer || target <= 0.0 {
        return Ok(());
    }
    let chosen = rows.iter().find(|r| r.chosen).and_then(|r| r.speed.as_ref()?.inference.as_ref());
    let Some(floor) = chosen.map(|i| i.bound.prefill_seconds.value * 1e3) else { return Ok(()) };
    if target < floor {
        let min = (floor * 100.0).ceil() / 100.0;
        let problem = crate::error::Problem::BelowMinimum { min, why: "prefill_at_peak" };
        return Err(vec![FieldError::new("inference.ttft_ms", problem)]);
    }
    Ok(())
}

/// Every catalog GPU, plus the plan's custom GPU. (`Plan::validate` has
/// already refused a `hardware.gpu` that names neither.)
fn candidates(plan: &Plan) -> Vec<(&Gpu, bool)> {
    let mut out: Vec<(&Gpu, bool)> = catalog().iter().map(|g| (g, false)).collect();
    out.extend(plan.hardware.custom.as_ref().map(|g| (g, true)));
    out
}

/// Sort key: fits, not blocked, servers, GPUs, warnings; then speed ([`slowness`]).
fn rank(row: &GpuFit) -> (bool, u32, u32, usize) {
    let warns = row.flags.iter().filter(|f| f.severity == Severity::Warn).count();
    let (nodes, gpus) = row.best.as_ref().map_or((u32::MAX, u32::MAX), |b| (b.nodes, b.gpus));
    (row.best.is_none(), nodes, gpus, warns)
}

/// The tie-break after [`rank`]: rows without a speed figure last.
fn slowness(row: &GpuFit) -> f64 {
    row.speed.as_ref().map_or(f64::INFINITY, SpeedSummary::slowness)
}

/// The part of an engine result the search keeps per layout.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Need {
    per_gpu: u64,
    weights: u64,
    kv: u64,
}

/// The layouts one strategy allows, in rising GPU count.
struct Ladder {
    strategy: Strategy,
    layouts: Vec<Parallel>,
}

struct Search<E> {
    ladders: Vec<Ladder>,
    /// One slot per layout: not yet estimated, or the engine's answer (None
    /// when the engine rejects the layout); one set per kind of card vLLM
    /// sizes its profile for (its defaults differ above 70 GiB).
    memo: [Vec<Vec<Option<Option<Need>>>>; 2],
    /// The card kind the scratch plan is set for (an index into `memo`).
    kind: usize,
    scratch: Plan,
    estimate: E,
}

/// The kind of card a plan's need depends on: for a pooling engine's
/// inference, 1 when vLLM takes its larger profile defaults there; else 0.
fn card_kind(plan: &Plan, gpu: Option<&Gpu>) -> usize {
    let pools = plan.task == Task::Infer && plan.inference.engine.pools();
    usize::from(pools && gpu.is_none_or(crate::memory::vllm_takes_large_defaults))
}

impl<E> Search<E>
where
    E: FnMut(&Plan) -> Result<MemoryResult, Vec<FieldError>>,
{
    fn new(plan: &Plan, max_gpus: u32, estimate: E) -> Self {
        let ladders = ladders(plan, max_gpus);
        let slots: Vec<Vec<Option<Option<Need>>>> =
            ladders.iter().map(|l| vec![None; l.layouts.len()]).collect();
        let kind = card_kind(plan, plan.hardware.chosen());
        Self { ladders, memo: [slots.clone(), slots], kind, scratch: plan.clone(), estimate }
    }

    /// Estimates the next layouts on `gpu`: a catalog card by its id, the
    /// plan's own card as "custom".
    fn set_card(&mut self, gpu: &Gpu, custom: bool) {
        self.scratch.hardware.gpu = if custom { "custom".into() } else { gpu.id.to_string() };
        self.kind = card_kind(&self.scratch, Some(gpu));
    }

    fn run(&mut self, layout: &Parallel) -> Result<Need, Vec<FieldError>> {
        self.scratch.parallel.clone_from(layout);
        let r = (self.estimate)(&self.scratch)?;
        let c = &r.components;
        Ok(Need { per_gpu: r.per_gpu_bytes, weights: c.weights.bytes, kv: c.kv_cache.bytes })
    }

    /// The one-GPU peak; an engine error here is the plan's error.
    fn single(&mut self) -> Result<Need, Vec<FieldError>> {
        let need = self.run(&Parallel::default())?;
        if let Some(slot) =
            self.memo.get_mut(self.kind).and_then(|m| m.first_mut()).and_then(|m| m.first_mut())
        {
            *slot = Some(Some(need));
        }
        Ok(need)
    }

    fn need(&mut self, ladder: usize, step: usize) -> Option<Need> {
        let cached = *self.memo.get(self.kind)?.get(ladder)?.get(step)?;
        if let Some(known) = cached {
            return known;
        }
        let layout = self.ladders.get(ladder)?.layouts.get(step)?.clone();
        let need = self.run(&layout).ok();
        let kind = self.kind;
        if let Some(slot) =
            self.memo.get_mut(kind).and_then(|m| m.get_mut(ladder)).and_then(|m| m.get_mut(step))
        {
            *slot = Some(need);
        }
        need
    }

    fn fits(&mut self, ladder: usize, step: usize, usable: u64) -> bool {
        self.need(ladder, step).is_some_and(|n| n.per_gpu <= usable)
    }

    /// The first layout of a ladder that fits: bisected where the need never
    /// rises with the GPU count, scanned in order elsewhere.
    fn first_fit(&mut self, ladder: usize, usable: u64) -> Option<usize> {
        let l = self.ladders.get(ladder)?;
        let (steps, monotone) = (l.layouts.len(), l.strategy.monotone());
        if !monotone {
            return (0..steps).find(|&step| self.fits(ladder, step, usable));
        }
        let mut hi = steps.checked_sub(1)?;
        if !self.fits(ladder, hi, usable) {
            return None;
        }
        let mut lo = 0;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.fits(ladder, mid, usable) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// The smallest fitting layout of each strategy, with its engine result.
    fn options(&mut self, usable: u64, per_node: u32) -> Vec<(FitOption, Need)> {
        let mut out = Vec::new();
        for ladder in 0..self.ladders.len() {
            let Some(step) = self.first_fit(ladder, usable) else { continue };
            let Some(need) = self.need(ladder, step) else { continue };
            if let Some(p) =
                self.ladders.get(ladder).and_then(|l| l.layouts.get(step).map(|p| (l.strategy, p)))
            {
                out.push((option(p.0, p.1, need.per_gpu, usable, per_node), need));
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        &mut self,
        plan: &Plan,
        gpu: &Gpu,
        custom: bool,
        single: Need,
        opts: &FitOptions,
        max_gpus: u32,
        size: Option<ModelSize>,
    ) -> GpuFit {
        let usable = usable(gpu, plan);
        let lower = lower_bound(single.per_gpu, usable.bytes);
        // By identity: a custom GPU may share a catalog id, and the alias
        // "custom" names no catalog row.
        let chosen = plan.hardware.chosen().is_some_and(|c| std::ptr::eq(c, gpu));
        let per_node = plan.hardware.gpus_per_node;
        self.set_card(gpu, custom);
        let mut found = self.options(usable.bytes, per_node);
        // llama.cpp: at equal count its default layer split before the row split.
        let row_split = |o: &FitOption| {
            crate::serving::LlamaSplit::of(plan, &o.parallel()) == Some(crate::serving::LlamaSplit::Row)
        };
        found.sort_by_key(|(o, _)| (o.gpus, o.fast_link_group() > gpu.link_domain, row_split(o), o.strategy));
        let best = found.first();
        let speed = best.map(|(o, need)| {
            let at = Placement {
                gpu,
                parallel: &o.parallel(),
                weights_bytes: need.weights,
                kv_bytes: need.kv,
                per_gpu_bytes: need.per_gpu,
                usable_bytes: usable.bytes,
            };
            speed::summary(plan, &at, size)
        });
        let best = best.map(|(o, _)| o.clone());
        let network = best.as_ref().and_then(|o| network(o, gpu, per_node));
        let cx = flags::Context {
            plan,
            gpu,
            option: best.as_ref(),
            network: network.as_ref(),
            max_gpus,
            hosted: opts.hosted,
            training_hours: speed.as_ref().and_then(|s| s.training.as_ref()).map(|t| t.hours.value),
        };
        let flags = flags::flags(&cx);
        GpuFit {
            gpu_id: gpu.id.to_string(),
            gpu_name: gpu.name.to_string(),
            class: gpu.class,
            chosen,
            custom,
            unverified: gpu.unverified,
            usable,
            lower_bound: lower,
            best,
            options: found.into_iter().map(|(o, _)| o).collect(),
            network,
            flags,
            speed,
        }
    }
}

fn option(strategy: Strategy, p: &Parallel, per_gpu: u64, usable: u64, per_node: u32) -> FitOption {
    FitOption {
        strategy,
        gpus: p.gpus,
        tp: p.tp,
        pp: p.pp,
        shard: p.shard,
        per_gpu_bytes: per_gpu,
        usable_bytes: usable,
        headroom: 1.0 - per_gpu as f64 / usable.max(1) as f64,
        nodes: p.gpus.div_ceil(per_node.max(1)),
    }
}

fn layout(gpus: u32, tp: u32, pp: u32, shard: Shard) -> Parallel {
    Parallel { gpus, tp, pp, shard }
}

/// The strategies the workload allows, each with its layouts by GPU count.
/// Tensor parallel needs a degree dividing the heads and stays inside one
/// server; pipeline stages cannot outnumber the layers. A model without a
/// transformer shape can only be sharded as training state.
fn ladders(plan: &Plan, max: u32) -> Vec<Ladder> {
    let shape = plan.model.arch().map(|a| (a.heads, a.layers));
    let train = plan.task == Task::Train;
    let single = Ladder { strategy: Strategy::Single, layouts: vec![Parallel::default()] };
    let mut out = vec![single];
    if train {
        for (strategy, shard) in [
            (Strategy::Zero1, Shard::Zero1),
            (Strategy::Zero2, Shard::Zero2),
            (Strategy::Fsdp, Shard::Fsdp),
            (Strategy::Zero3, Shard::Zero3),
        ] {
            out.push(Ladder { strategy, layouts: (2..=max).map(|g| layout(g, 1, 1, shard)).collect() });
        }
    }
    let Some((heads, layers)) = shape else { return out };
    let per_node = plan.hardware.gpus_per_node.min(max);
    let degrees: Vec<u32> = (2..=per_node).filter(|t| heads.is_multiple_of(*t)).collect();
    let stages = layers.min(max);
    out.push(Ladder {
        strategy: Strategy::TensorParallel,
        layouts: degrees.iter().map(|&t| layout(t, t, 1, Shard::None)).collect(),
    });
    out.push(Ladder {
        strategy: Strategy::Pipeline,
        layouts: (2..=stages).map(|p| layout(p, 1, p, Shard::None)).collect(),
    });
    // Combinations: the widest tensor-parallel group of one server, times
    // pipeline stages (or, for training, FSDP replicas) across servers.
    // llama.cpp splits by layers or by rows, never both.
    let llama_cpp = !train && plan.inference.engine == crate::plan::Engine::LlamaCpp;
    if let Some(&t) = degrees.last().filter(|_| !llama_cpp) {
        let across = max / t;
        out.push(Ladder {
            strategy: Strategy::TensorPipeline,
            layouts: (2..=across.min(layers)).map(|p| layout(t * p, t, p, Shard::None)).collect(),
        });
        if train {
            out.push(Ladder {
                strategy: Strategy::TensorFsdp,
                layouts: (2..=across).map(|d| layout(t * d, t, 1, Shard::Fsdp)).collect(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
