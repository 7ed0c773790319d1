//! The Chinese page reads in Chinese: what the core writes for the default
//! plan, the 70B training plan and the shipped market, asked for in Chinese,
//! holds no English word outside an allowlist of names (brands, products,
//! providers, regions), units and command lines. Checked: the answer's
//! layout and summary, memory notes, fit flags, every bill's option, region,
//! price notes, reason it loses, lines and formulas, and the market's rows.
//! Memory formulas and their sources name the symbols and articles they
//! come from, and are not checked here.
// An English-only build writes Chinese in English.
#![cfg(not(feature = "en"))]

use gpuplan_core::lang::Lang;
use gpuplan_core::offers::{region_text, Offer};
use gpuplan_core::plan::Plan;
use gpuplan_core::{examples, hardware, market, market_view, report, summary};

const SKY: &str = include_str!("../data/market/cloud-offers.csv");
const CN: &str = include_str!("../data/market/cn-offers.json");

/// Terms a Chinese reader meets in English: technical names, units and
/// currencies (compared without case).
const TERMS: &str = "gpu gpus cpu ip ipv nvlink pcie sxm nvl hgx infiniband roce rdma cuda rocm cann \
    fsdp zero tp pp dp kv lora qlora bf fp int nf vllm sglang tensorrt llm gguf pytorch ttft tpot mfu \
    tflops tdp ecc mig maxwell pascal volta gb tb mb kb gib mib mbps gbps h s ms min d req w pf usd cny \
    geforce rtx titan nvidia amd instinct ascend huawei pod ai";

/// Everything checked, for `plan` in Chinese.
fn plan_texts(plan: &Plan) -> Vec<String> {
    let r = report::evaluate(plan, Lang::Zh).expect("a valid plan");
    let mut out = vec![summary::summarize(plan, &r, Lang::Zh).text];
    out.extend(r.memory.notes.iter().map(|n| n.text(Lang::Zh).to_string()));
    for row in &r.fit.rows {
        out.extend(row.flags.iter().map(|f| f.text(Lang::Zh).to_string()));
    }
    if let Some(s) = &r.selection {
        out.extend([s.layout(Lang::Zh), s.basis_text(Lang::Zh).to_string()]);
    }
    for o in &r.cost.options {
        out.extend([o.label(Lang::Zh), region_text(&o.region, o.regions, Lang::Zh)]);
        out.extend(o.price_notes(Lang::Zh));
        out.extend(o.loss.as_ref().map(|l| l.text(Lang::Zh, o.currency)));
        out.extend(o.lines.iter().flat_map(|l| [l.label(Lang::Zh), l.derivation.clone()]));
    }
    out
}

/// Our example offers and the shipped market, as the Chinese page lists them.
fn offers() -> Vec<Offer> {
    let mut offers = gpuplan_core::offers::defaults_in(Lang::Zh);
    offers.extend(market::shipped(SKY, CN).offers);
    offers
}

/// The market beside the default plan, in Chinese.
fn market(offers: &[Offer]) -> market_view::View {
    let query = market_view::Query { today: "2026-12-07".into(), ..market_view::Query::default() };
    market_view::view(&Plan::default(), offers, &query, Lang::Zh).expect("the market prices")
}

/// What the market shows, in Chinese.
fn market_texts(offers: &[Offer]) -> Vec<String> {
    let v = market(offers);
    let mut out = v.skipped.clone();
    for r in &v.rows {
        out.extend([r.region.clone(), r.gpu_name.clone(), r.kind.label(Lang::Zh).to_string()]);
        out.extend(r.notes.iter().cloned());
        out.extend(r.loss.clone());
    }
    out
}

/// Names shown as their owners write them: the catalog's GPUs and links,
/// the market's providers and regions.
fn names(offers: &[Offer]) -> Vec<String> {
    let catalog = hardware::catalog().iter().flat_map(|g| [g.name.to_string(), g.link_name.to_string()]);
    // A region the reader's words stand for ("unspecified") is not a name.
    let region = |o: &Offer| Some(o.region.to_string()).filter(|r| region_text(r, 1, Lang::Zh) == *r);
    let market = offers.iter().flat_map(|o| [Some(o.provider.to_string()), region(o)]).flatten();
    let mut all: Vec<String> = catalog.chain(market).filter(|n| !n.is_empty()).collect();
    // The longest first, so a name is not cut by a shorter one inside it.
    all.sort_by_key(|n| std::cmp::Reverse(n.len()));
    all.dedup();
    all
}

/// The English words of `text` once names and command lines are taken out:
/// a token with a digit or an identifier's punctuation is a name or a command.
fn english(text: &str, names: &[String]) -> Vec<String> {
    let mut rest = text.to_string();
    for name in names {
        rest = without(&rest, name);
    }
    let code = rest.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, s)| s).collect::<Vec<_>>();
    code.join(" ")
        .split(|c: char| !(c.is_ascii_alphanumeric() || "-_./".contains(c)))
        .filter(|t| t.chars().any(|c| c.is_ascii_alphabetic()))
        .filter(|t| !t.chars().any(|c| c.is_ascii_digit() || "-_.".contains(c)))
        .flat_map(|t| t.split('/'))
        .filter(|w| !w.is_empty() && !TERMS.split_whitespace().any(|t| t.eq_ignore_ascii_case(w)))
        .map(str::to_string)
        .collect()
}

/// `text` without `name` where it stands as words of its own ("RO", a
/// region, is not taken out of "ROCm").
fn without(text: &str, name: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let (before, after) = rest.split_at(at);
        let after = after.get(name.len()..).unwrap_or_default();
        let alone = !word(before.chars().next_back()) && !word(after.chars().next());
        out.push_str(before);
        out.push_str(if alone { " " } else { name });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[test]
fn the_chinese_page_holds_no_english_beyond_names_units_and_commands() {
    let offers = offers();
    let names = names(&offers);
    let training =
        examples::all().into_iter().find(|e| e.id == "full-70b-8gpu").expect("the 70B training example");
    let texts = [plan_texts(&Plan::default()), plan_texts(&training.plan), market_texts(&offers)].concat();
    let found: Vec<String> = texts
        .iter()
        .filter_map(|t| {
            let words = english(t, &names);
            (!words.is_empty()).then(|| format!("{words:?} in {t}"))
        })
        .collect();
    assert!(found.is_empty(), "{} texts hold English:\n{}", found.len(), found.join("\n"));
}

#[test]
fn the_market_names_each_gpu_as_the_catalog_does() {
    for r in &market(&offers()).rows {
        let named = hardware::find(&r.gpu).map_or_else(|| r.gpu.clone(), |g| g.name.to_string());
        assert_eq!(r.gpu_name, named, "{}", r.id);
        assert_ne!(r.gpu_name, r.gpu, "{} shows the catalog id", r.id);
    }
}
