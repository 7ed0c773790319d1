//! Example gallery and compare: start from a common workload; pin a plan and
//! set it beside the current one.

use std::sync::Arc;

use gpuplan_core::examples;
use gpuplan_core::model::presets;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::selection::Basis;
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{block, h, host, El};
use crate::i18n::{t, Lang, K};
use crate::state::{AppState, Report};
use crate::table::{table, Col, Row};
use gpuplan_core::present::{self, Unit};

/// The example cards; a click loads the card's plan.
pub fn gallery_block(app: AppState) -> Option<Element> {
    let body = move || Some(gallery(app.lang));
    let on_act = move |act: &str, id: &str| {
        if let Some(e) = examples::all().into_iter().find(|e| act == "example" && e.id == id) {
            app.load(e.plan);
        }
    };
    host("", body, on_act)
}

fn gallery(lang: Lang) -> El {
    let cards = examples::all().into_iter().map(|e| {
        let card = h("button")
            .a("type", "button")
            .c("example")
            .a("data-testid", &format!("example-{}", e.id))
            .a("data-act", "example")
            .a("data-arg", e.id)
            .k(h("strong").t(e.title(lang)))
            .k(h("span").t(e.summary(lang)));
        h("li").k(card)
    });
    h("section")
        .c("band gallery")
        .a("aria-labelledby", "gallery-h")
        .k(h("h2").a("id", "gallery-h").t(t(lang, K::Examples)))
        .k(h("ul").c("examples").ks(cards))
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

pub fn compare(app: AppState) -> Option<Element> {
    let pinned: RwSignal<Option<(Plan, Arc<Report>)>> = RwSignal::new(None);
    let body = move || {
        let lang = app.lang;
        let unit = app.unit.get();
        let table = pinned.with(|pin| {
            let (old_plan, old) = pin.as_ref()?;
            let now =
                app.shown.with(|r| r.as_ref().map(|r| app.settled.with(|p| summary(p, r, lang, unit))))?;
            let was = summary(old_plan, old, lang, unit);
            let rows = LABELS
                .iter()
                .zip(was.into_iter().zip(now))
                .map(|(k, (a, b))| {
                    let class = if a == b { "" } else { "changed" };
                    let cells = vec![vec![(t(lang, *k).into(), "")], vec![(a, "")], vec![(b, "")]];
                    Row { key: String::new(), class, cells, keys: vec![] }
                })
                .collect();
            let col = |k: K| Col { label: t(lang, k).into(), sortable: false, num: false };
            let cols = vec![col(K::Figure), col(K::Pinned), col(K::Current)];
            Some(table("compare-table", t(lang, K::CompareTitle), cols, rows, None, None))
        });
        let button = |act: &str, k: K| h("button").a("type", "button").a("data-act", act).t(t(lang, k));
        let actions = pinned
            .with(Option::is_some)
            .then(|| h("div").c("actions").k(button("swap", K::OpenPinned)).k(button("unpin", K::Unpin)));
        let section = block("compare-h", t(lang, K::CompareTitle))
            .k(h("p").c("hint").t(t(lang, K::CompareHint)))
            .k(button("pin", K::Pin).c("primary").a("data-testid", "pin"));
        Some(section.opt(table).opt(actions))
    };
    let on_act = move |act: &str, _: &str| {
        let current = || app.shown.get_untracked().map(|r| (app.settled.get_untracked(), r));
        match act {
            "pin" => {
                if let Some(now) = current() {
                    pinned.set(Some(now));
                }
            }
            // The pinned plan becomes the current one, and the current one is pinned.
            "swap" => {
                let Some((plan, _)) = pinned.get_untracked() else { return };
                if let Some(now) = current() {
                    pinned.set(Some(now));
                }
                app.load(plan);
            }
            "unpin" => pinned.set(None),
            _ => {}
        }
    };
    host("", body, on_act)
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
}
