//! The page frame: header with language and unit switches, the two columns.

use leptos::prelude::*;

use crate::compare::Gallery;
use crate::fmt::Unit;
use crate::i18n::{t, Lang, K};
use crate::inputs::Inputs;
use crate::link::{self, Notice, ShareLink};
use crate::prefs;
use crate::results::Results;
use crate::sheet;
use crate::state::{use_app, App as State};

#[component]
pub fn App() -> impl IntoView {
    let start = link::start();
    let embed = start.link.embed;
    let lang = start.link.lang.unwrap_or_else(prefs::initial_lang);
    let unit = match start.link.unit.as_deref() {
        Some("gib") => Unit::Gib,
        Some(_) => Unit::Gb,
        None => prefs::initial_unit(),
    };
    // A link's plan shows as given; a bare visit reopens the saved plan. An
    // embedded page is the host's: it neither reads nor writes the saved plan.
    let plan = if start.shared || embed { start.link.plan.clone() } else { prefs::saved_plan() };
    let app = State::new(plan, lang, unit);
    provide_context(app);
    if !embed {
        prefs::keep_plan(app.settled);
    }
    Effect::new(move |_| prefs::set_document_lang(app.lang.get()));
    sheet::load(app, start.link.host.clone());
    if embed {
        link::report_to_host();
    }
    let ignored = start.link.ignored.clone();
    view! {
        <Show when=move || !embed><Header/></Show>
        <Notice ignored/>
        {move || {
            let lang = app.lang.get();
            view! { <Gallery lang/> }
        }}
        <main id="app" class="layout">
            <Inputs/>
            <Results/>
        </main>
        <ShareLink embed host=start.link.host.clone()/>
    }
}

#[component]
fn Header() -> impl IntoView {
    let app = use_app();
    let toggle_lang = move |_| {
        let next = match app.lang.get_untracked() {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        };
        app.lang.set(next);
        prefs::save_lang(next);
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1>"gpuplan " <span class="title">{move || t(app.lang.get(), K::Title)}</span></h1>
                <p class="tagline">{move || t(app.lang.get(), K::Tagline)}</p>
            </div>
            <div class="switches">
                <UnitSwitch/>
                <button
                    type="button"
                    class="lang"
                    data-testid="lang-toggle"
                    title=move || t(app.lang.get(), K::LangToggleLabel)
                    lang=move || app.lang.get().pick("en", "zh-CN")
                    on:click=toggle_lang
                >
                    {move || t(app.lang.get(), K::LangToggle)}
                </button>
            </div>
        </header>
    }
}

#[component]
fn UnitSwitch() -> impl IntoView {
    let app = use_app();
    let button = move |unit: Unit| {
        view! {
            <button
                type="button"
                aria-pressed=move || if app.unit.get() == unit { "true" } else { "false" }
                on:click=move |_| {
                    app.unit.set(unit);
                    prefs::save_unit(unit);
                }
            >
                {unit.symbol()}
            </button>
        }
    };
    view! {
        <div class="unit-switch" role="group" aria-label=move || t(app.lang.get(), K::UnitLabel) data-testid="unit-toggle">
            {button(Unit::Gb)}
            {button(Unit::Gib)}
        </div>
    }
}
