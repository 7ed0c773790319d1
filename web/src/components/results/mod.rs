//! The results column: its heading, the invalid-plan notice, and the blocks,
//! each redrawn on its own. The answer comes first; on a narrow screen the
//! column stands above the inputs (style.css). The long tables (every GPU,
//! every purchase option) and the blocks below them load on demand
//! (`crate::parts`): the answer above them already names the GPUs and the cost.

use leptos::prelude::*;

use crate::components::headline::{AnswerBlock, Headline, Why};
use crate::components::lazy::LazyPart;
use crate::components::memory_chart::MemoryChart;
use crate::components::serving::Serving;
use crate::i18n::{t, K};
use crate::parts;
use crate::state::AppState;

#[component]
pub fn Results(state: AppState) -> impl IntoView {
    let stale = move || state.errors(|e| e.is_some());
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">{t(state.lang, K::Results)}</h2>
            <StaleNotice state/>
            <div class="result-body" class:stale=stale>
                <Headline state/>
                <AnswerBlock state/>
                <Budget state/>
                <Why state/>
                <Serving state/>
                <MemoryChart state/>
                <LazyPart state load=parts::fit id="fit"/>
                <LazyPart state load=parts::cost id="cost"/>
                <LazyPart state load=parts::offers id="offers"/>
                <LazyPart state load=parts::price_sheet id="price-sheet"/>
                <LazyPart state load=parts::market id="market"/>
                <LazyPart state load=parts::checklist id="checklist"/>
                <LazyPart state load=parts::readback id="readback"/>
                <LazyPart state load=parts::compare id="compare"/>
            </div>
        </section>
    }
}

/// The project's budget, its part fetched as soon as the project has two
/// workloads or more (with one, the page is the plan's), without waiting:
/// a project's link opens with its budget.
#[component]
fn Budget(state: AppState) -> impl IntoView {
    let several = Memo::new(move |_| state.project.current.with(|p| p.workloads.len() > 1));
    move || several.get().then(|| view! { <LazyPart state load=parts::budget id="budget" eager=true/> })
}

/// While the plan is invalid: every problem, and a note that what follows is
/// the last valid result.
#[component]
fn StaleNotice(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let messages = move || {
        state.errors(|errs| errs.map(|errs| errs.iter().map(|e| e.message(lang)).collect::<Vec<_>>()))
    };
    move || {
        messages().map(|messages| {
            view! {
                <div class="notice stale-note" role="status">
                    <p>{t(lang, K::Stale)}</p>
                    <ul>{messages.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}
