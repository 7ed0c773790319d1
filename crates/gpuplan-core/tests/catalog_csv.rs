//! The catalog must carry every row and field of the reference table
//! `shared/reference/gpus.csv`, vendored here as `tests/data/gpus.csv` and
//! extended since by rows and figures whose sources each row names.

use gpuplan_core::hardware::{catalog, find, Gpu, GpuClass, LinkKind, Stack};
use gpuplan_core::lang::{Lang, ONLY};

const CSV: &str = include_str!("data/gpus.csv");

fn opt_num(text: &str) -> Option<f64> {
    (!text.is_empty()).then(|| text.parse().expect("number"))
}

fn check_row(cols: &[&str], g: &Gpu) {
    let id = cols[0];
    assert_eq!(g.name, cols[1], "{id} name");
    assert_eq!(g.vendor, cols[2], "{id} vendor");
    let class = match cols[3] {
        "datacenter" => GpuClass::Datacenter,
        "workstation" => GpuClass::Workstation,
        "geforce" => GpuClass::Geforce,
        other => panic!("{id}: class {other}"),
    };
    assert_eq!(g.class, class, "{id} class");
    assert_eq!(Some(g.memory_gb), opt_num(cols[4]), "{id} memory_gb");
    assert_eq!(g.memory_type, cols[5], "{id} memory_type");
    assert_eq!(g.bandwidth_tbs, opt_num(cols[6]), "{id} bandwidth");
    assert_eq!(g.bf16_tflops, opt_num(cols[7]), "{id} bf16");
    assert_eq!(g.fp8_tflops, opt_num(cols[8]), "{id} fp8");
    assert_eq!(g.fp4_tflops, opt_num(cols[9]), "{id} fp4");
    assert_eq!(g.tdp_w, opt_num(cols[10]), "{id} tdp");
    assert_eq!(g.form_factor, cols[11], "{id} form factor");
    assert_eq!(g.link_name, cols[12], "{id} link");
    assert_eq!(g.link_gbs, opt_num(cols[13]), "{id} link_gbs");
    assert_eq!(g.pcie_gen.map(f64::from), opt_num(cols[14]), "{id} pcie_gen");
    assert_eq!(g.ecc, cols[15] == "yes", "{id} ecc");
    assert_eq!(g.compute_capability, cols[16], "{id} compute capability");
    assert_eq!(g.source, cols[17], "{id} source");
    // The notes are English text: a Chinese-only build drops them.
    if Lang::En.carried() {
        assert_eq!(g.notes, cols[18], "{id} notes");
    }
}

#[test]
fn every_csv_row_is_in_the_catalog_with_the_same_values() {
    let mut lines = CSV.lines();
    let header = lines.next().expect("header");
    assert!(header.starts_with("id,name,vendor,class,memory_gb"), "{header}");
    let mut rows = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(cols.len(), 19, "{line}");
        let g = find(cols[0]).unwrap_or_else(|| panic!("{} missing from the catalog", cols[0]));
        check_row(&cols, g);
        rows += 1;
    }
    assert_eq!(rows, catalog().len(), "the catalog has exactly the CSV's rows");
}

#[test]
fn derived_fields_agree_with_the_csv_text() {
    for g in catalog() {
        let stack = match g.vendor.as_ref() {
            "AMD" => Stack::Rocm,
            "Huawei" => Stack::Cann,
            _ => Stack::Cuda,
        };
        assert_eq!(g.stack, stack, "{}", g.id);
        let link = g.link_name.to_ascii_lowercase();
        let kind = if link == "none" {
            LinkKind::Pcie
        } else if link.contains("bridge") {
            LinkKind::Bridge
        } else {
            LinkKind::Fabric
        };
        assert_eq!(g.link, kind, "{}", g.id);
        assert_eq!(g.link == LinkKind::Pcie, g.link_domain == 1, "{}", g.id);
        assert_eq!(g.unverified, !g.unverified_fields.is_empty(), "{}", g.id);
        let flagged_in_text = g.source.contains("secondary") || g.notes.contains("unverified");
        assert!(!flagged_in_text || g.unverified, "{} says unverified in its text", g.id);
        if ONLY.is_none() {
            assert_eq!(g.notes.is_empty(), g.notes_zh.is_empty(), "{} notes in both languages", g.id);
        }
        assert_eq!(g.date, "2026-11", "{}", g.id);
    }
}

#[test]
fn catalog_holds_the_parts_the_issue_names() {
    for id in [
        "h100-sxm",
        "h100-pcie",
        "h100-nvl",
        "h200-sxm",
        "h200-nvl",
        "h20",
        "b200",
        "b300",
        "gb200",
        "gb300",
        "a100-40-sxm",
        "a100-80-sxm",
        "a100-40-pcie",
        "a100-80-pcie",
        "l40s",
        "l4",
        "a10",
        "a10g",
        "t4",
        "v100-sxm2",
        "rtx-3090",
        "rtx-4080",
        "rtx-4090",
        "rtx-5090",
        "rtx-6000-ada",
        "rtx-pro-6000",
        "mi300x",
        "mi325x",
        "mi355x",
        "ascend-910b",
    ] {
        assert!(find(id).is_some(), "{id}");
    }
}
