//! A small DOM builder for the read-only result blocks (tables, charts,
//! bills). Leptos views compile into code per distinct element structure;
//! these blocks are rebuilt whole from the report instead, through a handful
//! of non-generic calls, which keeps the wasm bundle within its budget
//! (issue 10). Text always goes in as text nodes, never as HTML.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

fn doc() -> Document {
    web_sys::window().and_then(|w| w.document()).expect("a browser document")
}

/// An element under construction.
pub struct El(Element);

/// An HTML element.
pub fn h(tag: &str) -> El {
    El(doc().create_element(tag).expect("a valid tag name"))
}

/// An SVG element.
pub fn s(tag: &str) -> El {
    El(doc().create_element_ns(Some(SVG_NS), tag).expect("a valid tag name"))
}

impl El {
    /// Sets an attribute.
    pub fn a(self, name: &str, value: &str) -> El {
        let _ = self.0.set_attribute(name, value);
        self
    }

    /// Sets a numeric attribute (SVG geometry), one decimal.
    pub fn n(self, name: &str, value: f64) -> El {
        self.a(name, &format!("{value:.1}"))
    }

    pub fn c(self, class: &str) -> El {
        if class.is_empty() {
            self
        } else {
            self.a("class", class)
        }
    }

    /// Appends text.
    pub fn t(self, text: &str) -> El {
        let _ = self.0.append_with_str_1(text);
        self
    }

    /// Appends a child.
    pub fn k(self, child: El) -> El {
        let _ = self.0.append_with_node_1(&child.0);
        self
    }

    /// Appends children.
    pub fn ks(mut self, children: impl IntoIterator<Item = El>) -> El {
        for c in children {
            self = self.k(c);
        }
        self
    }

    pub fn opt(self, child: Option<El>) -> El {
        match child {
            Some(c) => self.k(c),
            None => self,
        }
    }
}

/// A Leptos-managed element whose content `build` makes from the signals it
/// reads, rebuilt whenever they change. A click on a `[data-act]` descendant
/// calls `on_act(act, arg)` with its `data-act` and `data-arg`.
pub fn host(
    class: &'static str,
    build: impl Fn() -> Option<El> + 'static,
    on_act: impl Fn(&str, &str) + 'static,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let content = build();
        if let Some(div) = node.get() {
            match content {
                Some(el) => div.replace_children_with_node_1(&el.0),
                None => div.replace_children_with_node_0(),
            }
        }
    });
    let click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        if let Some(el) = target.and_then(|t| t.closest("[data-act]").ok().flatten()) {
            let act = el.get_attribute("data-act").unwrap_or_default();
            let arg = el.get_attribute("data-arg").unwrap_or_default();
            on_act(&act, &arg);
        }
    };
    view! { <div class=class node_ref=node on:click=click></div> }
}
