use serde_json::json;

use super::*;
use crate::lang::Lang;

/// The error a plan with `value` gives.
fn plan_error(value: Value) -> Misread {
    match Plan::from_json(&value, "plan") {
        Ok(_) => panic!("{value} was read as a plan"),
        Err(e) => e,
    }
}

fn wrong(expected: Expected, given: Given) -> Wrong {
    Wrong::WrongType { expected, given }
}

/// One wrong value for each kind of field a plan holds: its path, and
/// what the field takes beside what it was given.
#[test]
fn every_kind_of_field_names_its_path_and_types() {
    let text = |s: &str| Given::Text(format!("\"{s}\""));
    let scalar = |s: &str| Given::Scalar(s.to_string());
    let cases = [
        (
            json!({"inference": {"context": "8k"}}),
            "inference.context",
            wrong(Expected::WholeNumber, text("8k")),
        ),
        (
            json!({"inference": {"context": null}}),
            "inference.context",
            wrong(Expected::WholeNumber, Given::Null),
        ),
        (
            json!({"inference": {"context": 1.5}}),
            "inference.context",
            wrong(Expected::WholeNumber, scalar("1.5")),
        ),
        (
            json!({"inference": {"context": -1}}),
            "inference.context",
            wrong(Expected::WholeNumber, scalar("-1")),
        ),
        (
            json!({"parallel": {"gpus": 5_000_000_000_u64}}),
            "parallel.gpus",
            Wrong::OutOfRange { max: 4_294_967_295.0 },
        ),
        (
            json!({"inference": {"gpu_mem_util": true}}),
            "inference.gpu_mem_util",
            wrong(Expected::Number, scalar("true")),
        ),
        (
            json!({"hardware": {"cheapest": "yes"}}),
            "hardware.cheapest",
            wrong(Expected::Boolean, text("yes")),
        ),
        (json!({"hardware": {"gpu": 5}}), "hardware.gpu", wrong(Expected::Text, scalar("5"))),
        (json!({"training": {"mfu": "high"}}), "training.mfu", wrong(Expected::Number, text("high"))),
        (json!({"task": 1}), "task", wrong(Expected::Text, scalar("1"))),
        (json!({"ticks": {}}), "ticks", wrong(Expected::List, Given::Object)),
        (json!({"ticks": [1]}), "ticks[0]", wrong(Expected::Text, scalar("1"))),
        (json!({"inference": true}), "inference", wrong(Expected::Object, scalar("true"))),
        (json!({"cuda": 12}), "cuda", wrong(Expected::Object, scalar("12"))),
        (json!({"model": "llama"}), "model", wrong(Expected::Object, text("llama"))),
        (
            json!("{\"task\": \"train\"}"),
            "plan",
            wrong(Expected::Object, text("{\\\"task\\\": \\\"train\\\"}")),
        ),
        (json!(null), "plan", wrong(Expected::Object, Given::Null)),
    ];
    for (value, field, wrong) in cases {
        let e = plan_error(value);
        assert_eq!((e.field.as_str(), &e.wrong), (field, &wrong));
    }
}

#[test]
fn a_name_the_field_does_not_take_lists_those_it_does() {
    let e = plan_error(json!({"task": "fly", "cost": {"currency": "USD"}}));
    let accepted = vec!["infer".to_string(), "train".to_string()];
    assert_eq!(e, Misread::new("task", Wrong::NotOneOf { given: "fly".into(), accepted }));
}

#[test]
fn a_list_names_its_items_under_its_own_name() {
    let value = json!([{"id": "a"}, {"gpus": "8"}]);
    let e = Vec::<Offer>::from_json(&value, "offers").err();
    let expected = wrong(Expected::WholeNumber, Given::Text("\"8\"".into()));
    assert_eq!(e, Some(Misread::new("offers[1].gpus", expected)));
    let e = Vec::<Offer>::from_json(&json!({"gpus": 8}), "offers").err();
    assert_eq!(e.map(|e| (e.field, e.wrong)), Some(("offers".into(), wrong(Expected::List, Given::Object))));
}

#[test]
fn a_workloads_plan_names_the_field_inside_it() {
    let project =
        json!({"workloads": [{"name": "a"}, {"name": "b", "plan": {"inference": {"context": "8k"}}}]});
    let e = Project::from_json(&project, "project").err().map(|e| e.field);
    assert_eq!(e.as_deref(), Some("workloads[1].plan.inference.context"));
    let e = Project::from_json(&json!({"workloads": [{"plan": []}]}), "project").err();
    assert_eq!(e.map(|e| e.field).as_deref(), Some("workloads[0].plan"));
}

/// serde's other wordings, as the JS API's own reader writes them too
/// (`unit value` for a JS null, floats with a decimal point).
#[test]
fn serde_wordings_are_read() {
    let read = |message: &str| misread("f".into(), message).wrong;
    assert_eq!(read("invalid type: unit value, expected u64"), wrong(Expected::WholeNumber, Given::Null));
    assert_eq!(
        read("invalid type: floating point `5.0`, expected u32"),
        wrong(Expected::WholeNumber, Given::Scalar("5.0".into()))
    );
    assert_eq!(read("invalid type: sequence, expected a string"), wrong(Expected::Text, Given::List));
    assert_eq!(read("invalid type: map, expected f64"), wrong(Expected::Number, Given::Object));
    assert_eq!(read("invalid value: integer `300`, expected u8"), Wrong::OutOfRange { max: 255.0 });
    assert_eq!(
        read("unknown variant `EUR`, expected `USD` or `CNY`"),
        Wrong::NotOneOf { given: "EUR".into(), accepted: vec!["USD".into(), "CNY".into()] }
    );
    assert_eq!(
        misread("workloads[0]".into(), "missing field `plan`"),
        Misread::new("workloads[0].plan", Wrong::Required)
    );
    let odd = "data did not match any variant of untagged enum Loss";
    assert_eq!(read(odd), Wrong::Unreadable { detail: odd.into() });
    let long = format!("invalid type: string \"{}\", expected u64", "x".repeat(100));
    let Wrong::WrongType { given: Given::Text(shown), .. } = read(&long) else { panic!("{long}") };
    assert_eq!(shown.chars().count(), QUOTED_CHARS + 2);
}

/// The messages, in each language this build carries.
#[test]
fn messages_say_what_the_field_takes() {
    let e = plan_error(json!({"inference": {"context": "8k"}}));
    let not_one = plan_error(json!({"task": "fly"}));
    let list = plan_error(json!({"ticks": {}}));
    if Lang::En.carried() {
        assert_eq!(e.message(Lang::En), "inference.context: must be a whole number, not \"8k\"");
        assert_eq!(not_one.message(Lang::En), "task: must be one of infer, train, not \"fly\"");
        assert_eq!(list.message(Lang::En), "ticks: must be a list, not an object");
        assert!(not_json("plan").message(Lang::En).starts_with("plan: must be JSON data"));
    }
    if Lang::Zh.carried() {
        assert_eq!(e.message(Lang::Zh), "inference.context: 应为整数，不能是 \"8k\"");
        assert_eq!(not_one.message(Lang::Zh), "task: 应为 infer、train 之一，不能是 \"fly\"");
        assert_eq!(list.message(Lang::Zh), "ticks: 应为列表，不能是 对象");
    }
}
