//! The memory engine: peak GPU memory per GPU, by component, each with the
//! formula that produced it (numbers substituted) and its source.
//!
//! TRAIN_PEAK = weights + gradients + optimizer + activations + workspace;
//! INFERENCE_PEAK = weights + KV cache + workspace (seed 000). Sizes are bytes;
//! derivations print decimal GB (10^9 bytes).

use std::fmt::Display;

use serde::Serialize;

use crate::error::{FieldError, Problem};
use crate::lang::{Bi, Lang};
use crate::model::ModelSpec;
use crate::plan::{Plan, Task};
use crate::text::{self, Key};

mod activations;
mod inference;
mod inverse;
mod kv;
mod reserved;
mod rule_of_thumb;
mod runtime;
mod split;
mod sweep;
mod training;
mod weights;

pub use inference::kv_tokens;
pub use inverse::{longest_on, max_batch, max_concurrency, max_context, Longest};
pub use kv::element_bytes as kv_element_bytes;
pub use reserved::{shown as smi_shown, NvidiaSmi, RATIOS as SMI_RATIOS};
pub use runtime::CUDA_CONTEXT as CUDA_CONTEXT_BYTES;
pub use runtime::{
    profile as vllm_profile, takes_large_defaults as vllm_takes_large_defaults, Profile as VllmProfile,
    GRAPHS_BASE as VLLM_GRAPHS_BASE, GRAPHS_KEPT as VLLM_GRAPHS_KEPT,
    GRAPHS_PER_LAYER as VLLM_GRAPHS_PER_LAYER, NON_TORCH_ALONE as VLLM_NON_TORCH_ALONE,
    NON_TORCH_GROUP as VLLM_NON_TORCH_GROUP, PROFILE_FORWARD as VLLM_PROFILE_FORWARD,
    SAMPLER_COPIES as VLLM_SAMPLER_COPIES,
};
pub use sweep::{by_length, MAX_TOKENS as SWEEP_MAX_TOKENS};
pub use training::adapter_params;
pub use weights::{gathered_bytes as gathered_embedding_bytes, head as lm_head, input_embedding_params};

/// One memory component: its size and how it was derived.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Component {
    pub bytes: u64,
    /// The formula with the plan's numbers substituted.
    pub derivation: String,
    /// Where the formula comes from.
    pub source: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Components {
    pub weights: Component,
    pub gradients: Component,
    pub optimizer: Component,
    pub activations: Component,
    pub kv_cache: Component,
    pub workspace: Component,
}

/// The components' names, in the order `Components::all` lists them.
const NAMES: [Key; 6] = [
    Key::CompWeights,
    Key::CompGradients,
    Key::CompOptimizer,
    Key::CompActivations,
    Key::CompKvCache,
    Key::CompWorkspace,
];

impl Components {
    /// Weights, gradients, optimizer state, activations, KV cache, workspace.
    fn all(&self) -> [&Component; 6] {
        [&self.weights, &self.gradients, &self.optimizer, &self.activations, &self.kv_cache, &self.workspace]
    }

    /// Every component with its name in `lang` (weights first, workspace
    /// last): the page and the snippets name them alike.
    pub fn named(&self, lang: Lang) -> [(&'static str, &Component); 6] {
        let mut out = self.all().map(|c| ("", c));
        for (slot, key) in out.iter_mut().zip(NAMES) {
            slot.0 = text::get(key, lang);
        }
        out
    }

    /// The sum of the components, or `None` on overflow.
    pub fn total(&self) -> Option<u64> {
        self.all().iter().try_fold(0u64, |acc, c| acc.checked_add(c.bytes))
    }
}

/// What "peak" means for this estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakKind {
    /// What the framework allocates at its peak (Transformers, training).
    #[default]
    Allocated,
    /// A pool reserved up front (vLLM's KV pool up to gpu_memory_utilization,
    /// llama.cpp's cache for the whole context).
    Reserved,
}

/// A remark on the estimate, in both languages.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Note {
    pub id: &'static str,
    pub zh: String,
    pub en: String,
}

impl Note {
    fn new(id: &'static str, key: Key) -> Self {
        Self::filled(id, key, &[])
    }

    fn filled(id: &'static str, key: Key, holes: &[(&str, &dyn Display)]) -> Self {
        let Bi { zh, en } = text::both(key, holes);
        Self { id, zh, en }
    }

    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MemoryResult {
    /// Peak bytes on the busiest GPU: the sum of the components.
    pub per_gpu_bytes: u64,
    pub components: Components,
    pub peak_kind: PeakKind,
    /// vLLM on a known card: the reservation (`gpu_memory_utilization` ×
    /// card memory) the card will show, of which `kv_pool_bytes` is KV pool.
    /// `per_gpu_bytes` stays what the workload needs, which is what must fit.
    pub reserved_bytes: Option<u64>,
    pub kv_pool_bytes: Option<u64>,
    /// How the reservation splits, with numbers.
    pub reserved_derivation: String,
    /// The CUDA context inside `workspace`: PyTorch's allocated/reserved
    /// counters leave it out, nvidia-smi includes it.
    pub cuda_context_bytes: u64,
    /// Training: PyTorch's allocated peak and what nvidia-smi will show
    /// (reserved pool + CUDA context). `per_gpu_bytes` stays the allocated
    /// peak with the context, which is what the fit checks.
    pub nvidia_smi: Option<NvidiaSmi>,
    /// Model parameters in total, and per token (MoE: the active experts).
    pub params: f64,
    pub active_params: f64,
    /// Parameters the optimizer updates on the busiest GPU (0 for inference).
    pub trainable_params: f64,
    pub notes: Vec<Note>,
}

/// A component before its bytes are checked and rounded.
pub(crate) struct Part {
    bytes: f64,
    derivation: String,
    source: &'static str,
}

impl Part {
    fn new(bytes: f64, derivation: String, source: &'static str) -> Self {
        Self { bytes, derivation, source }
    }

    fn none() -> Self {
        Self { bytes: 0.0, derivation: String::from("0"), source: "" }
    }
}

/// What the task modules hand back.
pub(crate) struct Built {
    weights: Part,
    gradients: Part,
    optimizer: Part,
    activations: Part,
    kv_cache: Part,
    workspace: Part,
    trainable_params: f64,
    peak_kind: PeakKind,
    /// vLLM's reservation on a known card.
    pool: Option<Pool>,
    notes: Vec<Note>,
}

/// vLLM's reservation: the total and the KV pool inside it.
pub(crate) struct Pool {
    reserved: f64,
    kv: f64,
    derivation: String,
}

/// Largest figure the engine reports: 1 EB. Beyond it the input is absurd.
const MAX_BYTES: f64 = 1e18;

fn checked(x: f64, field: &str) -> Result<u64, FieldError> {
    if x.is_finite() && (0.0..=MAX_BYTES).contains(&x) {
        Ok(x.round() as u64)
    } else {
        Err(FieldError::new(field, Problem::Inconsistent { rule: "estimate_too_large" }))
    }
}

/// The plan field that drives a component, named when the component is absurd.
fn driver(plan: &Plan, component: &str) -> &'static str {
    match (component, plan.task) {
        ("kv_cache", _) => "inference.context",
        ("activations", Task::Train) => "training.seq",
        ("activations", Task::Infer) | ("workspace", Task::Infer) => "inference.concurrency",
        _ => "model",
    }
}

fn finish(
    plan: &Plan,
    b: Built,
    (params, active): (f64, f64),
    card: Option<f64>,
) -> Result<MemoryResult, Vec<FieldError>> {
    let mut errs = Vec::new();
    let mut comp = |name: &str, p: Part| match checked(p.bytes, driver(plan, name)) {
        Ok(bytes) => Component { bytes, derivation: p.derivation, source: p.source },
        Err(e) => {
            errs.push(e);
            Component::default()
        }
    };
    let components = Components {
        weights: comp("weights", b.weights),
        gradients: comp("gradients", b.gradients),
        optimizer: comp("optimizer", b.optimizer),
        activations: comp("activations", b.activations),
        kv_cache: comp("kv_cache", b.kv_cache),
        workspace: comp("workspace", b.workspace),
    };
    let (mut reserved_bytes, mut kv_pool_bytes, mut reserved_derivation) = (None, None, String::new());
    if let Some(pool) = b.pool {
        let field = "inference.gpu_mem_util";
        match (checked(pool.reserved, field), checked(pool.kv, field)) {
            (Ok(r), Ok(k)) => {
                (reserved_bytes, kv_pool_bytes, reserved_derivation) = (Some(r), Some(k), pool.derivation)
            }
            (Err(e), _) | (_, Err(e)) => errs.push(e),
        }
    }
    let Some(total) = components.total() else {
        errs.push(FieldError::new("model", Problem::Inconsistent { rule: "estimate_too_large" }));
        return Err(errs);
    };
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut notes = b.notes;
    if plan.task == Task::Infer && !crate::derivation::is_quiet() {
        notes.extend(rule_of_thumb::note(&components, total));
    }
    let nvidia_smi =
        (plan.task == Task::Train).then(|| reserved::nvidia_smi(total, plan.parallel.gpus, card));
    if let Some(s) = nvidia_smi.as_ref().filter(|_| !crate::derivation::is_quiet()) {
        notes.push(smi_note(s));
    }
    Ok(MemoryResult {
        per_gpu_bytes: total,
        components,
        peak_kind: b.peak_kind,
        reserved_bytes,
        kv_pool_bytes,
        reserved_derivation,
        cuda_context_bytes: runtime::CUDA_CONTEXT as u64,
        nvidia_smi,
        params,
        active_params: active,
        trainable_params: b.trainable_params,
        notes,
    })
}

/// What nvidia-smi will show beside the allocated peak, and which of them the fit checks.
fn smi_note(s: &NvidiaSmi) -> Note {
    let gb = |b: u64| crate::derivation::size(b as f64);
    Note::filled(
        "nvidia_smi",
        Key::NoteTrainingSmi,
        &[("varying", &gb(s.varying_bytes)), ("packed", &gb(s.packed_bytes))],
    )
}

/// Memory of the plan's GPU in bytes (vendor GB = 10^9 bytes, as the fit
/// engine reads it): the custom GPU when the plan chose it, else the catalog's.
pub fn plan_gpu_memory(plan: &Plan) -> Option<f64> {
    plan.hardware.chosen().map(|g| g.memory_gb * 1e9)
}

/// Peak memory per GPU for a valid plan.
pub fn estimate(plan: &Plan) -> Result<MemoryResult, Vec<FieldError>> {
    estimate_on(plan, plan_gpu_memory(plan))
}

/// Peak memory per GPU, with vLLM's reservation sized for a card of
/// `gpu_memory_bytes` (`None`: no reservation reported). The need depends on
/// the plan's GPU only through vLLM's profile defaults (`max_num_seqs` 1024
/// on cards of 70 GiB or more that are not A100s, 256 on the others).
pub fn estimate_on(plan: &Plan, gpu_memory_bytes: Option<f64>) -> Result<MemoryResult, Vec<FieldError>> {
    let errs = plan.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    let split = split::Split::of(plan);
    match &plan.model {
        ModelSpec::Generic { generic } => {
            let built = match plan.task {
                Task::Infer => inference::estimate_generic(generic, &split, &plan.inference),
                Task::Train => training::estimate_generic(
                    generic.params,
                    generic.activation_gb * 1e9,
                    &split,
                    &plan.training,
                ),
            };
            finish(plan, built, (generic.params, generic.params), gpu_memory_bytes)
        }
        spec => {
            let Some(arch) = spec.arch() else {
                return Err(vec![FieldError::new("model.id", Problem::Unknown { id: String::new() })]);
            };
            let built = match plan.task {
                Task::Infer => {
                    let card = inference::Card { gpu: plan.hardware.chosen(), memory: gpu_memory_bytes };
                    inference::estimate(&arch, &split, &plan.inference, card)
                }
                Task::Train => training::estimate(&arch, &split, &plan.training),
            };
            finish(plan, built, (arch.param_count(), arch.active_params()), gpu_memory_bytes)
        }
    }
}

#[cfg(test)]
mod tests;
