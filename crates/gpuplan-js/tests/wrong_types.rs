//! A value of the wrong type, in every kind of field the API takes, throws
//! the documented `{ errors: [{ field, message }] }` with the field's path
//! and the message in the language asked for, as an invalid value does.
//! (Natively: the JSON data the wasm glue reads a JS value as.)

use gpuplan_core::decode::FromJson;
use gpuplan_core::lang::Lang;
use gpuplan_core::market_view::Query;
use gpuplan_core::offers::Offer;
use gpuplan_core::plan::Plan;
use gpuplan_core::project::Project;
use gpuplan_js::read_json;
use serde_json::{json, Value};

/// What the API throws for `value` read as a `T`, as JSON.
fn thrown<T: FromJson>(value: Value, name: &str, lang: Lang) -> Value {
    match read_json::<T>(Some(value.clone()), name, lang) {
        Ok(_) => panic!("{value} was read"),
        Err(errors) => serde_json::to_value(errors).unwrap_or_default(),
    }
}

fn one(field: &str, message: &str) -> Value {
    json!({ "errors": [{ "field": field, "message": message }] })
}

#[test]
fn every_kind_of_plan_field() {
    let cases = [
        (
            json!({"inference": {"context": "8k"}}),
            "inference.context",
            "must be a whole number, not \"8k\"",
            "应为整数，不能是 \"8k\"",
        ),
        (
            json!({"inference": {"context": null}}),
            "inference.context",
            "must be a whole number, not null",
            "应为整数，不能是 null",
        ),
        (
            json!({"inference": {"gpu_mem_util": "0.9"}}),
            "inference.gpu_mem_util",
            "must be a number, not \"0.9\"",
            "应为数字，不能是 \"0.9\"",
        ),
        (
            json!({"hardware": {"cheapest": 1}}),
            "hardware.cheapest",
            "must be true or false, not 1",
            "应为true 或 false，不能是 1",
        ),
        (
            json!({"hardware": {"gpu": ["h100-sxm"]}}),
            "hardware.gpu",
            "must be text, not a list",
            "应为文本，不能是 列表",
        ),
        (
            json!({"task": "fly"}),
            "task",
            "must be one of infer, train, not \"fly\"",
            "应为 infer、train 之一，不能是 \"fly\"",
        ),
        (
            json!({"training": {"mfu": false}}),
            "training.mfu",
            "must be a number, not false",
            "应为数字，不能是 false",
        ),
        (json!({"ticks": "a,b"}), "ticks", "must be a list, not \"a,b\"", "应为列表，不能是 \"a,b\""),
        (json!({"parallel": 8}), "parallel", "must be an object, not 8", "应为对象，不能是 8"),
        (
            json!("{\"task\":\"train\"}"),
            "plan",
            "must be an object, not \"{\\\"task\\\":\\\"train\\\"}\"",
            "应为对象，不能是 \"{\\\"task\\\":\\\"train\\\"}\"",
        ),
        (
            json!({"parallel": {"gpus": 5_000_000_000_u64}}),
            "parallel.gpus",
            "must be between 0 and 4294967295",
            "应在 0 到 4294967295 之间",
        ),
    ];
    for (value, field, en, zh) in cases {
        assert_eq!(thrown::<Plan>(value.clone(), "plan", Lang::En), one(field, &format!("{field}: {en}")));
        assert_eq!(thrown::<Plan>(value, "plan", Lang::Zh), one(field, &format!("{field}: {zh}")));
    }
}

#[test]
fn offers_projects_and_queries() {
    let offers = thrown::<Vec<Offer>>(json!([{"id": "a"}, {"od": {"hourly": "2"}}]), "offers", Lang::En);
    assert_eq!(offers, one("offers[1].od.hourly", "offers[1].od.hourly: must be a number, not \"2\""));
    let offers = thrown::<Vec<Offer>>(json!([{"currency": "EUR"}]), "offers", Lang::En);
    assert_eq!(offers, one("offers[0].currency", "offers[0].currency: must be one of USD, CNY, not \"EUR\""));
    let project = json!({"workloads": [{"name": "a", "plan": {"inference": {"context": "8k"}}}]});
    let message = "workloads[0].plan.inference.context: must be a whole number, not \"8k\"";
    assert_eq!(
        thrown::<Project>(project, "project", Lang::En),
        one("workloads[0].plan.inference.context", message)
    );
    let query = thrown::<Query>(json!({"limit": "ten"}), "query", Lang::En);
    assert_eq!(query, one("limit", "limit: must be a whole number, not \"ten\""));
}

#[test]
fn what_is_not_json_data() {
    let Err(errors) = read_json::<Plan>(None, "plan", Lang::Zh) else { panic!("read") };
    let thrown = serde_json::to_value(errors).unwrap_or_default();
    assert_eq!(thrown, one("plan", "plan: 应为 JSON 数据：对象、列表、文本、数字、true、false 或 null"));
}
