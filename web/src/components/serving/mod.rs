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

/// The block's `<details>` the reader has open, by key. The block is drawn
/// anew for each settled plan; each drawing opens what the reader left open.
#[derive(Clone, Copy)]
struct Opened(RwSignal<Vec<&'static str>>);

impl Opened {
    /// Whether `key` was left open (read untracked: a toggle redraws nothing).
    fn is(self, key: &'static str) -> bool {
        self.0.with_untracked(|open| open.contains(&key))
    }

    /// Keeps what a toggle of `key`'s `<details>` left.
    fn toggled(self, key: &'static str, ev: &leptos::ev::Event) {
        let open = event_target::<web_sys::Element>(ev).has_attribute("open");
        self.0.update_untracked(|keys| {
            keys.retain(|k| *k != key);
            if open {
                keys.push(key);
            }
        });
    }
}

#[component]
pub fn Serving(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let opened = Opened(RwSignal::new(Vec::new()));
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
                    {figures_view(figures, opened, lang)}
                    {count.map(|c| count_view(c, opened, lang))}
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
fn figures_view(f: Figures, opened: Opened, lang: Lang) -> impl IntoView {
    if let Some(missing) = f.missing {
        return view! { <div class="why"><p class="hint">{missing}</p></div> }.into_any();
    }
    let expected = match f.load {
        Some(load) => view! {
            <p class="hint" data-testid="serving-load">{load}</p>
            {f.expected.into_iter().map(|i| item(i, opened, lang)).collect_view()}
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
            <details class="advanced" prop:open=opened.is("bounds") on:toggle=move |ev| opened.toggled("bounds", &ev)>
                <summary>{t(lang, K::Bounds)}</summary>
                {f.bounds.into_iter().map(|i| item(i, opened, lang)).collect_view()}
            </details>
        </div>
    }
    .into_any()
}

fn item(i: Item, opened: Opened, lang: Lang) -> impl IntoView {
    let key = i.id;
    view! {
        <details class="why-item" prop:open=opened.is(key) on:toggle=move |ev| opened.toggled(key, &ev)>
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
fn count_view(c: Count, opened: Opened, lang: Lang) -> impl IntoView {
    let key = "serving-gpus";
    view! {
        <div class="why">
            <details class="why-item" prop:open=opened.is(key) on:toggle=move |ev| opened.toggled(key, &ev)>
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
