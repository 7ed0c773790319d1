//! The serving block's rows: every number is the core's (`selection.speed`,
//! its curve); these name and arrange them. Tested natively.

use gpuplan_core::figure::{Basis, Figure};
use gpuplan_core::plan::Engine;
use gpuplan_core::present;
use gpuplan_core::selection::Selection;
use gpuplan_core::serving::curve::Curve;
use gpuplan_core::serving::{Binding, Estimate, LlamaSplit, TargetCount};
use gpuplan_core::speed::SpeedSummary;

use crate::components::chart::{Chart, Series};
use crate::i18n::{t, Lang, K};

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
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub id: &'static str,
    pub name: &'static str,
    pub value: String,
    pub range: Option<String>,
    pub basis: &'static str,
    pub derivation: String,
}

fn item(id: &'static str, name: K, f: &Figure, range: Option<(f64, f64)>, lang: Lang) -> Item {
    Item {
        id,
        name: t(lang, name),
        value: present::figure(f),
        range: range.map(|(lo, hi)| format!(" ({}–{} {})", present::amount(lo), present::amount(hi), f.unit)),
        basis: basis(f.basis, lang),
        derivation: f.derivation.clone(),
    }
}

fn expected(id: &'static str, name: K, e: &Estimate, lang: Lang) -> Item {
    item(id, name, &e.figure(), Some((e.low, e.high)), lang)
}

/// The expected figures (or why there are none) and the bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Why there are no figures at all.
    pub missing: Option<&'static str>,
    /// The load the expected figures are at.
    pub load: Option<String>,
    pub expected: Vec<Item>,
    pub bounds: Vec<Item>,
    /// What the factors behind the expected figures rest on, and which
    /// engine release; how llama.cpp splits the model over several GPUs.
    pub grounds: Vec<String>,
}

/// The bounds on the total are at the plan's concurrency, which is the
/// expected figures' load only without a QPS target (`at_plan_load`); with
/// one they would bound another load, so only the per-sequence bounds show.
pub fn figures(sel: &Selection, s: &SpeedSummary, engine: Engine, at_plan_load: bool, lang: Lang) -> Figures {
    let Some(inf) = &s.inference else {
        let missing = s.missing.map(|m| m.text(lang)).unwrap_or_default();
        let (expected, bounds, grounds) = (Vec::new(), Vec::new(), Vec::new());
        return Figures { missing: Some(missing), load: None, expected, bounds, grounds };
    };
    let basis = inf.expected.as_ref().map(|e| e.efficiency.basis_text(engine, lang));
    let split = sel.llama_cpp_split.filter(|s| *s != LlamaSplit::None).map(|s| s.label(lang).to_string());
    let grounds = basis.into_iter().chain(split).collect();
    let load = inf
        .expected
        .as_ref()
        .map(|e| format!("{}: {}", t(lang, K::InFlight), present::amount(e.concurrency)));
    let expected = inf.expected.as_ref().map_or_else(Vec::new, |e| {
        vec![
            expected("serving-ttft", K::Ttft, &e.ttft_ms, lang),
            expected("serving-tpot", K::Tpot, &e.tpot_ms, lang),
            expected("serving-tps-seq", K::TpsSeq, &e.decode_tps_per_sequence, lang),
            expected("serving-tps-total", K::Throughput, &e.decode_tps_total, lang),
            expected("serving-rps", K::Rps, &e.requests_per_s, lang),
        ]
    });
    let b = &inf.bound;
    let mut bounds = vec![
        item("bound-prefill", K::Prefill, &b.prefill_seconds, None, lang),
        item("bound-tps-seq", K::TpsSeq, &b.decode_tps_per_sequence, None, lang),
    ];
    if at_plan_load {
        bounds.push(item("bound-tps-total", K::Throughput, &b.decode_tps_total, None, lang));
        bounds.push(item("bound-rps", K::Rps, &b.requests_per_s, None, lang));
    }
    Figures { missing: None, load, expected, bounds, grounds }
}

/// The GPU count the targets need and what binds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub gpus: String,
    pub binds: &'static str,
    pub basis: &'static str,
    pub derivation: String,
}

pub fn count(c: &TargetCount, lang: Lang) -> Count {
    let binds = match c.binds {
        Binding::Tpot => K::BindTpot,
        Binding::Ttft => K::BindTtft,
        Binding::KvCapacity => K::BindKv,
        Binding::Measured => K::BasisMeasured,
    };
    Count {
        gpus: c.gpus.to_string(),
        binds: t(lang, binds),
        basis: basis(c.basis, lang),
        derivation: c.derivation.clone(),
    }
}

/// A horizontal target line with its label.
fn line(value: Option<f64>, name: K, unit: &str, lang: Lang) -> Option<(f64, String)> {
    value.map(|v| (v, format!("{} {} {unit}", t(lang, name), present::amount(v))))
}

/// TPOT and total output against concurrency, each with its target line
/// and the expected load marked.
pub fn charts(c: &Curve, lang: Lang) -> [Chart; 2] {
    let marks: Vec<(f64, String)> = c
        .operating
        .map(|x| (x, format!("{} {}", t(lang, K::ExpectedLoad), present::amount(x))))
        .into_iter()
        .collect();
    let draw = |title: K, y: K, unit: &str, points: Vec<(f64, f64)>, limit| Chart {
        title: t(lang, title).into(),
        x_label: t(lang, K::Concurrency).into(),
        y_label: format!("{} ({unit})", t(lang, y)),
        log_x: true,
        series: vec![Series { name: t(lang, y).into(), class: "s0", points }],
        limit,
        marks: marks.clone(),
        x_fmt: present::grouped,
    };
    let tpot = c.points.iter().map(|p| (p.concurrency, p.tpot_ms)).collect();
    let tput = c.points.iter().map(|p| (p.concurrency, p.tok_s_total)).collect();
    [
        draw(K::TpotVsConc, K::Tpot, "ms", tpot, line(c.tpot_target_ms, K::BindTpot, "ms", lang)),
        draw(
            K::TputVsConc,
            K::Throughput,
            "token/s",
            tput,
            line(c.needed_tok_s, K::NeededLine, "token/s", lang),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::plan::Plan;
    use gpuplan_core::report::evaluate;

    fn selection(plan: &Plan) -> Selection {
        evaluate(plan, gpuplan_core::lang::Lang::En).unwrap().selection.unwrap()
    }

    fn speed(plan: &Plan) -> SpeedSummary {
        selection(plan).speed.unwrap()
    }

    fn figures_of(plan: &Plan, at_plan_load: bool) -> Figures {
        let sel = selection(plan);
        figures(&sel, sel.speed.as_ref().unwrap(), plan.inference.engine, at_plan_load, Lang::En)
    }

    #[test]
    fn every_expected_figure_shows_with_its_range_and_kind() {
        let f = figures_of(&Plan::default(), true);
        let names: Vec<_> = f.expected.iter().map(|i| i.name).collect();
        for k in [K::Ttft, K::Tpot, K::TpsSeq, K::Throughput, K::Rps] {
            assert!(names.contains(&t(Lang::En, k)), "{k:?}: {names:?}");
        }
        let tpot = f.expected.iter().find(|i| i.id == "serving-tpot").expect("TPOT");
        assert!(
            tpot.value.starts_with("≈ ") && tpot.range.as_deref().is_some_and(|r| r.ends_with(" ms)")),
            "{tpot:?}"
        );
        assert_eq!(tpot.basis, "calibrated estimate");
        assert_eq!(f.bounds.len(), 4);
        let all = f
            .expected
            .iter()
            .chain(&f.bounds)
            .map(|i| format!("{} {:?}", i.value, i.range))
            .collect::<String>();
        assert!(!all.contains("NaN") && !all.contains(" inf"), "{all}");
        assert!(
            f.grounds.iter().any(|g| g.contains("end-to-end")),
            "what the factors rest on: {:?}",
            f.grounds
        );
    }

    #[test]
    fn llama_cpp_on_several_gpus_names_its_split() {
        let model = gpuplan_core::model::ModelSpec::Preset { id: "llama-3.1-70b".into() };
        let mut plan = Plan { model, ..Plan::default() };
        plan.inference.engine = Engine::LlamaCpp;
        plan.parallel.gpus = 2;
        let sel = selection(&plan);
        let f = figures_of(&plan, true);
        let split = sel.llama_cpp_split.expect("llama.cpp names its split");
        assert!(f.grounds.contains(&split.label(Lang::En).to_string()), "{:?}", f.grounds);
    }

    #[test]
    fn the_count_names_what_binds_and_the_charts_draw_the_targets() {
        let mut plan = Plan::default();
        plan.inference.target_qps = 20.0;
        plan.inference.tpot_ms = 30.0;
        let s = speed(&plan);
        let c = s.gpus_for_target.as_ref().expect("a count");
        let ids: Vec<_> = figures_of(&plan, false).bounds.iter().map(|i| i.id).collect();
        assert_eq!(ids, ["bound-prefill", "bound-tps-seq"], "per-sequence bounds only");
        let n = count(c, Lang::En);
        assert_eq!(n.gpus, c.gpus.to_string());
        assert_eq!(n.binds, t(Lang::En, K::BindTpot));
        let [tpot, tput] = charts(&s.curve().expect("a curve"), Lang::En);
        let target = tpot.limit.map(|l| l.1).unwrap_or_default();
        assert!(target.contains("TPOT target 30.0 ms"), "{target}");
        let needed = tput.limit.map(|l| l.1).unwrap_or_default();
        assert!(needed.contains("needed for the target QPS, per replica"), "{needed}");
    }
}
