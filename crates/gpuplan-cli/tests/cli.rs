//! The built `gpuplan` binary: exit codes, JSON shape, one-line errors.

mod common;

use common::{gpuplan, json};

fn error_line(args: &[&str]) -> String {
    let out = gpuplan(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"));
    err
}

#[test]
fn estimate_json_has_memory_components() {
    let v = json(&["estimate", "--model", "llama-3.1-8b", "--engine", "transformers", "--format", "json"]);
    let m = &v["memory"];
    assert_eq!(m["components"]["weights"]["bytes"], 16_060_522_496u64);
    let total: u64 = ["weights", "gradients", "optimizer", "activations", "kv_cache", "workspace"]
        .iter()
        .map(|c| m["components"][c]["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(m["per_gpu_bytes"].as_u64().unwrap(), total);
    assert_eq!(v["plan"]["model"]["id"], "llama-3.1-8b");
}

#[test]
fn training_flags_change_the_estimate() {
    let run = |extra: &[&str]| {
        let mut args =
            vec!["estimate", "--task", "train", "--model", "qwen3-8b", "--seq", "2048", "--format", "json"];
        args.extend_from_slice(extra);
        json(&args)["memory"]["per_gpu_bytes"].as_u64().unwrap()
    };
    let full = run(&[]);
    let lora = run(&["--method", "lora", "--lora-rank", "16"]);
    let qlora = run(&["--method", "qlora"]);
    assert!(qlora < lora && lora < full);
    assert!(run(&["--gpus", "8", "--shard", "zero3"]) < full);
    assert!(run(&["--grad-ckpt", "full", "--chunked-ce"]) < full);
    assert!(run(&["--optimizer", "adamw-8bit", "--precision", "pure-bf16"]) < full);
    let loss = |method: &str, loss: &str| run(&["--method", method, "--grad-ckpt", "full", "--loss", loss]);
    assert!(loss("lora", "fused") < loss("lora", "chunked"));
    // A full fine-tune's gradients fill after the logits are freed: the loss leaves its peak alone.
    assert_eq!(loss("full", "fused"), loss("full", "chunked"));
    // A full fine-tune naming the format it trains in is the same plan.
    let pure = run(&["--precision", "pure-bf16"]);
    assert_eq!(run(&["--precision", "pure-bf16", "--weights", "bf16"]), pure);
}

#[test]
fn contradictory_training_flags_name_the_conflict() {
    let train = ["estimate", "--task", "train", "--model", "qwen3-8b"];
    let with = |extra: &[&str]| error_line(&[&train[..], extra].concat());
    let nf4 = with(&["--weights", "nf4"]);
    assert!(nf4.contains("training.base_weights") && nf4.contains("QLoRA"), "{nf4}");
    let accum = with(&["--opt-in-bwd", "--grad-accum", "4"]);
    assert!(accum.contains("training.grad_accum") && accum.contains("accumulat"), "{accum}");
    assert!(with(&["--method", "lora", "--lora-rank", "0"]).contains("training.lora_rank"));
}

#[test]
fn plan_file_is_read_and_flags_override_it() {
    let dir = std::env::temp_dir().join(format!("gpuplan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plan.json");
    std::fs::write(&path, r#"{"task":"infer","inference":{"context":4096,"engine":"transformers"}}"#)
        .unwrap();
    let p = path.to_str().unwrap();
    let at_4k = json(&["estimate", "--plan", p, "--format", "json"]);
    assert_eq!(at_4k["plan"]["inference"]["context"], 4096);
    let at_8k = json(&["estimate", "--plan", p, "--context", "8192", "--format", "json"]);
    let kv = |v: &serde_json::Value| v["memory"]["components"]["kv_cache"]["bytes"].as_u64().unwrap();
    assert_eq!(kv(&at_8k), 2 * kv(&at_4k));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn invalid_input_exits_2_with_one_line_naming_the_field() {
    assert!(error_line(&["estimate", "--context", "0"]).contains("inference.context: must be between 1 and"));
    assert!(error_line(&["estimate", "--context", "abc"]).contains("inference.context"));
    assert!(error_line(&["estimate", "--tp", "3"]).contains("parallel"));
    assert!(error_line(&["estimate", "--layers", "0"]).contains("model.arch.layers"));
    assert!(error_line(&["estimate", "--heads", "32", "--kv-heads", "64"]).contains("model.arch.kv_heads"));
    assert!(error_line(&["estimate", "--model", "nope"]).contains("model.id"));
    assert!(error_line(&["estimate", "--shard", "zero9"]).contains("accepted: none, zero1"));
    assert!(error_line(&["estimate", "--params-b", "NaN"]).contains("model"));
    assert!(error_line(&["estimate", "--bogus"]).contains("--bogus"));
    assert!(error_line(&["estimate", "--plan", "/nonexistent/plan.json"]).contains("--plan"));
    assert!(error_line(&["frobnicate"]).contains("unknown command"));
    let shape = ["--layers", "1000", "--heads", "10000", "--kv-heads", "10000", "--head-dim", "100000"];
    let mut huge = vec!["estimate", "--context", "10000000", "--concurrency", "100000"];
    huge.extend(shape);
    assert!(error_line(&huge).contains("inference.context: the estimate exceeds 1 EB"));
}

#[test]
fn models_lists_every_preset() {
    let out = gpuplan(&["models"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("llama-3.1-8b") && text.contains("deepseek-v3") && text.contains("kimi-k2"));
    let v = json(&["models", "--format", "json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), gpuplan_core::model::presets::all().len());
    assert!(rows.iter().all(|r| !r["source"].as_str().unwrap().is_empty()));
}

#[test]
fn text_output_shows_derivations_and_sources() {
    let out = gpuplan(&["estimate", "--model", "deepseek-v3", "--gpus", "8", "--tp", "8"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("peak per GPU"));
    assert!(text.contains("c_kv 512 + d_rope 64"), "{text}");
    assert!(text.contains("source:"));
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // `gpuplan fit --format json | head -c 100`: the reader closes the pipe
    // long before the report (hundreds of kilobytes) is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpuplan"))
        .args(["fit", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}
