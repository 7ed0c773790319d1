//! The share and embed panel (the plan's link and three snippets, each
//! selected whole on focus, ready to copy), and the notice of what a link
//! carried that could not be used.

use gpuplan_core::share::Ignored;
use gpuplan_core::snippets::{self, Snippets};
use leptos::prelude::*;

use crate::adapters::address;
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

#[component]
pub fn SharePanel(state: AppState, query: Memo<String>) -> impl IntoView {
    let lang = state.lang;
    let base = address::base();
    let url = {
        let base = base.clone();
        move || format!("{base}{}", query.get())
    };
    // The snippets follow the last valid plan, like the results.
    let snippets = Memo::new(move |prev: Option<&Option<Snippets>>| {
        state.outcome.with(|o| match o {
            Ok(r) => state.settled.with(|p| Some(snippets::snippets(p, r, lang, &base))),
            Err(_) => prev.cloned().flatten(),
        })
    });
    let pick = move |f: fn(&Snippets) -> &str| {
        move || snippets.with(|s| s.as_ref().map(f).unwrap_or_default().to_string())
    };
    view! {
        <section class="share" aria-labelledby="share-h">
            <h2 id="share-h">{t(lang, K::ShareTitle)}</h2>
            <label for="share-url">{t(lang, K::ShareLabel)}</label>
            <input id="share-url" data-testid="share-url" readonly prop:value=url on:focus=select_all/>
            <Snippet lang id="snippet-iframe" label=K::SnippetIframe text=pick(|s| &s.iframe)/>
            <Snippet lang id="snippet-wiki" label=K::SnippetWiki text=pick(|s| &s.wiki)/>
            <Snippet lang id="snippet-markdown" label=K::SnippetMarkdown text=pick(|s| &s.markdown)/>
        </section>
    }
}

#[component]
fn Snippet(
    lang: Lang,
    id: &'static str,
    label: K,
    text: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <label for=id>{t(lang, label)}</label>
        <textarea id=id data-testid=id readonly rows="5" prop:value=text on:focus=select_all></textarea>
    }
}

/// Focus selects a copy field's whole text, ready to copy. `select()` is
/// called by name, so this serves textareas as well.
fn select_all(ev: leptos::ev::FocusEvent) {
    if let Some(field) = ev.target() {
        wasm_bindgen::JsCast::unchecked_ref::<web_sys::HtmlInputElement>(&field).select();
    }
}

/// The parts of a link that could not be used, named; text only.
#[component]
pub fn LinkNotice(state: AppState, ignored: Vec<Ignored>) -> impl IntoView {
    let lang = state.lang;
    (!ignored.is_empty()).then(|| {
        let parts: Vec<String> = ignored.iter().map(|i| i.describe(lang)).collect();
        let text = format!("{} {}", t(lang, K::LinkIgnored), parts.join("; "));
        view! { <p class="notice link-notice" role="status" data-testid="notice">{text}</p> }
    })
}
