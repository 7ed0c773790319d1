//! `gpuplan fit` and `gpuplan gpus` through the built binary.

mod common;

use common::{gpuplan, json, stdout};

fn row<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["fit"]["rows"].as_array().unwrap().iter().find(|r| r["gpu_id"] == id).unwrap()
}

#[test]
fn fit_json_lists_every_gpu_with_count_use_and_flags() {
    let v = json(&["fit", "--model", "llama-3.1-70b", "--weights", "bf16", "--format", "json"]);
    assert_eq!(v["fit"]["rows"].as_array().unwrap().len(), gpuplan_core::hardware::catalog().len());
    let h100 = row(&v, "h100-sxm");
    assert!(h100["best"]["gpus"].as_u64().unwrap() >= 2);
    assert!(h100["best"]["per_gpu_bytes"].as_u64().unwrap() <= h100["usable"]["bytes"].as_u64().unwrap());
    assert!(h100["lower_bound"]["gpus"].as_u64().unwrap() >= 2);
    assert_eq!(h100["chosen"], true);
    let speed = &h100["speed"]["inference"]["decode_tps_per_sequence"];
    assert_eq!(speed["basis"], "upper_bound");
    let l4 = row(&v, "l4");
    let flags: Vec<&str> =
        l4["flags"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    // PCIe-only L4: tensor parallel, when chosen, comes with the NVLink flag.
    assert_eq!(l4["best"]["strategy"] == "tensor_parallel", flags.contains(&"needs_fast_link"), "{flags:?}");
    assert_eq!(v["plan"]["model"]["id"], "llama-3.1-70b");
}

#[test]
fn fit_flags_set_headroom_servers_and_the_licence_rule() {
    let base = ["fit", "--model", "llama-3.1-8b", "--format", "json"];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        json(&args)
    };
    let v = with(&["--headroom", "25"]);
    assert_eq!(row(&v, "h100-sxm")["usable"]["bytes"], 60_000_000_000u64);
    let licence = |v: &serde_json::Value| {
        row(v, "rtx-4090")["flags"].as_array().unwrap().iter().any(|f| f["id"] == "geforce_licence")
    };
    assert!(licence(&with(&[])));
    assert!(!licence(&with(&["--own-hardware"])));
    let t = with(&["--task", "train", "--tokens", "1e9", "--mfu", "0.5", "--gpus-per-node", "4"]);
    assert!(row(&t, "a100-80-sxm")["speed"]["training"]["hours"]["value"].as_f64().unwrap() > 0.0);
    assert_eq!(t["plan"]["hardware"]["gpus_per_node"], 4);
}

#[test]
fn fit_accepts_a_custom_gpu_file() {
    let dir = std::env::temp_dir().join(format!("gpuplan-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gpu.json");
    std::fs::write(&path, r#"{"id":"lab-card","name":"Lab card","memory_gb":40,"bandwidth_tbs":1.5}"#)
        .unwrap();
    let v = json(&["fit", "--custom-gpu", path.to_str().unwrap(), "--format", "json"]);
    let mine = row(&v, "lab-card");
    assert_eq!((mine["custom"].as_bool(), mine["chosen"].as_bool()), (Some(true), Some(true)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fit_text_shows_counts_flags_and_bounds_in_both_languages() {
    let en = stdout(&["fit", "--model", "llama-3.1-70b", "--lang", "en"]);
    assert!(en.contains("lower bound = ⌈peak ÷ usable⌉"), "{en}");
    assert!(en.contains("» H100 SXM"));
    assert!(en.contains("token/s/seq") && en.contains('≤'));
    let zh = stdout(&["fit", "--model", "llama-3.1-70b", "--lang", "zh"]);
    assert!(zh.contains("下限") && zh.contains("张量并行"), "{zh}");
}

#[test]
fn fit_errors_are_one_line_naming_the_field() {
    for (args, field) in [
        (vec!["fit", "--headroom", "95"], "hardware.headroom_pct"),
        (vec!["fit", "--mfu", "x"], "training.mfu"),
        (vec!["fit", "--gpu", "h999"], "hardware.gpu"),
    ] {
        let out = gpuplan(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(field), "{err}");
    }
}

#[test]
fn gpus_lists_the_catalog_with_sources() {
    let v = json(&["gpus", "--format", "json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), gpuplan_core::hardware::catalog().len());
    let h20 = rows.iter().find(|g| g["id"] == "h20").unwrap();
    assert_eq!(h20["unverified"], true);
    assert!(h20["source"].as_str().unwrap().contains("Tom's Hardware"));
    let text = stdout(&["gpus"]);
    assert!(text.contains("h100-sxm") && text.contains("dense tensor rates") && text.contains("Sources"));
    assert!(stdout(&["gpus", "--lang", "zh"]).contains("稠密张量算力"));
}
