//! The project's budget, shown with two workloads or more: a timeline of
//! which workload runs when on what, the total by workload and by line, a
//! table of every month (the chart's numbers, for screen readers too), and
//! the machines to order, each once, with their checklists.

mod model;

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
    // Drawn whole when the budget changes: a few rows and tables, and one
    // reactive node instead of one per figure keeps the page's bundle small.
    // While the core refuses the project, the list says why and no budget shows.
    move || {
        ps.outcome.with(|o| match o {
            Some(Ok(r)) => Some(budget(state, r)),
            _ => None,
        })
    }
}

fn budget(state: AppState, r: &ProjectReport) -> AnyView {
    let lang = state.lang;
    let b = &r.budget;
    let total = t(lang, K::BudgetTotal)
        .replace("{total}", &present::money(b.total, b.currency))
        .replace("{months}", &b.months.to_string());
    let caption = |k: K| t(lang, k).replace("{currency}", b.currency.code());
    let (timeline, machines) = (timeline(model::bars(b, lang), b.months, lang), machines(r, lang));
    let by_workload = grid(model::by_workload(b, lang), caption(K::ByWorkloadCaption), "budget-by-workload");
    let month_caption = caption(K::ByMonthCaption);
    let by_month = grid(model::by_month(b, lang), month_caption.clone(), "budget-by-month");
    let (currency, note) = (currency(state, b.currency), seed_note(state));
    view! {
        <div data-testid="budget">
        <Block id="budget-h" title=t(lang, K::BudgetTitle)>
            <p class="budget-total" data-testid="budget-total">{total}</p>
            {currency}
            {timeline}
            {note}
            {by_workload}
            <details class="budget-months">
                <summary>{month_caption}</summary>
                {by_month}
            </details>
            {machines}
        </Block>
        </div>
    }
    .into_any()
}

/// The gallery project, as opened: its figures against the seed's.
fn seed_note(state: AppState) -> Option<AnyView> {
    let lang = state.lang;
    let note = state.project.current.with_untracked(|p| {
        examples::projects().into_iter().find(|e| &e.project == p).map(|e| e.note(lang))
    })?;
    let view = view! {
        <details class="seed-note" data-testid="seed-note" open>
            <summary>{t(lang, K::AgainstSeed)}</summary>
            <p>{note}</p>
        </details>
    };
    Some(view.into_any())
}

/// The budget's currency, which every amount is converted into.
fn currency(state: AppState, now: Currency) -> AnyView {
    let lang = state.lang;
    let set_currency = move |ev: leptos::ev::Event| {
        let code = event_target_value(&ev);
        state.change_project(move |p, a| {
            if let Some(c) = gpuplan_core::names::parse::<Currency>(&code) {
                p.currency = c;
            }
            Ok(a)
        })
    };
    let options = o::CURRENCY
        .iter()
        .map(|opt| view! { <option value=opt.value selected=now.code() == opt.value>{opt.label(lang)}</option> })
        .collect_view();
    view! {
        <div class="field budget-currency">
            <label for="budget-currency">{t(lang, K::BudgetCurrency)}</label>
            <select id="budget-currency" on:change=set_currency>{options}</select>
        </div>
    }
    .into_any()
}

/// Which workload runs when, on what: a bar per workload over the months,
/// its carried machines held from the earlier start drawn lighter. The
/// table below holds the same numbers, so the chart is hidden from screen readers.
fn timeline(bars: Vec<Bar>, months: usize, lang: Lang) -> AnyView {
    let row = move |b: Bar| {
        let held = b.held.map(|(left, width)| {
            let style = format!("left: {left:.3}%; width: {width:.3}%");
            view! { <span class="tl-held" style=style title=t(lang, K::HeldBefore)></span> }
        });
        let style = format!("left: {:.3}%; width: {:.3}%", b.left, b.width);
        view! {
            <li class="tl-row">
                <span class="tl-name">{b.name}</span>
                <span class="tl-track">{held}<span class="tl-bar" style=style>{b.selection}</span></span>
                <span class="tl-note">{b.note}</span>
            </li>
        }
    };
    view! {
        <figure class="timeline" aria-hidden="true">
            <ul class="tl-rows" style=format!("--months: {months}")>{bars.into_iter().map(row).collect_view()}</ul>
            <figcaption class="hint">{t(lang, K::TimelineCaption).replace("{n}", &months.to_string())}</figcaption>
        </figure>
    }
    .into_any()
}

/// A table of text cells; the first cell of each row is its header.
fn grid(table: Table, caption: String, testid: &'static str) -> AnyView {
    let words = table.words;
    let num = move |k: usize| (k >= words).then_some("num");
    let head =
        table.head.into_iter().enumerate().map(|(k, h)| view! { <th scope="col" class=num(k)>{h}</th> });
    let rows = table.rows.into_iter().map(|r| {
        let mut cells = r.into_iter().enumerate();
        let first = cells.next().map(|(_, c)| c).unwrap_or_default();
        let rest = cells.map(|(k, c)| view! { <td class=num(k)>{c}</td> }).collect_view();
        view! { <tr><th scope="row">{first}</th>{rest}</tr> }
    });
    let label = caption.clone();
    view! {
        <div class="table-wrap" tabindex="0" role="region" aria-label=label>
            <table data-testid=testid>
                <caption class="visually-hidden">{caption}</caption>
                <thead><tr>{head.collect_view()}</tr></thead>
                <tbody>{rows.collect_view()}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// The project's checklist: each machine once, named as the bill names it
/// (GPU × count × layout × option), with the workloads on it and the
/// checklist of the workload whose selection it is.
fn machines(r: &ProjectReport, lang: Lang) -> AnyView {
    let items = r
        .checklist()
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
        .collect_view();
    view! {
        <h4>{t(lang, K::MachinesTitle)}</h4>
        <ul class="machines" data-testid="project-checklist">{items}</ul>
    }
    .into_any()
}
