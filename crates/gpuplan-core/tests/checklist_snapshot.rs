//! The checklist of a reference plan, in both languages, against reviewed
//! Markdown snapshots. After an intended change, regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p gpuplan-core --test checklist_snapshot`
//! and read the diff before committing it.

#![allow(clippy::disallowed_methods, reason = "a native test reads and writes its snapshot files")]

use gpuplan_core::checklist::{build, to_markdown, CudaVersion, Facts};
use gpuplan_core::cost::OptionKind;
use gpuplan_core::hardware;
use gpuplan_core::lang::Lang;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::plan::Task;

/// Llama 3.1 70B served at FP8 on 4 × H100 SXM with tensor parallel 4, rented on demand.
/// Per-GPU peak by hand: FP8 weights 70.6 GB / 4 = 17.6 GB; BF16 KV cache
/// 2 × 80 layers × 8 KV heads × 128 × 2 B = 327,680 B/token × 32,768 × 16
/// sequences = 171.8 GB / 4 = 42.9 GB; about 2 GB workspace: 62.5 GB.
fn reference() -> Facts {
    Facts {
        task: Task::Infer,
        model_name: "Llama 3.1 70B".into(),
        params: 70.6e9,
        weights_bytes: 70_600_000_000,
        weights: WeightFormat::Fp8,
        context: 32_768,
        concurrency: 16,
        per_gpu_bytes: 62_500_000_000,
        headroom_pct: 10.0,
        gpu: hardware::find("h100-sxm").cloned(),
        gpu_count: 4,
        tensor_parallel: 4,
        option: Some(OptionKind::OnDemand),
        egress_gb_month: 500.0,
        rented: true,
        cuda: CudaVersion::parse("12.8"),
        long_run: true,
        model_repo: Some("meta-llama/Llama-3.1-70B".into()),
        ..Facts::default()
    }
}

fn check(lang: Lang, file: &str) {
    let ticks = vec!["workload".to_string(), "acc-list".to_string()];
    let list = build(&reference(), lang, &ticks).expect("valid facts");
    let md = to_markdown(&list);
    let path = format!("{}/tests/snapshots/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &md).expect("write snapshot");
    }
    let want = std::fs::read_to_string(&path).expect("snapshot file");
    assert_eq!(md, want, "checklist Markdown differs from {path}");
}

#[test]
#[cfg(not(feature = "en"))]
fn reference_plan_markdown_zh() {
    check(Lang::Zh, "checklist_reference.zh.md");
}

#[test]
#[cfg(not(feature = "zh"))]
fn reference_plan_markdown_en() {
    check(Lang::En, "checklist_reference.en.md");
}
