//! The serving block of an inference plan: the chosen GPU's expected
//! latency and throughput with their ranges and derivations, the physics
//! bounds, the GPUs the targets need, and TPOT and throughput against
//! concurrency. It follows the settled report.

mod model;

use gpuplan_core::plan::Task;
use leptos::prelude::*;

use crate::components::block::Block;
use crate::components::chart::LineChart;
use crate::i18n::{t, Lang, K};
use crate::state::AppState;
use model::{Count, Figures, Item};

#[component]
pub fn Serving(state: AppState) -> impl IntoView {
    let lang = state.lang;
    move || {
        if state.settled.with(|p| p.task) != Task::Infer {
            return None;
        }
        let at_plan_load = state.settled.with(|p| p.inference.target_qps <= 0.0);
        state.shown.with(|r| {
            let s = r.as_ref()?.selection.as_ref()?;
            let speed = s.speed.as_ref()?;
            let title = format!("{} · {}", t(lang, K::ServingTitle), s.gpu_name);
            let engine = state.settled.with(|p| p.inference.engine);
            let figures = model::figures(s, speed, engine, at_plan_load, lang);
            let count = speed.gpus_for_target.as_ref().map(|c| model::count(c, lang));
            let charts = speed.curve().map(|c| model::charts(&c, lang));
            Some(view! {
                <Block id="serving-h" title attr:data-testid="serving">
                    <p class="hint">{t(lang, K::ServingHint)}</p>
                    {figures_view(figures, lang)}
                    {count.map(|c| count_view(c, lang))}
                    {charts.map(|[tpot, tput]| view! {
                        <div>
                            <div data-testid="tpot-chart"><LineChart chart=tpot/></div>
                            <div data-testid="tput-chart"><LineChart chart=tput/></div>
                        </div>
                    })}
                </Block>
            })
        })
    }
}

/// The expected figures, or why there are none; then the bounds.
fn figures_view(f: Figures, lang: Lang) -> impl IntoView {
    if let Some(missing) = f.missing {
        return view! { <div class="why"><p class="hint">{missing}</p></div> }.into_any();
    }
    let expected = match f.load {
        Some(load) => view! {
            <p class="hint" data-testid="serving-load">{load}</p>
            {f.expected.into_iter().map(|i| item(i, lang)).collect_view()}
        }
        .into_any(),
        None => view! { <p class="hint">{t(lang, K::NoExpected)}</p> }.into_any(),
    };
    let grounds =
        f.grounds.into_iter().map(|g| view! { <p class="hint" data-testid="serving-grounds">{g}</p> });
    view! {
        <div class="why">
            {expected}
            {grounds.collect_view()}
            <details class="advanced">
                <summary>{t(lang, K::Bounds)}</summary>
                {f.bounds.into_iter().map(|i| item(i, lang)).collect_view()}
            </details>
        </div>
    }
    .into_any()
}

fn item(i: Item, lang: Lang) -> impl IntoView {
    view! {
        <details class="why-item">
            <summary>
                {i.name}" · "<strong data-testid=i.id>{i.value}</strong>
                {i.range.map(|r| view! { <span class="range">{r}</span> })}
                " "<span class="chip info">{i.basis}</span>
            </summary>
            <dl><dt>{t(lang, K::Formula)}</dt><dd class="formula">{i.derivation}</dd></dl>
        </details>
    }
}

/// The GPU count the targets need, what binds it, and that the bill prices it.
fn count_view(c: Count, lang: Lang) -> impl IntoView {
    view! {
        <div class="why">
            <details class="why-item">
                <summary>
                    {t(lang, K::GpusForTarget)}" · "<strong data-testid="serving-gpus">{c.gpus}</strong>
                    " · "{t(lang, K::Binds)}<span data-testid="serving-binds">{c.binds}</span>
                    " "<span class="chip info">{c.basis}</span>
                </summary>
                <dl><dt>{t(lang, K::Formula)}</dt><dd class="formula">{c.derivation}</dd></dl>
            </details>
            <p class="hint">{t(lang, K::FeedsBill)}</p>
        </div>
    }
}
