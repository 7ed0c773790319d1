//! The page (inputs, results, tables, charts, share panel, its frame) as
//! plain data, patched into the DOM. Leptos views compile into code per
//! distinct element structure; these blocks are described through a handful
//! of non-generic calls instead, and the page uses no Leptos view at all, so
//! the view renderer stays out of the wasm bundle (issue 10). Leptos keeps
//! the state and reruns a block's description when what it reads changes;
//! only what differs touches the DOM: an edit changes some figures, not the
//! thousands of elements the blocks hold. Events reach a block's code
//! through `data-act` attributes. Text always goes in as text nodes, never as
//! HTML.

use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
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

    /// Sets a boolean attribute (`checked`, `selected`, `hidden`, `open`)
    /// when `on`, else leaves it off.
    pub fn flag(self, name: &'static str, on: bool) -> El {
        if on {
            self.a(name, "")
        } else {
            self
        }
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

/// A result block: a section titled by its heading (`id` names the heading).
pub fn block(id: &str, title: &str) -> El {
    h("section").c("block").a("aria-labelledby", id).k(h("h3").a("id", id).t(title))
}

/// Sets (or with `None` removes) an attribute.
fn set(el: &Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}

/// Makes a form control's live state what `e` says, whatever the user did
/// to it since: once touched, a control no longer follows its `checked`,
/// `selected` or `value` attribute, and a control patched to show another
/// option or field keeps the state of the old one. A text equal to the live
/// one is left alone, so the caret of the field being typed in stays put.
fn sync(el: &Element, e: &Data) {
    let (name, want) = match (e.tag, e.attr("type")) {
        ("input", Some("checkbox" | "radio")) => ("checked", JsValue::from_bool(e.attr("checked").is_some())),
        ("option", _) => ("selected", JsValue::from_bool(e.attr("selected").is_some())),
        ("input", _) => match e.attr("value") {
            Some(v) => ("value", JsValue::from_str(v)),
            None => return,
        },
        _ => return,
    };
    if prop(el, name) != want {
        let _ = js_sys::Reflect::set(el, &JsValue::from_str(name), &want);
    }
}

/// A live property of an element (a control's `value` or `checked`).
fn prop(el: &Element, name: &str) -> JsValue {
    js_sys::Reflect::get(el, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
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
            sync(el, b);
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
/// A child the same as before is skipped whole, without a call into the DOM:
/// an edit changes a few of the hundreds of elements a block holds.
fn patch_kids(doc: &Document, parent: &Node, old: &[Kid], new: &[Kid]) {
    let list = parent.child_nodes();
    // Replacing a child keeps the others' positions; extra ones go last.
    let extra: Vec<Node> = (new.len()..old.len()).filter_map(|i| list.item(i as u32)).collect();
    for (i, kid) in new.iter().enumerate() {
        match old.get(i) {
            Some(o) if o == kid => {}
            Some(o) => {
                if let Some(node) = list.item(i as u32) {
                    patch(doc, parent, &node, o, kid);
                }
            }
            None => {
                if let Some(node) = create(doc, kid) {
                    let _ = parent.append_child(&node);
                }
            }
        }
    }
    for node in extra {
        let _ = parent.remove_child(&node);
    }
}

/// A `div` whose content `build` makes from the signals it reads, patched
/// whenever they change. A click on a `[data-act]` descendant calls
/// `on_act(act, arg)` with its `data-act` and `data-arg`.
pub fn host(
    class: &'static str,
    build: impl Fn() -> Option<El> + Send + Sync + 'static,
    on_act: impl Fn(&str, &str) + 'static,
) -> Option<Element> {
    let on = move |ev: Ev, act: &str, arg: &str, _: &Element| {
        if ev == Ev::Click {
            on_act(act, arg);
        }
    };
    // Boxed: one compiled effect for every block, not one per block.
    mount(class, Box::new(build), Box::new(on))
}

/// What happened to a `[data-act]` element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ev {
    /// A click on it or inside it.
    Click,
    /// Its text changed (typing).
    Input,
    /// Its choice changed (a select, radio button or checkbox).
    Change,
    /// It got the focus.
    Focus,
}

type Build = Box<dyn Fn() -> Option<El> + Send + Sync>;
type On = Box<dyn Fn(Ev, &str, &str, &Element)>;

/// The document of the page.
pub fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// A new element with these attributes, for the page's fixed frame.
pub fn element(tag: &str, attrs: &[(&str, &str)]) -> Option<Element> {
    let el = document()?.create_element(tag).ok()?;
    for (name, value) in attrs {
        let _ = el.set_attribute(name, value);
    }
    Some(el)
}

thread_local! {
    /// The elements effects write to. An effect that is `Send` skips
    /// Leptos's thread check on every run (and its 2 KB of wasm); a DOM
    /// element is not `Send`, so such effects hold an index into this list.
    static NODES: std::cell::RefCell<Vec<Element>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `el` for effects; its index in [`NODES`].
fn keep(el: &Element) -> usize {
    NODES.with(|nodes| {
        let mut nodes = nodes.borrow_mut();
        nodes.push(el.clone());
        nodes.len() - 1
    })
}

fn kept(i: usize) -> Option<Element> {
    NODES.with(|nodes| nodes.borrow().get(i).cloned())
}

fn mount(class: &'static str, build: Build, on: On) -> Option<Element> {
    let div = element("div", &[])?;
    if !class.is_empty() {
        let _ = div.set_attribute("class", class);
    }
    let i = keep(&div);
    // The effect's value is what the element shows now.
    Effect::new_sync(move |shown: Option<Vec<Kid>>| {
        let new: Vec<Kid> = build().map(Kid::El).into_iter().collect();
        let Some(shown_in) = kept(i) else { return Vec::new() };
        let Some(doc) = shown_in.owner_document() else { return Vec::new() };
        let mut shown = shown.unwrap_or_default();
        if shown_in.child_nodes().length() as usize != shown.len() {
            shown_in.replace_children_with_node_0();
            shown.clear();
        }
        patch_kids(&doc, &shown_in, &shown, &new);
        new
    });
    let dispatch = move |kind: Ev, ev: web_sys::Event| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        // A click counts for the element it lands in; typing and changes
        // only for the control itself.
        let el = match kind {
            Ev::Click => target.closest("[data-act]").ok().flatten(),
            _ => target.has_attribute("data-act").then_some(target),
        };
        if let Some(el) = el {
            let act = el.get_attribute("data-act").unwrap_or_default();
            let arg = el.get_attribute("data-arg").unwrap_or_default();
            on(kind, &act, &arg, &el);
        }
    };
    let dispatch = std::rc::Rc::new(dispatch);
    for (name, kind) in
        [("click", Ev::Click), ("input", Ev::Input), ("change", Ev::Change), ("focusin", Ev::Focus)]
    {
        let dispatch = dispatch.clone();
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |ev| dispatch(kind, ev));
        let _ = div.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        // The block lives as long as the page.
        listener.forget();
    }
    Some(div)
}

/// Reading an element to be, for tests of the code that builds it.
#[cfg(test)]
impl El {
    /// Its text, descendants' included.
    pub fn text(&self) -> String {
        self.0
            .kids
            .iter()
            .map(|k| match k {
                Kid::Text(t) => t.clone(),
                Kid::El(e) => e.text(),
            })
            .collect()
    }

    /// The attribute `name` of the first element (itself included, depth first) with tag `tag`.
    pub fn find(&self, tag: &str, name: &str) -> Option<&str> {
        if self.0.tag == tag {
            return self.0.attr(name);
        }
        self.0.kids.iter().find_map(|k| match k {
            Kid::El(e) => e.find(tag, name),
            Kid::Text(_) => None,
        })
    }
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
