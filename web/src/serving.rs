//! The serving block of an inference plan: the chosen GPU's expected
//! latency and throughput with their ranges and derivations, the physics
//! bounds, the GPUs the targets need, and TPOT and throughput against
//! concurrency. Every number is the core's (`selection.speed`, its curve);
//! this module only lays them out.

use gpuplan_core::figure::{Basis, Figure};
use gpuplan_core::plan::Task;
use gpuplan_core::present;
use gpuplan_core::serving::curve::Curve;
use gpuplan_core::serving::{Binding, Estimate, TargetCount};
use gpuplan_core::speed::SpeedSummary;
use leptos::prelude::*;
use web_sys::Element;

use crate::chart::{chart, Chart, Series};
use crate::dom::{block, h, host, El};
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

/// What kind of number a figure is, in words.
fn basis(b: Basis, lang: Lang) -> &'static str {
    t(
        lang,
        match b {
            Basis::UpperBound | Basis::LowerBound => K::BasisBound,
            Basis::Estimate => K::BasisEstimate,
            Basis::Calibrated => K::BasisCalibrated,
            Basis::Measured => K::BasisMeasured,
        },
    )
}

/// One figure as a "why" item: its name, value, range and kind in the
/// summary, the derivation inside. `id` names the value for tests.
fn item(id: &str, name: K, f: &Figure, range: Option<(f64, f64)>, lang: Lang) -> El {
    let range = range.map(|(lo, hi)| {
        h("span").c("range").t(&format!(" ({}–{} {})", present::amount(lo), present::amount(hi), f.unit))
    });
    let summary = h("summary")
        .t(t(lang, name))
        .t(" · ")
        .k(h("strong").a("data-testid", id).t(&present::figure(f)))
        .opt(range)
        .t(" ")
        .k(h("span").c("chip info").t(basis(f.basis, lang)));
    let dl = h("dl").k(h("dt").t(t(lang, K::Formula))).k(h("dd").c("formula").t(&f.derivation));
    h("details").c("why-item").k(summary).k(dl)
}

fn expected(id: &str, name: K, e: &Estimate, lang: Lang) -> El {
    item(id, name, &e.figure(), Some((e.low, e.high)), lang)
}

/// The expected figures, or why there are none; then the bounds. The
/// bounds on the total are at the plan's concurrency, which is the expected
/// figures' load only without a QPS target (`at_plan_load`); with one they
/// would bound another load, so only the per-sequence bounds show.
fn figures(s: &SpeedSummary, at_plan_load: bool, lang: Lang) -> El {
    let mut out = h("div").c("why");
    let Some(inf) = &s.inference else {
        let why = s.missing.map(|m| m.text(lang)).unwrap_or_default();
        return out.k(h("p").c("hint").t(why));
    };
    match &inf.expected {
        Some(e) => {
            let load = format!("{}: {}", t(lang, K::InFlight), present::amount(e.concurrency));
            out = out.k(h("p").c("hint").a("data-testid", "serving-load").t(&load)).ks([
                expected("serving-ttft", K::Ttft, &e.ttft_ms, lang),
                expected("serving-tpot", K::Tpot, &e.tpot_ms, lang),
                expected("serving-tps-seq", K::TpsSeq, &e.decode_tps_per_sequence, lang),
                expected("serving-tps-total", K::Throughput, &e.decode_tps_total, lang),
                expected("serving-rps", K::Rps, &e.requests_per_s, lang),
            ]);
        }
        None => out = out.k(h("p").c("hint").t(t(lang, K::NoExpected))),
    }
    let b = &inf.bound;
    let per_seq = [
        item("bound-prefill", K::Prefill, &b.prefill_seconds, None, lang),
        item("bound-tps-seq", K::TpsSeq, &b.decode_tps_per_sequence, None, lang),
    ];
    let totals = at_plan_load.then(|| {
        [
            item("bound-tps-total", K::Throughput, &b.decode_tps_total, None, lang),
            item("bound-rps", K::Rps, &b.requests_per_s, None, lang),
        ]
    });
    let bounds = h("details").c("advanced").k(h("summary").t(t(lang, K::Bounds))).ks(per_seq);
    out.k(bounds.ks(totals.into_iter().flatten()))
}

/// The GPU count the targets need, what binds it, and that the bill prices it.
fn count(c: &TargetCount, lang: Lang) -> El {
    let binds = match c.binds {
        Binding::Tpot => K::BindTpot,
        Binding::Ttft => K::BindTtft,
        Binding::KvCapacity => K::BindKv,
        Binding::Measured => K::BasisMeasured,
    };
    let summary = h("summary")
        .t(t(lang, K::GpusForTarget))
        .t(" · ")
        .k(h("strong").a("data-testid", "serving-gpus").t(&c.gpus.to_string()))
        .t(" · ")
        .t(t(lang, K::Binds))
        .k(h("span").a("data-testid", "serving-binds").t(t(lang, binds)))
        .t(" ")
        .k(h("span").c("chip info").t(basis(c.basis, lang)));
    let dl = h("dl").k(h("dt").t(t(lang, K::Formula))).k(h("dd").c("formula").t(&c.derivation));
    h("div")
        .c("why")
        .k(h("details").c("why-item").k(summary).k(dl))
        .k(h("p").c("hint").t(t(lang, K::FeedsBill)))
}

/// A horizontal target line with its label.
fn line(value: Option<f64>, name: K, unit: &str, lang: Lang) -> Option<(f64, String)> {
    value.map(|v| (v, format!("{} {} {unit}", t(lang, name), present::amount(v))))
}

/// TPOT and total output against concurrency, each with its target line
/// and the expected load marked.
fn charts(c: &Curve, lang: Lang) -> El {
    let x_label = t(lang, K::Concurrency).to_string();
    let marks: Vec<(f64, String)> = c
        .operating
        .map(|x| (x, format!("{} {}", t(lang, K::ExpectedLoad), present::amount(x))))
        .into_iter()
        .collect();
    let draw = |title: K, y: K, unit: &str, pts: Vec<(f64, f64)>, limit| {
        chart(&Chart {
            title: t(lang, title).into(),
            x_label: x_label.clone(),
            y_label: format!("{} ({unit})", t(lang, y)),
            log_x: true,
            series: vec![Series { name: t(lang, y).into(), class: "s0", points: pts }],
            limit,
            marks: marks.clone(),
            x_fmt: present::grouped,
        })
    };
    let tpot = c.points.iter().map(|p| (p.concurrency, p.tpot_ms)).collect();
    let tput = c.points.iter().map(|p| (p.concurrency, p.tok_s_total)).collect();
    h("div")
        .k(h("div").a("data-testid", "tpot-chart").k(draw(
            K::TpotVsConc,
            K::Tpot,
            "ms",
            tpot,
            line(c.tpot_target_ms, K::BindTpot, "ms", lang),
        )))
        .k(h("div").a("data-testid", "tput-chart").k(draw(
            K::TputVsConc,
            K::Throughput,
            "token/s",
            tput,
            line(c.needed_tok_s, K::NeededLine, "token/s", lang),
        )))
}

pub fn serving_block(app: AppState) -> Option<Element> {
    let body = move || {
        let lang = app.lang;
        app.shown.with(|r| {
            let s = r.as_ref()?.selection.as_ref()?;
            let speed = s.speed.as_ref()?;
            let (task, no_target) = app.settled.with(|p| (p.task, p.inference.target_qps <= 0.0));
            let curve = speed.curve();
            if task != Task::Infer {
                return None;
            }
            let title = format!("{} · {}", t(lang, K::ServingTitle), s.gpu_name);
            Some(
                block("serving-h", &title)
                    .a("data-testid", "serving")
                    .k(h("p").c("hint").t(t(lang, K::ServingHint)))
                    .k(figures(speed, no_target, lang))
                    .opt(speed.gpus_for_target.as_ref().map(|c| count(c, lang)))
                    .opt(curve.as_ref().map(|c| charts(c, lang))),
            )
        })
    };
    host("", body, |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::plan::Plan;
    use gpuplan_core::report::evaluate;

    fn speed(plan: &Plan) -> SpeedSummary {
        let r = evaluate(plan, gpuplan_core::lang::Lang::En).unwrap();
        r.selection.unwrap().speed.unwrap()
    }

    #[test]
    fn every_expected_figure_shows_with_its_range_and_kind() {
        let text = figures(&speed(&Plan::default()), true, Lang::En).text();
        for k in [K::Ttft, K::Tpot, K::TpsSeq, K::Throughput, K::Rps, K::Bounds] {
            assert!(text.contains(t(Lang::En, k)), "{k:?}: {text}");
        }
        assert!(
            text.contains("≈ ") && text.contains(" ms (") && text.contains("calibrated estimate"),
            "{text}"
        );
        assert!(!text.contains("NaN") && !text.contains(" inf"), "{text}");
    }

    #[test]
    fn the_count_names_what_binds_and_the_charts_draw_the_targets() {
        let mut plan = Plan::default();
        plan.inference.target_qps = 20.0;
        plan.inference.tpot_ms = 30.0;
        let s = speed(&plan);
        let c = s.gpus_for_target.as_ref().expect("a count");
        let bounds = figures(&s, false, Lang::En).text();
        assert!(
            bounds.contains("sequence · ≤") && !bounds.contains("state · ≤"),
            "per-sequence bounds only: {bounds}"
        );
        let el = count(c, Lang::En);
        assert_eq!(el.find("strong", "data-testid"), Some("serving-gpus"));
        assert!(el.text().contains(&format!("· {} ·", c.gpus)), "{}", el.text());
        let curve = s.curve().expect("a curve");
        let text = charts(&curve, Lang::En).text();
        assert!(text.contains("TPOT target 30.0 ms"), "{text}");
        assert!(text.contains("needed for the target QPS, per replica"), "{text}");
    }
}
