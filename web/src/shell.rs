//! The page frame: header with language and unit switches, the two columns.

use leptos::prelude::*;
use web_sys::Element;

use crate::compare::gallery_block;
use crate::dom::{self, append, element, h, host, El};
use crate::i18n::{t, Lang, K};
use crate::inputs::inputs;
use crate::link::{self, share_link};
use crate::prefs;
use crate::results::results;
use crate::sheet;
use crate::state::App;
use gpuplan_core::present::Unit;

/// Builds the page into `<body>`: header, link notice, the two columns,
/// examples and the share panel. The answer comes first: the examples follow
/// the columns, and on a narrow screen the results stand above the inputs
/// (style.css). Every part is a patched block (`dom.rs`).
pub fn app() {
    let start = link::start();
    let embed = start.link.embed;
    // The page's bundle speaks one language, which the loader in index.html
    // chose (the link's, the saved one, the browser's).
    let lang = gpuplan_core::lang::ONLY.or(start.link.lang).unwrap_or_default();
    // A link's unit that is not a known code reads as the default.
    let unit = match start.link.unit.as_deref() {
        Some(code) => Unit::from_code(code).unwrap_or_default(),
        None => prefs::initial_unit(),
    };
    // A link's plan shows as given; a bare visit reopens the saved plan. An
    // embedded page is the host's: it neither reads nor writes the saved plan.
    let plan = if start.shared || embed { start.link.plan.clone() } else { prefs::saved_plan() };
    let app = App::new(plan, lang, unit);
    if !embed {
        prefs::keep_plan(app.settled);
    }
    prefs::set_document_lang(lang);
    sheet::load(app, start.link.host.clone());
    if embed {
        link::report_to_host(app);
    }
    let Some(page) = dom::document().and_then(|d| d.body()) else { return };
    if !embed {
        append(&page, header_block(app));
    }
    append(&page, link::notice(app, start.link.ignored.clone()));
    if let Some(main) = element("main", &[("id", "app"), ("class", "layout")]) {
        append(&main, inputs(app));
        append(&main, results(app));
        append(&page, Some(main));
    }
    append(&page, gallery_block(app));
    append(&page, share_link(app, embed, start.link.host.clone()));
}

/// Title, unit switch and language switch (not shown when embedded).
fn header_block(app: App) -> Option<Element> {
    let body = move || Some(header(app.lang, app.unit.get()));
    let on_act = move |act: &str, arg: &str| match act {
        "lang" => {
            let next = match app.lang {
                Lang::Zh => Lang::En,
                Lang::En => Lang::Zh,
            };
            prefs::save_lang(next);
            link::reopen_in(app, next);
        }
        "unit" => {
            if let Some(unit) = Unit::from_code(arg) {
                app.unit.set(unit);
                prefs::save_unit(unit);
            }
        }
        _ => {}
    };
    host("", body, on_act)
}

fn header(lang: Lang, unit: Unit) -> El {
    let brand = h("div")
        .c("brand")
        .k(h("h1").t("gpuplan ").k(h("span").c("title").t(t(lang, K::Title))))
        .k(h("p").c("tagline").t(t(lang, K::Tagline)));
    let button = |u: Unit| {
        h("button")
            .a("type", "button")
            .a("aria-pressed", if u == unit { "true" } else { "false" })
            .a("data-act", "unit")
            .a("data-arg", u.code())
            .t(u.symbol())
    };
    let units = h("div")
        .c("unit-switch")
        .a("role", "group")
        .a("aria-label", t(lang, K::UnitLabel))
        .a("data-testid", "unit-toggle")
        .k(button(Unit::Gb))
        .k(button(Unit::Gib));
    let toggle = h("button")
        .a("type", "button")
        .c("lang")
        .a("data-testid", "lang-toggle")
        .a("title", t(lang, K::LangToggleLabel))
        .a("lang", lang.pick("en", "zh-CN"))
        .a("data-act", "lang")
        .t(t(lang, K::LangToggle));
    h("header").c("top").k(brand).k(h("div").c("switches").k(units).k(toggle))
}
