//! The cost comparison: every purchase option's whole bill, the cheapest
//! highlighted, why each dearer one loses, one option's lines, the offers
//! skipped, and cumulative cost over time.

use gpuplan_core::cost::{Category, CostReport, Fee, OptionCost};
use gpuplan_core::plan::Task;
use gpuplan_core::present;
use leptos::prelude::*;

use crate::components::block::Block;
use crate::components::chart::{hours, Chart, LineChart, Series};
use crate::components::table::{Col, DataTable, Pick, Row};
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

/// Options drawn in the cost-over-time chart: the best and the next cheapest.
const CHART_OPTIONS: usize = 5;

fn money(o: &OptionCost, cat: Option<Category>) -> String {
    let m = cat.map_or(o.total, |c| o.part(c));
    present::money(m, o.currency)
}

fn row(o: &OptionCost, best: Option<&str>, lang: Lang) -> Row {
    let is_best = best == Some(o.id.as_str());
    let mut name = vec![(o.label(lang), "")];
    if is_best {
        name.push((t(lang, K::Cheapest).into(), "chip chosen"));
    }
    if o.host {
        name.push((t(lang, K::HostOffer).into(), "chip info"));
    }
    let why = match (&o.loss, is_best) {
        (Some(l), false) => l.text(lang, o.currency),
        _ => String::new(),
    };
    let mut cells = vec![name, vec![(format!("{} × {}", o.instances, o.gpus_per_instance), "")]];
    cells.push(vec![(money(o, None), "strong")]);
    cells.extend(Category::ALL.iter().map(|&c| vec![(money(o, Some(c)), "")]));
    cells.push(vec![(why, "")]);
    let class = match (is_best, o.meets) {
        (true, _) => "best",
        (false, true) => "",
        (false, false) => "nomeet",
    };
    Row { key: o.id.clone(), class, cells, keys: vec![] }
}

fn cols(lang: Lang) -> Vec<Col> {
    let col = |label: &'static str, num: bool| Col { label, sortable: false, num };
    let mut v = vec![
        col(t(lang, K::PurchaseOption), false),
        col(t(lang, K::InstancesGpus), true),
        col(t(lang, K::Total), true),
    ];
    v.extend(Category::ALL.iter().map(|c| col(c.label(lang), true)));
    v.push(col(t(lang, K::WhyNot), false));
    v
}

/// One option's bill as the page shows it.
#[derive(Clone, Debug, PartialEq)]
struct Bill {
    title: String,
    lines: Vec<BillLine>,
    source: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct BillLine {
    name: String,
    fee: &'static str,
    fee_class: &'static str,
    amount: String,
    formula: String,
}

/// The picked option's bill, line by line with derivations.
fn bill(o: &OptionCost, lang: Lang) -> Bill {
    let lines = o
        .lines
        .iter()
        .map(|l| {
            let (fee, fee_class) = match l.fee {
                Fee::Committed => (t(lang, K::Committed), "chip warn"),
                Fee::Usage => (t(lang, K::Usage), "chip info"),
            };
            BillLine {
                name: l.label(lang),
                fee,
                fee_class,
                amount: present::money(l.amount, o.currency),
                formula: l.derivation.clone(),
            }
        })
        .collect();
    Bill {
        title: format!("{} · {}", o.label(lang), money(o, None)),
        lines,
        source: format!("{}: {} {}", t(lang, K::Source), o.source, o.date),
    }
}

/// The option whose bill is shown: the picked one while it is offered, else the first.
fn shown_option<'a>(c: &'a CostReport, picked: Option<&str>) -> Option<&'a OptionCost> {
    picked.and_then(|id| c.options.iter().find(|o| o.id == id)).or(c.options.first())
}

/// Cumulative cost of the best and next options, with break-even marks.
fn over_time(c: &CostReport, lang: Lang) -> Option<Chart> {
    let shown: Vec<&OptionCost> = c.options.iter().filter(|o| o.meets).take(CHART_OPTIONS).collect();
    let first = shown.first()?;
    // The charted options' own horizons bound the time axis: a three-year
    // reservation not drawn would otherwise flatten a ten-hour run.
    let until = shown.iter().map(|o| o.horizon_hours).fold(0.0, f64::max);
    let within = |h: f64| until <= 0.0 || h <= until;
    let series = shown
        .iter()
        .enumerate()
        .map(|(i, o)| Series {
            name: o.label(lang),
            class: ["s0", "s1", "s2", "s3", "s4"].get(i).copied().unwrap_or("s4"),
            points: o.series.iter().filter(|p| within(p.hours)).map(|p| (p.hours, p.cost)).collect(),
        })
        .collect();
    let label = |id: &str| shown.iter().find(|o| o.id == id).map(|o| o.label(lang));
    let marks = c
        .break_even
        .iter()
        .filter(|b| within(b.hours))
        .filter_map(|b| {
            let after = label(&b.cheaper_after)?;
            label(&b.cheaper_before)?;
            Some((b.hours, format!("{} {after}", t(lang, K::CheaperAfter))))
        })
        .collect();
    Some(Chart {
        title: t(lang, K::CostOverTime).into(),
        x_label: format!("{} (h)", t(lang, K::Hours)),
        y_label: format!("{} ({})", t(lang, K::Paid), first.currency.code()),
        log_x: false,
        series,
        limit: None,
        marks,
        x_fmt: hours,
    })
}

/// Each skipped offer with the reason.
fn skipped(c: &CostReport, lang: Lang) -> Vec<String> {
    c.skipped.iter().map(|s| format!("{}: {}", s.name, s.skip.text(lang))).collect()
}

/// Reads the shown report's cost part, if there is a report.
fn with_cost<T>(state: AppState, read: impl FnOnce(&CostReport) -> T) -> Option<T> {
    state.shown.with(|r| r.as_ref().map(|r| read(&r.cost)))
}

#[component]
pub fn CostBlock(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let horizon = move || {
        let task = state.settled.with(|p| p.task);
        t(lang, if task == Task::Train { K::HorizonRun } else { K::HorizonServe })
    };
    view! {
        <Block id="cost-h" title=t(lang, K::CostTitle)>
            <p class="hint">{horizon}</p>
            <Show when=move || state.shown.with(Option::is_some)>
                <Bills state/>
            </Show>
        </Block>
    }
}

/// What the report's cost part shows: the table, the picked bill, the
/// chart and the skipped offers.
#[component]
fn Bills(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let pick = RwSignal::new(None::<String>);
    let rows = Memo::new(move |_| {
        let rows = |c: &CostReport| c.options.iter().map(|o| row(o, c.best.as_deref(), lang)).collect();
        with_cost(state, rows).unwrap_or_default()
    });
    let shown = Memo::new(move |_| {
        let id = |c: &CostReport| pick.with(|p| shown_option(c, p.as_deref()).map(|o| o.id.clone()));
        with_cost(state, id).flatten()
    });
    let bill = Memo::new(move |_| {
        let read = |c: &CostReport| pick.with(|p| shown_option(c, p.as_deref()).map(|o| bill(o, lang)));
        with_cost(state, read).flatten()
    });
    let skipped = Memo::new(move |_| with_cost(state, |c| skipped(c, lang)).unwrap_or_default());
    let pick = Pick { picked: shown.into(), on_pick: Callback::new(move |id| pick.set(Some(id))) };
    let summary = move || format!("{} ({})", t(lang, K::Skipped), skipped.with(Vec::len));
    view! {
        <div>
            <DataTable testid="cost-table" caption=t(lang, K::CostTitle) cols=cols(lang) rows pick/>
            <Show when=move || bill.with(Option::is_some)>
                <BillLines bill/>
            </Show>
            {move || with_cost(state, |c| over_time(c, lang)).flatten().map(|chart| view! { <LineChart chart/> })}
            <details class="skipped">
                <summary>{summary}</summary>
                <ul>
                    <For each=move || skipped.get().into_iter().enumerate() key=|item| item.clone() let:item>
                        <li>{item.1}</li>
                    </For>
                </ul>
            </details>
        </div>
    }
}

#[component]
fn BillLines(bill: Memo<Option<Bill>>) -> impl IntoView {
    let read = move |f: fn(&Bill) -> String| move || bill.with(|b| b.as_ref().map(f).unwrap_or_default());
    let lines =
        move || bill.with(|b| b.iter().flat_map(|b| b.lines.iter().cloned().enumerate()).collect::<Vec<_>>());
    view! {
        <div class="bill">
            <h4>{read(|b| b.title.clone())}</h4>
            <ul class="lines">
                <For each=lines key=|line| line.clone() let:line>
                    <li>
                        <span class="line-name">{line.1.name}</span>
                        <span class=line.1.fee_class>{line.1.fee}</span>
                        <strong class="line-amount">{line.1.amount}</strong>
                        <span class="formula">{line.1.formula}</span>
                    </li>
                </For>
            </ul>
            <p class="hint">{read(|b| b.source.clone())}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> CostReport {
        let plan = gpuplan_core::plan::Plan::default();
        gpuplan_core::report::evaluate(&plan, gpuplan_core::lang::Lang::En).unwrap().cost.clone()
    }

    #[test]
    fn rows_have_a_cell_per_column_and_the_cheapest_is_marked() {
        let c = report();
        let width = cols(Lang::En).len();
        let rows: Vec<Row> = c.options.iter().map(|o| row(o, c.best.as_deref(), Lang::En)).collect();
        assert!(rows.iter().all(|r| r.cells.len() == width));
        let best = rows.iter().filter(|r| r.class == "best").collect::<Vec<_>>();
        assert_eq!(best.len(), 1);
        assert_eq!(Some(&best[0].key), c.best.as_ref());
        assert_eq!(best[0].cells[width - 1], [(String::new(), "")], "the cheapest has no reason to lose");
    }

    #[test]
    fn the_bill_shown_is_the_picked_option_else_the_first() {
        let c = report();
        let first = &c.options[0].id;
        let last = &c.options[c.options.len() - 1].id;
        assert_eq!(shown_option(&c, None).map(|o| &o.id), Some(first));
        assert_eq!(shown_option(&c, Some(last)).map(|o| &o.id), Some(last));
        assert_eq!(shown_option(&c, Some("gone")).map(|o| &o.id), Some(first));
        let b = bill(&c.options[0], Lang::En);
        assert_eq!(b.lines.len(), c.options[0].lines.len());
        assert!(b.title.starts_with(&c.options[0].label(Lang::En)));
    }
}
