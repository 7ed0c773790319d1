//! The page's URL: the plan is read from the share link at start, written
//! back with `history.replaceState` once each change has settled (the frame
//! after the edit; no history entries, no scroll), and in embed mode the page reports its height and plan to the host.

use gpuplan_core::lang::Lang;
use gpuplan_core::share::{self, Link};
use gpuplan_core::snippets::{self, Snippets};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use crate::dom::{form, h, host, Ev};
use crate::i18n::{t, K};
use crate::state::AppState;

/// What the address bar carried when the page opened.
pub struct Start {
    /// The plan, display choices, embed mode and host origin the link carried.
    pub link: Link,
    /// The query had plan keys (a share link, not a bare visit).
    pub shared: bool,
}

pub fn start() -> Start {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let display =
        |kv: &str| matches!(kv.split('=').next(), Some("" | "v" | "lang" | "unit" | "embed" | "host"));
    Start { shared: !search.trim_start_matches('?').split('&').all(display), link: share::decode(&search) }
}

/// Reopens the page on the current plan in `lang`: each language is a bundle
/// of its own, which the loader in index.html picks by the link's `lang`.
pub fn reopen_in(app: AppState, lang: Lang) {
    let q = app.plan.with_untracked(|p| share::encode(p, Some(lang), Some(app.unit.get_untracked().code())));
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_search(&q);
    }
}

/// The share link of the current plan, kept in the address bar.
pub fn share_link(app: AppState, embed: bool, host: Option<String>) -> Option<Element> {
    let query = Memo::new(move |_| {
        let q = app.settled.with(|p| share::encode(p, Some(app.lang), Some(app.unit.get().code())));
        let extra = match (embed, &host) {
            (true, Some(h)) => format!("&embed=1&host={h}"),
            (true, None) => "&embed=1".to_string(),
            _ => String::new(),
        };
        format!("?{q}{extra}")
    });
    Effect::new_sync(move |_| {
        let q = query.get();
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&q));
        }
    });
    // The snippets follow the last valid plan, like the results.
    let snippets = Memo::new(move |prev: Option<&Option<Snippets>>| {
        let lang = app.lang;
        app.outcome.with(|o| match o {
            Ok(r) => app.settled.with(|p| Some(snippets::snippets(p, r, lang, &page_base()))),
            Err(_) => prev.cloned().flatten(),
        })
    });
    let body = move || {
        let lang = app.lang;
        let full = format!("{}{}", page_base(), query.get());
        let area = |id: &str, key: K, text: &str| {
            let area = h("textarea").a("id", id).a("data-testid", id).a("readonly", "").a("rows", "5");
            [h("label").a("for", id).t(t(lang, key)), area.a("data-act", "copy").t(text)]
        };
        snippets.with(|s| {
            let pick = |f: fn(&Snippets) -> &str| s.as_ref().map_or("", f);
            let url = h("input")
                .a("id", "share-url")
                .a("data-testid", "share-url")
                .a("readonly", "")
                .a("value", &full);
            let section = h("section")
                .c("share")
                .a("aria-labelledby", "share-h")
                .k(h("h2").a("id", "share-h").t(t(lang, K::ShareTitle)))
                .k(h("label").a("for", "share-url").t(t(lang, K::ShareLabel)))
                .k(url.a("data-act", "copy"))
                .ks(area("snippet-iframe", K::SnippetIframe, pick(|s| &s.iframe)))
                .ks(area("snippet-wiki", K::SnippetWiki, pick(|s| &s.wiki)))
                .ks(area("snippet-markdown", K::SnippetMarkdown, pick(|s| &s.markdown)));
            Some(section)
        })
    };
    // Focus selects a copy field's whole text, ready to copy. `select()` is
    // called by name, so this serves textareas as well.
    form("", body, |ev, act, _, el| {
        if ev == Ev::Focus && act == "copy" {
            el.unchecked_ref::<web_sys::HtmlInputElement>().select();
        }
    })
}

/// The page's address without its query: the base of links and snippets.
fn page_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The parts of a link that could not be used, named; text only.
pub fn notice(app: AppState, ignored: Vec<share::Ignored>) -> Option<Element> {
    if ignored.is_empty() {
        return None;
    }
    let body = move || {
        let lang: Lang = app.lang;
        let parts: Vec<String> = ignored.iter().map(|i| i.describe(lang)).collect();
        let text = format!("{} {}", t(lang, K::LinkIgnored), parts.join("; "));
        Some(h("p").c("notice link-notice").a("role", "status").a("data-testid", "notice").t(&text))
    };
    host("", body, |_, _| {})
}

/// Embed mode: tell the host page our height and plan whenever they change.
pub fn report_to_host(app: AppState) {
    Effect::new_sync(move |_| {
        let summary = app.shown.with(|r| r.as_ref().map(|r| r.memory.per_gpu_bytes));
        let link = app.settled.with(|p| share::encode(p, None, None));
        // After the DOM update: measure on the next frame.
        request_animation_frame(move || post(summary, &link));
    });
}

fn post(peak_bytes: Option<u64>, link: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(Some(parent)) = window.parent() else { return };
    let height = window.document().and_then(|d| d.document_element()).map_or(0, |e| e.scroll_height());
    let message = |pairs: &[(&str, JsValue)]| {
        let obj = js_sys::Object::new();
        for (k, v) in pairs {
            let _ = js_sys::Reflect::set(&obj, &JsValue::from_str(k), v);
        }
        obj
    };
    let source = ("source", JsValue::from_str("gpuplan"));
    let size = message(&[source.clone(), ("type", "height".into()), ("height", height.into())]);
    let _ = parent.post_message(&size, "*");
    let summary =
        message(&[("per_gpu_bytes", peak_bytes.map_or(JsValue::NULL, |b| JsValue::from_f64(b as f64)))]);
    let plan =
        message(&[source, ("type", "plan".into()), ("summary", summary.into()), ("link", link.into())]);
    let _ = parent.post_message(&plan, "*");
}
