//! A user's offer in a share link. Version 1 wrote eight parts (id,
//! provider, name, GPU, GPUs, currency, on-demand hourly, monthly price),
//! and such links read as they always did. Every other field follows as
//! one `key=value` part, written only where it differs from what the eight
//! parts alone give, so an offer with only the headline prices keeps its
//! version 1 form.

use super::Param;
use crate::offers::{
    Band, Block, Monthly, Offer, OnDemand, Pricing, Reserved, SavingsPlan, Side, Spot, Tier,
};

/// The version 1 parts.
pub(super) fn head(o: &Offer) -> Vec<String> {
    let od = o.od.as_ref().map(|od| od.hourly.text()).unwrap_or_default();
    let monthly = o.monthly.as_ref().map(|m| m.price.text()).unwrap_or_default();
    vec![
        o.id.to_string(),
        o.provider.to_string(),
        o.name.to_string(),
        o.gpu.to_string(),
        o.gpus.text(),
        Param::text(&o.currency),
        od,
        monthly,
    ]
}

/// The offer the version 1 parts describe.
fn from_head(parts: &[String]) -> Option<Offer> {
    let [id, provider, name, gpu, gpus, currency, od, monthly] = parts else { return None };
    let od: Option<f64> = Param::parse(od)?;
    let monthly: Option<f64> = Param::parse(monthly)?;
    Some(Offer {
        id: id.clone().into(),
        provider: provider.clone().into(),
        name: name.clone().into(),
        gpu: gpu.clone().into(),
        gpus: Param::parse(gpus)?,
        currency: Param::parse(currency)?,
        od: od.map(|hourly| OnDemand { hourly, ..OnDemand::default() }),
        monthly: monthly.map(|price| Monthly { price, ..Monthly::default() }),
        source: "user".into(),
        ..Offer::default()
    })
}

/// Every part of an offer: the head, then the fields that differ from it.
pub(super) fn parts(o: &Offer) -> Vec<String> {
    let mut out = head(o);
    let base = from_head(&out).unwrap_or_default();
    for (key, get, _) in EXTRAS {
        let text = get(o);
        if text != get(&base) {
            out.push(format!("{key}={text}"));
        }
    }
    out
}

/// The offer from its parts; None when any part is unreadable.
pub(super) fn from_parts(parts: &[String]) -> Option<Offer> {
    let (head, extras) = parts.split_at_checked(8)?;
    let mut offer = from_head(head)?;
    for part in extras {
        let (key, value) = part.split_once('=')?;
        let (_, _, set) = EXTRAS.iter().find(|(k, _, _)| *k == key)?;
        set(&mut offer, value)?;
    }
    Some(offer)
}

type Get = fn(&Offer) -> String;
type Set = fn(&mut Offer, &str) -> Option<()>;

/// "a/b/c" of numbers; None unless exactly N.
fn reals<const N: usize>(s: &str) -> Option<[f64; N]> {
    let values: Vec<f64> = s.split('/').map(Param::parse).collect::<Option<_>>()?;
    values.try_into().ok()
}

/// Tiers as "bound/price;…", "-" for no bound.
fn tiers_text(tiers: &[(Option<f64>, f64)]) -> String {
    let bound = |b: Option<f64>| b.map_or_else(|| "-".to_string(), |x| x.text());
    tiers.iter().map(|(b, p)| format!("{}/{}", bound(*b), p.text())).collect::<Vec<_>>().join(";")
}

fn tiers(s: &str) -> Option<Vec<(Option<f64>, f64)>> {
    s.split(';')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (b, p) = t.split_once('/')?;
            let bound = if b == "-" { None } else { Some(Param::parse(b)?) };
            Some((bound, Param::parse(p)?))
        })
        .collect()
}

fn set<T: Param>(slot: &mut T, s: &str) -> Option<()> {
    *slot = T::parse(s)?;
    Some(())
}

fn set_text(slot: &mut std::borrow::Cow<'static, str>, s: &str) -> Option<()> {
    *slot = s.to_string().into();
    Some(())
}

/// A price's kind in a link: "" list, "m" marketplace, "a" auction.
fn pricing_text(p: Pricing) -> &'static str {
    match p {
        Pricing::List => "",
        Pricing::Marketplace => "m",
        Pricing::Auction => "a",
    }
}

fn set_pricing(o: &mut Offer, s: &str) -> Option<()> {
    o.pricing = [Pricing::List, Pricing::Marketplace, Pricing::Auction]
        .into_iter()
        .find(|p| pricing_text(*p) == s)?;
    Some(())
}

/// Side prices not in the source, a letter each: "s" storage, "i" IP, "e" egress.
fn side_letter(side: Side) -> char {
    match side {
        Side::Storage => 's',
        Side::Ip => 'i',
        Side::Egress => 'e',
    }
}

fn set_unknown(o: &mut Offer, s: &str) -> Option<()> {
    let sides = [Side::Storage, Side::Ip, Side::Egress];
    o.unknown =
        s.chars().map(|c| sides.into_iter().find(|side| side_letter(*side) == c)).collect::<Option<_>>()?;
    Some(())
}

/// The other fields, in the order they are written and read.
const EXTRAS: &[(&str, Get, Set)] = &[
    ("rg", |o| o.region.to_string(), |o, s| set_text(&mut o.region, s)),
    (
        "os",
        |o| o.od.as_ref().map(|od| od.step_s.text()).unwrap_or_default(),
        |o, s| set(&mut o.od.as_mut()?.step_s, s),
    ),
    (
        "om",
        |o| o.od.as_ref().map(|od| od.min_s.text()).unwrap_or_default(),
        |o, s| set(&mut o.od.as_mut()?.min_s, s),
    ),
    (
        "ok",
        |o| o.od.as_ref().map(|od| od.keeps_billing.text()).unwrap_or_default(),
        |o, s| set(&mut o.od.as_mut()?.keeps_billing, s),
    ),
    (
        "sp",
        |o| o.spot.as_ref().map(|x| x.hourly.text()).unwrap_or_default(),
        |o, s| {
            o.spot = Param::parse(s).map(|h: Option<f64>| h.map(|hourly| Spot { hourly, per_day: None }))?;
            Some(())
        },
    ),
    (
        "spd",
        |o| o.spot.as_ref().map(|x| x.per_day.text()).unwrap_or_default(),
        |o, s| set(&mut o.spot.as_mut()?.per_day, s),
    ),
    (
        "sv",
        |o| o.sp.as_ref().map(|x| format!("{}/{}", x.hourly.text(), x.years.text())).unwrap_or_default(),
        |o, s| {
            o.sp = match s {
                "" => None,
                s => {
                    let [hourly, years] = reals::<2>(s)?;
                    Some(SavingsPlan { hourly, years: u32::parse(&years.text())? })
                }
            };
            Some(())
        },
    ),
    (
        "ri",
        |o| {
            o.ri.as_ref()
                .map(|x| format!("{}/{}/{}", x.hourly.text(), x.upfront.text(), x.years.text()))
                .unwrap_or_default()
        },
        |o, s| {
            o.ri = match s {
                "" => None,
                s => {
                    let [hourly, upfront, years] = reals::<3>(s)?;
                    Some(Reserved { hourly, upfront, years: u32::parse(&years.text())? })
                }
            };
            Some(())
        },
    ),
    (
        "bk",
        |o| o.block.as_ref().map(|x| x.hourly.text()).unwrap_or_default(),
        |o, s| {
            o.block = Param::parse(s).map(|h: Option<f64>| h.map(|hourly| Block { hourly }))?;
            Some(())
        },
    ),
    (
        "mm",
        |o| o.monthly.as_ref().map(|m| m.min_months.text()).unwrap_or_default(),
        |o, s| set(&mut o.monthly.as_mut()?.min_months, s),
    ),
    (
        "me",
        |o| o.monthly.as_ref().map(|m| m.egress_gb.text()).unwrap_or_default(),
        |o, s| set(&mut o.monthly.as_mut()?.egress_gb, s),
    ),
    ("st", |o| o.storage_gb_month.text(), |o, s| set(&mut o.storage_gb_month, s)),
    ("ip", |o| o.ip_hour.text(), |o, s| set(&mut o.ip_hour, s)),
    ("pr", |o| pricing_text(o.pricing).to_string(), |o, s| set_pricing(o, s)),
    ("uk", |o| o.unknown.iter().map(|u| side_letter(*u)).collect(), |o, s| set_unknown(o, s)),
    (
        "eg",
        |o| tiers_text(&o.egress.iter().map(|t| (t.upto_gb, t.per_gb)).collect::<Vec<_>>()),
        |o, s| {
            o.egress = tiers(s)?.into_iter().map(|(upto_gb, per_gb)| Tier { upto_gb, per_gb }).collect();
            Some(())
        },
    ),
    (
        "bw",
        |o| tiers_text(&o.bandwidth.iter().map(|b| (b.upto_mbps, b.per_mbps_month)).collect::<Vec<_>>()),
        |o, s| {
            o.bandwidth = tiers(s)?
                .into_iter()
                .map(|(upto_mbps, per_mbps_month)| Band { upto_mbps, per_mbps_month })
                .collect();
            Some(())
        },
    ),
    ("src", |o| o.source.to_string(), |o, s| set_text(&mut o.source, s)),
    ("dt", |o| o.date.to_string(), |o, s| set_text(&mut o.date, s)),
    ("nt", |o| o.note.to_string(), |o, s| set_text(&mut o.note, s)),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Currency;

    #[test]
    fn every_field_round_trips_and_a_plain_offer_keeps_its_v1_form() {
        let mut offers = crate::offers::defaults();
        offers.extend(crate::market::shipped("", include_str!("../../../data/market/cn-offers.json")).offers);
        for offer in offers {
            let back = from_parts(&parts(&offer)).expect("readable");
            assert_eq!(back, Offer { host: false, ..offer });
        }
        let plain = Offer {
            id: "mine".into(),
            name: "My 4090 box".into(),
            gpu: "rtx-4090".into(),
            currency: Currency::Usd,
            od: Some(OnDemand { hourly: 0.4, ..OnDemand::default() }),
            source: "user".into(),
            ..Offer::default()
        };
        assert_eq!(parts(&plain).len(), 8);
    }

    #[test]
    fn unreadable_extras_refuse_the_offer() {
        let mut p = head(&Offer::default());
        p.push("sv=1".into());
        assert_eq!(from_parts(&p), None);
        p.pop();
        p.push("zz=1".into());
        assert_eq!(from_parts(&p), None);
        p.pop();
        p.push("eg=-/0.1;10".into());
        assert_eq!(from_parts(&p), None);
    }
}
