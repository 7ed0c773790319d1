//! The cost comparison: every purchase option's whole bill, the cheapest
//! highlighted, one option's lines, and cumulative cost over time.

use gpuplan_core::cost::{Category, CostReport, Fee, OptionCost};
use gpuplan_core::plan::Task;
use gpuplan_core::present;
use leptos::prelude::*;
use web_sys::Element;

use crate::chart::{chart, hours, Chart, Series};
use crate::dom::{block, h, host, El};
use crate::i18n::{t, Lang, K};
use crate::state::AppState;
use crate::table::{table, Col, Row};

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
        (_, true) => String::new(),
        (Some(l), _) => l.text(lang, o.currency),
        (None, _) => String::new(),
    };
    let mut cells = vec![name, vec![(format!("{} × {}", o.instances, o.gpus_per_instance), "")]];
    cells.push(vec![(money(o, None), "strong")]);
    cells.extend(Category::ALL.iter().map(|&c| vec![(money(o, Some(c)), "")]));
    cells.push(vec![(why, "")]);
    Row {
        key: o.id.clone(),
        class: if is_best {
            "best"
        } else if o.meets {
            ""
        } else {
            "nomeet"
        },
        cells,
        keys: vec![],
    }
}

fn cols(lang: Lang) -> Vec<Col> {
    let col = |label: String, num: bool| Col { label, sortable: false, num };
    let mut v = vec![
        col(t(lang, K::PurchaseOption).into(), false),
        col(t(lang, K::InstancesGpus).into(), true),
        col(t(lang, K::Total).into(), true),
    ];
    v.extend(Category::ALL.iter().map(|c| col(c.label(lang).into(), true)));
    v.push(col(t(lang, K::WhyNot).into(), false));
    v
}

/// The picked option's bill, line by line with derivations.
fn lines(o: &OptionCost, lang: Lang) -> El {
    let items = o.lines.iter().map(|l| {
        let (fee, class) = match l.fee {
            Fee::Committed => (t(lang, K::Committed), "chip warn"),
            Fee::Usage => (t(lang, K::Usage), "chip info"),
        };
        h("li")
            .k(h("span").c("line-name").t(&l.label(lang)))
            .k(h("span").c(class).t(fee))
            .k(h("strong").c("line-amount").t(&present::money(l.amount, o.currency)))
            .k(h("span").c("formula").t(&l.derivation))
    });
    h("div")
        .c("bill")
        .k(h("h4").t(&format!("{} · {}", o.label(lang), money(o, None))))
        .k(h("ul").c("lines").ks(items))
        .k(h("p").c("hint").t(&format!("{}: {} {}", t(lang, K::Source), o.source, o.date)))
}

/// Cumulative cost of the best and next options, with break-even marks.
fn over_time(c: &CostReport, lang: Lang) -> Option<El> {
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
    Some(chart(&Chart {
        title: t(lang, K::CostOverTime).into(),
        x_label: format!("{} (h)", t(lang, K::Hours)),
        y_label: format!("{} ({})", t(lang, K::Paid), first.currency.code()),
        log_x: false,
        series,
        limit: None,
        marks,
        x_fmt: hours,
    }))
}

fn skipped(c: &CostReport, lang: Lang) -> El {
    let items = c.skipped.iter().map(|s| h("li").t(&format!("{}: {}", s.name, s.skip.text(lang))));
    h("ul").ks(items)
}

pub fn cost_table(app: AppState) -> Option<Element> {
    let pick: RwSignal<Option<String>> = RwSignal::new(None);
    let body = move || {
        let lang = app.lang;
        let horizon =
            if app.settled.with(|p| p.task) == Task::Train { K::HorizonRun } else { K::HorizonServe };
        let picked = pick.get();
        let bills = app.shown.with(|r| {
            let c = &r.as_ref()?.cost;
            let best = c.best.as_deref();
            let rows = c.options.iter().map(|o| row(o, best, lang)).collect();
            let chosen =
                picked.as_deref().and_then(|id| c.options.iter().find(|o| o.id == id)).or(c.options.first());
            let shown_pick = chosen.map(|o| o.id.as_str());
            let skipped = h("details")
                .c("skipped")
                .k(h("summary").t(&format!("{} ({})", t(lang, K::Skipped), c.skipped.len())))
                .k(skipped(c, lang));
            Some(
                h("div")
                    .k(table("cost-table", t(lang, K::CostTitle), cols(lang), rows, None, shown_pick))
                    .opt(chosen.map(|o| lines(o, lang)))
                    .opt(over_time(c, lang))
                    .k(skipped),
            )
        });
        let section = block("cost-h", t(lang, K::CostTitle)).k(h("p").c("hint").t(t(lang, horizon)));
        Some(section.opt(bills))
    };
    host("", body, move |act, arg| {
        if act == "pick" {
            pick.set(Some(arg.to_string()));
        }
    })
}
