//! `gpuplan share`: the link, and the page's snippets (`--format markdown|wiki|iframe`).

mod common;

use common::{gpuplan, stdout};

const PLAN: [&str; 8] =
    ["--model", "llama-3.1-70b", "--weights", "fp8", "--context", "32768", "--lang", "en"];

fn share(extra: &[&str]) -> String {
    let mut args = vec!["share", "--base", "https://h.example/gpuplan/"];
    args.extend_from_slice(&PLAN);
    args.extend_from_slice(extra);
    stdout(&args)
}

#[test]
fn markdown_summary_carries_the_link_and_the_estimate() {
    let link = share(&[]);
    let link = link.trim_end();
    assert_eq!(link, "https://h.example/gpuplan/?v=1&m=llama-3.1-70b&w=fp8&ctx=32768&lang=en");
    let md = share(&["--format", "markdown"]);
    assert!(md.starts_with("# gpuplan: Llama 3.1 70B · inference\n\n"), "{md}");
    assert!(md.contains(&format!("[Open this plan in gpuplan]({link})\n")), "{md}");
    // The peak in bytes is the estimate's, exactly.
    let mut args = vec!["estimate", "--format", "json"];
    args.extend_from_slice(&PLAN);
    let v: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
    let peak = v["memory"]["per_gpu_bytes"].as_u64().unwrap();
    assert!(md.contains(&format!(" ({peak} B)** |\n")), "{md}");
    for row in [
        "| Weights | ",
        "| KV cache | ",
        "| Workspace and runtime | ",
        "| GPU | H100 SXM |",
        "| **Total** | ",
    ] {
        assert!(md.contains(row), "missing {row:?}:\n{md}");
    }
    assert!(md.contains("\n## Checklist: Llama 3.1 70B"), "{md}");
    assert!(md.contains("\n- [ ] "), "{md}");
}

#[test]
fn wiki_and_iframe_formats() {
    let wiki = share(&["--format", "wiki"]);
    assert!(wiki.starts_with("== gpuplan: Llama 3.1 70B · inference ==\n[https://h.example/gpuplan/?v=1&"));
    assert_eq!(wiki.matches("{| class=\"wikitable\"").count(), 3, "{wiki}");
    let iframe = share(&["--format", "iframe"]);
    assert!(iframe.starts_with(
        "<iframe src=\"https://h.example/gpuplan/?v=1&amp;m=llama-3.1-70b&amp;w=fp8&amp;ctx=32768&amp;lang=en&amp;embed=1\" data-gpuplan"
    ), "{iframe}");
    assert!(iframe.contains("<script src=\"https://h.example/gpuplan/embed.js\"></script>"));
    let zh = stdout(&["share", "--format", "markdown", "--lang", "zh"]);
    assert!(zh.contains("| 权重 | "), "{zh}");
}

#[test]
fn unknown_format_is_one_line() {
    let out = gpuplan(&["share", "--format", "html"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err, "error: --format: unknown \"html\"; accepted: link, iframe, wiki, markdown\n");
}
