//! The workloads bar above the inputs: pick the workload the inputs edit;
//! add a training run, a service or a dev box; duplicate, rename, reorder,
//! remove; set each one's span (start month, the machines it carries on).
//! Whatever the core refuses is said next to the list, by workload.

use gpuplan_core::plan::Task;
use gpuplan_core::project::MAX_NAME_CHARS;
use leptos::prelude::*;

use crate::i18n::{t, K};
use crate::project::model::{self, Kind};
use crate::state::AppState;

#[component]
pub fn Workloads(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let count = Memo::new(move |_| state.project.current.with(|p| p.workloads.len()));
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
    view! {
        <section class="band workloads" aria-labelledby="workloads-h" data-testid="workloads">
            <h2 id="workloads-h">{t(lang, K::Workloads)}</h2>
            <ol class="wl-list">
                <For each=move || 0..count.get() key=|i| *i let:i>
                    <Row state i many=Signal::derive(move || count.get() > 1)/>
                </For>
            </ol>
            <div class="wl-add" role="group" aria-label=t(lang, K::AddWorkload)>
                {buttons}
                <span class="hint">{move || t(lang, if count.get() > 1 { K::WorkloadsHint } else { K::WorkloadsHintOne })}</span>
            </div>
            <Messages state/>
        </section>
    }
}

/// One workload: the button that puts it in the inputs, its name, span and
/// place in the list.
#[component]
fn Row(state: AppState, i: usize, many: Signal<bool>) -> impl IntoView {
    let lang = state.lang;
    let ps = state.project;
    let read = move |f: fn(&gpuplan_core::project::Workload) -> String| {
        Memo::new(move |_| ps.current.with(|p| p.workloads.get(i).map(f).unwrap_or_default()))
    };
    let name = read(|w| w.name.clone());
    let task = Memo::new(move |_| ps.current.with(|p| p.workloads.get(i).map(|w| w.plan.task)));
    let start = read(|w| w.start_month.map(|m| m.to_string()).unwrap_or_default());
    let reuse = read(|w| w.reuse.clone().unwrap_or_default());
    let active = move || ps.active.get() == i;
    let invalid = move || ps.errors().iter().any(|e| model::workload_of(e) == Some(i));
    let kind = move || match task.get() {
        Some(Task::Train) => t(lang, K::KindTraining),
        _ => t(lang, K::KindService),
    };
    let shown_name =
        move || name.with(|n| if n.is_empty() { t(lang, K::ThisPlan).to_string() } else { n.clone() });
    let pick = move |_| state.change_project(move |_, _| Ok(i));
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
    let set_reuse = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        state.change_project(move |p, a| {
            if let Some(w) = p.workloads.get_mut(i) {
                w.reuse = (!v.is_empty()).then_some(v);
            }
            Ok(a)
        })
    };
    // The earlier workloads' names, and the one named now even if it is
    // not among them (moved, removed): shown, and refused by the core.
    let donors = Memo::new(move |_| {
        ps.current.with(|p| {
            let mut names: Vec<String> = p.workloads.iter().take(i).map(|w| w.name.clone()).collect();
            if let Some(r) = p.workloads.get(i).and_then(|w| w.reuse.clone()) {
                if !names.contains(&r) {
                    names.push(r);
                }
            }
            names
        })
    });
    let shift = move |up: bool| {
        move |_| {
            state.change_project(move |p, a| {
                let j = model::shift(p, i, up);
                Ok(model::active_after_swap(a, i, j))
            })
        }
    };
    let duplicate = move |_| state.change_project(move |p, _| model::duplicate(p, i, lang));
    let remove = move |_| {
        state.change_project(move |p, a| {
            p.remove_workload(i)?;
            Ok(model::active_after_removal(a, i).min(p.workloads.len().saturating_sub(1)))
        })
    };
    let last = Memo::new(move |_| ps.current.with(|p| i + 1 >= p.workloads.len()));
    let (name_id, start_id, reuse_id) =
        (format!("wl-name-{i}"), format!("wl-start-{i}"), format!("wl-reuse-{i}"));
    view! {
        <li class="wl" class:active=active class:invalid=invalid>
            <button
                type="button"
                class="wl-pick"
                aria-pressed=move || if active() { "true" } else { "false" }
                data-testid=format!("wl-pick-{i}")
                on:click=pick
            >
                <span class="wl-kind">{kind}</span>
                <strong>{shown_name}</strong>
            </button>
            <Show when=move || many.get()>
                <span class="wl-field">
                    <label for=name_id.clone()>{t(lang, K::WorkloadName)}</label>
                    <input
                        id=name_id.clone()
                        data-testid=name_id.clone()
                        maxlength={MAX_NAME_CHARS.to_string()}
                        prop:value=move || name.get()
                        on:change=rename
                    />
                </span>
                <span class="wl-field">
                    <label for=start_id.clone()>{t(lang, K::StartMonth)}</label>
                    <input
                        id=start_id.clone()
                        data-testid=start_id.clone()
                        inputmode="decimal"
                        size="5"
                        placeholder=t(lang, K::StartMonthAuto)
                        prop:value=move || start.get()
                        on:change=set_start
                    />
                </span>
                {(i > 0).then(|| view! {
                    <span class="wl-field">
                        <label for=reuse_id.clone()>{t(lang, K::Reuse)}</label>
                        <select id=reuse_id.clone() data-testid=reuse_id.clone() on:change=set_reuse>
                            <option value="" prop:selected=move || reuse.with(String::is_empty)>
                                {t(lang, K::ReuseNone)}
                            </option>
                            <For each=move || donors.get() key=|n| n.clone() children=move |n: String| {
                                let (picked, label) = (n.clone(), n.clone());
                                view! { <option value=n prop:selected=move || reuse.with(|r| r == &picked)>{label}</option> }
                            }/>
                        </select>
                    </span>
                })}
                <button type="button" class="icon" aria-label=t(lang, K::MoveUp) title=t(lang, K::MoveUp) disabled={i == 0} on:click=shift(true)>
                    "↑"
                </button>
                <button type="button" class="icon" aria-label=t(lang, K::MoveDown) title=t(lang, K::MoveDown) disabled=move || last.get() on:click=shift(false)>
                    "↓"
                </button>
            </Show>
            <button type="button" data-testid=format!("wl-duplicate-{i}") on:click=duplicate>{t(lang, K::Duplicate)}</button>
            <button type="button" data-testid=format!("wl-remove-{i}") on:click=remove>{t(lang, K::Remove)}</button>
        </li>
    }
}

/// What the core refused: the last change to the list, and every problem
/// of the project the inputs do not show (another workload's plan, spans,
/// names, reuse, a model a link left out), each named by its workload.
#[component]
fn Messages(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let ps = state.project;
    let lines = Memo::new(move |_| {
        ps.current.with(|p| {
            ps.refused
                .get()
                .into_iter()
                .chain(ps.errors())
                .map(|e| {
                    let model_missing = e.field.ends_with(".plan.model")
                        && e.problem == gpuplan_core::error::Problem::Required;
                    (model::message(&e, p, lang), model_missing.then(|| model::workload_of(&e)).flatten())
                })
                .collect::<Vec<_>>()
        })
    });
    let keep = move |i: usize| {
        move |_| {
            state.change_project(move |p, a| {
                model::keep_model(p, i);
                Ok(a)
            })
        }
    };
    view! {
        <div class="wl-messages" role="status" data-testid="wl-messages">
            {move || {
                let lines = lines.get();
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
                })
            }}
        </div>
    }
}
