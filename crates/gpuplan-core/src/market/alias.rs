//! Accelerator names as price sheets spell them ("A100-80GB", "Tesla T4",
//! "RTX PRO 6000") mapped to catalog GPU ids. A name maps only where the
//! card is the catalog's card: SkyPilot's "V100" is the 16 GB part and the
//! catalog holds the 32 GB one, so it stays unmapped rather than priced as
//! the wrong card.

use crate::hardware;

/// Squashed names (upper case, letters and digits only, vendor words
/// dropped) to catalog ids, beyond the catalog ids themselves.
const ALIASES: &[(&str, &str)] = &[
    // SkyPilot: "A100" is the 40 GB SXM4 part (p4d, a2-highgpu).
    ("A100", "a100-40-sxm"),
    ("A10040GB", "a100-40-sxm"),
    ("A10080GB", "a100-80-sxm"),
    ("H100", "h100-sxm"),
    ("H100SXM", "h100-sxm"),
    ("H100SXM5", "h100-sxm"),
    ("H10080GB", "h100-sxm"),
    // GCP's a3-mega: H100 SXM with more host networking.
    ("H100MEGA", "h100-sxm"),
    ("H100PCIE", "h100-pcie"),
    ("H100NVL", "h100-nvl"),
    ("H200", "h200-sxm"),
    ("H200SXM", "h200-sxm"),
    ("H200NVL", "h200-nvl"),
    ("V10032GB", "v100-sxm2"),
    ("RTX3090", "rtx-3090"),
    ("RTX4080", "rtx-4080"),
    ("RTX4090", "rtx-4090"),
    ("RTX5090", "rtx-5090"),
    ("RTX6000ADA", "rtx-6000-ada"),
    ("RTXPRO6000", "rtx-pro-6000"),
    ("RTXPRO6000BLACKWELL", "rtx-pro-6000"),
    ("ASCEND910B", "ascend-910b"),
];

/// Words that name a vendor or brand, not the card.
const BRANDS: &[&str] = &["NVIDIA", "TESLA", "GEFORCE", "AMD", "INSTINCT", "HUAWEI"];

fn squash(name: &str) -> String {
    let mut s: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    s.make_ascii_uppercase();
    for brand in BRANDS {
        if let Some(rest) = s.strip_prefix(brand) {
            s = rest.to_string();
        }
    }
    s
}

/// The catalog id for an accelerator name on an instance; None when the
/// name names no catalog card. An instance name saying PCIe picks the PCIe
/// part of a card the catalog has in both forms; RunPod names its SXM pods
/// "H100-SXM", so its plain "H100" is the PCIe card (cloud-offers.md).
pub fn catalog_id(accelerator: &str, instance: &str, provider: &str) -> Option<&'static str> {
    card(accelerator).map(|id| part(id, instance, provider))
}

/// The catalog card an accelerator name names, whatever the instance.
pub(super) fn card(accelerator: &str) -> Option<&'static str> {
    let key = squash(accelerator);
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map(|(_, id)| *id)
        .or_else(|| hardware::catalog().iter().find(|g| squash(&g.id) == key).map(|g| g.id.as_ref()))
        .and_then(|id| hardware::find(id).map(|g| g.id.as_ref()))
}

/// The part of card `id` an instance is: its PCIe form where the instance says so.
pub(super) fn part(id: &'static str, instance: &str, provider: &str) -> &'static str {
    let instance = instance.to_ascii_lowercase();
    let pcie = instance.contains("pcie")
        || (provider.eq_ignore_ascii_case("runpod") && id == "h100-sxm" && !instance.contains("sxm"));
    match (pcie, id) {
        (true, "h100-sxm") => "h100-pcie",
        (true, "a100-40-sxm") => "a100-40-pcie",
        (true, "a100-80-sxm") => "a100-80-pcie",
        _ => id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_map_to_catalog_cards() {
        assert_eq!(catalog_id("A100-80GB", "a2-ultragpu-1g", "gcp"), Some("a100-80-sxm"));
        assert_eq!(catalog_id("A100", "p4d.24xlarge", "aws"), Some("a100-40-sxm"));
        assert_eq!(catalog_id("Tesla T4", "GN7.2XLARGE32", "tencent"), Some("t4"));
        assert_eq!(catalog_id("RTX PRO 6000", "", ""), Some("rtx-pro-6000"));
        assert_eq!(catalog_id("h100-sxm", "", ""), Some("h100-sxm"));
        assert_eq!(catalog_id("MI355X", "1x-MI355X", "daytona"), Some("mi355x"));
    }

    #[test]
    fn instance_names_pick_pcie_parts() {
        assert_eq!(catalog_id("H100", "gpu_1x_h100_pcie", "lambda"), Some("h100-pcie"));
        assert_eq!(catalog_id("H100", "gpu_1x_h100_sxm5", "lambda"), Some("h100-sxm"));
        assert_eq!(catalog_id("H100", "3x_H100_SECURE", "runpod"), Some("h100-pcie"));
        assert_eq!(catalog_id("H100", "8x_H100-SXM_SECURE", "runpod"), Some("h100-sxm"));
        assert_eq!(catalog_id("A100-80GB", "1x-A100_PCIE-32-65536", "vast"), Some("a100-80-pcie"));
    }

    #[test]
    fn other_cards_stay_unmapped() {
        for name in ["V100", "A40", "L40", "GH200", "RTXA6000", "Gaudi2", "", "<script>"] {
            assert_eq!(catalog_id(name, "", ""), None, "{name}");
        }
    }
}
