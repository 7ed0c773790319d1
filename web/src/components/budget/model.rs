//! The budget's rows and bars, from the core's `Budget` as it is: every
//! amount is the core's, written by `Money::text`; the bars' places are the
//! core's hours on the timeline's width.

use gpuplan_core::budget::{Budget, ByLine, WorkloadBudget};
use gpuplan_core::cost::HOURS_PER_MONTH;
use gpuplan_core::money::Money;

use crate::i18n::{t, Lang, K};

/// The lines a total splits into, in the core's order.
pub const LINES: [K; 6] =
    [K::LineGpus, K::LineStorage, K::LineIp, K::LineEgress, K::LineItems, K::LineContingency];

fn split(b: &ByLine) -> [Money; 6] {
    [b.gpus, b.storage, b.ip, b.egress, b.items, b.contingency]
}

/// One workload on the timeline, in percent of its width.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub name: String,
    /// What it runs on: the core's selection in words.
    pub selection: String,
    pub left: f64,
    pub width: f64,
    /// The machines it carries on, held before it starts: (left, width).
    pub held: Option<(f64, f64)>,
    /// "carries on train's machines", "its machines carry on into serve".
    pub note: Option<String>,
}

fn pct(hours: f64, months: usize) -> f64 {
    let span = months.max(1) as f64 * HOURS_PER_MONTH;
    (hours / span * 100.0).clamp(0.0, 100.0)
}

fn note(w: &WorkloadBudget, lang: Lang) -> Option<String> {
    match (&w.reuses, &w.carried_by) {
        (Some(from), _) => Some(t(lang, K::CarriesOn).replace("{name}", from)),
        (None, Some(by)) => Some(t(lang, K::CarriedInto).replace("{name}", by)),
        (None, None) => None,
    }
}

pub fn bars(b: &Budget, lang: Lang) -> Vec<Bar> {
    b.workloads
        .iter()
        .map(|w| {
            let left = pct(w.start_h, b.months);
            let held = (w.billed_from_h < w.start_h).then(|| {
                let from = pct(w.billed_from_h, b.months);
                (from, left - from)
            });
            Bar {
                name: w.name.clone(),
                selection: w.selection.clone(),
                left,
                width: (pct(w.end_h, b.months) - left).max(0.5),
                held,
                note: note(w, lang),
            }
        })
        .collect()
}

/// A table: its header and rows of text cells, the first cell the row's
/// header; the cells after the first `words` columns are amounts.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub words: usize,
}

fn at(v: &[Money], m: usize) -> String {
    v.get(m).copied().unwrap_or(Money::ZERO).text()
}

/// One row a month: each workload, each project line, the month split by
/// line, and its total; the last row the totals.
pub fn by_month(b: &Budget, lang: Lang) -> Table {
    let mut head = vec![t(lang, K::MonthCol).to_string()];
    head.extend(b.workloads.iter().map(|w| w.name.clone()));
    head.extend(b.lines.iter().map(|l| l.name.clone()));
    head.extend(LINES.iter().map(|k| t(lang, *k).to_string()));
    head.push(t(lang, K::TotalCol).into());
    let mut rows: Vec<Vec<String>> = (0..b.months)
        .map(|m| {
            let mut row = vec![(m + 1).to_string()];
            row.extend(b.workloads.iter().map(|w| at(&w.by_month, m)));
            row.extend(b.lines.iter().map(|l| at(&l.by_month, m)));
            let month = b.by_month_line.get(m).copied().unwrap_or_default();
            row.extend(split(&month).iter().map(|x| x.text()));
            row.push(at(&b.by_month, m));
            row
        })
        .collect();
    let mut total = vec![t(lang, K::TotalCol).to_string()];
    total.extend(b.workloads.iter().map(|w| w.total.text()));
    total.extend(b.lines.iter().map(|l| l.total.text()));
    total.extend(split(&b.by_line).iter().map(|x| x.text()));
    total.push(b.total.text());
    rows.push(total);
    Table { head, rows, words: 1 }
}

/// One row a workload (what it orders, its reuse, its total by line), one
/// a project line, and the whole project.
pub fn by_workload(b: &Budget, lang: Lang) -> Table {
    let mut head = vec![t(lang, K::WorkloadCol).to_string(), t(lang, K::OrdersCol).into()];
    head.extend(LINES.iter().map(|k| t(lang, *k).to_string()));
    head.push(t(lang, K::TotalCol).into());
    let mut rows: Vec<Vec<String>> = b
        .workloads
        .iter()
        .map(|w| {
            let orders = match note(w, lang) {
                Some(n) => format!("{} ({n})", w.selection),
                None => w.selection.clone(),
            };
            let mut row = vec![w.name.clone(), orders];
            row.extend(split(&w.by_line).iter().map(|x| x.text()));
            row.push(w.total.text());
            row
        })
        .collect();
    for l in &b.lines {
        let every = t(lang, if l.monthly { K::LineMonthly } else { K::LineOnce });
        // A project line is an own item: its amount in that column only.
        let mut row = vec![l.name.clone(), every.into()];
        row.extend(LINES.iter().map(|k| if *k == K::LineItems { l.total.text() } else { String::new() }));
        row.push(l.total.text());
        rows.push(row);
    }
    let mut total = vec![t(lang, K::WholeProject).to_string(), String::new()];
    total.extend(split(&b.by_line).iter().map(|x| x.text()));
    total.push(b.total.text());
    rows.push(total);
    Table { head, rows, words: 2 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::examples;

    fn law() -> Budget {
        let p = examples::find_project("law-saas-project").map(|e| e.project).unwrap_or_default();
        let offers = gpuplan_core::offers::defaults();
        gpuplan_core::budget::evaluate(&p, &offers, Lang::En).expect("valid").budget
    }

    #[test]
    fn the_tables_hold_the_cores_amounts() {
        let b = law();
        let months = by_month(&b, Lang::En);
        assert_eq!(months.rows.len(), b.months + 1, "a row a month and the totals");
        assert!(months.rows.iter().all(|r| r.len() == months.head.len()));
        let first = &months.rows[0];
        assert_eq!(first.last().map(String::as_str), Some(b.by_month[0].text().as_str()));
        assert_eq!(first[1], b.workloads[0].by_month[0].text());
        let last = months.rows.last().expect("totals");
        assert_eq!(last.last(), Some(&b.total.text()));
        let split = by_workload(&b, Lang::En);
        assert_eq!(split.rows.len(), b.workloads.len() + b.lines.len() + 1);
        assert!(split.rows.iter().all(|r| r.len() == split.head.len()));
        assert_eq!(split.rows[0].last(), Some(&b.workloads[0].total.text()));
        assert_eq!(split.rows.last().and_then(|r| r.last()), Some(&b.total.text()));
    }

    #[test]
    #[cfg(not(feature = "zh"))]
    fn the_seeds_first_month_reads_as_the_core_bills_it() {
        let b = law();
        let first = &by_month(&b, Lang::En).rows[0];
        assert_eq!(&first[1..3], ["653.70", "7,266.30"]);
        assert_eq!(first.last().map(String::as_str), Some("8,220.00"));
    }

    #[test]
    fn reuse_shows_on_the_timeline() {
        let b = law();
        let bars = bars(&b, Lang::En);
        let (train, serve) = (&bars[0], &bars[1]);
        assert_eq!(train.left, 0.0);
        assert!(train.note.is_some() && serve.note.is_some());
        let (from, width) = serve.held.expect("held from the training's start");
        assert_eq!(from, 0.0);
        assert!((width - serve.left).abs() < 1e-9 && serve.left > 0.0);
        assert!(serve.left + serve.width <= 100.0 + 1e-9);
    }
}
