//! `--measured FILE`: a real benchmark output set beside the plan, the plan
//! made again from it; bad files end with one line and status 2.

mod common;

use common::{gpuplan, json, stdout};

fn fixture(name: &str) -> String {
    format!("{}/../gpuplan-core/tests/fixtures/measured/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("gpuplan-measured-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_vllm_summary_replans_the_gpus_and_the_bill() {
    let plan = temp("plan.json", r#"{"inference":{"target_qps":20,"concurrency":32}}"#);
    let v = json(&[
        "cost",
        "--plan",
        &plan,
        "--no-market",
        "--format",
        "json",
        "--measured",
        &fixture("vllm_summary.txt"),
    ]);
    let r = &v["readback"];
    assert_eq!(r["tool"], "vllm");
    assert_eq!(r["rows"][0]["metric"], "output_tok_s");
    assert_eq!(r["after"]["gpus"], 1, "{r}");
    assert_eq!(v["selection"]["gpus"], 1, "the bill is for the plan made again");
    let text = stdout(&["cost", "--plan", &plan, "--no-market", "--measured", &fixture("vllm_summary.txt")]);
    assert!(text.contains("Measured vs expected (vllm bench serve)"), "{text}");
    assert!(text.contains("Planned again from the measurement: GPU"), "{text}");
}

#[test]
fn every_tool_reads_on_the_matching_plan() {
    let llama = temp(
        "llama.json",
        r#"{"inference":{"engine":"llama_cpp","weights":"gguf_q4_k_m"},"hardware":{"gpu":"rtx-4090"}}"#,
    );
    for f in ["llama_bench.md", "llama_bench.csv", "llama_bench.json"] {
        let out = stdout(&["estimate", "--plan", &llama, "--measured", &fixture(f)]);
        assert!(out.contains("one sequence tok/s"), "{f}: {out}");
    }
    for f in ["vllm_result.json", "sglang_summary.txt"] {
        let out = stdout(&["checklist", "--measured", &fixture(f)]);
        assert!(out.contains("Measured vs expected"), "{f}: {out}");
    }
    let lora = temp("lora.json", r#"{"task":"train","training":{"method":"lora"}}"#);
    for f in ["torchtune.log", "hf_trainer.log"] {
        let out = stdout(&["cost", "--plan", &lora, "--no-market", "--measured", &fixture(f)]);
        assert!(out.contains("tok/s per GPU") && out.contains("run hours"), "{f}: {out}");
    }
}

#[test]
fn bad_files_end_with_one_line_and_status_2() {
    let huge = temp("huge.txt", &"x".repeat(10_000_000));
    let other = temp("other.txt", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1234)\n");
    let seconds = temp(
        "seconds.txt",
        &std::fs::read_to_string(fixture("vllm_summary.txt")).unwrap().replace("TPOT (ms)", "TPOT (s)"),
    );
    for (file, says) in [
        (huge.as_str(), "at most 1048576 are read"),
        (other.as_str(), "Not an output gpuplan reads"),
        (seconds.as_str(), "expected ms"),
        (fixture("torchtune.log").leak() as &str, "the plan serves a model"),
        ("/nonexistent/bench.txt", "--measured /nonexistent/bench.txt"),
    ] {
        let out = gpuplan(&["estimate", "--measured", file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{says}: {err}");
    }
}
