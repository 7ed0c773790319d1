//! The headline blocks: peak memory, its breakdown, the answer, and why each
//! part is what it is.

use gpuplan_core::memory::{Component, Components, MemoryResult, PeakKind};
use gpuplan_core::plan::Task;
use gpuplan_core::selection::Basis;
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{h, host, El};
use crate::i18n::{t, Lang, K};
use crate::state::{AppState, Headline, Report};
use gpuplan_core::present::{self, Unit};

/// CSS classes of the memory components, in the core's order.
const CLASSES: [&str; 6] =
    ["c-weights", "c-gradients", "c-optimizer", "c-activations", "c-kv", "c-workspace"];

/// The memory components in display order: the core's name, CSS class, component.
fn parts(
    m: &MemoryResult,
    lang: Lang,
) -> impl Iterator<Item = (&'static str, &'static str, &Component)> + Clone {
    m.components.named(lang).into_iter().zip(CLASSES).map(|((name, c), class)| (name, class, c))
}

/// The headline: peak memory and its bar against the plan's GPU. One
/// patched block, redrawn in the keystroke's frame.
pub fn headline_block(app: AppState) -> Option<Element> {
    let body = move || {
        let (lang, unit) = (app.lang, app.unit.get());
        Some(app.head_shown.with(|r| headline(r.as_deref(), lang, unit)))
    };
    host("", body, |_, _| {})
}

/// "Why this number", from the same headline as the peak.
pub fn why_block(app: AppState) -> Option<Element> {
    let body = move || {
        let (lang, unit) = (app.lang, app.unit.get());
        Some(app.head_shown.with(|r| why(r.as_deref(), lang, unit)))
    };
    host("", body, |_, _| {})
}

/// The answer beside the peak: the GPUs to order and the cheapest option
/// that meets the plan, read from the report's one selected configuration,
/// so the first screen names what the fit table, the bill and the
/// checklist name.
pub fn answer_block(app: AppState) -> Option<Element> {
    let body = move || {
        let span = app.settled.with(|p| match p.task {
            Task::Train => t(app.lang, K::AnswerRun).to_string(),
            Task::Infer => {
                t(app.lang, K::AnswerMonths).replace("{}", &gpuplan_core::money::num(p.cost.months))
            }
        });
        app.shown.with(|r| r.as_deref().and_then(|r| answer(r, &span, app.lang)))
    };
    host("", body, |_, _| {})
}

/// `span`: how long the bill runs, in words.
fn answer(r: &Report, span: &str, lang: Lang) -> Option<El> {
    let sel = r.selection.as_ref()?;
    let class = if sel.basis == Basis::DoesNotFit { "answer over" } else { "answer" };
    let gpus = h("p")
        .k(h("span").c("answer-label").t(t(lang, K::AnswerGpus)))
        .k(h("strong").a("data-testid", "answer-gpus").t(&format!("{} × {}", sel.gpus, sel.gpu_name)))
        .k(h("span").c("answer-note").t(&format!("{} · {}", sel.layout(lang), sel.basis_text(lang))));
    let chosen = sel.option.as_ref().map(|p| p.id.as_str());
    let on_gpu = chosen.and_then(|id| option_row(r, id, K::AnswerCost, "answer-cost", span, lang));
    let cost = on_gpu.unwrap_or_else(|| h("p").c("answer-note").t(t(lang, K::AnswerNoOffer)));
    // The bill compares every GPU that holds the plan; name its cheapest
    // when it is not on the chosen GPU, so a cheaper card is never hidden.
    let best = r.cost.best.as_deref().filter(|&b| Some(b) != chosen);
    let elsewhere = best.and_then(|id| option_row(r, id, K::AnswerBest, "answer-best", span, lang));
    Some(h("div").c(class).a("data-testid", "answer").k(gpus).k(cost).opt(elsewhere))
}

/// One purchase option of the bill: its total, what it is, and for how long.
fn option_row(r: &Report, id: &str, label: K, testid: &str, span: &str, lang: Lang) -> Option<El> {
    let o = r.cost.options.iter().find(|o| o.id == id)?;
    let note = format!(
        "{span} · {} · {} × {} ({})",
        o.label(lang),
        o.instances,
        o.gpus_per_instance,
        t(lang, K::InstancesGpus)
    );
    Some(
        h("p")
            .k(h("span").c("answer-label").t(t(lang, label)))
            .k(h("strong").a("data-testid", testid).t(&present::money(o.total, o.currency)))
            .k(h("span").c("answer-note").t(&note)),
    )
}

fn headline(r: Option<&Headline>, lang: Lang, unit: Unit) -> El {
    let value = r.map(|r| present::bytes(r.memory.per_gpu_bytes, unit)).unwrap_or_default();
    let peak = h("div")
        .c("peak")
        .k(h("p").c("peak-label").t(t(lang, K::PeakMemory)))
        .k(h("p").c("peak-value").a("data-testid", "peak-memory").t(&value))
        .k(h("p").c("peak-kind").t(&r.map(|r| peak_kind(&r.memory, lang, unit)).unwrap_or_default()));
    let bar =
        h("div").c("breakdown").k(h("h3").t(t(lang, K::Breakdown))).opt(r.map(|r| breakdown(r, lang, unit)));
    h("div").k(peak).k(bar)
}

/// What the peak is: a framework's peak allocation, or what the workload
/// needs inside a pool the engine reserves up front, with the reservation's
/// size when the core knows it (that, not the need, is what nvidia-smi shows).
fn peak_kind(m: &MemoryResult, lang: Lang, unit: Unit) -> String {
    match (m.peak_kind, m.reserved_bytes, m.kv_pool_bytes) {
        (PeakKind::Allocated, ..) => t(lang, K::PeakAllocated).to_string(),
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

/// The stacked bar against the chosen GPU's usable memory, headroom marked.
fn breakdown(r: &Headline, lang: Lang, unit: Unit) -> El {
    let m = &r.memory;
    let chosen = r.gpu.as_ref();
    let (usable, nominal) = chosen.map_or((0, 0), |(_, u)| (u.bytes, u.nominal_bytes));
    let geo = bar_scale(m.per_gpu_bytes, usable, nominal);
    let total = m.per_gpu_bytes.max(1) as f64;
    let pct = |x: f64| format!("{x:.3}%");
    let shown = parts(m, lang).filter(|(_, _, c)| c.bytes > 0);
    let segs = shown.clone().map(|(name, class, c)| {
        let title = format!("{name}: {}", present::bytes(c.bytes, unit));
        let width = format!("width:{}", pct(c.bytes as f64 / total * 100.0));
        h("div").c(&format!("seg {class}")).a("style", &width).a("title", &title)
    });
    let legend = shown.map(|(name, class, c)| {
        h("li")
            .k(h("span").c(&format!("swatch {class}")).a("aria-hidden", "true"))
            .t(name)
            .t(" ")
            .k(h("strong").t(&present::bytes(c.bytes, unit)))
    });
    let verdict = chosen.map(|(name, u)| {
        let (class, word) =
            if m.per_gpu_bytes <= usable { ("ok", K::FitsOne) } else { ("over", K::ExceedsOne) };
        let of = format!(
            " {}: {} {} / {} · {} {}",
            name,
            t(lang, K::UsableShort),
            present::bytes(usable, unit),
            present::bytes(nominal, unit),
            t(lang, K::HeadroomShort),
            present::bytes(u.headroom_bytes, unit),
        );
        h("p").c("verdict").k(h("strong").c(class).a("data-testid", "fit-verdict").t(t(lang, word))).t(&of)
    });
    let headroom = format!("left:{};width:{}", pct(geo.usable_pct), pct(geo.nominal_pct - geo.usable_pct));
    let bar = h("div")
        .c("bar")
        .a("aria-hidden", "true")
        .k(h("div").c("fill").a("style", &format!("width:{}", pct(geo.fill_pct))).ks(segs))
        .k(h("div").c("headroom").a("style", &headroom))
        .k(h("div").c("limit").a("style", &format!("left:{}", pct(geo.usable_pct))));
    h("div").k(bar).opt(verdict).k(h("ul").c("legend").ks(legend))
}

/// What one "why" item explains: bytes, derivation, source.
type Explained = (u64, String, String);

/// The explained items in order, each named: the six components, then the
/// GPU's usable memory; what each explains when it applies.
fn explained(r: Option<&Headline>, lang: Lang) -> Vec<(&'static str, Option<Explained>)> {
    let none = Components::default();
    let parts = r.map_or(&none, |r| &r.memory.components).named(lang);
    let mut items: Vec<_> = parts
        .into_iter()
        .map(|(name, c)| (name, (c.bytes > 0).then(|| (c.bytes, c.derivation.clone(), c.source.to_string()))))
        .collect();
    let usable =
        r.and_then(|r| r.gpu.as_ref()).map(|(name, u)| (u.bytes, u.derivation.clone(), name.clone()));
    items.push((t(lang, K::UsableMemory), usable));
    items
}

/// "Why this number": per component, the formula with numbers and its
/// source, then the engine's remarks. Every item is always there, hidden when
/// it does not apply, so an item the reader opened stays open (and the same
/// item) as the plan changes.
fn why(r: Option<&Headline>, lang: Lang, unit: Unit) -> El {
    let items = explained(r, lang).into_iter().map(|(label, item)| {
        let (size, formula, source) = match &item {
            Some((bytes, f, s)) => (present::bytes(*bytes, unit), f.as_str(), s.as_str()),
            None => (String::new(), "", ""),
        };
        let dl = h("dl")
            .k(h("dt").t(t(lang, K::Formula)))
            .k(h("dd").c("formula").t(formula))
            .k(h("dt").t(t(lang, K::Source)))
            .k(h("dd").t(source));
        h("details")
            .c("why-item")
            .flag("hidden", item.is_none())
            .k(h("summary").t(label).t(" · ").t(&size))
            .k(dl)
    });
    let notes = r.into_iter().flat_map(|r| r.memory.notes.iter().map(|n| h("li").t(n.text(lang))));
    h("div").c("why").k(h("h3").t(t(lang, K::Why))).ks(items).k(h("ul").c("notes").ks(notes))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_answer_quotes_the_selection_and_the_bill() {
        let r = gpuplan_core::report::evaluate(&gpuplan_core::plan::Plan::default(), Lang::En).unwrap();
        let sel = r.selection.as_ref().expect("the default plan names a GPU");
        let text = answer(&r, "12 months", Lang::En).expect("an answer").text();
        assert!(text.contains(&format!("{} × {}", sel.gpus, sel.gpu_name)), "{text}");
        let priced = |id: &str| r.cost.options.iter().find(|o| o.id == id).expect("in the bill");
        let own = priced(&sel.option.as_ref().expect("an offer on the GPU").id);
        assert!(text.contains(&present::money(own.total, own.currency)), "{text}");
        let best = priced(r.cost.best.as_deref().expect("a cheapest option"));
        assert!(text.contains(&present::money(best.total, best.currency)), "{text}");
    }

    #[test]
    fn why_lists_the_default_plan_s_weights_and_usable_memory() {
        let r = gpuplan_core::report::headline(&gpuplan_core::plan::Plan::default()).unwrap();
        let items: Vec<_> =
            explained(Some(&r), Lang::En).into_iter().filter_map(|(k, e)| e.map(|e| (k, e))).collect();
        assert!(items.iter().any(|(k, e)| *k == "Weights" && e.0 > 16_000_000_000 && !e.1.is_empty()));
        assert!(items.iter().any(|(k, _)| *k == "Usable memory of the chosen GPU"));
        assert!(!items.iter().any(|(k, _)| *k == "Gradients"), "inference has no gradients");
        // With no result yet the seven items are there, all empty (and hidden).
        let none = explained(None, Lang::Zh);
        assert!(none.len() == 7 && none.iter().all(|(_, e)| e.is_none()) && none[0].0 == "权重");
    }
}
