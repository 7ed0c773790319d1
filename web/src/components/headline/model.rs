//! What the headline blocks show, as plain rows of text: the core computes,
//! `present` formats, these pick and arrange. Tested natively.

use gpuplan_core::memory::{Component, Components, MemoryResult, PeakKind};
use gpuplan_core::present::{self, Unit};
use gpuplan_core::selection::Basis;

use crate::components::market::{Named, Top};
use crate::i18n::{t, Lang, K};
use crate::state::{Headline, Report};

/// CSS classes of the memory components, in the core's order.
pub const CLASSES: [&str; 6] =
    ["c-weights", "c-gradients", "c-optimizer", "c-activations", "c-kv", "c-workspace"];

/// The memory components in display order: the core's name, CSS class, component.
fn parts(
    m: &MemoryResult,
    lang: Lang,
) -> impl Iterator<Item = (&'static str, &'static str, &Component)> + Clone {
    m.components.named(lang).into_iter().zip(CLASSES).map(|((name, c), class)| (name, class, c))
}

/// The peak and its breakdown against the plan's GPU.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Head {
    pub peak: String,
    pub kind: String,
    /// The fill's, the headroom's and the limit's `style`.
    pub fill: String,
    pub headroom: String,
    pub limit: String,
    /// Per component shown (non-zero), in order.
    pub parts: Vec<Part>,
    pub verdict: Option<Verdict>,
}

/// One component of the bar and the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub class: &'static str,
    pub name: &'static str,
    pub size: String,
    /// The segment's `style` (its width) and tooltip.
    pub width: String,
    pub title: String,
}

/// Whether the peak fits the plan's GPU, and that GPU's memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub class: &'static str,
    pub word: &'static str,
    pub of: String,
}

pub fn head(r: &Headline, lang: Lang, unit: Unit) -> Head {
    let m = &r.memory;
    let chosen = r.gpu.as_ref();
    let (usable, nominal) = chosen.map_or((0, 0), |(_, u)| (u.bytes, u.nominal_bytes));
    let geo = bar_scale(m.per_gpu_bytes, usable, nominal);
    let total = m.per_gpu_bytes.max(1) as f64;
    let parts = parts(m, lang)
        .filter(|(_, _, c)| c.bytes > 0)
        .map(|(name, class, c)| Part {
            class,
            name,
            size: present::bytes(c.bytes, unit),
            width: format!("width:{}", pct(c.bytes as f64 / total * 100.0)),
            title: format!("{name}: {}", present::bytes(c.bytes, unit)),
        })
        .collect();
    let verdict = chosen.map(|(name, u)| {
        let fits = m.per_gpu_bytes <= usable;
        let of = format!(
            " {}: {} {} / {} · {} {}",
            name,
            t(lang, K::UsableShort),
            present::bytes(usable, unit),
            present::bytes(nominal, unit),
            t(lang, K::HeadroomShort),
            present::bytes(u.headroom_bytes, unit),
        );
        Verdict {
            class: if fits { "ok" } else { "over" },
            word: t(lang, if fits { K::FitsOne } else { K::ExceedsOne }),
            of,
        }
    });
    Head {
        peak: present::bytes(m.per_gpu_bytes, unit),
        kind: peak_kind(m, lang, unit),
        fill: format!("width:{}", pct(geo.fill_pct)),
        headroom: format!("left:{};width:{}", pct(geo.usable_pct), pct(geo.nominal_pct - geo.usable_pct)),
        limit: format!("left:{}", pct(geo.usable_pct)),
        parts,
        verdict,
    }
}

fn pct(x: f64) -> String {
    format!("{x:.3}%")
}

/// What the peak is: a framework's peak allocation, or what the workload
/// needs inside a pool the engine reserves up front, with the reservation's
/// size when the core knows it (that, not the need, is what nvidia-smi shows).
fn peak_kind(m: &MemoryResult, lang: Lang, unit: Unit) -> String {
    match (m.peak_kind, m.reserved_bytes, m.kv_pool_bytes) {
        (PeakKind::Allocated, ..) => match &m.nvidia_smi {
            // A training run: the allocated peak, and the larger figure the
            // user will read off nvidia-smi.
            Some(s) => format!(
                "{} · {}",
                t(lang, K::PeakAllocated),
                t(lang, K::PeakNvidiaSmi)
                    .replace("{varying}", &present::bytes(s.varying_bytes, unit))
                    .replace("{packed}", &present::bytes(s.packed_bytes, unit))
            ),
            None => t(lang, K::PeakAllocated).to_string(),
        },
        (PeakKind::Reserved, Some(reserved), Some(pool)) => t(lang, K::PeakNeedReserves)
            .replace("{reserved}", &present::bytes(reserved, unit))
            .replace("{pool}", &present::bytes(pool, unit)),
        (PeakKind::Reserved, ..) => t(lang, K::PeakReserved).to_string(),
    }
}

/// Bar geometry: each component's share of the peak, and where the peak, the
/// usable limit and the card's size sit on a scale that holds all three.
#[derive(Debug, PartialEq)]
pub struct BarScale {
    pub fill_pct: f64,
    pub usable_pct: f64,
    pub nominal_pct: f64,
}

pub fn bar_scale(peak: u64, usable: u64, nominal: u64) -> BarScale {
    let scale = peak.max(nominal).max(1) as f64;
    let pct = |b: u64| b as f64 / scale * 100.0;
    BarScale { fill_pct: pct(peak), usable_pct: pct(usable), nominal_pct: pct(nominal) }
}

/// The answer: the GPUs to order, the option priced on them, and the bill's
/// cheapest when it is elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub over: bool,
    pub gpus: String,
    pub note: String,
    /// None: no offer prices the chosen GPU.
    pub cost: Option<OptionRow>,
    pub best: Option<OptionRow>,
    /// The market's cheapest, and a list price beside an auction's or
    /// marketplace's; empty until the market has loaded.
    pub market: Vec<OptionRow>,
}

/// One purchase option of the bill: its total, what it is, and for how long.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionRow {
    pub label: &'static str,
    pub testid: &'static str,
    pub total: String,
    pub note: String,
}

/// Read from the report's one selected configuration, so the first screen
/// names what the fit table, the bill and the checklist name. `span`: how
/// long the bill runs, in words.
pub fn answer(r: &Report, span: &str, lang: Lang) -> Option<Answer> {
    let sel = r.selection.as_ref()?;
    let chosen = sel.option.as_ref().map(|p| p.id.as_str());
    // The bill compares every GPU that holds the plan; name its cheapest
    // when it is not on the chosen GPU, so a cheaper card is never hidden.
    let best = r.cost.best.as_deref().filter(|&b| Some(b) != chosen);
    Some(Answer {
        over: sel.basis == Basis::DoesNotFit,
        gpus: format!("{} × {}", sel.gpus, sel.gpu_name),
        note: format!("{} · {}", sel.layout(lang), sel.basis_text(lang)),
        cost: chosen.and_then(|id| option_row(r, id, K::AnswerCost, "answer-cost", span, lang)),
        best: best.and_then(|id| option_row(r, id, K::AnswerBest, "answer-best", span, lang)),
        market: Vec::new(),
    })
}

/// The market's answer as the answer block's rows.
pub fn market_rows(top: Option<Top>, lang: Lang) -> Vec<OptionRow> {
    let Some(top) = top else { return Vec::new() };
    let row =
        |label, testid, n: Named| OptionRow { label: t(lang, label), testid, total: n.total, note: n.what };
    let (best, list) = (top.best, top.list);
    let mut rows = vec![row(K::MarketBest, "answer-market", best)];
    rows.extend(list.map(|n| row(K::MarketBestList, "answer-market-list", n)));
    rows
}

fn option_row(
    r: &Report,
    id: &str,
    label: K,
    testid: &'static str,
    span: &str,
    lang: Lang,
) -> Option<OptionRow> {
    let o = r.cost.options.iter().find(|o| o.id == id)?;
    let note = format!(
        "{span} · {} · {} × {} ({})",
        o.label(lang),
        o.instances,
        o.gpus_per_instance,
        t(lang, K::InstancesGpus)
    );
    Some(OptionRow { label: t(lang, label), testid, total: present::money(o.total, o.currency), note })
}

/// One "why this number" item: its name, and what it explains when it applies.
#[derive(Clone, Debug, PartialEq)]
pub struct WhyItem {
    pub label: &'static str,
    pub shown: Option<Explained>,
}

/// What one item explains: its size, derivation and source.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    pub bytes: u64,
    pub size: String,
    pub formula: String,
    pub source: String,
}

/// The explained items in order: the six components, then the GPU's usable
/// memory. Always all seven, so an item the reader opened stays open (and
/// the same item) as the plan changes.
pub fn why(r: Option<&Headline>, lang: Lang, unit: Unit) -> Vec<WhyItem> {
    let none = Components::default();
    let parts = r.map_or(&none, |r| &r.memory.components).named(lang);
    let explain = |bytes: u64, formula: &str, source: &str| Explained {
        bytes,
        size: present::bytes(bytes, unit),
        formula: formula.to_string(),
        source: source.to_string(),
    };
    let mut items: Vec<WhyItem> = parts
        .into_iter()
        .map(|(label, c)| WhyItem {
            label,
            shown: (c.bytes > 0).then(|| explain(c.bytes, &c.derivation, c.source)),
        })
        .collect();
    let usable = r.and_then(|r| r.gpu.as_ref()).map(|(name, u)| explain(u.bytes, &u.derivation, name));
    items.push(WhyItem { label: t(lang, K::UsableMemory), shown: usable });
    items
}

/// The engine's remarks on the memory.
pub fn notes(r: Option<&Headline>, lang: Lang) -> Vec<String> {
    r.map(|r| r.memory.notes.iter().map(|n| n.text(lang).to_string()).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::plan::Plan;

    #[test]
    fn bar_scale_holds_peak_and_card() {
        let g = bar_scale(50, 72, 80);
        assert_eq!(g, BarScale { fill_pct: 62.5, usable_pct: 90.0, nominal_pct: 100.0 });
        let over = bar_scale(160, 72, 80);
        assert_eq!(over.fill_pct, 100.0);
        assert_eq!(over.usable_pct, 45.0);
        assert!(bar_scale(0, 0, 0).fill_pct == 0.0);
    }

    #[test]
    fn the_headline_names_the_peak_its_parts_and_the_verdict() {
        let r = gpuplan_core::report::headline(&Plan::default()).unwrap();
        let h = head(&r, Lang::En, Unit::default());
        assert_eq!(h.peak, present::bytes(r.memory.per_gpu_bytes, Unit::default()));
        assert_eq!(h.parts.first().map(|p| (p.class, p.name)), Some(("c-weights", "Weights")));
        assert!(h.parts.iter().all(|p| p.width.starts_with("width:") && p.title.starts_with(p.name)));
        let v = h.verdict.expect("the default plan names a GPU");
        assert_eq!((v.class, v.word), ("ok", t(Lang::En, K::FitsOne)));
        assert!(v.of.contains(t(Lang::En, K::HeadroomShort)), "{}", v.of);
    }

    #[test]
    fn a_training_peak_says_what_nvidia_smi_will_show() {
        let plan = Plan { task: gpuplan_core::plan::Task::Train, ..Plan::default() };
        let r = gpuplan_core::report::headline(&plan).unwrap();
        let smi = r.memory.nvidia_smi.clone().expect("training has the nvidia-smi figures");
        let kind = head(&r, Lang::En, Unit::default()).kind;
        assert!(kind.starts_with(t(Lang::En, K::PeakAllocated)), "{kind}");
        assert!(kind.contains(&present::bytes(smi.varying_bytes, Unit::default())), "{kind}");
        let inference =
            head(&gpuplan_core::report::headline(&Plan::default()).unwrap(), Lang::En, Unit::default());
        assert!(!inference.kind.contains("nvidia-smi will show"), "{}", inference.kind);
    }

    #[test]
    fn the_answer_quotes_the_selection_and_the_bill() {
        let r = gpuplan_core::report::evaluate(&Plan::default(), Lang::En).unwrap();
        let sel = r.selection.as_ref().expect("the default plan names a GPU");
        let a = answer(&r, "12 months", Lang::En).expect("an answer");
        assert_eq!(a.gpus, format!("{} × {}", sel.gpus, sel.gpu_name));
        let priced = |id: &str| r.cost.options.iter().find(|o| o.id == id).expect("in the bill");
        let own = priced(&sel.option.as_ref().expect("an offer on the GPU").id);
        let cost = a.cost.expect("the chosen GPU's option");
        assert_eq!(
            (cost.testid, cost.total.as_str()),
            ("answer-cost", present::money(own.total, own.currency).as_str())
        );
        assert!(cost.note.starts_with("12 months · "), "{}", cost.note);
        let best = priced(r.cost.best.as_deref().expect("a cheapest option"));
        let quoted = [Some(&cost.total), a.best.as_ref().map(|b| &b.total)];
        assert!(quoted.contains(&Some(&present::money(best.total, best.currency))), "{quoted:?}");
    }

    #[test]
    fn why_lists_the_default_plan_s_weights_and_usable_memory() {
        let r = gpuplan_core::report::headline(&Plan::default()).unwrap();
        let items = why(Some(&r), Lang::En, Unit::default());
        let shown = |label: &str| items.iter().find(|i| i.label == label).and_then(|i| i.shown.as_ref());
        let weights = shown("Weights").expect("weights");
        assert!(weights.bytes > 16_000_000_000 && !weights.formula.is_empty());
        assert!(shown("Usable memory of the chosen GPU").is_some());
        assert!(shown("Gradients").is_none(), "inference has no gradients");
        // With no result yet the seven items are there, all empty (and hidden).
        let none = why(None, Lang::Zh, Unit::default());
        assert!(none.len() == 7 && none.iter().all(|i| i.shown.is_none()) && none[0].label == "权重");
    }
}
