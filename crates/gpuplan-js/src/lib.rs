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

/// A file that could not be read: `{ error: { kind, ... }, message }`; a
/// truncated header's error says `need_at_least` bytes.
fn file_error(e: &gpuplan_core::model_files::FileError, lang: Option<String>) -> JsValue {
    #[derive(Serialize)]
    struct Failed<'a> {
        error: &'a gpuplan_core::model_files::FileError,
        message: String,
    }
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    to_js(&Failed { error: e, message: e.message(lang) }).unwrap_or_else(|e| e)
}

/// `importConfig(text)`: a model from a Hugging Face `config.json`, with what
/// was read, assumed and ignored; `model.arch` goes into a plan's custom model.
#[wasm_bindgen(js_name = importConfig)]
pub fn import_config(text: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    gpuplan_core::model_files::config::import(text).map_err(|e| file_error(&e, lang)).and_then(|m| to_js(&m))
}

/// `importGguf(bytes)`: a model from the first bytes of a `.gguf` file
/// (`file.slice(0, n)`); a truncated header's error names the bytes needed.
#[wasm_bindgen(js_name = importGguf)]
pub fn import_gguf(bytes: &[u8], lang: Option<String>) -> Result<JsValue, JsValue> {
    gpuplan_core::model_files::import_gguf(bytes).map_err(|e| file_error(&e, lang)).and_then(|m| to_js(&m))
}

/// `importSafetensors(bytes, fileSize)`: a model from the first 8 + header
/// bytes of a `.safetensors` file.
#[wasm_bindgen(js_name = importSafetensors)]
pub fn import_safetensors(
    bytes: &[u8],
    file_size: Option<f64>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let size = file_size.filter(|s| s.is_finite() && *s >= 0.0).map(|s| s as u64);
    gpuplan_core::model_files::import_safetensors(bytes, size)
        .map_err(|e| file_error(&e, lang))
        .and_then(|m| to_js(&m))
}
