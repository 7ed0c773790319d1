use gpuplan_core::offers::{defaults, Offer, Pricing, Side};
use gpuplan_core::plan::Plan;

use super::model::{self, fields, Tiers};
use crate::i18n::{Lang, K};

fn field(path: &str) -> &'static model::Field {
    fields().find(|f| f.path == path).unwrap_or_else(|| panic!("no field {path}"))
}

fn blank() -> Offer {
    model::blank(&[], "h100-sxm", "Mine".into(), "2026-12-07".into())
}

/// Writing back what a field shows leaves every shipped offer as it was.
#[test]
fn every_field_reads_back_what_it_shows() {
    for offer in defaults() {
        for f in fields() {
            let mut copy = offer.clone();
            let text = (f.get)(&offer);
            if (f.applies)(&offer) {
                assert_eq!(f.write(&mut copy, &text), Ok(()), "{} {}", offer.id, f.path);
            }
            assert_eq!(copy, offer, "{} {}: {text:?}", offer.id, f.path);
        }
    }
}

/// A price typed makes the offer sell that way; emptied, it no longer does,
/// and its details show only while it is sold.
#[test]
fn a_price_opens_and_closes_a_way_to_buy() {
    let mut o = blank();
    assert!(o.od.is_none() && !(field("od.step_s").applies)(&o));
    assert_eq!(field("od.hourly").write(&mut o, "2.5"), Ok(()));
    assert_eq!(o.od.as_ref().map(|od| (od.hourly, od.step_s, od.min_s)), Some((2.5, 1, 60)));
    assert!((field("od.step_s").applies)(&o));
    assert_eq!(field("od.step_s").write(&mut o, "3600"), Ok(()));
    assert_eq!(field("od.hourly").write(&mut o, "3"), Ok(()));
    assert_eq!(o.od.as_ref().map(|od| (od.hourly, od.step_s)), Some((3.0, 3600)), "details kept");
    assert_eq!(field("od.hourly").write(&mut o, ""), Ok(()));
    assert!(o.od.is_none());
    assert_eq!(field("monthly.price").write(&mut o, "9000"), Ok(()));
    assert_eq!(o.monthly.as_ref().map(|m| (m.price, m.min_months)), Some((9000.0, 1)));
}

#[test]
fn typos_are_named_and_leave_the_offer() {
    let mut o = blank();
    let before = o.clone();
    assert_eq!(field("od.hourly").write(&mut o, "2,5"), Err(K::NotNumber));
    assert_eq!(field("gpus").write(&mut o, "1.5"), Err(K::NotWhole));
    assert_eq!(field("gpus").write(&mut o, ""), Err(K::NotNumber), "a count must be given");
    assert_eq!(o, before);
}

/// A side price the source did not give reads as empty, never as 0; typed,
/// it is known; emptied, unknown again.
#[test]
fn an_unknown_side_price_is_empty_until_typed() {
    let mut o = blank();
    let storage = field("storage_gb_month");
    assert_eq!((storage.get)(&o), "");
    assert_eq!(storage.empty, Some(K::NotInCatalog));
    assert_eq!(storage.write(&mut o, "0.1"), Ok(()));
    assert_eq!((o.storage_gb_month, o.unknown.contains(&Side::Storage)), (0.1, false));
    assert_eq!((storage.get)(&o), "0.1");
    assert_eq!(storage.write(&mut o, ""), Ok(()));
    assert!(o.unknown.contains(&Side::Storage));
    Tiers::Egress.add(&mut o);
    assert!(!o.unknown.contains(&Side::Egress), "a tier typed makes egress known");
}

#[test]
fn tiers_grow_below_the_open_one() {
    let mut o = blank();
    Tiers::Egress.add(&mut o);
    assert_eq!(Tiers::Egress.rows(&o), [(None, 0.0)]);
    assert_eq!(Tiers::Egress.write(&mut o, 0, false, "0.09"), Ok(()));
    Tiers::Egress.add(&mut o);
    assert_eq!(Tiers::Egress.rows(&o), [(Some(100.0), 0.09), (None, 0.09)]);
    assert_eq!(Tiers::Egress.write(&mut o, 0, true, "10240"), Ok(()));
    assert_eq!(Tiers::Egress.write(&mut o, 1, false, ""), Err(K::NotNumber));
    Tiers::Egress.remove(&mut o, 0);
    assert_eq!(Tiers::Egress.rows(&o), [(None, 0.09)]);
    let mut errs = Vec::new();
    o.validate("o", &mut errs);
    assert!(errs.is_empty(), "{errs:?}");
}

/// A changed listed offer names each change, before and after.
#[test]
fn a_changed_listed_offer_names_its_changes() {
    let Some(listed) = defaults().into_iter().find(|o| o.id == "aws-p5") else { panic!("aws-p5 is listed") };
    let mut own = listed.clone();
    assert!(model::changes(&listed, &own, Lang::Zh).is_empty());
    assert_eq!(field("od.hourly").write(&mut own, "50"), Ok(()));
    Tiers::Egress.remove(&mut own, 0);
    own.gpu = "h200-sxm".into();
    own.pricing = Pricing::Auction;
    let changes = model::changes(&listed, &own, Lang::Zh);
    let labels: Vec<K> = changes.iter().map(|c| c.label).collect();
    assert_eq!(labels, [K::OdHourly, K::Gpu, K::PricingKind, K::Egress]);
    assert_eq!((changes[0].before.as_str(), changes[0].after.as_str()), ("55.04", "50"));
    // The catalog's names and the reader's words, never ids or Rust's names.
    assert_eq!((changes[1].before.as_str(), changes[1].after.as_str()), ("H100 SXM", "H200 SXM"));
    assert_eq!((changes[2].before.as_str(), changes[2].after.as_str()), ("标价", "拍卖底价"));
}

#[test]
fn new_and_copied_offers_get_ids_of_their_own() {
    let first = blank();
    assert_eq!(first.id, "own-1");
    let copy = model::duplicate(std::slice::from_ref(&first), &first, "(copy)");
    assert_eq!((copy.id.as_ref(), copy.name.as_ref()), ("own-2", "Mine (copy)"));
    assert_eq!(model::fresh_id(&[copy]), "own-1");
    assert_eq!(model::title(&first), "Mine");
}

/// A price typed by hand is ranked at once: the plan's bill prices it, and
/// the cheapest option follows it down.
#[test]
fn a_typed_price_is_ranked() {
    let mut plan = Plan::default();
    let mut mine = blank();
    assert_eq!(field("od.hourly").write(&mut mine, "0.05"), Ok(()));
    plan.cost.offers.push(mine);
    let report = gpuplan_core::report::evaluate_with(&plan, &defaults(), Lang::En).expect("a valid plan");
    let ids: Vec<(&str, bool)> = report.cost.options.iter().map(|o| (o.id.as_str(), o.meets)).collect();
    let best = report.cost.options.iter().find(|o| o.meets).map(|o| o.id.as_str());
    assert!(best.is_some_and(|id| id.starts_with("own-1")), "the typed price ranks first: {ids:?}");
}
