//! `gpuplan cost`: every purchase option's whole bill, cheapest first,
//! across the built-in offers and the shipped market, or the user's sheets.

use std::collections::BTreeMap;

use gpuplan_core::cost::{Category, CostReport, OptionCost};
use gpuplan_core::lang::Lang;
use gpuplan_core::market::{age, Age};
use gpuplan_core::readback::Readback;
use gpuplan_core::report;
use gpuplan_core::selection::Selection;
use serde::Serialize;

use crate::args::{self, Flags, Format};
use crate::error::CliError;
use crate::market;
use crate::out;

/// Options shown in text when the shipped market or a big sheet is priced
/// (`--top` to change).
const MARKET_TOP: usize = 20;

/// Options a sheet may hold and still be shown whole by default.
const SHOWN_WHOLE: usize = 100;

/// The JSON output: the cost report, the date ages were taken on, and each option's age.
#[derive(Serialize)]
struct Out<'a> {
    today: &'a str,
    #[serde(flatten)]
    cost: &'a CostReport,
    /// The workload's chosen configuration: the option it orders.
    selection: Option<&'a Selection>,
    ages: BTreeMap<&'a str, Age>,
    /// With --measured: expected vs measured, and the plan before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    readback: Option<&'a Readback>,
}

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let switches: Vec<&str> = args::plan_switches().chain(market::SWITCHES).collect();
    let mut flags = Flags::parse(argv, &switches)?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    let today = market::today(&mut flags)?;
    let top: Option<usize> = flags.parsed("top", "a whole number")?;
    let export = flags.value("export-offers")?;
    let mut plan = args::plan(&mut flags)?;
    let offers = market::read(&mut flags, &mut plan)?;
    let measured = crate::measured::file(&mut flags)?;
    let given = flags.finish()?;
    let back = match &measured {
        Some(m) => Some(crate::measured::apply(m, &mut plan, &offers.offers, lang)?),
        None => None,
    };
    if let Some(path) = export {
        let text = gpuplan_core::market::export(&offers.offers, &plan.cost.items);
        return std::fs::write(&path, text).map_err(|e| CliError(format!("--export-offers {path}: {e}")));
    }
    let report = report::evaluate_with(&plan, &offers.offers, lang).map_err(|e| given.error(&e, lang))?;
    let cost = &report.cost;
    match format {
        Format::Json => {
            let ages = cost.options.iter().map(|o| (o.id.as_str(), age(&o.date, &today))).collect();
            let selection = report.selection.as_ref();
            out::json(&Out { today: &today, cost, selection, ages, readback: back.as_ref() })?;
        }
        Format::Text => {
            let big = offers.market || cost.options.len() > SHOWN_WHOLE;
            let top = top.unwrap_or(if big { MARKET_TOP } else { usize::MAX });
            if let Some(b) = &back {
                out::print(&crate::measured::text(b, lang));
            }
            if let Some(s) = &report.selection {
                out::line(&format!("{} {}", lang.pick("所选配置：", "Selection:"), s.describe(lang)));
            }
            out::print(&text(cost, lang, &today, top));
        }
    }
    Ok(())
}

fn text(cost: &CostReport, lang: Lang, today: &str, top: usize) -> String {
    let cur = cost.currency.code();
    let mut out = format!(
        "{:<4} {:<46} {:>13} {:>9} {:>13} {:>10} {:>9} {:>10} {:>11}\n",
        "#",
        lang.pick("方案", "option"),
        format!("total {cur}"),
        lang.pick("每卡时", "/GPU-h"),
        lang.pick("算力", "compute"),
        lang.pick("存储", "storage"),
        "IP",
        lang.pick("流量", "network"),
        lang.pick("其他", "other"),
    );
    for o in cost.options.iter().take(top) {
        let mark = if Some(&o.id) == cost.best.as_ref() { "*" } else { " " };
        let per_gpu_hour = o.per_gpu_hour.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"));
        out.push_str(&format!(
            "{:<4} {:<46} {:>13} {:>9} {:>13} {:>10} {:>9} {:>10} {:>11}\n",
            format!("{}{mark}", o.rank),
            o.label(lang),
            o.total.text(),
            per_gpu_hour,
            o.compute.text(),
            part(o, Category::Storage, lang),
            part(o, Category::Ip, lang),
            part(o, Category::Network, lang),
            o.other.text(),
        ));
        out.push_str(&format!("     {}\n", provenance(o, lang, today)));
        for note in o.price_notes(lang) {
            out.push_str(&format!("     {note}\n"));
        }
        if let Some(loss) = &o.loss {
            out.push_str(&format!("     {}\n", loss.text(lang, cost.currency)));
        }
    }
    if let Some(list) = cost.best_list_text(lang) {
        out.push_str(&format!("     {list}\n"));
    }
    if cost.options.iter().any(|o| o.offer_currency != cost.currency) {
        out.push_str(&format!("     {}\n", rate(cost, lang)));
    }
    let hidden = cost.options.len().saturating_sub(top);
    if hidden > 0 {
        out.push_str(&match lang {
            Lang::Zh => format!("     ……另有 {hidden} 个方案（--top N 显示更多）\n"),
            Lang::En => format!("     ... and {hidden} more options (--top N shows more)\n"),
        });
    }
    out.push_str(&skipped(cost, lang));
    out
}

/// "at 7.0197 CNY per USD (2026-01-08)": the rate the bill converts at.
fn rate(cost: &CostReport, lang: Lang) -> String {
    let day = match (&cost.fx.date, lang) {
        (Some(day), _) => day.clone(),
        (None, Lang::Zh) => "未注明日期".to_string(),
        (None, Lang::En) => "undated".to_string(),
    };
    match lang {
        Lang::Zh => format!("汇率：1 USD = {} CNY（{day}）", cost.fx.cny_per_usd),
        Lang::En => format!("converted at {} CNY per USD ({day})", cost.fx.cny_per_usd),
    }
}

/// A side part of the bill, or "n/a" where the offer has no price for it.
fn part(o: &OptionCost, cat: Category, lang: Lang) -> String {
    if o.unpriced.contains(&cat) {
        lang.pick("无价格", "n/a").to_string()
    } else {
        o.part(cat).text()
    }
}

/// "AWS · us-east-1 · as of 2026-03 (9 months, stale) · 8 GPUs per instance"
fn provenance(o: &OptionCost, lang: Lang, today: &str) -> String {
    let when = match (age(&o.date, today), lang) {
        (Age::Dated { months, stale: true }, Lang::Zh) => {
            format!("报价日期 {}（{months} 个月前，已过时）", o.date)
        }
        (Age::Dated { .. }, Lang::Zh) => format!("报价日期 {}", o.date),
        (Age::Undated, Lang::Zh) => "报价未注明日期".to_string(),
        (Age::Dated { months, stale: true }, Lang::En) => {
            format!("as of {} ({months} months, stale)", o.date)
        }
        (Age::Dated { .. }, Lang::En) => format!("as of {}", o.date),
        (Age::Undated, Lang::En) => "undated".to_string(),
    };
    let mut parts = vec![o.provider.to_string()];
    if !o.region.is_empty() {
        parts.push(gpuplan_core::offers::region_text(&o.region, o.regions, lang));
    }
    parts.push(when);
    parts.push(match lang {
        Lang::Zh => format!("{} × {}，每台 {} 卡", o.instances, o.gpu, o.gpus_per_instance),
        Lang::En => format!("{} × {} instances of {} GPUs", o.instances, o.gpu, o.gpus_per_instance),
    });
    parts.join(" · ")
}

/// Every option left out with its reason; many at once are counted by reason.
fn skipped(cost: &CostReport, lang: Lang) -> String {
    if cost.skipped.len() <= 12 {
        return cost.skipped.iter().map(|s| format!("  -  {}: {}\n", s.name, s.skip.text(lang))).collect();
    }
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for s in &cost.skipped {
        let why = s.skip.text(lang);
        match reasons.iter_mut().find(|(r, _)| *r == why) {
            Some((_, n)) => *n += 1,
            None => reasons.push((why, 1)),
        }
    }
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    reasons
        .iter()
        .map(|(why, n)| match lang {
            Lang::Zh => format!("  -  {n} 个未计入：{why}\n"),
            Lang::En => format!("  -  {n} left out: {why}\n"),
        })
        .collect()
}
