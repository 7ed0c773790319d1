//! The page's title with the memory-unit and language switches (not shown
//! when embedded).

use gpuplan_core::present::Unit;
use leptos::prelude::*;

use crate::i18n::{t, Lang, K};
use crate::link;
use crate::prefs;
use crate::state::AppState;

#[component]
pub fn Header(state: AppState) -> impl IntoView {
    let lang = state.lang;
    view! {
        <header class="top">
            <div class="brand">
                <h1>"gpuplan " <span class="title">{t(lang, K::Title)}</span></h1>
                <p class="tagline">{t(lang, K::Tagline)}</p>
            </div>
            <div class="switches">
                <div class="unit-switch" role="group" aria-label=t(lang, K::UnitLabel) data-testid="unit-toggle">
                    <UnitButton state unit=Unit::Gb/>
                    <UnitButton state unit=Unit::Gib/>
                </div>
                <button
                    type="button"
                    class="lang"
                    data-testid="lang-toggle"
                    title=t(lang, K::LangToggleLabel)
                    lang=lang.pick("en", "zh-CN")
                    on:click=move |_| switch_language(state)
                >
                    {t(lang, K::LangToggle)}
                </button>
            </div>
        </header>
    }
}

#[component]
fn UnitButton(state: AppState, unit: Unit) -> impl IntoView {
    let pressed = move || if state.unit.get() == unit { "true" } else { "false" };
    let choose = move |_| {
        state.unit.set(unit);
        prefs::save_unit(unit);
    };
    view! {
        <button type="button" aria-pressed=pressed on:click=choose>
            {unit.symbol()}
        </button>
    }
}

/// Each language is a bundle of its own: switching reopens the page on the
/// same plan in the other one, and remembers the choice.
fn switch_language(state: AppState) {
    let next = match state.lang {
        Lang::Zh => Lang::En,
        Lang::En => Lang::Zh,
    };
    prefs::save_lang(next);
    link::reopen_in(state, next);
}
