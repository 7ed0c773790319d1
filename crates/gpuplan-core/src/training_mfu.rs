//! The utilisation a training run is timed at when the plan names none: one
//! value per GPU class and method, each the median over measured runs
//! (tests/validation/data/training-speed-public.csv, docs/training.md
//! "Utilisation defaults").
//!
//! Utilisation here is what the time formula divides by: the engine's FLOPs
//! per token (`training_flops`, recompute included) × measured tokens per
//! second ÷ the card's dense 16-bit peak. QLoRA also spends memory traffic
//! dequantising its base once per use per micro-batch, timed apart from the
//! FLOPs. The validation test recomputes each median from the fit rows and
//! fails if a value below drifts from it.

use serde::Serialize;

use crate::hardware::{Gpu, GpuClass};
use crate::plan::Method;

/// GPUs whose measured runs reach a similar share of their peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MfuClass {
    /// NVIDIA datacenter parts from Hopper on (compute capability 9 and up).
    Hopper,
    /// NVIDIA datacenter parts before Hopper (A100, L40S, A10 ...).
    Ampere,
    /// Datacenter parts without a CUDA capability (AMD, Huawei): unmeasured.
    OtherDatacenter,
    Workstation,
    Geforce,
}

/// A default utilisation and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MfuDefault {
    pub value: f64,
    pub class: MfuClass,
    pub method: Method,
    /// The measurements behind the value, in words.
    pub source: &'static str,
}

/// The range of a training speed the defaults expect, ± this share: the
/// check rows' time errors fall within it for 25 of 27 runs (docs/training.md).
pub const SPREAD: f64 = 0.30;

/// llm-foundry's MPT benchmarks, 6 runs on 8 × H100 80GB (full training).
pub const HOPPER_FULL: f64 = 0.447;
/// llm-foundry's MPT benchmarks, 6 runs on 8 × A100 80GB (full training).
pub const AMPERE_FULL: f64 = 0.612;
/// Qwen's README, Qwen-7B LoRA on one A100 80GB, 1024-8192 tokens (4 runs).
pub const AMPERE_LORA: f64 = 0.475;
/// torchtune's README, Llama 3.1 8B full fine-tune on one RTX 4090 (one run).
pub const GEFORCE_FULL: f64 = 0.642;
/// torchtune's README, Llama 3.1 8B LoRA on one RTX 4090 (one run).
pub const GEFORCE_LORA: f64 = 0.903;

/// Bytes of memory traffic per 4-bit weight each time QLoRA dequantises it
/// (read the packed weight, write and re-read the 16-bit copy: 4.5 B at the
/// least; real kernels move more). Median over seven measured LoRA/QLoRA
/// pairs, Qwen-7B's six on one A100 and torchtune's Llama 3.1 8B on one
/// RTX 4090: the QLoRA step's extra seconds per micro-batch × bandwidth ÷
/// (uses × weights).
pub const DEQUANT_BYTES_PER_WEIGHT: f64 = 16.5;

const SRC_HOPPER_FULL: &str = "median of 6 llm-foundry runs on 8 × H100";
const SRC_AMPERE_FULL: &str = "median of 6 llm-foundry runs on 8 × A100";
const SRC_AMPERE_LORA: &str = "median of 4 Qwen-7B LoRA runs on one A100 (Qwen README)";
const SRC_HOPPER_LORA: &str =
    "H100 full-training value × the A100 ratio of LoRA to full training (no H100 LoRA run measured)";
const SRC_GEFORCE_FULL: &str = "torchtune Llama 3.1 8B full fine-tune on one RTX 4090";
const SRC_GEFORCE_LORA: &str = "torchtune Llama 3.1 8B LoRA on one RTX 4090";
const SRC_WORKSTATION: &str = "the RTX 4090 value (same dies; no workstation run measured)";
const SRC_OTHER: &str = "the lower datacenter value, the H100's (no AMD or Ascend run measured)";

/// The utilisation class of a GPU.
pub fn class_of(gpu: &Gpu) -> MfuClass {
    match (gpu.class, gpu.cuda_capability()) {
        (GpuClass::Geforce, _) => MfuClass::Geforce,
        (GpuClass::Workstation, _) => MfuClass::Workstation,
        (GpuClass::Datacenter, Some((major, _))) if major >= 9 => MfuClass::Hopper,
        (GpuClass::Datacenter, Some(_)) => MfuClass::Ampere,
        (GpuClass::Datacenter, None) => MfuClass::OtherDatacenter,
    }
}

/// The default utilisation for a method on a GPU.
pub fn default_mfu(gpu: &Gpu, method: Method) -> MfuDefault {
    let class = class_of(gpu);
    let (value, source) = cell(class, method);
    MfuDefault { value, class, method, source }
}

/// QLoRA computes as LoRA does; its dequantisation is timed on its own
/// (`DEQUANT_BYTES_PER_WEIGHT`), so it takes the LoRA value.
fn cell(class: MfuClass, method: Method) -> (f64, &'static str) {
    let adapters = method != Method::Full;
    match (class, adapters) {
        (MfuClass::Ampere, false) => (AMPERE_FULL, SRC_AMPERE_FULL),
        (MfuClass::Ampere, true) => (AMPERE_LORA, SRC_AMPERE_LORA),
        (MfuClass::Hopper, false) => (HOPPER_FULL, SRC_HOPPER_FULL),
        // A frozen base changes what a step spends besides the matrix
        // products (the optimizer over every weight) by the same share on
        // either generation.
        (MfuClass::Hopper, true) => (HOPPER_FULL * AMPERE_LORA / AMPERE_FULL, SRC_HOPPER_LORA),
        (MfuClass::OtherDatacenter, _) => (cell(MfuClass::Hopper, method).0, SRC_OTHER),
        (MfuClass::Geforce, false) => (GEFORCE_FULL, SRC_GEFORCE_FULL),
        (MfuClass::Geforce, true) => (GEFORCE_LORA, SRC_GEFORCE_LORA),
        (MfuClass::Workstation, _) => (cell(MfuClass::Geforce, method).0, SRC_WORKSTATION),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::find;

    fn on(id: &str, method: Method) -> MfuDefault {
        default_mfu(find(id).expect("catalog GPU"), method)
    }

    #[test]
    fn classes_follow_the_catalog() {
        assert_eq!(on("h100-sxm", Method::Full).class, MfuClass::Hopper);
        assert_eq!(on("b200", Method::Full).class, MfuClass::Hopper);
        assert_eq!(on("a100-80-sxm", Method::Full).class, MfuClass::Ampere);
        assert_eq!(on("rtx-4090", Method::Lora).class, MfuClass::Geforce);
        assert_eq!(on("rtx-6000-ada", Method::Lora).class, MfuClass::Workstation);
        assert_eq!(on("mi300x", Method::Full).class, MfuClass::OtherDatacenter);
    }

    #[test]
    fn unmeasured_cells_say_which_measured_value_they_take() {
        let h = on("h100-sxm", Method::Lora);
        assert!((h.value - HOPPER_FULL * AMPERE_LORA / AMPERE_FULL).abs() < 1e-12);
        assert!(h.source.contains("no H100 LoRA run"), "{}", h.source);
        assert_eq!(on("rtx-6000-ada", Method::Qlora).value, GEFORCE_LORA);
        assert_eq!(on("a100-80-sxm", Method::Qlora).value, AMPERE_LORA);
        assert_eq!(on("mi300x", Method::Full).value, HOPPER_FULL);
        for id in ["h100-sxm", "a100-80-sxm", "rtx-4090", "rtx-pro-6000", "ascend-910b"] {
            for m in [Method::Full, Method::Lora, Method::Qlora] {
                let d = on(id, m);
                assert!(d.value > 0.0 && d.value <= 1.0 && !d.source.is_empty(), "{id} {m:?}");
            }
        }
    }
}
