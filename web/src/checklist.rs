//! The pre-order checklist and acceptance guide the core fills from the
//! plan. Ticks live in the plan, so they travel in the share link.

use gpuplan_core::checklist::{self, Item};
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{h, host, El};
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

pub fn checklist(app: AppState) -> Option<Element> {
    let body = move || {
        let lang = app.lang;
        app.shown.with(|r| r.as_ref().map(|r| list(&r.checklist, lang)))
    };
    let on_act = move |act: &str, id: &str| {
        if act == "tick" {
            app.plan.update(|p| toggle(&mut p.ticks, id));
        }
    };
    host("", body, on_act)
}

/// Ticks `id`, or unticks it when it was ticked.
fn toggle(ticks: &mut Vec<String>, id: &str) {
    match ticks.iter().position(|t| t == id) {
        Some(at) => {
            ticks.remove(at);
        }
        None => ticks.push(id.to_string()),
    }
}

fn list(c: &checklist::Checklist, lang: Lang) -> El {
    let sections = c
        .sections
        .iter()
        .flat_map(|s| [h("h4").t(&s.title), h("ul").c("checks").ks(s.items.iter().map(item))]);
    // A read-only textarea shows its text content: the reader cannot edit it.
    let export = h("details")
        .c("export")
        .k(h("summary").t(t(lang, K::ChecklistMarkdown)))
        .k(h("label").a("for", "checklist-md").t(t(lang, K::ChecklistMarkdownHint)))
        .k(h("textarea")
            .a("id", "checklist-md")
            .a("data-testid", "checklist-md")
            .a("readonly", "")
            .a("rows", "12")
            .t(&checklist::to_markdown(c)));
    h("section")
        .c("checklist")
        .a("data-testid", "checklist")
        .a("aria-label", t(lang, K::ChecklistTitle))
        .k(h("h3").t(&c.title))
        .ks(sections)
        .k(export)
}

fn item(i: &Item) -> El {
    let id = format!("tick-{}", i.id);
    let tick = h("input").a("type", "checkbox").a("id", &id).a("data-act", "tick").a("data-arg", i.id);
    h("li")
        .c(if i.risk { "risk" } else { "" })
        .k(tick.flag("checked", i.ticked))
        .k(h("label").a("for", &id).t(&i.text))
        .opt(i.command.as_ref().map(|c| h("pre").a("tabindex", "0").k(h("code").t(c))))
        .opt(i.expect.as_ref().map(|e| h("p").c("hint").t(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_toggles() {
        let mut ticks = vec!["a".to_string()];
        toggle(&mut ticks, "b");
        toggle(&mut ticks, "a");
        assert_eq!(ticks, ["b"]);
    }
}
