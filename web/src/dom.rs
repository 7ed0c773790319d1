//! The read-only result blocks (tables, charts, bills) as plain data, patched
//! into the page. Leptos views compile into code per distinct element
//! structure; these blocks are described from the report through a handful of
//! non-generic calls instead, which keeps the wasm bundle small (issue 10).
//! Between two reports only what differs touches the DOM: an edit changes some
//! figures, not the ~1,900 elements the blocks hold. Text always goes in as
//! text nodes, never as HTML.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Node};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// An element to be: tag, attributes and children. Boxed, so the builder
/// calls that pass it along by value move a pointer, not the whole element
/// (8 KB less code in the bundle).
#[derive(Debug, PartialEq)]
pub struct El(Box<Data>);

#[derive(Debug, PartialEq)]
struct Data {
    svg: bool,
    tag: &'static str,
    attrs: Vec<(&'static str, String)>,
    kids: Vec<Kid>,
}

#[derive(Debug, PartialEq)]
enum Kid {
    El(El),
    Text(String),
}

/// An HTML element.
pub fn h(tag: &'static str) -> El {
    El(Box::new(Data { svg: false, tag, attrs: Vec::new(), kids: Vec::new() }))
}

/// An SVG element.
pub fn s(tag: &'static str) -> El {
    El(Box::new(Data { svg: true, tag, attrs: Vec::new(), kids: Vec::new() }))
}

impl El {
    /// Sets an attribute (again: the last value counts, as in the DOM).
    pub fn a(mut self, name: &'static str, value: &str) -> El {
        match self.0.attrs.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => value.clone_into(&mut slot.1),
            None => self.0.attrs.push((name, value.to_string())),
        }
        self
    }

    /// Sets a numeric attribute (SVG geometry), one decimal.
    pub fn n(self, name: &'static str, value: f64) -> El {
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
    pub fn t(mut self, text: &str) -> El {
        self.0.kids.push(Kid::Text(text.to_string()));
        self
    }

    /// Appends a child.
    pub fn k(mut self, child: El) -> El {
        self.0.kids.push(Kid::El(child));
        self
    }

    /// Appends children.
    pub fn ks(mut self, children: impl IntoIterator<Item = El>) -> El {
        self.0.kids.extend(children.into_iter().map(Kid::El));
        self
    }

    pub fn opt(self, child: Option<El>) -> El {
        match child {
            Some(c) => self.k(c),
            None => self,
        }
    }
}

impl Data {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }
}

/// Sets (or with `None` removes) an attribute. A checkbox's `checked`
/// attribute stops steering the box once it has been clicked, so the live
/// state is set too: a plan loaded later still shows its own ticks.
fn set(el: &Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
    if name == "checked" {
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_checked(value.is_some());
        }
    }
}

/// A new DOM node for `kid`; None only if the document refuses the tag.
fn create(doc: &Document, kid: &Kid) -> Option<Node> {
    let e = match kid {
        Kid::Text(text) => return Some(doc.create_text_node(text).into()),
        Kid::El(El(e)) => e,
    };
    let el = if e.svg { doc.create_element_ns(Some(SVG_NS), e.tag) } else { doc.create_element(e.tag) };
    let el = el.ok()?;
    for (name, value) in &e.attrs {
        set(&el, name, Some(value));
    }
    for kid in &e.kids {
        if let Some(node) = create(doc, kid) {
            let _ = el.append_child(&node);
        }
    }
    Some(el.into())
}

/// Makes `node`, drawn from `old`, show `new`: same element, so its
/// attributes and children are patched; otherwise it is replaced.
fn patch(doc: &Document, parent: &Node, node: &Node, old: &Kid, new: &Kid) {
    match (old, new) {
        (Kid::Text(a), Kid::Text(b)) => {
            if a != b {
                node.set_node_value(Some(b));
            }
        }
        (Kid::El(El(a)), Kid::El(El(b))) if a.tag == b.tag && a.svg == b.svg => {
            let Some(el) = node.dyn_ref::<Element>() else { return };
            for (name, value) in &b.attrs {
                if a.attr(name) != Some(value) {
                    set(el, name, Some(value));
                }
            }
            // Only attributes this code set are removed: a <details> the
            // reader opened stays open.
            for (name, _) in &a.attrs {
                if b.attr(name).is_none() {
                    set(el, name, None);
                }
            }
            patch_kids(doc, node, &a.kids, &b.kids);
        }
        _ => {
            if let Some(fresh) = create(doc, new) {
                let _ = parent.replace_child(&fresh, node);
            }
        }
    }
}

/// Patches `parent`'s children, drawn from `old`, to show `new`, pairwise by position.
fn patch_kids(doc: &Document, parent: &Node, old: &[Kid], new: &[Kid]) {
    let list = parent.child_nodes();
    let nodes: Vec<Node> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    for (i, kid) in new.iter().enumerate() {
        match (old.get(i), nodes.get(i)) {
            (Some(o), Some(node)) => patch(doc, parent, node, o, kid),
            _ => {
                if let Some(node) = create(doc, kid) {
                    let _ = parent.append_child(&node);
                }
            }
        }
    }
    for node in nodes.iter().skip(new.len()) {
        let _ = parent.remove_child(node);
    }
}

/// A Leptos-managed element whose content `build` makes from the signals it
/// reads, patched whenever they change. A click on a `[data-act]` descendant
/// calls `on_act(act, arg)` with its `data-act` and `data-arg`.
pub fn host(
    class: &'static str,
    build: impl Fn() -> Option<El> + 'static,
    on_act: impl Fn(&str, &str) + 'static,
) -> AnyView {
    // Boxed: one compiled effect and view for every block, not one per block.
    mount(class, Box::new(build), Box::new(on_act))
}

type Build = Box<dyn Fn() -> Option<El>>;
type OnAct = Box<dyn Fn(&str, &str)>;

fn mount(class: &'static str, build: Build, on_act: OnAct) -> AnyView {
    let node = NodeRef::<leptos::html::Div>::new();
    // The effect's value is what the element shows now.
    Effect::new(move |shown: Option<Vec<Kid>>| {
        let new: Vec<Kid> = build().map(Kid::El).into_iter().collect();
        let Some(div) = node.get() else { return Vec::new() };
        let Some(doc) = div.owner_document() else { return Vec::new() };
        // Anything else in the element (a first run, a node Leptos left)
        // is cleared rather than patched.
        let mut shown = shown.unwrap_or_default();
        if div.child_nodes().length() as usize != shown.len() {
            div.replace_children_with_node_0();
            shown.clear();
        }
        patch_kids(&doc, &div, &shown, &new);
        new
    });
    let click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        if let Some(el) = target.and_then(|t| t.closest("[data-act]").ok().flatten()) {
            let act = el.get_attribute("data-act").unwrap_or_default();
            let arg = el.get_attribute("data-arg").unwrap_or_default();
            on_act(&act, &arg);
        }
    };
    view! { <div class=class node_ref=node on:click=click></div> }.into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_set_twice_keep_the_last_value() {
        let el = h("td").a("class", "a").c("b").c("").n("x", 1.25);
        assert_eq!(el.0.attr("class"), Some("b"));
        assert_eq!(el.0.attr("x"), Some("1.2"));
        assert_eq!(el.0.attrs.len(), 2);
    }

    #[test]
    fn children_keep_their_order() {
        let el = h("p").t("a").k(h("b")).ks([h("i"), h("u")]).opt(None).opt(Some(h("s")));
        let tags: Vec<&str> =
            el.0.kids
                .iter()
                .map(|k| match k {
                    Kid::El(e) => e.0.tag,
                    Kid::Text(t) => t.as_str(),
                })
                .collect();
        assert_eq!(tags, ["a", "b", "i", "u", "s"]);
    }
}
