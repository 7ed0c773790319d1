//! The GPU catalog: one row per part, each with its source and date, and the
//! fields the fit rules and speed model read.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit};

type Text = Cow<'static, str>;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuClass {
    #[default]
    Datacenter,
    Workstation,
    Geforce,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stack {
    #[default]
    Cuda,
    Rocm,
    Cann,
}

/// GPU-to-GPU link class, for the NVLink flag and the all-reduce expectation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// NVLink / Infinity Fabric / HCCS switch fabric across the server.
    Fabric,
    /// A bridge joining pairs (or small groups) of PCIe cards.
    Bridge,
    /// Only PCIe.
    #[default]
    Pcie,
}

/// One GPU part. Optional numbers are unknown or unverified in public sources.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Gpu {
    pub id: Text,
    pub name: Text,
    pub vendor: Text,
    pub class: GpuClass,
    pub memory_gb: f64,
    pub memory_type: Text,
    pub bandwidth_tbs: Option<f64>,
    pub bf16_tflops: Option<f64>,
    pub fp8_tflops: Option<f64>,
    pub fp4_tflops: Option<f64>,
    pub tdp_w: Option<f64>,
    pub form_factor: Text,
    pub link: LinkKind,
    pub link_name: Text,
    pub link_gbs: Option<f64>,
    pub pcie_gen: Option<u8>,
    pub ecc: bool,
    pub stack: Stack,
    /// CUDA compute capability such as "9.0"; empty for non-CUDA parts.
    pub compute_capability: Text,
    pub source: Text,
    pub date: Text,
    /// Conflicts or unverified values, shown as such.
    pub notes: Text,
    pub unverified: bool,
}

impl Default for Gpu {
    fn default() -> Self {
        Self {
            id: Cow::Borrowed("custom"),
            name: Cow::Borrowed("Custom GPU"),
            vendor: Cow::Borrowed(""),
            class: GpuClass::Datacenter,
            memory_gb: 80.0,
            memory_type: Cow::Borrowed(""),
            bandwidth_tbs: Some(2.0),
            bf16_tflops: Some(300.0),
            fp8_tflops: None,
            fp4_tflops: None,
            tdp_w: None,
            form_factor: Cow::Borrowed(""),
            link: LinkKind::Pcie,
            link_name: Cow::Borrowed("PCIe"),
            link_gbs: None,
            pcie_gen: Some(4),
            ecc: true,
            stack: Stack::Cuda,
            compute_capability: Cow::Borrowed(""),
            source: Cow::Borrowed("user"),
            date: Cow::Borrowed(""),
            notes: Cow::Borrowed(""),
            unverified: true,
        }
    }
}

impl Gpu {
    pub(crate) fn validate(&self, prefix: &str, errs: &mut Vec<FieldError>) {
        Limit::real(0.1, 100_000.0).check_f64(&format!("{prefix}.memory_gb"), self.memory_gb, errs);
        let opt = |name: &str, v: Option<f64>, max: f64, errs: &mut Vec<FieldError>| {
            if let Some(v) = v {
                Limit::real(0.0, max).check_f64(&format!("{prefix}.{name}"), v, errs);
            }
        };
        opt("bandwidth_tbs", self.bandwidth_tbs, 1000.0, errs);
        opt("bf16_tflops", self.bf16_tflops, 1.0e6, errs);
        opt("fp8_tflops", self.fp8_tflops, 1.0e6, errs);
        opt("fp4_tflops", self.fp4_tflops, 1.0e6, errs);
        opt("tdp_w", self.tdp_w, 100_000.0, errs);
        opt("link_gbs", self.link_gbs, 1.0e6, errs);
    }
}
