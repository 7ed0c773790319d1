//! The pre-order checklist and acceptance guide the core fills from the
//! plan. Ticks live in the plan, so they travel in the share link.

use gpuplan_core::checklist::Item;
use leptos::prelude::*;

use crate::i18n::{t, Lang, K};
use crate::state::use_app;

#[component]
pub fn Checklist(lang: Lang) -> impl IntoView {
    let app = use_app();
    move || {
        app.shown.with(|r| {
            r.as_ref().map(|r| {
                let sections = r
                    .checklist
                    .sections
                    .iter()
                    .map(|s| {
                        let items = s.items.iter().map(item).collect_view();
                        view! { <h4>{s.title.clone()}</h4><ul class="checks">{items}</ul> }
                    })
                    .collect_view();
                let markdown = gpuplan_core::checklist::to_markdown(&r.checklist);
                view! {
                    <section class="checklist" data-testid="checklist" aria-label=t(lang, K::ChecklistTitle)>
                        <h3>{r.checklist.title.clone()}</h3>
                        {sections}
                        <details class="export">
                            <summary>{t(lang, K::ChecklistMarkdown)}</summary>
                            <label for="checklist-md">{t(lang, K::ChecklistMarkdownHint)}</label>
                            <textarea id="checklist-md" data-testid="checklist-md" readonly rows="12" prop:value=markdown></textarea>
                        </details>
                    </section>
                }
            })
        })
    }
}

fn item(i: &Item) -> impl IntoView {
    let app = use_app();
    let id = i.id;
    let toggle = move |_| {
        app.plan.update(|p| {
            if let Some(at) = p.ticks.iter().position(|t| t == id) {
                p.ticks.remove(at);
            } else {
                p.ticks.push(id.to_string());
            }
        })
    };
    let box_id = format!("tick-{id}");
    view! {
        <li class:risk=i.risk>
            <input type="checkbox" id=box_id.clone() prop:checked=i.ticked on:change=toggle/>
            <label for=box_id>{i.text.clone()}</label>
            {i.command.clone().map(|c| view! { <pre tabindex="0"><code>{c}</code></pre> })}
            {i.expect.clone().map(|e| view! { <p class="hint">{e}</p> })}
        </li>
    }
}
