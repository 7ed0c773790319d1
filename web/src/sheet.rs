//! Host prices: `prices.json` shipped next to the page (a vendor replaces it
//! without rebuilding), and, in embed mode, offers posted by the host page
//! from the origin named in the link's `host` key. Both go through the
//! core's sheet validation; nothing from them is ever treated as HTML.

use gpuplan_core::offers::defaults;
use gpuplan_core::sheet::{self, host_offers, Sheet};
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::state::AppState;

pub fn load(app: AppState, host: Option<String>) {
    leptos::task::spawn_local(async move {
        match fetch_sheet().await.map(|text| sheet::from_json(&text)) {
            Some(Ok(sheet)) => apply(app, sheet),
            Some(Err(why)) => warn(&why),
            None => {}
        }
    });
    if let Some(origin) = host {
        listen(app, origin);
    }
}

/// The defaults plus the sheet's offers, or a console note when it is invalid.
fn apply(app: AppState, sheet: Sheet) {
    if sheet.offers.is_empty() {
        return;
    }
    match host_offers(sheet) {
        Ok(mut host) => {
            let mut all = defaults();
            all.append(&mut host);
            app.offers.set(all);
        }
        Err(errs) => {
            let fields: Vec<String> = errs.iter().map(|e| e.field.clone()).collect();
            warn(&fields.join(", "));
        }
    }
}

/// Tells the host's developer, in the console, why their prices are not shown.
fn warn(why: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("gpuplan: price sheet ignored: {why}")));
}

/// The text of `prices.json`, when the server has one.
async fn fetch_sheet() -> Option<String> {
    let window = web_sys::window()?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str("prices.json")).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.text().ok()?).await.ok()?.as_string()
}

/// Offers posted as `{source: "gpuplan-host", type: "offers", offers: [...]}`
/// from exactly `origin`; anything else is dropped.
fn listen(app: AppState, origin: String) {
    let Some(window) = web_sys::window() else { return };
    let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
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
        match sheet::offers_from_json(text.as_deref().unwrap_or("")) {
            Ok(offers) => apply(app, Sheet { version: 1, provider: String::new(), offers }),
            Err(why) => warn(&why),
        }
    });
    let _ = window.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    handler.forget();
}
