//! The address bar: what the page was opened with, and the plan's link kept
//! in it without adding history entries.

use wasm_bindgen::JsValue;

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

/// The query the page was opened with, `?` included ("" when none).
pub fn search() -> String {
    location().and_then(|l| l.search().ok()).unwrap_or_default()
}

/// The page's address without its query: the base of links and snippets.
pub fn base() -> String {
    location().and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))).unwrap_or_default()
}

/// Shows `query` in the address bar: no history entry, no reload, no scroll.
pub fn replace_query(query: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(query));
    }
}

/// Opens the page again with `query` (another language's bundle, say).
pub fn reopen(query: &str) {
    if let Some(l) = location() {
        let _ = l.set_search(query);
    }
}

/// Sets `<html lang>`, so screen readers and fonts follow the language.
pub fn set_document_lang(tag: &str) {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    if let Some(el) = root {
        let _ = el.set_attribute("lang", tag);
    }
}

/// The embedded page's colours as its host asked: `data-theme` on `<html>`
/// (style.css keys `color-scheme` on it) and the accent colour, whose value
/// the core has checked to be hex digits.
pub fn set_theme(theme: &str, accent: Option<&str>) {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    let Some(el) = root else { return };
    let _ = el.set_attribute("data-theme", theme);
    if let (Some(hex), Some(html)) = (accent, wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el)) {
        let _ = html.style().set_property("--accent", &format!("#{hex}"));
    }
}
