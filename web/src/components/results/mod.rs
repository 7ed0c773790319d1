//! The results column: its heading, the invalid-plan notice, and the blocks,
//! each redrawn on its own. The answer comes first; on a narrow screen the
//! column stands above the inputs (style.css).

use leptos::prelude::*;

use crate::components::checklist::Checklist;
use crate::components::compare::Compare;
use crate::components::cost::CostBlock;
use crate::components::fit::FitTable;
use crate::components::legacy::Legacy;
use crate::i18n::{t, K};
use crate::memchart::mem_chart;
use crate::results::{answer_block, headline_block, why_block};
use crate::serving::serving_block;
use crate::state::AppState;

#[component]
pub fn Results(state: AppState) -> impl IntoView {
    let stale = move || state.errors(|e| e.is_some());
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">{t(state.lang, K::Results)}</h2>
            <StaleNotice state/>
            <div class="result-body" class:stale=stale>
                <Legacy block=headline_block(state)/>
                <Legacy block=answer_block(state)/>
                <Legacy block=why_block(state)/>
                <Legacy block=serving_block(state)/>
                <Legacy block=mem_chart(state)/>
                <FitTable state/>
                <CostBlock state/>
                <Checklist state/>
                <Compare state/>
            </div>
        </section>
    }
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
