//! The market beside a plan: every option of the offers that pass the
//! filters, priced for the plan, the cheapest that meets its memory and its
//! deadline or serving target first, each dearer one with why it loses, its
//! price per GPU-hour, its "as of" date and age, and whether its price is a
//! list price. One call for the page's market table and its answer block.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cost::{CostReport, Fx, OptionCost, OptionKind};
use crate::error::FieldError;
use crate::lang::Lang;
use crate::market::{age, Age, Filter};
use crate::money::{Currency, Money};
use crate::offers::{region_text, Offer, Pricing};
use crate::plan::Plan;

/// What the reader picked: the filters, the bill's currency and rate, and
/// how many rows to return.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Query {
    pub filter: Filter,
    /// The currency totals are shown in (None: the plan's).
    pub currency: Option<Currency>,
    /// CNY per USD (None: the plan's), and the day it was taken on.
    pub cny_per_usd: Option<f64>,
    pub fx_date: Option<String>,
    /// Today, YYYY-MM-DD, for each price's age (the core has no clock).
    pub today: String,
    /// Rows returned, cheapest first (0: all).
    pub limit: usize,
}

/// One priced option, as the market table shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub id: String,
    /// The id of the offer this option is a way to buy.
    pub offer: String,
    pub label: String,
    pub provider: String,
    /// Where it is sold, in the reader's words.
    pub region: String,
    pub gpu: String,
    /// The GPU as the catalog names it (the id where the catalog has none).
    pub gpu_name: String,
    pub kind: OptionKind,
    pub rank: usize,
    pub meets: bool,
    pub total: Money,
    /// The list price per GPU-hour, in the bill's currency.
    pub per_gpu_hour: Option<f64>,
    pub date: String,
    pub age: Age,
    pub stale: bool,
    pub pricing: Pricing,
    /// A marketplace or auction price, parts of the bill not in the catalog.
    pub notes: Vec<String>,
    /// Why it is not the answer (None for the answer).
    pub loss: Option<String>,
}

/// The market table and the answer block's facts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub currency: Currency,
    pub fx: Fx,
    pub today: String,
    /// The cheapest option that meets the plan.
    pub best: Option<Row>,
    /// Where `best` is a marketplace or auction price: the cheapest list price.
    pub best_list: Option<Row>,
    /// Cheapest first, at most the query's limit.
    pub rows: Vec<Row>,
    /// Options priced in all (rows may hold fewer).
    pub options: usize,
    /// Offers left out, with the reason.
    pub skipped: Vec<String>,
    /// Providers among the offers before filtering, with their offer counts
    /// (the filter's choices).
    pub providers: BTreeMap<String, usize>,
}

/// Prices `offers` narrowed by the query for `plan`.
pub fn view(plan: &Plan, offers: &[Offer], query: &Query, lang: Lang) -> Result<View, Vec<FieldError>> {
    let mut plan = plan.clone();
    if let Some(currency) = query.currency {
        plan.cost.currency = currency;
    }
    if let Some(rate) = query.cny_per_usd {
        plan.cost.cny_per_usd = rate;
        plan.cost.fx_date = query.fx_date.clone().unwrap_or_default();
    }
    let mut providers = BTreeMap::new();
    for o in offers {
        *providers.entry(o.provider.to_string()).or_insert(0) += 1;
    }
    let shown = query.filter.apply(offers);
    let report = crate::report::evaluate_with(&plan, &shown, lang)?;
    Ok(from_report(&report.cost, query, lang, providers))
}

fn from_report(cost: &CostReport, query: &Query, lang: Lang, providers: BTreeMap<String, usize>) -> View {
    let row = |o: &OptionCost| row(o, cost, &query.today, lang);
    let find = |id: &Option<String>| id.as_ref().and_then(|id| cost.options.iter().find(|o| &o.id == id));
    let limit = if query.limit == 0 { usize::MAX } else { query.limit };
    View {
        currency: cost.currency,
        fx: cost.fx.clone(),
        today: query.today.clone(),
        best: find(&cost.best).map(row),
        best_list: find(&cost.best_list).map(row),
        rows: cost.options.iter().take(limit).map(row).collect(),
        options: cost.options.len(),
        skipped: cost.skipped.iter().map(|s| format!("{}: {}", s.name, s.skip.text(lang))).collect(),
        providers,
    }
}

fn row(o: &OptionCost, cost: &CostReport, today: &str, lang: Lang) -> Row {
    let age = age(&o.date, today);
    Row {
        id: o.id.clone(),
        offer: o.offer.to_string(),
        label: o.label(lang),
        provider: o.provider.to_string(),
        region: region_text(&o.region, o.regions, lang),
        gpu: o.gpu.to_string(),
        gpu_name: crate::hardware::find(&o.gpu).map_or_else(|| o.gpu.to_string(), |g| g.name.to_string()),
        kind: o.kind,
        rank: o.rank,
        meets: o.meets,
        total: o.total,
        per_gpu_hour: o.per_gpu_hour,
        date: o.date.to_string(),
        age,
        stale: matches!(age, Age::Dated { stale: true, .. }),
        pricing: o.pricing,
        notes: o.price_notes(lang),
        loss: o.loss.as_ref().map(|l| l.text(lang, cost.currency)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::market::Buy;
    use crate::offers::OnDemand;

    fn offer(id: &str, provider: &str, hourly: f64, pricing: Pricing) -> Offer {
        Offer {
            id: id.to_string().into(),
            provider: provider.to_string().into(),
            name: id.to_string().into(),
            gpu: "h100-sxm".into(),
            od: Some(OnDemand { hourly, ..OnDemand::default() }),
            date: "2026-01".into(),
            pricing,
            ..Offer::default()
        }
    }

    #[test]
    fn an_auction_answer_names_the_cheapest_list_price_beside_it() {
        let offers = vec![
            offer("bid", "Mithril", 1.0, Pricing::Auction),
            offer("list", "Lambda", 3.0, Pricing::List),
            offer("dear", "AWS", 6.0, Pricing::List),
        ];
        let query = Query {
            filter: Filter { buy: vec![Buy::OnDemand], ..Filter::default() },
            currency: Some(Currency::Cny),
            today: "2026-12-07".into(),
            ..Query::default()
        };
        let v = view(&Plan::default(), &offers, &query, Lang::En).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(v.best.as_ref().map(|r| r.id.as_str()), Some("bid/od"));
        // The note's words are the English build's.
        #[cfg(not(feature = "zh"))]
        assert!(v.best.as_ref().is_some_and(|r| r.notes.iter().any(|n| n.contains("auction"))));
        assert!(v.best.as_ref().is_some_and(|r| !r.notes.is_empty()));
        assert_eq!(v.best_list.as_ref().map(|r| r.id.as_str()), Some("list/od"));
        assert_eq!(v.currency, Currency::Cny);
        assert_eq!(v.fx.date.as_deref(), Some("2026-01-08"));
        assert!(v.rows.iter().all(|r| r.stale), "eleven months old");
        assert!(v.rows.iter().skip(1).all(|r| r.loss.is_some()));
        assert_eq!(v.providers.len(), 3);
        let aws = Query { filter: Filter { providers: vec!["aws".into()], ..Filter::default() }, ..query };
        let v = view(&Plan::default(), &offers, &aws, Lang::Zh).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(v.rows.iter().all(|r| r.provider == "AWS") && v.best_list.is_none());
    }
}
