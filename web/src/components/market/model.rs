//! What the market block shows, as plain rows of text: the core prices and
//! ranks (`market_view`), these pick and arrange. Tested natively.

use gpuplan_core::market::{Buy, Filter};
use gpuplan_core::market_view::{Row as MarketRow, View};
use gpuplan_core::money::Currency;
use gpuplan_core::offers::Pricing;
use gpuplan_core::present;

use crate::components::table::{Col, Row};
use crate::i18n::{t, Lang, K};

/// Rows the table shows, cheapest first: enough to compare, few enough to draw.
pub const SHOWN: usize = 100;

/// The reader's picks in the filters; "" keeps all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picks {
    pub provider: String,
    /// Part of a region name.
    pub region: String,
    /// "USD" or "CNY".
    pub currency: String,
    /// A `Buy` by its serde name.
    pub kind: String,
}

impl Picks {
    /// The core's filter for these picks.
    pub fn filter(&self) -> Filter {
        let one = |s: &str| if s.trim().is_empty() { vec![] } else { vec![s.trim().to_string()] };
        let currency = match self.currency.as_str() {
            "USD" => vec![Currency::Usd],
            "CNY" => vec![Currency::Cny],
            _ => vec![],
        };
        let buy = match self.kind.as_str() {
            "on_demand" => vec![Buy::OnDemand],
            "spot" => vec![Buy::Spot],
            "commitment" => vec![Buy::Commitment],
            _ => vec![],
        };
        Filter {
            providers: one(&self.provider),
            regions: one(&self.region),
            currencies: currency,
            gpus: vec![],
            buy,
        }
    }
}

/// The way-to-buy filter's choices: value and label.
pub fn kinds(lang: Lang) -> [(&'static str, &'static str); 4] {
    [
        ("", t(lang, K::AllChoices)),
        ("on_demand", t(lang, K::BuyOnDemand)),
        ("spot", t(lang, K::BuySpot)),
        ("commitment", t(lang, K::BuyCommitment)),
    ]
}

/// The provider filter's choices, with each provider's offer count.
pub fn providers(v: &View) -> Vec<(String, String)> {
    v.providers.iter().map(|(name, n)| (name.clone(), format!("{name} ({n})"))).collect()
}

pub fn cols(lang: Lang) -> Vec<Col> {
    let col = |k: K, sortable: bool, num: bool| Col { label: t(lang, k), sortable, num };
    vec![
        col(K::Provider, false, false),
        col(K::Region, false, false),
        col(K::Gpu, false, false),
        col(K::PurchaseKind, false, false),
        col(K::Total, true, true),
        col(K::PerGpuHour, true, true),
        col(K::AsOf, false, false),
        col(K::PriceNotes, false, false),
        col(K::WhyNot, false, false),
    ]
}

/// A marketplace or auction price's mark; None for a list price.
fn pricing_mark(p: Pricing, lang: Lang) -> Option<(String, &'static str)> {
    match p {
        Pricing::List => None,
        Pricing::Marketplace => Some((t(lang, K::Marketplace).into(), "chip warn pricing")),
        Pricing::Auction => Some((t(lang, K::Auction).into(), "chip warn pricing")),
    }
}

/// The list price per GPU-hour in the bill's currency; "—" when the option has none.
fn per_gpu_hour(x: Option<f64>, currency: Currency) -> String {
    match x.filter(|x| x.is_finite()) {
        Some(x) => format!("{x:.2} {}", currency.code()),
        None => "—".into(),
    }
}

/// The price's date, with a badge when it is stale.
fn as_of(r: &MarketRow, lang: Lang) -> Vec<(String, &'static str)> {
    let date = if r.date.trim().is_empty() { "—".to_string() } else { r.date.clone() };
    let mut cell = vec![(date, "")];
    if r.stale {
        cell.push((t(lang, K::StaleBadge).into(), "chip warn stale"));
    }
    cell
}

pub fn row(r: &MarketRow, v: &View, lang: Lang) -> Row {
    let is_best = v.best.as_ref().is_some_and(|b| b.id == r.id);
    let mut kind = vec![(r.kind.label(lang).to_string(), "")];
    kind.extend(pricing_mark(r.pricing, lang));
    let mut provider = vec![(r.provider.clone(), "")];
    if is_best {
        provider.push((t(lang, K::Cheapest).into(), "chip chosen"));
    }
    let loss = if is_best { String::new() } else { r.loss.clone().unwrap_or_default() };
    Row {
        key: r.id.clone(),
        class: match (is_best, r.meets) {
            (true, _) => "best",
            (false, true) => "",
            (false, false) => "nomeet",
        },
        cells: vec![
            provider,
            vec![(r.region.clone(), "")],
            vec![(r.gpu_name.clone(), "")],
            kind,
            vec![(present::money(r.total, v.currency), "strong")],
            vec![(per_gpu_hour(r.per_gpu_hour, v.currency), "")],
            as_of(r, lang),
            r.notes.iter().map(|n| (n.clone(), "hint")).collect(),
            vec![(loss, "")],
        ],
        keys: vec![
            f64::NAN,
            f64::NAN,
            f64::NAN,
            f64::NAN,
            r.total.units(),
            r.per_gpu_hour.unwrap_or(f64::NAN),
            f64::NAN,
            f64::NAN,
            f64::NAN,
        ],
    }
}

/// The market's answer: the cheapest option that meets the plan, and the
/// cheapest at a list price beside it when the first is not one.
#[derive(Clone, Debug, PartialEq)]
pub struct Top {
    pub best: Named,
    pub list: Option<Named>,
}

/// One option named in words: what, where, and its total.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    pub what: String,
    pub total: String,
}

fn named(r: &MarketRow, v: &View, lang: Lang) -> Named {
    let mut what = format!("{} · {} · {} · {}", r.provider, r.gpu_name, r.kind.label(lang), r.region);
    if let Some((mark, _)) = pricing_mark(r.pricing, lang) {
        what = format!("{what} ({mark})");
    }
    let total = present::money(r.total, v.currency);
    let total = match r.per_gpu_hour {
        Some(_) => {
            let rate = t(lang, K::PerGpuHourOf).replace("{price}", &per_gpu_hour(r.per_gpu_hour, v.currency));
            format!("{total} · {rate}")
        }
        None => total,
    };
    Named { what, total }
}

pub fn top(v: &View, lang: Lang) -> Option<Top> {
    let best = v.best.as_ref()?;
    let list = v.best_list.as_ref().filter(|_| best.pricing != Pricing::List);
    Some(Top { best: named(best, v, lang), list: list.map(|r| named(r, v, lang)) })
}

/// "100 of 812 options shown, 29 providers".
pub fn shown(v: &View, lang: Lang) -> String {
    t(lang, K::MarketShown)
        .replace("{shown}", &v.rows.len().to_string())
        .replace("{options}", &v.options.to_string())
        .replace("{providers}", &v.providers.len().to_string())
}

/// The currency the totals are in and the rate they were converted at,
/// with the rate's day, or a note that the rate is the user's own.
pub fn fx(v: &View, lang: Lang) -> String {
    // A day as the link or the CLI wrote it ("2026-01-08"); other text there
    // is not shown as if it were one.
    let day = |d: &&String| d.get(..4).is_some_and(|y| y.bytes().all(|b| b.is_ascii_digit()));
    let date = v.fx.date.as_ref().filter(day).cloned().unwrap_or_else(|| t(lang, K::FxOwn).to_string());
    t(lang, K::MarketFx)
        .replace("{currency}", v.currency.code())
        .replace("{rate}", &gpuplan_core::money::num(v.fx.cny_per_usd))
        .replace("{date}", &date)
}

/// The offer of the market row keyed `key`, as the core names it.
pub fn offer_of(v: &View, key: &str) -> Option<String> {
    v.rows.iter().find(|r| r.id == key).map(|r| r.offer.clone())
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
