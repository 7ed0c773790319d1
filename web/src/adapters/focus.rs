//! Moving the keyboard focus, which also brings the element into view.

use leptos::prelude::document;
use wasm_bindgen::JsCast;

/// Focuses the element with this id, if the page has it.
pub fn element(id: &str) {
    let found = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = found {
        // A focus the browser refuses leaves the page as it was.
        let _ = el.focus();
    }
}
