//! The JavaScript API: the core's numbers for pages that want them without
//! the UI. Plans and reports have the same JSON shape as the CLI's
//! `--plan FILE` and `--format json`.

use gpuplan_core::lang::Lang;
use gpuplan_core::plan::Plan;
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(JsValue::from)
}

fn plan_from(value: JsValue) -> Result<Plan, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsValue::from_str(&format!("plan: {e}")))
}

#[derive(Serialize)]
struct Invalid {
    field: String,
    message: String,
}

/// `estimate(plan)`: the report for a (possibly partial) plan object.
/// Throws `{ errors: [{ field, message }] }` when fields are invalid.
#[wasm_bindgen]
pub fn estimate(plan: JsValue, lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let plan = plan_from(plan)?;
    match gpuplan_core::report::evaluate(&plan, lang) {
        Ok(report) => to_js(&report),
        Err(errs) => {
            let errors: Vec<Invalid> =
                errs.iter().map(|e| Invalid { field: e.field.clone(), message: e.message(lang) }).collect();
            #[derive(Serialize)]
            struct Errors {
                errors: Vec<Invalid>,
            }
            Err(to_js(&Errors { errors })?)
        }
    }
}

/// `decodeLink(url)`: the plan a share link carries, and what was ignored.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link(url: &str) -> Result<JsValue, JsValue> {
    to_js(&gpuplan_core::share::decode(url))
}

/// `encodeLink(plan)`: the share-link query string for a plan.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(plan: JsValue) -> Result<String, JsValue> {
    Ok(gpuplan_core::share::encode(&plan_from(plan)?, None, None))
}
