//! `gpuplan budget`: a project's budget by month, in text, JSON and Markdown.

mod common;

use common::{gpuplan, json, stdout};

#[test]
fn the_gallery_project_by_month() {
    let text = stdout(&["budget", "--example", "law-saas-project", "--no-market"]);
    let first = text.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap_or_default();
    let cells: Vec<&str> = first.split_whitespace().collect();
    // The training's 180.8 h on the first monthly card; the service the rest of the month's payments.
    assert_eq!(cells, ["1", "653.70", "7,266.30", "300.00", "8,220.00"], "{text}");
    assert!(text.contains("machines carried on by serve"), "{text}");
    assert!(text.contains("Monthly, 3 instance(s) ← train, serve"), "{text}");
    assert!(text.contains("own items 3,900.00"), "{text}");
    let md = stdout(&["budget", "--example", "law-saas-project", "--no-market", "--format", "markdown"]);
    assert!(md.contains("| 1 | 653.70 | 7,266.30 | 300.00 | 8,220.00 |"), "{md}");
    let v = json(&["budget", "--example", "law-saas-project", "--no-market", "--format", "json"]);
    assert_eq!(v["months"], 13);
    assert_eq!(v["workloads"][1]["reuses"], "train");
    assert_eq!(v["machines"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["machines"][0]["workloads"], serde_json::json!(["train", "serve"]));
    assert_eq!(v["by_month_line"][0]["items"], 300.0);
    assert_eq!(v["workloads"][0]["by_line"]["gpus"], 544.75);
    // One link carries the whole project, and reopens to the same budget.
    let link = stdout(&["budget", "--example", "law-saas-project", "--format", "link"]);
    assert!(link.starts_with("?v=2&wl=train,serve&"), "{link}");
    let again = json(&["budget", "--url", link.trim(), "--no-market", "--format", "json"]);
    assert_eq!(again, v);
}

#[test]
fn a_plan_file_is_a_one_workload_project() {
    let dir = std::env::temp_dir().join(format!("gpuplan-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("plan.json");
    std::fs::write(
        &plan,
        r#"{"model": {"kind": "preset", "id": "qwen2.5-7b"}, "hardware": {"gpu": "rtx-4090"}}"#,
    )
    .unwrap();
    let v = json(&["budget", "--plan", plan.to_str().unwrap(), "--no-market", "--format", "json"]);
    assert_eq!(v["workloads"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["months"], 12);
}

#[test]
fn bad_projects_are_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("gpuplan-budget-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, body, want) in [
        ("empty.json", r#"{"workloads": []}"#, "workloads: is required"),
        (
            "nomodel.json",
            r#"{"workloads": [{"name": "a", "plan": {"task": "train"}}]}"#,
            "workloads[0].plan.model",
        ),
        ("junk.json", "[1, 2", "not JSON"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let out = gpuplan(&["budget", "--plan", path.to_str().unwrap(), "--no-market"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
    }
    let project = dir.join("project.json");
    std::fs::write(
        &project,
        r#"{"workloads": [{"name": "a", "plan": {"model": {"kind": "preset", "id": "qwen2.5-7b"}}}]}"#,
    )
    .unwrap();
    let out = gpuplan(&["cost", "--plan", project.to_str().unwrap(), "--no-market"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && err.contains("gpuplan budget reads it"), "{err}");
    let out = gpuplan(&["budget", "--example", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A hand-edited link: what it leaves out is said on stderr; what it
/// lacks is refused in one line.
#[test]
fn a_hand_edited_link_says_what_it_left_out() {
    let url = "?v=2&wl=a,b&0.m=qwen2.5-7b&1.m=qwen2.5-7b&1.re=nobody&5.ctx=9&1.sm=x";
    let out = gpuplan(&["budget", "--url", url, "--no-market", "--lang", "en"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("5.ctx=9") && err.contains("1.sm=x"), "{err}");
    assert_eq!(out.status.code(), Some(2), "the reuse names nobody: {err}");
    assert!(err.lines().last().is_some_and(|l| l.contains("workloads[1].reuse")), "{err}");
}

/// `--cheapest`: the cheapest option picks the GPU, and the bill and the checklist name it alike.
#[test]
fn cheapest_names_one_gpu_everywhere() {
    let args = ["--model", "qwen2.5-7b", "--cheapest", "--no-market", "--lang", "en"];
    let cost = stdout(&[&["cost"][..], &args].concat());
    let line = cost.lines().next().unwrap_or_default();
    let chosen = line.strip_prefix("Selection: ").and_then(|s| s.split(" (").next()).unwrap_or_default();
    let checklist = stdout(&[&["checklist"][..], &args].concat());
    assert!(
        checklist.starts_with(&format!("# Checklist: Qwen2.5 7B on {chosen}\n")),
        "{chosen}\n{checklist}"
    );
}
