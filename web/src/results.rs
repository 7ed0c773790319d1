//! The results column: peak memory, its breakdown, and why each part is what it is.

use gpuplan_core::memory::{Component, MemoryResult, PeakKind};
use leptos::prelude::*;

use crate::fmt;
use crate::i18n::{t, Lang, K};
use crate::state::use_app;

/// The memory components in display order, with their label and CSS class.
pub fn parts(m: &MemoryResult) -> [(K, &'static str, &Component); 6] {
    let c = &m.components;
    [
        (K::CWeights, "c-weights", &c.weights),
        (K::CGradients, "c-gradients", &c.gradients),
        (K::COptimizer, "c-optimizer", &c.optimizer),
        (K::CActivations, "c-activations", &c.activations),
        (K::CKvCache, "c-kv", &c.kv_cache),
        (K::CWorkspace, "c-workspace", &c.workspace),
    ]
}

#[component]
pub fn Results() -> impl IntoView {
    let app = use_app();
    let stale = move || app.outcome.with(|o| o.is_err());
    move || {
        let lang = app.lang.get();
        view! {
            <section class="results" aria-labelledby="results-h">
                <h2 id="results-h">{t(lang, K::Results)}</h2>
                <Stale lang/>
                <div class="result-body" class:stale=stale>
                    <Peak lang/>
                    <Breakdown lang/>
                    <Why lang/>
                </div>
            </section>
        }
    }
}

/// While the plan is invalid: every problem, and a note that what follows is
/// the last valid result.
#[component]
fn Stale(lang: Lang) -> impl IntoView {
    let app = use_app();
    move || {
        app.outcome.with(|o| {
            o.as_ref().err().map(|errs| {
                let items = errs.iter().map(|e| view! { <li>{e.message(lang)}</li> }).collect_view();
                view! {
                    <div class="notice stale-note" role="status">
                        <p>{t(lang, K::Stale)}</p>
                        <ul>{items}</ul>
                    </div>
                }
            })
        })
    }
}

#[component]
fn Peak(lang: Lang) -> impl IntoView {
    let app = use_app();
    let value = move || {
        app.shown
            .with(|r| r.as_ref().map(|m| fmt::bytes(m.per_gpu_bytes, app.unit.get())).unwrap_or_default())
    };
    let kind = move || {
        app.shown.with(|r| match r.as_ref().map(|m| m.peak_kind) {
            Some(PeakKind::Reserved) => t(lang, K::PeakReserved),
            _ => t(lang, K::PeakAllocated),
        })
    };
    view! {
        <div class="peak">
            <p class="peak-label">{t(lang, K::PeakMemory)}</p>
            <p class="peak-value" data-testid="peak-memory">{value}</p>
            <p class="peak-kind">{kind}</p>
        </div>
    }
}

/// The stacked bar: each non-zero component's share of the peak.
#[component]
fn Breakdown(lang: Lang) -> impl IntoView {
    let app = use_app();
    let bar = move || {
        let unit = app.unit.get();
        app.shown.with(|r| {
            let m = r.as_ref()?;
            let total = m.per_gpu_bytes.max(1) as f64;
            let segs = parts(m)
                .into_iter()
                .filter(|(_, _, c)| c.bytes > 0)
                .map(|(k, class, c)| {
                    let share = c.bytes as f64 / total;
                    let title = format!("{}: {}", t(lang, k), fmt::bytes(c.bytes, unit));
                    view! {
                        <div
                            class=format!("seg {class}")
                            style:width=format!("{:.3}%", share * 100.0)
                            title=title
                        ></div>
                    }
                })
                .collect_view();
            Some(segs)
        })
    };
    let legend = move || {
        let unit = app.unit.get();
        app.shown.with(|r| {
            r.as_ref().map(|m| {
                parts(m)
                    .into_iter()
                    .filter(|(_, _, c)| c.bytes > 0)
                    .map(|(k, class, c)| {
                        view! {
                            <li>
                                <span class=format!("swatch {class}") aria-hidden="true"></span>
                                {t(lang, k)}
                                " "
                                <strong>{fmt::bytes(c.bytes, unit)}</strong>
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="breakdown">
            <h3>{t(lang, K::Breakdown)}</h3>
            <div class="bar" aria-hidden="true">{bar}</div>
            <ul class="legend">{legend}</ul>
        </div>
    }
}

/// "Why this number": per component, the formula with numbers and its source.
#[component]
fn Why(lang: Lang) -> impl IntoView {
    let app = use_app();
    let rows = move || {
        let unit = app.unit.get();
        app.shown.with(|r| {
            r.as_ref().map(|m| {
                parts(m)
                    .into_iter()
                    .filter(|(_, _, c)| c.bytes > 0 || !c.derivation.is_empty())
                    .map(|(k, _, c)| {
                        view! {
                            <details class="why-item">
                                <summary>
                                    {t(lang, k)}
                                    " · "
                                    {fmt::bytes(c.bytes, unit)}
                                </summary>
                                <dl>
                                    <dt>{t(lang, K::Formula)}</dt>
                                    <dd class="formula">{c.derivation.clone()}</dd>
                                    <dt>{t(lang, K::Source)}</dt>
                                    <dd>{c.source}</dd>
                                </dl>
                            </details>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="why">
            <h3>{t(lang, K::Why)}</h3>
            {rows}
        </div>
    }
}
