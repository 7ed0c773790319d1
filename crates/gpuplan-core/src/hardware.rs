//! The GPU catalog: one row per part, each with its source and date, and the
//! fields the fit rules and speed model read. The rows live in `gpus.rs`;
//! this module holds the type, the lookup and the capability facts derived
//! from architecture (which number formats the tensor cores run).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit};
use crate::lang::Lang;

mod gpus;
pub mod kernels;

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
    /// The top of the TDP range; with `tdp_min_w`, the card's power is
    /// configurable between the two (the vendor's "350-400 W (configurable)").
    pub tdp_w: Option<f64>,
    pub tdp_min_w: Option<f64>,
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
    /// Architecture name ("Hopper", "CDNA3"): decides FP8/FP4 support where
    /// there is no CUDA compute capability.
    pub arch: Text,
    /// GPUs that share the fast link: a server's NVSwitch or Infinity Fabric
    /// domain (8), a rack (72), a bridged pair (2), or 1 with PCIe only.
    pub link_domain: u32,
    /// The most MIG instances the part splits into (NVIDIA MIG User Guide,
    /// "Supported GPUs": 7 on A100, H100, H200, H20, B200 and GB200, 4 on
    /// RTX PRO 6000 Blackwell); 0 where the guide does not list the part.
    pub mig: u8,
    /// `notes` in Chinese.
    pub notes_zh: Text,
    /// Names of the fields whose values are disputed or unverified.
    pub unverified_fields: Cow<'static, [Text]>,
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
            tdp_min_w: None,
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
            arch: Cow::Borrowed(""),
            link_domain: 1,
            mig: 0,
            notes_zh: Cow::Borrowed(""),
            unverified_fields: Cow::Borrowed(&[]),
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
        opt("tdp_min_w", self.tdp_min_w, self.tdp_w.unwrap_or(100_000.0), errs);
        opt("link_gbs", self.link_gbs, 1.0e6, errs);
        Limit::int(1, 100_000).check_u64(&format!("{prefix}.link_domain"), self.link_domain.into(), errs);
    }

    /// The row's note in `lang`: the catalog keeps each row's text beside its
    /// source, in both languages.
    pub fn notes_in(&self, lang: Lang) -> &str {
        match lang.written() {
            Lang::Zh => &self.notes_zh,
            Lang::En => &self.notes,
        }
    }

    /// Whether the tensor cores run this number format natively.
    ///
    /// NVIDIA by compute capability: BF16 from Ampere (8.0; T4 7.5 and V100 7.0
    /// have FP16 only), FP8 from Ada/Hopper (8.9), FP4 on Blackwell (10.x, 12.x).
    /// AMD by architecture: CDNA3 (MI300X, MI325X) adds FP8, CDNA4 (MI355X) FP4
    /// (seed 004; reference gpus.csv). Anything else is unknown, not assumed.
    pub fn supports(&self, format: HwFormat) -> Support {
        match self.stack {
            Stack::Cuda => match compute_capability(&self.compute_capability) {
                Some(cc) => Support::from(match format {
                    HwFormat::Bf16 => cc >= (8, 0),
                    HwFormat::Fp8 => cc >= (8, 9),
                    HwFormat::Fp4 => matches!(cc.0, 10 | 12),
                }),
                None => Support::Unknown,
            },
            Stack::Rocm => match (self.arch.as_ref(), format) {
                ("CDNA3", HwFormat::Fp4) => Support::No,
                ("CDNA3", _) | ("CDNA4", _) => Support::Yes,
                _ => Support::Unknown,
            },
            Stack::Cann => Support::Unknown,
        }
    }

    /// The CUDA compute capability as (major, minor), when given.
    pub fn cuda_capability(&self) -> Option<(u32, u32)> {
        match self.stack {
            Stack::Cuda => compute_capability(&self.compute_capability),
            Stack::Rocm | Stack::Cann => None,
        }
    }
}

/// Number formats a plan can depend on in hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HwFormat {
    Bf16,
    Fp8,
    Fp4,
}

/// Hardware support for a format; unknown where the sources do not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Support {
    Yes,
    No,
    Unknown,
}

impl From<bool> for Support {
    fn from(yes: bool) -> Self {
        if yes {
            Support::Yes
        } else {
            Support::No
        }
    }
}

/// "9.0" -> (9, 0); anything else -> None.
fn compute_capability(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// Every catalog GPU, in catalog order (NVIDIA datacenter, workstation and
/// GeForce, then AMD and Huawei).
pub fn catalog() -> &'static [Gpu] {
    gpus::GPUS
}

/// The catalog GPU with this id.
pub fn find(id: &str) -> Option<&'static Gpu> {
    catalog().iter().find(|g| g.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(id: &str) -> &'static Gpu {
        find(id).expect("catalog id")
    }

    #[test]
    fn find_knows_catalog_ids_and_nothing_else() {
        assert_eq!(gpu("h100-sxm").name, "H100 SXM");
        assert!(find("h100").is_none());
        let mut ids: Vec<&str> = catalog().iter().map(|g| g.id.as_ref()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), catalog().len(), "ids are unique");
    }

    #[test]
    fn fp8_follows_compute_capability_and_amd_architecture() {
        for (id, want) in [
            ("h100-sxm", Support::Yes),
            ("l40s", Support::Yes),
            ("rtx-4090", Support::Yes),
            ("a100-80-sxm", Support::No),
            ("a10", Support::No),
            ("t4", Support::No),
            ("mi300x", Support::Yes),
            ("mi355x", Support::Yes),
            ("ascend-910b", Support::Unknown),
        ] {
            assert_eq!(gpu(id).supports(HwFormat::Fp8), want, "{id}");
        }
    }

    #[test]
    fn fp4_only_on_blackwell_and_mi355x() {
        for (id, want) in [
            ("b200", Support::Yes),
            ("gb300", Support::Yes),
            ("rtx-5090", Support::Yes),
            ("rtx-pro-6000", Support::Yes),
            ("h200-sxm", Support::No),
            ("rtx-4090", Support::No),
            ("mi325x", Support::No),
            ("mi355x", Support::Yes),
        ] {
            assert_eq!(gpu(id).supports(HwFormat::Fp4), want, "{id}");
        }
    }

    #[test]
    fn bf16_absent_before_ampere() {
        assert_eq!(gpu("t4").supports(HwFormat::Bf16), Support::No);
        assert_eq!(gpu("p100").supports(HwFormat::Bf16), Support::No);
        assert_eq!(gpu("v100-sxm2").supports(HwFormat::Bf16), Support::No);
        assert_eq!(gpu("a10g").supports(HwFormat::Bf16), Support::Yes);
        assert_eq!(gpu("rtx-3090").supports(HwFormat::Bf16), Support::Yes);
    }

    #[test]
    fn custom_gpu_capability_comes_from_its_fields() {
        let mut custom = Gpu::default();
        assert_eq!(custom.supports(HwFormat::Fp8), Support::Unknown);
        custom.compute_capability = "8.9".into();
        assert_eq!(custom.supports(HwFormat::Fp8), Support::Yes);
        custom.compute_capability = "nine".into();
        assert_eq!(custom.cuda_capability(), None);
    }

    #[test]
    fn custom_gpu_deserialises_from_a_partial_object() {
        let g: Gpu = serde_json::from_str(r#"{"id":"my-card","memory_gb":48,"unverified_fields":["tdp_w"]}"#)
            .expect("json");
        assert_eq!(g.id, "my-card");
        assert_eq!(g.memory_gb, 48.0);
        assert_eq!(g.unverified_fields.as_ref(), ["tdp_w"]);
        assert_eq!(g.link_domain, 1);
    }
    #[test]
    #[cfg(not(any(feature = "zh", feature = "en")))]
    fn rtx_pro_6000_note_agrees_with_the_catalog_bandwidths() {
        let (pro, h100) = (gpu("rtx-pro-6000"), gpu("h100-sxm"));
        let share = pro.bandwidth_tbs.unwrap() / h100.bandwidth_tbs.unwrap() * 100.0;
        assert!(share > 50.0, "seed 004's 'under half' is wrong by these figures");
        assert!(pro.notes.contains(&format!("= {share:.0} % of an H100 SXM")), "{}", pro.notes);
        assert!(pro.notes_zh.contains(&format!("H100 SXM 的 {share:.0} %")), "{}", pro.notes_zh);
    }

    /// Dense rates from the vendors' datasheets: half the sparse headline.
    #[test]
    fn datasheet_cards_carry_dense_bf16() {
        for (id, bf16, fp8) in
            [("rtx-pro-6000", 503.8, 1007.6), ("h200-nvl", 835.5, 1670.5), ("rtx-6000-ada", 364.2, 728.5)]
        {
            let g = gpu(id);
            assert_eq!((g.bf16_tflops, g.fp8_tflops), (Some(bf16), Some(fp8)), "{id}");
            assert!(!g.unverified_fields.iter().any(|f| f.contains("tflops")), "{id}");
        }
    }

    #[test]
    fn small_job_cards_of_seed_002_are_in_the_catalog() {
        let p100 = gpu("p100");
        assert_eq!((p100.memory_gb, p100.cuda_capability()), (16.0, Some((6, 0))));
        let rtx = gpu("rtx-4070");
        assert_eq!((rtx.memory_gb, rtx.class), (12.0, GpuClass::Geforce));
    }

    #[test]
    fn a_configurable_tdp_keeps_its_range() {
        let nvl = gpu("h100-nvl");
        assert_eq!((nvl.tdp_min_w, nvl.tdp_w), (Some(350.0), Some(400.0)));
        let mut bad = Gpu { tdp_min_w: Some(500.0), ..nvl.clone() };
        let mut errs = Vec::new();
        bad.validate("hardware.custom", &mut errs);
        assert!(errs.iter().any(|e| e.field == "hardware.custom.tdp_min_w"), "{errs:?}");
        bad.tdp_min_w = Some(350.0);
        errs.clear();
        bad.validate("hardware.custom", &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
    }
}
