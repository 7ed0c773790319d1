//! The readers and writers of files the page seldom handles (price sheets
//! and their exports) run in a worker on the JS API module, loaded the first
//! time one is needed: the page's own bundle carries none of those formats,
//! and a big file is read off the page's thread (docs/performance.md).

use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/adapters/reader.js")]
extern "C" {
    /// The API function `name` called in the worker with `args`; resolves
    /// to its answer as JSON text, or rejects with the reason it failed.
    #[wasm_bindgen(js_name = read)]
    fn post(name: &str, args: js_sys::Array) -> js_sys::Promise;
}

/// The answer of the JS API's `name` for `args`, read as `T`.
pub async fn read<T: DeserializeOwned>(name: &str, args: &[JsValue]) -> Result<T, String> {
    let answer = JsFuture::from(post(name, args.iter().collect()))
        .await
        .map_err(|e| e.as_string().unwrap_or_else(|| "the reader failed".to_string()))?;
    let json = answer.as_string().unwrap_or_default();
    gpuplan_core::sheet::json(&json)
}
