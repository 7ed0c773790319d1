//! The embedded widget (`?embed=1`): a few inputs and the answer (memory per
//! GPU with its bar, the GPUs to order, the cheapest option) and a link to
//! the whole page with the same plan. A host adds blocks below (`show=`),
//! fixes fields (`lock=`) and picks the theme and accent (`theme=`,
//! `accent=`); the page stays short enough for a product page or a wiki.

use gpuplan_core::share::{self, Embed, EmbedBlock};
use leptos::prelude::*;

use crate::adapters::address;
use crate::components::headline::{AnswerBlock, Headline};
use crate::components::inputs::CompactInputs;
use crate::components::lazy::LazyPart;
use crate::components::memory_chart::MemoryChart;
use crate::components::serving::Serving;
use crate::i18n::{t, K};
use crate::parts;
use crate::state::AppState;

#[component]
pub fn Compact(state: AppState, options: Embed) -> impl IntoView {
    let lang = state.lang;
    // The whole page on the same plan, in a tab of its own.
    let full = move || {
        let q = state.settled.with(|p| share::encode(p, Some(lang), Some(state.unit.get().code())));
        format!("{}?{q}", address::base())
    };
    let blocks = options.show.iter().map(|b| match b {
        EmbedBlock::Memory => view! { <MemoryChart state/> }.into_any(),
        EmbedBlock::Fit => view! { <LazyPart state load=parts::fit id="fit"/> }.into_any(),
        EmbedBlock::Cost => view! { <LazyPart state load=parts::cost id="cost"/> }.into_any(),
        EmbedBlock::Serving => view! { <Serving state/> }.into_any(),
        // The long blocks are parts of their own: a widget without them never fetches them.
        EmbedBlock::Checklist => view! { <LazyPart state load=parts::checklist id="checklist"/> }.into_any(),
    });
    view! {
        <main id="app" class="compact" data-testid="compact">
            <CompactInputs state locked=options.lock.clone()/>
            <div class="result-body">
                <Headline state/>
                <AnswerBlock state/>
                <p class="open-full">
                    <a href=full target="_blank" rel="noopener" data-testid="open-full">{t(lang, K::OpenFullPlan)}</a>
                </p>
                {blocks.collect_view()}
            </div>
        </main>
    }
}
