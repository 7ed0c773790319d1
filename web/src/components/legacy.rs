//! A block still drawn by the patched-DOM builder (`dom.rs`), placed in a
//! Leptos view while the page moves to components one area at a time. The
//! wrapper takes no box of its own (`display: contents`), so the layout sees
//! the block itself.

use leptos::html::Div;
use leptos::prelude::*;
use web_sys::Element;

#[component]
pub fn Legacy(block: Option<Element>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    node.on_load(move |div| {
        if let Some(block) = &block {
            let _ = div.append_child(block);
        }
    });
    view! { <div class="legacy" node_ref=node></div> }
}
