//! What the rented machine measured, read back into the plan: paste or pick
//! a benchmark's output (vLLM, SGLang, llama-bench, a trainer's log), see it
//! beside what the plan expected, and the plan made again from it. The
//! reading travels in the share link, so the panel also shows a colleague's
//! measurement when a link carries one. The core's readers run here, in
//! this part: an output is at most 1 MiB, read on the page's thread.

mod model;

use std::sync::Arc;

use gpuplan_core::measured;
use gpuplan_core::money::Currency;
use gpuplan_core::readback;
use leptos::prelude::*;

use crate::adapters::files::{from_event, read_start};
use crate::components::block::Block;
use crate::i18n::{t, Lang, K};
use crate::state::AppState;
use model::Shown;

/// A pasted output is read up to this (the core refuses more, with a notice).
const MAX_READ: u64 = (measured::MAX_BYTES as u64) + 1;

/// The plan made again from `output`, which the link and the report follow;
/// or why the output cannot be read back, said in `problem`.
fn read_back(state: AppState, problem: RwSignal<Option<String>>, output: &str) {
    let lang = state.lang;
    let plan = state.plan.get_untracked();
    let result = state.offers.with_untracked(|offers| {
        measured::read(output)
            .map_err(|n| n.message(lang))
            .and_then(|r| readback::readback(&plan, &r, offers, lang).map_err(|m| m.message(lang)))
    });
    match result {
        Ok(rb) => {
            problem.set(None);
            state.load(rb.plan);
        }
        Err(msg) => problem.set(Some(msg)),
    }
}

/// The settled plan's reading beside its expected figures, in the bill's
/// currency (the chosen option's, as the cost report prices it).
fn shown(state: AppState) -> Memo<Option<Arc<Shown>>> {
    let lang = state.lang;
    Memo::new(move |_| {
        let unit = state.unit.get();
        let currency = state.shown.with(|r| {
            let r = r.as_ref()?;
            let id = &r.selection.as_ref()?.option.as_ref()?.id;
            r.cost.options.iter().find(|o| &o.id == id).map(|o| o.currency)
        });
        state.offers.with(|offers| {
            state.settled.with(|p| {
                let reading = p.bench.as_ref()?;
                let rb = readback::readback(p, reading, offers, lang).ok()?;
                Some(Arc::new(model::shown(&rb, currency.unwrap_or(Currency::Usd), lang, unit)))
            })
        })
    })
}

#[component]
pub fn Measured(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let from_file = move |ev: leptos::ev::Event| {
        let Some(file) = from_event(&ev).into_iter().next() else { return };
        leptos::task::spawn_local(async move {
            match read_start(&file, MAX_READ).await {
                Ok(bytes) => read_back(state, problem, &String::from_utf8_lossy(&bytes)),
                Err(e) => problem.set(Some(format!("{}: {e}", file.name()))),
            }
        });
    };
    let shown = shown(state);
    view! {
        <Block id="measured-h" title=t(lang, K::MeasTitle) attr:data-testid="measured">
            <p class="hint">{t(lang, K::MeasHint)}</p>
            <textarea
                rows="4"
                aria-label=t(lang, K::MeasTitle)
                data-testid="measured-paste"
                prop:value=move || text.get()
                on:input=move |e| text.set(event_target_value(&e))
            ></textarea>
            <div class="control">
                <button type="button" class="primary" data-testid="measured-read" on:click=move |_| read_back(state, problem, &text.get_untracked())>
                    {t(lang, K::MeasRead)}
                </button>
                <label class="file-pick">
                    {t(lang, K::MeasFile)}
                    <input type="file" data-testid="measured-file" on:change=from_file/>
                </label>
            </div>
            {move || problem.get().map(|m| view! { <p class="error" role="alert" data-testid="measured-error">{m}</p> })}
            {move || shown.get().map(|s| view! { <Comparison shown=s lang/> })}
        </Block>
    }
}

/// Expected beside measured, the verdict and causes, and what changed.
#[component]
fn Comparison(shown: Arc<Shown>, lang: Lang) -> impl IntoView {
    let s = shown;
    let lines = s.lines.iter().map(|l| {
        let mark = if l.inside { "✓" } else { "✗" };
        view! {
            <tr class:off=!l.inside>
                <th scope="row">{l.name}</th>
                <td>{l.expected.clone()}</td>
                <td>{l.measured.clone()}</td>
                <td>{l.deviation.clone()}" "{mark}</td>
            </tr>
        }
    });
    let changes = s.changes.iter().map(|(what, before, after)| {
        view! { <tr><th scope="row">{*what}</th><td>{before.clone()}</td><td>{after.clone()}</td></tr> }
    });
    view! {
        <div class="readback" data-testid="readback">
            <p class="hint">{s.source.clone()}</p>
            <table>
                <thead>
                    <tr>
                        <th scope="col"></th>
                        <th scope="col">{t(lang, K::MeasExpected)}</th>
                        <th scope="col">{t(lang, K::MeasMeasured)}</th>
                        <th scope="col">{t(lang, K::MeasDeviation)}</th>
                    </tr>
                </thead>
                <tbody>{lines.collect_view()}</tbody>
            </table>
            <p data-testid="readback-verdict"><strong>{s.verdict.clone()}</strong></p>
            <ul>{s.causes.iter().map(|c| view! { <li>{c.clone()}</li> }).collect_view()}</ul>
            <table data-testid="readback-changes">
                <thead>
                    <tr>
                        <th scope="col">{t(lang, K::MeasReplanned)}</th>
                        <th scope="col">{t(lang, K::MeasBefore)}</th>
                        <th scope="col">{t(lang, K::MeasAfter)}</th>
                    </tr>
                </thead>
                <tbody>{changes.collect_view()}</tbody>
            </table>
        </div>
    }
}
