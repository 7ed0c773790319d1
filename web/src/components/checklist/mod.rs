//! The pre-order checklist and acceptance guide the core fills from the
//! plan. Ticks live in the plan, so they travel in the share link.

use gpuplan_core::checklist::{self, Checklist as List, Item};
use leptos::prelude::*;

use crate::i18n::{t, K};
use crate::state::AppState;

/// Ticks `id`, or unticks it when it was ticked.
fn toggle(ticks: &mut Vec<String>, id: &str) {
    match ticks.iter().position(|t| t == id) {
        Some(at) => {
            ticks.remove(at);
        }
        None => ticks.push(id.to_string()),
    }
}

/// The titles of the list's sections, in order.
fn titles(c: &List) -> Vec<String> {
    c.sections.iter().map(|s| s.title.clone()).collect()
}

/// The ids of the items of the section titled `title`.
fn item_ids(c: &List, title: &str) -> Vec<&'static str> {
    c.sections.iter().filter(|s| s.title == title).flat_map(|s| s.items.iter().map(|i| i.id)).collect()
}

fn find<'a>(c: &'a List, id: &str) -> Option<&'a Item> {
    c.sections.iter().flat_map(|s| &s.items).find(|i| i.id == id)
}

type Shown = Memo<Option<List>>;

#[component]
pub fn Checklist(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let list: Shown = Memo::new(move |_| state.shown.with(|r| r.as_ref().map(|r| r.checklist.clone())));
    let read = move |f: fn(&List) -> String| move || list.with(|c| c.as_ref().map(f).unwrap_or_default());
    let sections = move || list.with(|c| c.as_ref().map(titles).unwrap_or_default());
    view! {
        <Show when=move || list.with(Option::is_some)>
            <section class="checklist" data-testid="checklist" aria-label=t(lang, K::ChecklistTitle)>
                <h3>{read(|c| c.title.clone())}</h3>
                <For each=sections key=|title| title.clone() let:title>
                    <ChecklistSection state list title/>
                </For>
                // A read-only textarea shows its text content: the reader cannot edit it.
                <details class="export">
                    <summary>{t(lang, K::ChecklistMarkdown)}</summary>
                    <label for="checklist-md">{t(lang, K::ChecklistMarkdownHint)}</label>
                    <textarea id="checklist-md" data-testid="checklist-md" readonly rows="12">
                        {read(checklist::to_markdown)}
                    </textarea>
                </details>
            </section>
        </Show>
    }
}

#[component]
fn ChecklistSection(state: AppState, list: Shown, title: String) -> impl IntoView {
    let ids = {
        let title = title.clone();
        move || list.with(|c| c.as_ref().map(|c| item_ids(c, &title)).unwrap_or_default())
    };
    view! {
        <h4>{title}</h4>
        <ul class="checks">
            <For each=ids key=|id| *id let:id>
                <CheckItem state list id/>
            </For>
        </ul>
    }
}

/// One item, found in the list by its id: its checkbox stays in place (and
/// keeps the focus) when it is ticked.
#[component]
fn CheckItem(state: AppState, list: Shown, id: &'static str) -> impl IntoView {
    let item = Memo::new(move |_| list.with(|c| c.as_ref().and_then(|c| find(c, id)).cloned()));
    let field = move |f: fn(&Item) -> Option<String>| move || item.with(|i| i.as_ref().and_then(f));
    let command = field(|i| i.command.clone());
    let expect = field(|i| i.expect.clone());
    let tick_id = format!("tick-{id}");
    view! {
        <li class=move || item.with(|i| i.as_ref().is_some_and(|i| i.risk)).then_some("risk")>
            <input
                type="checkbox"
                id=tick_id.clone()
                prop:checked=move || item.with(|i| i.as_ref().is_some_and(|i| i.ticked))
                on:change=move |_| state.plan.update(|p| toggle(&mut p.ticks, id))
            />
            <label for=tick_id>{field(|i| Some(i.text.clone()))}</label>
            {move || command().map(|c| view! { <pre tabindex="0"><code>{c}</code></pre> })}
            {move || expect().map(|e| view! { <p class="hint">{e}</p> })}
        </li>
    }
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

    #[test]
    fn every_item_is_found_by_its_section_and_id() {
        let plan = gpuplan_core::plan::Plan::default();
        let r = gpuplan_core::report::evaluate(&plan, gpuplan_core::lang::Lang::En).unwrap();
        let c = &r.checklist;
        let ids: Vec<_> = titles(c).iter().flat_map(|t| item_ids(c, t)).collect();
        assert!(ids.len() > 20);
        for id in ids {
            assert_eq!(find(c, id).map(|i| i.id), Some(id));
        }
    }
}
