//! Files the page writes for the user: made in the browser and saved
//! through a download link, never sent anywhere.

use std::time::Duration;

use gloo_file::{Blob, ObjectUrl};
use wasm_bindgen::JsCast;

/// Offers `text` to the user as a file named `name`.
pub fn save_as(name: &str, mime: &str, text: &str) {
    let url = ObjectUrl::from(Blob::new_with_options(text, Some(mime)));
    let document = web_sys::window().and_then(|w| w.document());
    let Some(link) = document.and_then(|d| d.create_element("a").ok()) else { return };
    let _ = link.set_attribute("href", &url);
    let _ = link.set_attribute("download", name);
    if let Some(link) = link.dyn_ref::<web_sys::HtmlElement>() {
        link.click();
    }
    // Revoked (dropped) once the download has surely taken the blob.
    leptos::prelude::set_timeout(move || drop(url), Duration::from_secs(30));
}
