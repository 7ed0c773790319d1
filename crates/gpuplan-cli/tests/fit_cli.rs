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
    let speed = &h100["speed"]["inference"]["bound"]["decode_tps_per_sequence"];
    assert_eq!(speed["basis"], "upper_bound");
    let expected = &h100["speed"]["inference"]["expected"];
    for k in ["ttft_ms", "tpot_ms", "decode_tps_per_sequence", "decode_tps_total", "requests_per_s"] {
        let f = &expected[k];
        assert_eq!(f["basis"], "calibrated", "{k}");
        let (lo, v, hi) =
            (f["low"].as_f64().unwrap(), f["value"].as_f64().unwrap(), f["high"].as_f64().unwrap());
        assert!(lo < v && v < hi && !f["derivation"].as_str().unwrap().is_empty(), "{k}: {f}");
    }
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
        one_line_error(&args, field);
    }
}

#[test]
fn serving_targets_size_the_count_and_name_what_binds() {
    let base = ["fit", "--model", "qwen2.5-7b", "--engine", "vllm", "--qps", "10", "--format", "json"];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        json(&args)
    };
    let v = with(&["--prompt-tokens", "512", "--output-tokens", "256", "--tpot-ms", "30"]);
    let target = &row(&v, "rtx-4090")["speed"]["gpus_for_target"];
    assert_eq!(target["binds"], "tpot", "{target}");
    assert!(target["gpus"].as_u64().unwrap() >= 2, "{target}");
    let mine = with(&["--output-tokens", "256", "--measured-tok-s", "rtx-4090=1280"]);
    let measured = &row(&mine, "rtx-4090")["speed"]["gpus_for_target"];
    // 1280 token/s ÷ 256 tokens = 5 req/s per card: 10 QPS takes 2.
    assert_eq!((measured["gpus"].as_u64(), measured["basis"].as_str()), (Some(2), Some("measured")));
    for engine in ["sglang", "trtllm", "llama_cpp", "transformers"] {
        assert!(with(&["--engine", engine])["fit"]["rows"].as_array().is_some(), "{engine}");
    }
}

#[test]
fn bad_serving_input_is_one_line_naming_the_field() {
    for (args, field) in [
        (vec!["fit", "--qps", "0"], "inference.target_qps"),
        (vec!["fit", "--qps", "-3"], "inference.target_qps"),
        (vec!["fit", "--output-tokens", "0"], "inference.output_tokens"),
        (vec!["fit", "--qps", "5", "--measured-tok-s", "h100-sxm=0"], "inference.measured"),
        (vec!["fit", "--measured-tok-s", "nope=5"], "inference.measured"),
        (vec!["fit", "--qps", "5", "--prompt-tokens", "100000", "--ttft-ms", "1"], "inference.ttft_ms"),
    ] {
        one_line_error(&args, field);
    }
    let impossible = ["fit", "--qps", "5", "--prompt-tokens", "100000", "--ttft-ms", "1"];
    let err = one_line_error(&impossible, "inference.ttft_ms");
    assert!(err.contains("cannot be below") && err.contains("peak dense TFLOPS"), "{err}");
}

/// A run that fails with exit status 2 and one line naming `field`: the line.
fn one_line_error(args: &[&str], field: &str) -> String {
    let out = gpuplan(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(field), "{err}");
    err
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
