//! `gpuplan checklist`: Markdown with the plan's numbers, ticks from links and flags, one-line errors.

mod common;

use common::{gpuplan, stdout};

#[test]
fn prints_the_plans_checklist_as_markdown() {
    let md =
        stdout(&["checklist", "--gpus", "4", "--tp", "4", "--cuda", "12.8", "--tick", "workload,acc-list"]);
    assert!(md.starts_with("# Checklist: Llama 3.1 8B on 4 × H100 SXM\n"), "{md}");
    assert!(md.contains("- [x] Write down the workload"), "{md}");
    assert!(md.contains("- [x] Count the GPUs"), "{md}");
    assert!(md.contains("  - Command: `nvidia-smi topo -m`"), "{md}");
    assert!(md.contains("CUDA 12.8 needs driver ≥ 570.26"), "{md}");
    assert!(md.contains("-g 4`"), "{md}");
}

#[test]
fn geforce_licence_only_when_rented() {
    let rented = stdout(&["checklist", "--gpu", "rtx-4090"]);
    assert!(rented.contains("§2.7"), "{rented}");
    let owned = stdout(&["checklist", "--gpu", "rtx-4090", "--own-hardware"]);
    assert!(!owned.contains("§2.7"), "{owned}");
}

#[test]
fn ticks_from_a_share_link_and_chinese_output() {
    let md = stdout(&["checklist", "--url", "?tick=memory", "--lang", "zh"]);
    assert!(md.contains("- [x] 每卡显存"), "{md}");
}

#[test]
fn json_has_sections_and_item_ids() {
    let out = gpuplan(&["checklist", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sections"][2]["id"], "acceptance");
    assert_eq!(v["sections"][2]["items"][0]["command"], "nvidia-smi -L");
}

#[test]
fn a_bad_cuda_version_is_one_line() {
    let out = gpuplan(&["checklist", "--cuda", "twelve"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim(), "error: --cuda: expected a version such as 12.8, got \"twelve\"");
}

/// The seed items (docs/seeds.md) as a reader of the CLI meets them.
#[test]
fn seed_items_show_in_the_cli() {
    let gpus = stdout(&["gpus"]);
    assert!(
        gpus.contains("350-400") && gpus.contains("P100 PCIe 16GB") && gpus.contains("GeForce RTX 4070"),
        "{gpus}"
    );
    assert!(gpus.contains("= 53 % of an H100 SXM"), "{gpus}");
    let md = stdout(&["checklist", "--gpu", "rtx-4090", "--task", "train", "--method", "lora"]);
    assert!(md.contains("Transfer times: at 10 Gbps line rate"), "{md}");
    assert!(md.contains("error 43"), "{md}");
    let est = stdout(&["estimate"]);
    assert!(est.contains("A common rule of thumb, memory ≈ weights × 1.2-1.5"), "{est}");
    let help = stdout(&["--help"]);
    assert!(help.contains("the common 30-50 % rule is over weights alone"), "{help}");
}
