//! The project's budget, shown with two workloads or more: a timeline of
//! which workload runs when on what, the total by workload and by line, a
//! table of every month (the chart's numbers, for screen readers too), and
//! the machines to order, each once, with their checklists.

mod model;

use std::sync::Arc;

use gpuplan_core::budget::ProjectReport;
use gpuplan_core::checklist;
use gpuplan_core::examples;
use gpuplan_core::money::Currency;
use gpuplan_core::present;
use leptos::prelude::*;

use crate::components::block::Block;
use crate::i18n::{t, Lang, K};
use crate::options as o;
use crate::state::AppState;
use model::{Bar, Table};

#[component]
pub fn BudgetBlock(state: AppState) -> impl IntoView {
    let ps = state.project;
    let stale = move || !ps.errors().is_empty();
    view! {
        <Show when=move || ps.shown.with(Option::is_some)>
            <div class:stale=stale data-testid="budget">
                <Budget state/>
            </div>
        </Show>
    }
}

#[component]
fn Budget(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let ps = state.project;
    let report = ps.shown;
    let with = move |f: fn(&ProjectReport, Lang) -> String| {
        move || report.with(|r| r.as_deref().map(|r| f(r, lang)).unwrap_or_default())
    };
    let total = with(|r, lang| {
        let b = &r.budget;
        t(lang, K::BudgetTotal)
            .replace("{total}", &present::money(b.total, b.currency))
            .replace("{months}", &b.months.to_string())
    });
    let bars = Memo::new(move |_| {
        report.with(|r| r.as_deref().map(|r| model::bars(&r.budget, lang)).unwrap_or_default())
    });
    let months = Memo::new(move |_| report.with(|r| r.as_deref().map_or(1, |r| r.budget.months)));
    let currency = Memo::new(move |_| report.with(|r| r.as_deref().map(|r| r.budget.currency)));
    let caption = move |k: K| {
        move || {
            let code = currency.get().map(Currency::code).unwrap_or_default();
            t(lang, k).replace("{currency}", code)
        }
    };
    let by_workload =
        Memo::new(move |_| report.with(|r| r.as_deref().map(|r| model::by_workload(&r.budget, lang))));
    let by_month =
        Memo::new(move |_| report.with(|r| r.as_deref().map(|r| model::by_month(&r.budget, lang))));
    // The gallery project, as opened: its figures against the seed's.
    let note = Memo::new(move |_| {
        ps.current.with(|p| examples::projects().into_iter().find(|e| &e.project == p).map(|e| e.note(lang)))
    });
    let set_currency = move |ev| {
        let code = event_target_value(&ev);
        state.change_project(move |p, a| {
            if let Some(c) = gpuplan_core::names::parse::<Currency>(&code) {
                p.currency = c;
            }
            Ok(a)
        })
    };
    let currency_options = o::CURRENCY
        .iter()
        .map(|opt| {
            let value = opt.value;
            let selected = move || currency.get().map(Currency::code) == Some(value);
            view! { <option value=value prop:selected=selected>{opt.label(lang)}</option> }
        })
        .collect_view();
    view! {
        <Block id="budget-h" title=t(lang, K::BudgetTitle)>
            <p class="budget-total" data-testid="budget-total">{total}</p>
            <div class="field budget-currency">
                <label for="budget-currency">{t(lang, K::BudgetCurrency)}</label>
                <select id="budget-currency" on:change=set_currency>{currency_options}</select>
            </div>
            <Timeline bars months lang/>
            {move || note.get().map(|n| view! {
                <details class="seed-note" data-testid="seed-note" open>
                    <summary>{t(lang, K::AgainstSeed)}</summary>
                    <p>{n}</p>
                </details>
            })}
            <Grid table=by_workload caption=Signal::derive(caption(K::ByWorkloadCaption)) testid="budget-by-workload"/>
            <details class="budget-months">
                <summary>{caption(K::ByMonthCaption)}</summary>
                <Grid table=by_month caption=Signal::derive(caption(K::ByMonthCaption)) testid="budget-by-month"/>
            </details>
            <Machines report lang/>
        </Block>
    }
}

/// Which workload runs when, on what: a bar per workload over the months,
/// its carried machines held from the earlier start drawn lighter. The
/// table below holds the same numbers, so the chart is hidden from screen readers.
#[component]
fn Timeline(bars: Memo<Vec<Bar>>, months: Memo<usize>, lang: Lang) -> impl IntoView {
    let grid = move || format!("--months: {}", months.get());
    let row = move |b: Bar| {
        let held = b.held.map(|(left, width)| {
            let style = format!("left: {left:.3}%; width: {width:.3}%");
            view! { <span class="tl-held" style=style title=t(lang, K::HeldBefore)></span> }
        });
        let style = format!("left: {:.3}%; width: {:.3}%", b.left, b.width);
        view! {
            <li class="tl-row">
                <span class="tl-name">{b.name.clone()}</span>
                <span class="tl-track">
                    {held}
                    <span class="tl-bar" style=style>
                        {b.selection.clone()}
                    </span>
                </span>
                <span class="tl-note">{b.note.clone()}</span>
            </li>
        }
    };
    view! {
        <figure class="timeline" aria-hidden="true">
            <ul class="tl-rows" style=grid>
                {move || bars.get().into_iter().map(row).collect_view()}
            </ul>
            <figcaption class="hint">{move || t(lang, K::TimelineCaption).replace("{n}", &months.get().to_string())}</figcaption>
        </figure>
    }
}

/// A table of text cells; the first cell of each row is its header.
#[component]
fn Grid(table: Memo<Option<Table>>, caption: Signal<String>, testid: &'static str) -> impl IntoView {
    let head = move || {
        table.with(|tb| {
            tb.as_ref()
                .map(|tb| tb.head.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view())
        })
    };
    let rows = move || {
        table.with(|tb| {
            tb.as_ref().map(|tb| {
                tb.rows
                    .iter()
                    .map(|r| {
                        let mut cells = r.iter().enumerate();
                        let first = cells.next().map(|(_, c)| c.clone()).unwrap_or_default();
                        let rest = cells
                            .map(|(k, c)| {
                                let class = (k >= tb.words).then_some("num");
                                view! { <td class=class>{c.clone()}</td> }
                            })
                            .collect_view();
                        view! { <tr><th scope="row">{first}</th>{rest}</tr> }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="table-wrap" tabindex="0" role="region" aria-label=move || caption.get()>
            <table data-testid=testid>
                <caption class="visually-hidden">{move || caption.get()}</caption>
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The project's checklist: each machine once, named as the bill names it
/// (GPU × count × layout × option), with the workloads on it and the
/// checklist of the workload whose selection it is.
#[component]
fn Machines(report: Memo<Option<Arc<ProjectReport>>>, lang: Lang) -> impl IntoView {
    let items = move || {
        report.with(|r| {
            r.as_deref().map(|r| {
                r.checklist()
                    .into_iter()
                    .enumerate()
                    .map(|(k, (m, list))| {
                        let on = t(lang, K::MachineFor).replace("{names}", &m.workloads.join(", "));
                        let id = format!("machine-md-{k}");
                        view! {
                            <li data-testid="project-machine">
                                <strong data-testid="project-machine-selection">{m.selection.clone()}</strong>
                                <span class="hint">{on}</span>
                                <details>
                                    <summary>{list.title.clone()}</summary>
                                    <label for=id.clone()>{t(lang, K::ChecklistMarkdownHint)}</label>
                                    <textarea id=id readonly rows="10">{checklist::to_markdown(list)}</textarea>
                                </details>
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <h4>{t(lang, K::MachinesTitle)}</h4>
        <ul class="machines" data-testid="project-checklist">{items}</ul>
    }
}
