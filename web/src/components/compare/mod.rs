//! Example gallery and compare: start from a common workload or a whole
//! project; pin a plan and set it beside the current one.

use std::sync::Arc;

use gpuplan_core::examples;
use gpuplan_core::model::presets;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::present::{self, Unit};
use gpuplan_core::selection::Basis;
use leptos::prelude::*;

use crate::components::block::Block;
use crate::components::table::{Col, DataTable, Row};
use crate::i18n::{t, Lang, K};
use crate::state::{AppState, Report};

/// The example cards; a click loads the card's plan. A project's card is
/// its share link: it opens in place, or from the link in a new tab.
#[component]
pub fn Gallery(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let cards = examples::all()
        .into_iter()
        .map(|e| {
            let (title, summary) = (e.title(lang), e.summary(lang));
            let load = move |_| state.load(e.plan.clone());
            view! {
                <li>
                    <button type="button" class="example" data-testid=format!("example-{}", e.id) on:click=load>
                        <strong>{title}</strong>
                        <span>{summary}</span>
                    </button>
                </li>
            }
        })
        .collect_view();
    let projects = examples::projects()
        .into_iter()
        .map(|e| {
            let (title, summary) = (e.title(lang), e.summary(lang));
            let href = format!("?{}", gpuplan_core::share::encode_project(&e.project, Some(lang), None));
            let open = move |ev: leptos::ev::MouseEvent| {
                // A plain click opens it here; a modified one (new tab) follows the link.
                if !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0) {
                    ev.prevent_default();
                    state.load_project(e.project.clone());
                }
            };
            view! {
                <li>
                    <a class="example project" href=href data-testid=format!("example-{}", e.id) on:click=open>
                        <strong>{title}</strong>
                        <span>{summary}</span>
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="band gallery" aria-labelledby="gallery-h">
            <h2 id="gallery-h">{t(lang, K::Examples)}</h2>
            <ul class="examples">{cards}{projects}</ul>
        </section>
    }
}

fn model_name(plan: &Plan, lang: Lang) -> String {
    match &plan.model {
        ModelSpec::Preset { id } => presets::find(id).map_or_else(|| id.clone(), |p| p.name.to_string()),
        ModelSpec::Custom { .. } => t(lang, K::CustomModel).into(),
        ModelSpec::Generic { .. } => t(lang, K::GenericModel).into(),
    }
}

/// The compared figures of one plan, in the order of [`LABELS`].
pub fn summary(plan: &Plan, r: &Report, lang: Lang, unit: Unit) -> Vec<String> {
    let task = match plan.task {
        Task::Infer => t(lang, K::InferSection),
        Task::Train => t(lang, K::TrainSection),
    };
    let chosen = r.fit.rows.iter().find(|g| g.chosen);
    // The count to order: the report's one selection, which the bill prices
    // (with serving targets, more than the memory alone needs).
    let gpus = r
        .selection
        .as_ref()
        .filter(|s| s.basis != Basis::DoesNotFit)
        .map_or_else(|| t(lang, K::NoFit).into(), |s| s.gpus.to_string());
    let speed = chosen.and_then(|g| g.speed.as_ref()).and_then(|s| match plan.task {
        Task::Train => s.training.as_ref().map(|x| present::figure(&x.hours)),
        Task::Infer => s.inference.as_ref().map(|x| present::figure(&x.decode_tps_total())),
    });
    let best = r.cost.best.as_ref().and_then(|id| r.cost.options.iter().find(|o| &o.id == id));
    vec![
        format!("{task} · {}", model_name(plan, lang)),
        chosen.map_or_else(|| plan.hardware.gpu.clone(), |g| g.gpu_name.clone()),
        present::bytes(r.memory.per_gpu_bytes, unit),
        gpus,
        speed.unwrap_or_else(|| "—".into()),
        best.map_or_else(
            || "—".into(),
            |o| format!("{} · {}", o.label(lang), present::money(o.total, o.currency)),
        ),
    ]
}

const LABELS: [K; 6] = [K::Task, K::Gpu, K::PeakMemory, K::GpusOnChosen, K::SpeedOnChosen, K::CheapestOption];

/// A row per figure, the pinned plan's beside the current one's; a figure
/// that differs is marked.
fn compare_rows(was: Vec<String>, now: Vec<String>, lang: Lang) -> Vec<Row> {
    LABELS
        .iter()
        .zip(was.into_iter().zip(now))
        .map(|(k, (a, b))| {
            let class = if a == b { "" } else { "changed" };
            let label = t(lang, *k);
            let cells = vec![vec![(label.into(), "")], vec![(a, "")], vec![(b, "")]];
            Row { key: label.into(), class, cells, keys: vec![] }
        })
        .collect()
}

fn cols(lang: Lang) -> Vec<Col> {
    let col = |k: K| Col { label: t(lang, k), sortable: false, num: false };
    vec![col(K::Figure), col(K::Pinned), col(K::Current)]
}

type Pinned = Option<(Plan, Arc<Report>)>;

#[component]
pub fn Compare(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let pinned = RwSignal::new(None::<(Plan, Arc<Report>)>);
    let rows = Memo::new(move |_| {
        let unit = state.unit.get();
        let now = state.shown.with(|r| r.as_ref().map(|r| state.settled.with(|p| summary(p, r, lang, unit))));
        pinned.with(|pin| match (pin, now) {
            (Some((plan, old)), Some(now)) => compare_rows(summary(plan, old, lang, unit), now, lang),
            _ => Vec::new(),
        })
    });
    let current = move || state.shown.get_untracked().map(|r| (state.settled.get_untracked(), r));
    let pin = move |_| {
        if let Some(now) = current() {
            pinned.set(Some(now));
        }
    };
    // The pinned plan becomes the current one, and the current one is pinned.
    let swap = move |_| {
        let Some((plan, _)) = pinned.get_untracked() else { return };
        if let Some(now) = current() {
            pinned.set(Some(now));
        }
        state.load(plan);
    };
    let is_pinned = move || pinned.with(Pinned::is_some);
    view! {
        <Block id="compare-h" title=t(lang, K::CompareTitle)>
            <p class="hint">{t(lang, K::CompareHint)}</p>
            <button type="button" class="primary" data-testid="pin" on:click=pin>{t(lang, K::Pin)}</button>
            <Show when=is_pinned>
                <DataTable testid="compare-table" caption=t(lang, K::CompareTitle) cols=cols(lang) rows/>
                <div class="actions">
                    <button type="button" on:click=swap>{t(lang, K::OpenPinned)}</button>
                    <button type="button" on:click=move |_| pinned.set(None)>{t(lang, K::Unpin)}</button>
                </div>
            </Show>
        </Block>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_has_a_figure_per_label() {
        let p = Plan::default();
        let r = gpuplan_core::report::evaluate(&p, gpuplan_core::lang::Lang::En).unwrap();
        let s = summary(&p, &r, Lang::En, Unit::Gb);
        assert_eq!(s.len(), LABELS.len());
        assert_eq!(s[0], "Inference workload · Llama 3.1 8B");
        assert_eq!(s[1], "H100 SXM");
        assert!(s[2].ends_with(" GB"));
    }

    #[test]
    fn a_changed_figure_is_marked() {
        let was: Vec<String> = (0..LABELS.len()).map(|i| i.to_string()).collect();
        let mut now = was.clone();
        now[2] = "other".into();
        let rows = compare_rows(was, now, Lang::En);
        let classes: Vec<_> = rows.iter().map(|r| r.class).collect();
        assert_eq!(classes, ["", "", "changed", "", "", ""]);
        assert!(rows.iter().all(|r| r.cells.len() == cols(Lang::En).len()));
        assert_eq!(rows[2].cells[0][0].0, t(Lang::En, K::PeakMemory));
    }
}
