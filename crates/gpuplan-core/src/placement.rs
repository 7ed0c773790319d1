//! What the speed and serving models read about a model and where it runs:
//! its parameter counts, and the card, layout and bytes of one placement.

use serde::Serialize;

use crate::hardware::Gpu;
use crate::plan::Parallel;

/// Parameter counts the FLOP formulas use.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ModelSize {
    pub total: f64,
    /// Equal to `total` for dense models; active experts' share for MoE.
    pub active: f64,
}

impl ModelSize {
    pub fn dense(params: f64) -> Self {
        Self { total: params, active: params }
    }

    /// Share of the weights one token reads (1 for dense models).
    pub(crate) fn active_share(self) -> f64 {
        if self.total > 0.0 {
            (self.active / self.total).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

/// Where a model runs: the part, the layout, and the engine's per-GPU
/// weights and KV cache for that layout.
#[derive(Clone, Copy, Debug)]
pub struct Placement<'a> {
    pub gpu: &'a Gpu,
    pub parallel: &'a Parallel,
    pub weights_bytes: u64,
    pub kv_bytes: u64,
    /// The engine's whole need per GPU, and what the card offers the plan.
    pub per_gpu_bytes: u64,
    pub usable_bytes: u64,
}
