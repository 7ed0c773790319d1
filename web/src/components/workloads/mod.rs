//! The workloads bar above the inputs: pick the workload the inputs edit;
//! add a training run, a service or a dev box; duplicate, rename, reorder,
//! remove; set each one's span (start month, the machines it carries on).
//! Whatever the core refuses is said next to the list, by workload.

mod model;

use gpuplan_core::error::{FieldError, Problem};
use gpuplan_core::plan::Task;
use gpuplan_core::project::{Project, Workload, MAX_NAME_CHARS};
use leptos::prelude::*;

use crate::adapters::focus;
use crate::i18n::{t, K};
use crate::state::AppState;
use model::Kind;

#[component]
pub fn Workloads(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let bar = bar(state);
    let add = move |kind: Kind| {
        move |_| {
            state.change_project(move |p, active| {
                let base = p.workloads.get(active).map(|w| w.plan.clone()).unwrap_or_default();
                model::add(p, kind, &base, lang)
            })
        }
    };
    let buttons = Kind::ALL
        .map(|k| view! { <button type="button" data-testid=k.testid() on:click=add(k)>{t(lang, k.add_label())}</button> })
        .into_iter()
        .collect_view();
    let list = move || {
        let rows = bar.with(|b| b.rows.clone());
        let count = rows.len();
        let hint = t(lang, if count > 1 { K::WorkloadsHint } else { K::WorkloadsHintOne });
        view! {
            <ol class="wl-list">{rows.into_iter().enumerate().map(|(i, r)| row(state, i, r, count)).collect_view()}</ol>
            <p class="hint">{hint}</p>
        }
    };
    let messages = move || messages(state, bar.with(|b| b.messages.clone()));
    view! {
        <section class="workloads" aria-labelledby="workloads-h" data-testid="workloads">
            <h2 id="workloads-h">{t(lang, K::Workloads)}</h2>
            {list}
            <div class="wl-add" role="group" aria-label=t(lang, K::AddWorkload)>{buttons}</div>
            <div class="wl-messages" role="status" data-testid="wl-messages">{messages}</div>
        </section>
    }
}

/// One memo and two reactive nodes for the whole bar: the list is drawn
/// whole when it changes (a few rows), which keeps the bundle small.
fn bar(state: AppState) -> Memo<Bar> {
    let (ps, lang) = (state.project, state.lang);
    Memo::new(move |_| {
        ps.current.with(|p| {
            let errors = ps.outcome.with(|o| match o {
                Some(Err(errs)) => model::shown_errors(errs, ps.active.get()),
                _ => Vec::new(),
            });
            let messages = ps.refused.get().into_iter().chain(errors.iter().cloned()).map(|e| {
                let missing = e.field.ends_with(".plan.model") && e.problem == Problem::Required;
                (model::message(&e, p, lang), missing.then(|| model::workload_of(&e)).flatten())
            });
            Bar { rows: rows(p, ps.active.get(), &errors), messages: messages.collect() }
        })
    })
}

/// What the bar shows: a row a workload, and what the core refused: the
/// last change to the list, and every problem of the project the inputs do
/// not show (another workload's plan, spans, names, reuse, a model a link
/// left out), each named by its workload, with the workload to keep its
/// shown model for when that is the problem.
#[derive(Clone, PartialEq)]
struct Bar {
    rows: Vec<RowData>,
    messages: Vec<(String, Option<usize>)>,
}

/// What a row shows: the workload as the project holds it, and where it
/// stands (the one edited, one the core refuses).
#[derive(Clone, PartialEq)]
struct RowData {
    name: String,
    train: bool,
    start: String,
    reuse: String,
    /// The earlier workloads' names, and the one named now even if it is
    /// not among them (moved, removed): shown, and refused by the core.
    donors: Vec<String>,
    active: bool,
    invalid: bool,
}

fn rows(p: &Project, active: usize, errors: &[FieldError]) -> Vec<RowData> {
    p.workloads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let mut donors: Vec<String> = p.workloads.iter().take(i).map(|w| w.name.clone()).collect();
            if let Some(r) = w.reuse.clone().filter(|r| !donors.contains(r)) {
                donors.push(r);
            }
            RowData {
                name: w.name.clone(),
                train: w.plan.task == Task::Train,
                start: w.start_month.map(|m| m.to_string()).unwrap_or_default(),
                reuse: w.reuse.clone().unwrap_or_default(),
                donors,
                active: i == active,
                invalid: errors.iter().any(|e| model::workload_of(e) == Some(i)),
            }
        })
        .collect()
}

/// One workload: the button that puts it in the inputs, its span and place
/// in the list (with company), and its copy and removal. The list is drawn
/// whole when it changes (a few rows), which keeps the page's bundle small.
fn row(state: AppState, i: usize, r: RowData, count: usize) -> impl IntoView {
    let lang = state.lang;
    let kind = t(lang, if r.train { K::KindTraining } else { K::KindService });
    let shown_name = if r.name.is_empty() { t(lang, K::ThisPlan).to_string() } else { r.name.clone() };
    let pick = move |_| {
        state.change_project(move |_, _| Ok(i));
        refocus(state);
    };
    let duplicate = move |_| {
        state.change_project(move |p, _| model::duplicate(p, i, lang));
        refocus(state);
    };
    let remove = move |_| {
        state.change_project(move |p, a| {
            p.remove_workload(i)?;
            Ok(model::active_after_removal(a, i).min(p.workloads.len().saturating_sub(1)))
        });
        refocus(state);
    };
    let (active, invalid) = (r.active, r.invalid);
    let span = (count > 1).then(|| span(state, i, r, count));
    view! {
        <li class="wl" class:active=active class:invalid=invalid>
            <button
                type="button"
                class="wl-pick"
                id=format!("wl-pick-{i}")
                aria-pressed=if active { "true" } else { "false" }
                data-testid=format!("wl-pick-{i}")
                on:click=pick
            >
                <span class="wl-kind">{kind}</span>
                <strong>{shown_name}</strong>
            </button>
            {span}
            <button type="button" data-testid=format!("wl-duplicate-{i}") on:click=duplicate>{t(lang, K::Duplicate)}</button>
            <button type="button" data-testid=format!("wl-remove-{i}") on:click=remove>{t(lang, K::Remove)}</button>
        </li>
    }
}

/// The list is drawn anew after a change: the keyboard's place goes to the
/// workload now edited.
fn refocus(state: AppState) {
    let to = state.project.active.get_untracked();
    request_animation_frame(move || focus::element(&format!("wl-pick-{to}")));
}

/// Changes workload `i` as `edit` says, the same workload still edited.
fn edit(state: AppState, i: usize, edit: impl FnOnce(&mut Workload) + 'static) {
    state.change_project(move |p, a| {
        if let Some(w) = p.workloads.get_mut(i) {
            edit(w);
        }
        Ok(a)
    })
}

/// A workload among others: its name, start month, the machines it
/// carries on (from the second on), and its place in the list.
fn span(state: AppState, i: usize, r: RowData, count: usize) -> AnyView {
    let lang = state.lang;
    let rename = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        state.change_project(move |p, a| {
            model::rename(p, i, &v);
            Ok(a)
        })
    };
    let set_start = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        state.change_project(move |p, a| {
            let m = model::start_month(i, &v)?;
            if let Some(w) = p.workloads.get_mut(i) {
                w.start_month = m;
            }
            Ok(a)
        })
    };
    let (name_id, start_id) = (format!("wl-name-{i}"), format!("wl-start-{i}"));
    let reuse = (i > 0).then(|| reuse(state, i, &r));
    view! {
        <span class="wl-field">
            <label for=name_id.clone()>{t(lang, K::WorkloadName)}</label>
            <input id=name_id.clone() data-testid=name_id maxlength=MAX_NAME_CHARS value=r.name on:change=rename/>
        </span>
        <span class="wl-field">
            <label for=start_id.clone()>{t(lang, K::StartMonth)}</label>
            <input
                id=start_id.clone()
                data-testid=start_id
                inputmode="decimal"
                size="5"
                placeholder=t(lang, K::StartMonthAuto)
                value=r.start
                on:change=set_start
            />
        </span>
        {reuse}
        {moves(state, i, count)}
    }
    .into_any()
}

/// The earlier workload whose machines workload `i` carries on, if any.
fn reuse(state: AppState, i: usize, r: &RowData) -> AnyView {
    let lang = state.lang;
    let set_reuse = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        edit(state, i, move |w| w.reuse = (!v.is_empty()).then_some(v));
    };
    let options = r
        .donors
        .iter()
        .map(|n| view! { <option value=n.clone() selected=r.reuse == *n>{n.clone()}</option> })
        .collect_view();
    let id = format!("wl-reuse-{i}");
    view! {
        <span class="wl-field">
            <label for=id.clone()>{t(lang, K::Reuse)}</label>
            <select id=id.clone() data-testid=id on:change=set_reuse>
                <option value="" selected=r.reuse.is_empty()>{t(lang, K::ReuseNone)}</option>
                {options}
            </select>
        </span>
    }
    .into_any()
}

/// Moves workload `i` up or down the list.
fn moves(state: AppState, i: usize, count: usize) -> AnyView {
    let lang = state.lang;
    let shift = move |up: bool| {
        move |_| {
            state.change_project(move |p, a| {
                let j = model::shift(p, i, up);
                Ok(model::active_after_swap(a, i, j))
            });
            refocus(state);
        }
    };
    view! {
        <button type="button" class="icon" aria-label=t(lang, K::MoveUp) title=t(lang, K::MoveUp) disabled={i == 0} on:click=shift(true)>
            "↑"
        </button>
        <button type="button" class="icon" aria-label=t(lang, K::MoveDown) title=t(lang, K::MoveDown) disabled={i + 1 >= count} on:click=shift(false)>
            "↓"
        </button>
    }
    .into_any()
}

fn messages(state: AppState, lines: Vec<(String, Option<usize>)>) -> Option<AnyView> {
    let lang = state.lang;
    let keep = move |i: usize| {
        move |_| {
            state.change_project(move |p, a| {
                model::keep_model(p, i);
                Ok(a)
            })
        }
    };
    (!lines.is_empty()).then(|| {
        let items = lines
            .into_iter()
            .map(|(text, missing)| {
                let button = missing.map(|i| {
                    view! {
                        <button type="button" data-testid=format!("wl-keep-model-{i}") on:click=keep(i)>
                            {t(lang, K::KeepModel)}
                        </button>
                    }
                });
                view! { <li>{text} " " {button}</li> }
            })
            .collect_view();
        view! {
            <div class="notice" data-testid="wl-message">
                <p>{t(lang, K::WorkloadsRefused)}</p>
                <ul>{items}</ul>
            </div>
        }
        .into_any()
    })
}
