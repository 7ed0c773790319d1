//! The memory engine: peak GPU memory per GPU, by component, each with the
//! formula that produced it. (Filled in by the memory work.)

use serde::Serialize;

use crate::error::FieldError;
use crate::plan::Plan;

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

/// What "peak" means for this estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakKind {
    /// What the framework allocates at its peak (Transformers, training).
    #[default]
    Allocated,
    /// A pool reserved up front (vLLM's KV pool up to gpu_memory_utilization).
    Reserved,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MemoryResult {
    /// Peak bytes on the busiest GPU: the sum of the components.
    pub per_gpu_bytes: u64,
    pub components: Components,
    pub peak_kind: PeakKind,
}

/// Peak memory per GPU for a valid plan.
pub fn estimate(plan: &Plan) -> Result<MemoryResult, Vec<FieldError>> {
    let errs = plan.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(MemoryResult::default())
}
