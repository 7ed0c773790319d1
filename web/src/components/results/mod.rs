//! The results column: its heading, the invalid-plan notice, and the blocks,
//! each redrawn on its own. The answer comes first; on a narrow screen the
//! column stands above the inputs (style.css).

use leptos::prelude::*;

use crate::components::budget::budget_part;
use crate::components::checklist::Checklist;
use crate::components::compare::Compare;
use crate::components::cost::CostBlock;
use crate::components::fit::FitTable;
use crate::components::headline::{AnswerBlock, Headline, Why};
use crate::components::market::MarketBlock;
use crate::components::measured::readback_part;
use crate::components::memory_chart::MemoryChart;
use crate::components::offers::OffersBlock;
use crate::components::price_sheet::PriceSheet;
use crate::components::serving::Serving;
use crate::i18n::{t, K};
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
                <FitTable state/>
                <CostBlock state/>
                <OffersBlock state/>
                <PriceSheet state/>
                <MarketBlock state/>
                <Checklist state/>
                {readback_part(state)}
                <Compare state/>
            </div>
        </section>
    }
}

/// The project's budget, its part loaded once the project has two
/// workloads or more (with one, the page is the plan's).
#[component]
fn Budget(state: AppState) -> impl IntoView {
    let several = Memo::new(move |_| state.project.current.with(|p| p.workloads.len() > 1));
    move || several.get().then(|| budget_part(state))
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
