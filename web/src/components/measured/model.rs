//! The readback's rows as text: what was measured beside what the plan
//! expected, the verdict, the likely causes, and GPUs, hours and bill before
//! and after. The core reads and compares; these only name and format.

use gpuplan_core::money::Currency;
use gpuplan_core::present::{self, Unit};
use gpuplan_core::readback::{Metric, Outcome, Readback, Row};

use crate::i18n::{t, Lang, K};

/// One compared figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub name: &'static str,
    pub expected: String,
    pub measured: String,
    pub deviation: String,
    pub inside: bool,
}

/// The panel's content for one readback.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub source: String,
    pub lines: Vec<Line>,
    pub verdict: String,
    pub causes: Vec<String>,
    /// (what, before, after): GPUs, run hours, bill.
    pub changes: Vec<(&'static str, String, String)>,
}

fn metric(m: Metric) -> K {
    match m {
        Metric::OutputTokS => K::MeasOutputTokS,
        Metric::DecodeTokS => K::MeasDecodeTokS,
        Metric::TtftMs => K::MeasTtft,
        Metric::TpotMs => K::MeasTpot,
        Metric::TokensPerSPerGpu => K::MeasTokPerGpu,
        Metric::PeakMemory => K::MeasPeakMemory,
    }
}

fn value(r: &Row, v: f64, unit: Unit) -> String {
    match r.metric {
        Metric::PeakMemory => present::bytes(v.max(0.0) as u64, unit),
        _ => format!("{} {}", present::amount(v), r.unit),
    }
}

fn line(r: &Row, lang: Lang, unit: Unit) -> Line {
    // The range names its unit once, as the serving block's ranges do.
    let range = match r.metric {
        Metric::PeakMemory => format!("{}–{}", value(r, r.low, unit), value(r, r.high, unit)),
        _ => format!("{}–{} {}", present::amount(r.low), present::amount(r.high), r.unit),
    };
    let expected = format!("≈ {} ({range})", value(r, r.expected, unit));
    Line {
        name: t(lang, metric(r.metric)),
        expected,
        measured: format!("= {}", value(r, r.measured, unit)),
        deviation: format!("{:+.0} %", r.deviation_pct),
        inside: r.inside,
    }
}

fn changes(
    before: &Outcome,
    after: &Outcome,
    currency: Currency,
    lang: Lang,
) -> Vec<(&'static str, String, String)> {
    let hours = |o: &Outcome| o.run_hours.map_or_else(|| "—".into(), |h| format!("{} h", present::amount(h)));
    let bill = |o: &Outcome| o.total.map_or_else(|| "—".into(), |m| present::money(m, currency));
    vec![
        (t(lang, K::MeasGpus), before.gpus.to_string(), after.gpus.to_string()),
        (t(lang, K::MeasHours), hours(before), hours(after)),
        (t(lang, K::MeasBill), bill(before), bill(after)),
    ]
}

/// `currency` is the bill's (the chosen option's).
pub fn shown(r: &Readback, currency: Currency, lang: Lang, unit: Unit) -> Shown {
    let changes = match (&r.before, &r.after) {
        (Some(b), Some(a)) => changes(b, a, currency, lang),
        _ => Vec::new(),
    };
    Shown {
        source: format!("{} {}", t(lang, K::MeasFrom), r.tool.name()),
        lines: r.rows.iter().map(|row| line(row, lang, unit)).collect(),
        verdict: r.verdict_text(lang),
        causes: r.cause_texts(lang),
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::plan::Plan;

    const SUMMARY: &str =
        include_str!("../../../../crates/gpuplan-core/tests/fixtures/measured/vllm_summary.txt");

    fn readback(plan: &Plan) -> Readback {
        let reading = gpuplan_core::measured::read(SUMMARY).unwrap_or_else(|e| panic!("{e:?}"));
        let offers = gpuplan_core::offers::defaults();
        gpuplan_core::readback::readback(plan, &reading, &offers, Lang::En)
            .unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_vllm_summary_shows_beside_the_plan_with_its_deviation() {
        let s = shown(&readback(&Plan::default()), Currency::Usd, Lang::En, Unit::default());
        assert!(s.source.ends_with("vllm bench serve"), "{}", s.source);
        let out = s.lines.iter().find(|l| l.name == t(Lang::En, K::MeasOutputTokS)).expect("output tok/s");
        assert!(out.expected.starts_with("≈ ") && out.measured.starts_with("= "), "{out:?}");
        assert!(out.deviation.ends_with(" %"), "{out:?}");
        assert_eq!(s.changes.len(), 3);
        assert!(!s.verdict.is_empty());
    }
}
