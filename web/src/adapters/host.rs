//! The page embedded in another: messages to and from the host page.

use gloo::events::EventListener;
use wasm_bindgen::JsValue;

/// An object of these fields, for `postMessage`.
fn message(fields: &[(&str, JsValue)]) -> js_sys::Object {
    let obj = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&obj, &JsValue::from_str(k), v);
    }
    obj
}

/// Tells the host page the document's height and the plan: its peak memory
/// per GPU (when there is a result) and its link.
pub fn post_plan(peak_bytes: Option<u64>, link: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(Some(parent)) = window.parent() else { return };
    let height = window.document().and_then(|d| d.document_element()).map_or(0, |e| e.scroll_height());
    let source = ("source", JsValue::from_str("gpuplan"));
    let size = message(&[source.clone(), ("type", "height".into()), ("height", height.into())]);
    let _ = parent.post_message(&size, "*");
    let peak = peak_bytes.map_or(JsValue::NULL, |b| JsValue::from_f64(b as f64));
    let summary = message(&[("per_gpu_bytes", peak)]);
    let plan =
        message(&[source, ("type", "plan".into()), ("summary", summary.into()), ("link", link.into())]);
    let _ = parent.post_message(&plan, "*");
}

/// Calls `on_offers` with the JSON text of the offers in every message
/// `{source: "gpuplan-host", type: "offers", offers: [...]}` from exactly
/// `origin`, for the page's life; anything else is dropped.
pub fn listen_for_offers(origin: String, on_offers: impl Fn(String) + 'static) {
    let Some(window) = web_sys::window() else { return };
    let listener = EventListener::new(&window, "message", move |ev| {
        let Some(ev) = wasm_bindgen::JsCast::dyn_ref::<web_sys::MessageEvent>(ev) else { return };
        if ev.origin() != origin {
            return;
        }
        let data = ev.data();
        let field = |k: &str| js_sys::Reflect::get(&data, &JsValue::from_str(k)).ok();
        let is = |k: &str, v: &str| field(k).and_then(|x| x.as_string()).is_some_and(|x| x == v);
        if !(is("source", "gpuplan-host") && is("type", "offers")) {
            return;
        }
        let text = field("offers").and_then(|o| js_sys::JSON::stringify(&o).ok()).and_then(|t| t.as_string());
        on_offers(text.unwrap_or_default());
    });
    listener.forget();
}
