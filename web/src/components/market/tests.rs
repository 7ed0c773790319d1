use gpuplan_core::market_view::{view, Query};
use gpuplan_core::offers::{self, Offer, OnDemand, Side};
use gpuplan_core::plan::Plan;

use super::*;

fn offer(id: &str, provider: &str, hourly: f64, pricing: Pricing) -> Offer {
    Offer {
        id: id.to_string().into(),
        provider: provider.to_string().into(),
        name: id.to_string().into(),
        gpu: "h100-sxm".into(),
        od: Some(OnDemand { hourly, ..OnDemand::default() }),
        date: "2026-01".into(),
        pricing,
        unknown: vec![Side::Storage, Side::Ip, Side::Egress],
        ..Offer::default()
    }
}

/// The built-in offers beside an auction's bid floor and a marketplace offer.
fn market(picks: &Picks) -> View {
    let mut all = offers::defaults();
    all.push(offer("bid", "Mithril", 0.02, Pricing::Auction));
    all.push(offer("host", "Vast.ai", 0.03, Pricing::Marketplace));
    let query =
        Query { filter: picks.filter(), today: "2026-12-07".into(), limit: SHOWN, ..Query::default() };
    view(&Plan::default(), &all, &query, Lang::En).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn picks_make_the_cores_filter() {
    assert_eq!(Picks::default().filter(), Filter::default());
    let p =
        Picks { provider: "AWS".into(), region: " us- ".into(), currency: "CNY".into(), kind: "spot".into() };
    let f = p.filter();
    assert_eq!(f.providers, ["AWS"]);
    assert_eq!(f.regions, ["us-"]);
    assert_eq!(f.currencies, [Currency::Cny]);
    assert_eq!(f.buy, [Buy::Spot]);
}

#[test]
fn rows_mark_the_best_the_auction_and_the_marketplace() {
    let v = market(&Picks::default());
    let width = cols(Lang::En).len();
    let rows: Vec<Row> = v.rows.iter().map(|r| row(r, &v, Lang::En)).collect();
    assert!(rows.iter().all(|r| r.cells.len() == width && r.keys.len() == width));
    let best: Vec<&Row> = rows.iter().filter(|r| r.class == "best").collect();
    assert_eq!(best.len(), 1);
    assert_eq!(best[0].key, "bid/od");
    let marks =
        |key: &str| rows.iter().find(|r| r.key == key).map(|r| r.cells[3].clone()).unwrap_or_default();
    assert!(marks("bid/od").iter().any(|(text, _)| text == "auction"));
    assert!(marks("host/od").iter().any(|(text, _)| text == "marketplace"));
    let text: String = rows.iter().flat_map(|r| r.cells.iter().flatten()).map(|(s, _)| s.as_str()).collect();
    assert!(!text.contains("NaN"));
    assert!(text.contains("not in the catalog"), "unknown side prices are named");
    assert!(rows.iter().filter(|r| r.class != "best").all(|r| !r.cells[8][0].0.is_empty()), "why each loses");
}

#[test]
fn an_auction_answer_names_a_list_price_beside_it() {
    let v = market(&Picks::default());
    let top = top(&v, Lang::En).unwrap_or_else(|| panic!("no best"));
    assert!(top.best.what.starts_with("Mithril") && top.best.what.contains("auction"));
    let list = top.list.unwrap_or_else(|| panic!("no list price beside the auction"));
    assert!(!list.what.contains("auction") && !list.what.contains("marketplace"));
    assert!(shown(&v, Lang::En).contains(&format!("of {} options", v.options)));
}

#[test]
fn filters_narrow_the_rows() {
    let all = market(&Picks::default());
    let spot = market(&Picks { kind: "spot".into(), ..Picks::default() });
    assert!(spot.rows.len() < all.rows.len());
    assert!(spot.rows.iter().all(|r| r.kind == gpuplan_core::cost::OptionKind::Spot));
    let mithril = market(&Picks { provider: "mithril".into(), ..Picks::default() });
    assert!(mithril.rows.iter().all(|r| r.provider == "Mithril") && !mithril.rows.is_empty());
    assert_eq!(mithril.providers, all.providers, "the provider choices stay whole");
}

#[cfg(not(feature = "zh"))]
#[test]
fn the_rate_says_its_day_or_that_it_is_the_users_own() {
    let v = market(&Picks::default());
    let dated = fx(&v, Lang::En);
    assert!(dated.starts_with("Totals in ") && dated.contains("1 USD = "), "{dated}");
    assert!(!dated.contains("undated"), "the default rate has its day: {dated}");
    let own = View { fx: gpuplan_core::cost::Fx { cny_per_usd: 7.0, date: None }, ..v };
    assert!(fx(&own, Lang::En).contains("1 USD = 7 CNY (your own rate, undated)"), "{}", fx(&own, Lang::En));
    let odd =
        View { fx: gpuplan_core::cost::Fx { cny_per_usd: 7.0, date: Some("NaN".into()) }, ..own.clone() };
    assert!(
        fx(&odd, Lang::En).contains("(your own rate, undated)"),
        "text that is no day is not shown as one"
    );
}

#[test]
fn a_row_names_its_offer() {
    let v = market(&Picks::default());
    let Some(row) = v.rows.iter().find(|r| r.offer == "bid") else { panic!("the auction offer is listed") };
    assert_eq!(offer_of(&v, &row.id).as_deref(), Some("bid"));
    assert_eq!(offer_of(&v, "no-such-row"), None);
}
