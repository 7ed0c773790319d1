//! `gpuplan cost` across the shipped market, price sheets and quick quotes.

mod common;

use common::{gpuplan, json, stdout};

fn error_line(args: &[&str]) -> String {
    let out = gpuplan(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gpuplan-market-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn an_h100_plan_sees_ten_providers() {
    let v = json(&[
        "cost",
        "--model",
        "llama-3.1-70b",
        "--weights",
        "fp8",
        "--offer-gpu",
        "h100-sxm,h100-pcie",
        "--today",
        "2026-12-04",
        "--format",
        "json",
    ]);
    let mut providers: Vec<&str> =
        v["options"].as_array().unwrap().iter().map(|o| o["provider"].as_str().unwrap()).collect();
    providers.sort_unstable();
    providers.dedup();
    assert!(providers.len() >= 10, "{providers:?}");
    let best = v["best"].as_str().unwrap();
    assert_eq!(v["options"][0]["id"], best);
    assert_eq!(v["today"], "2026-12-04");
    assert_eq!(v["ages"][best]["age"], "dated");
    assert!(v["options"].as_array().unwrap().iter().all(|o| o["gpu"].as_str().unwrap().starts_with("h100")));
}

#[test]
fn a_skypilot_sheet_is_ranked_alone() {
    let sheet = temp(
        "mycloud.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,SpotPrice\n\
         big.8x,H100,8,192,2048,20.0,r1,\n\
         small.1x,H100,1,24,256,2.0,r1,1.1\n\
         odd.1x,A40,1,8,32,0.5,r1,\n\
         bad.1x,H100,1,8,32,-1,r1,\n",
    );
    let out = gpuplan(&["cost", "--model", "llama-3.1-8b", "--offers", &sheet, "--format", "json"]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 5: Price -1 is out of range"), "{err}");
    assert!(err.contains("not in the GPU catalog, left out: A40 (1 rows)"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> =
        v["options"].as_array().unwrap().iter().map(|o| o["offer"].as_str().unwrap()).collect();
    assert!(ids.iter().all(|id| id.starts_with("mycloud:")), "{ids:?}");
    assert_eq!(v["options"][0]["provider"], "mycloud");
}

#[test]
fn a_sheet_exported_as_json_ranks_the_same() {
    let sheet = temp(
        "export.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,SpotPrice\n\
         a.8x,H100,8,20.0,r1,\nb.1x,H100,1,2.0,r2,1.1\n",
    );
    let json_path = temp("export.json", "");
    stdout(&["cost", "--offers", &sheet, "--export-offers", &json_path]);
    let from_csv = json(&["cost", "--offers", &sheet, "--format", "json"]);
    let from_json = json(&["cost", "--offers", &json_path, "--format", "json"]);
    assert_eq!(from_csv["best"], from_json["best"]);
    assert_eq!(from_csv["options"], from_json["options"]);
}

#[test]
fn a_typed_quote_is_ranked_in_its_currency() {
    let text = stdout(&[
        "cost",
        "--model",
        "llama-3.1-8b",
        "--gpu",
        "rtx-4090",
        "--hourly",
        "1.5",
        "--monthly",
        "900",
        "--currency",
        "cny",
        "--market",
        "--offer-gpu",
        "rtx-4090",
        "--lang",
        "en",
    ]);
    assert!(text.contains("total CNY"), "{text}");
    assert!(text.contains("Your quote · On-Demand") && text.contains("Your quote · Monthly"), "{text}");
    let v = json(&["cost", "--gpu", "rtx-4090", "--monthly", "1", "--format", "json"]);
    assert_eq!(v["best"], "quote/monthly");
}

#[test]
fn filters_narrow_the_market() {
    let v = json(&["cost", "--provider", "aws", "--buy", "spot", "--region", "us-", "--format", "json"]);
    let options = v["options"].as_array().unwrap();
    assert!(!options.is_empty());
    assert!(options
        .iter()
        .all(|o| o["provider"].as_str().unwrap().eq_ignore_ascii_case("aws") && o["kind"] == "spot"));
    let v = json(&["cost", "--price-currency", "cny", "--currency", "cny", "--format", "json"]);
    assert!(v["options"].as_array().unwrap().iter().all(|o| o["offer_currency"] == "CNY"));
}

#[test]
fn bad_offer_flags_are_one_line() {
    assert!(error_line(&["cost", "--offers", "/nonexistent/sheet.csv"])
        .starts_with("error: --offers /nonexistent/sheet.csv:"));
    assert!(error_line(&["cost", "--hourly", "-2"]).contains("quote.od.hourly"));
    assert!(error_line(&["cost", "--hourly", "x"]).contains("--hourly: expected a number"));
    assert!(error_line(&["cost", "--currency", "eur"]).contains("accepted: usd, cny"));
    assert!(error_line(&["cost", "--buy", "lease"]).contains("accepted: od, spot, commit"));
    assert!(error_line(&["cost", "--today", "soon"]).contains("YYYY-MM-DD"));
    let big = temp("big.csv", "");
    std::fs::File::options().write(true).open(&big).unwrap().set_len(50 * 1024 * 1024).unwrap();
    assert!(error_line(&["cost", "--offers", &big]).contains("50 MB is more than the 16 MB"));
}

#[test]
fn a_training_deadline_applies_across_the_market() {
    let plan = temp("train.json", r#"{"task":"train","training":{"method":"lora"},"cost":{"deadline_h":0}}"#);
    let free = json(&["cost", "--plan", &plan, "--offer-gpu", "h100-sxm", "--format", "json"]);
    let best = free["options"][0].clone();
    assert_eq!(free["best"], best["id"]);
    // A deadline just under the fastest run: every option misses it and says so.
    let hours = free["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["run_hours"].as_f64().unwrap())
        .fold(f64::MAX, f64::min);
    let tight = temp(
        "tight.json",
        &format!(
            r#"{{"task":"train","training":{{"method":"lora"}},"cost":{{"deadline_h":{}}}}}"#,
            hours * 0.9
        ),
    );
    let v = json(&["cost", "--plan", &tight, "--offer-gpu", "h100-sxm", "--format", "json"]);
    assert!(v["best"].is_null());
    assert!(v["options"].as_array().unwrap().iter().all(|o| o["loss"]["why"] == "deadline"));
}

#[test]
fn an_auction_answer_says_so_and_names_the_cheapest_list_price() {
    let args = [
        "cost",
        "--model",
        "llama-3.1-70b",
        "--weights",
        "fp8",
        "--offer-gpu",
        "h100-sxm",
        "--buy",
        "od",
        "--today",
        "2026-12-07",
    ];
    let v = json(&[&args[..], &["--format", "json"]].concat());
    let best = v["options"].as_array().unwrap().iter().find(|o| o["id"] == v["best"]).unwrap();
    assert_eq!((best["provider"].as_str(), best["pricing"].as_str()), (Some("Mithril"), Some("auction")));
    assert_eq!(best["unpriced"], serde_json::json!(["storage", "ip", "network"]));
    let list = v["options"].as_array().unwrap().iter().find(|o| o["id"] == v["best_list"]).unwrap();
    assert_eq!(list["pricing"], "list");
    assert_eq!(v["fx"]["date"], "2026-01-08");
    let text = stdout(&[&args[..], &["--top", "1"]].concat());
    assert!(text.contains("auction price") && text.contains("cheapest at a list price"), "{text}");
    assert!(text.contains("n/a"), "{text}");
}
