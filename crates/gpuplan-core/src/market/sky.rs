//! Price sheets in SkyPilot's catalog schema (`InstanceType,
//! AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, Price, Region,
//! SpotPrice`, one row per instance and region or zone), and the shipped
//! market's collapsed form of it (reference cloud-offers.csv: one row per
//! instance, cheapest region, region count and price range). Columns are
//! found by their header; others are ignored. Prices are USD per
//! instance-hour unless a `Currency` column says otherwise.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::csv::{records, Record};
use super::{alias, notes, Import, Notice, Unmapped};
use crate::money::Currency;
use crate::offers::{Offer, MAX_PRICE};
use crate::offers::{OnDemand, Spot};

/// The columns read, each by any of its header names (compared without case).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Col {
    Instance,
    Accelerator,
    Count,
    Price,
    PriceMax,
    Spot,
    Region,
    Regions,
    Provider,
    Currency,
    Date,
    Catalog,
}

const HEADERS: &[(Col, &[&str])] = &[
    (Col::Instance, &["InstanceType", "instance"]),
    (Col::Accelerator, &["AcceleratorName", "gpu"]),
    (Col::Count, &["AcceleratorCount", "gpus"]),
    (Col::Price, &["Price", "od_min_usd_h"]),
    (Col::PriceMax, &["od_max_usd_h"]),
    (Col::Spot, &["SpotPrice", "spot_min_usd_h"]),
    (Col::Region, &["Region", "cheapest_region"]),
    (Col::Regions, &["regions"]),
    (Col::Provider, &["provider", "cloud"]),
    (Col::Currency, &["Currency"]),
    (Col::Date, &["date"]),
    (Col::Catalog, &["catalog_path"]),
];

const REQUIRED: [Col; 3] = [Col::Instance, Col::Accelerator, Col::Count];

/// Where each column is in the header row.
struct Layout(Vec<(Col, usize)>);

impl Layout {
    fn read(header: &Record) -> Result<Layout, String> {
        let mut found = Vec::new();
        for (i, name) in header.fields.iter().enumerate() {
            let name = name.trim().trim_start_matches('\u{feff}');
            if let Some((col, _)) =
                HEADERS.iter().find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
            {
                if !found.iter().any(|(c, _)| c == col) {
                    found.push((*col, i));
                }
            }
        }
        let has = |c: Col| found.iter().any(|(f, _)| *f == c);
        let missing: Vec<&str> =
            REQUIRED.iter().filter(|c| !has(**c)).filter_map(|c| header_name(*c)).collect();
        if !missing.is_empty() {
            return Err(format!("the header lacks {}", missing.join(", ")));
        }
        if !has(Col::Price) && !has(Col::Spot) {
            return Err("the header lacks Price and SpotPrice".into());
        }
        Ok(Layout(found))
    }

    fn get<'a>(&self, rec: &'a Record, col: Col) -> &'a str {
        let at = self.0.iter().find(|(c, _)| *c == col).map(|(_, i)| *i);
        at.and_then(|i| rec.fields.get(i)).map_or("", |s| s.trim())
    }
}

fn header_name(col: Col) -> Option<&'static str> {
    HEADERS.iter().find(|(c, _)| *c == col).and_then(|(_, names)| names.first().copied())
}

/// What the caller knows that the sheet may not say.
pub struct Defaults<'a> {
    /// Provider of rows without a provider column (a file name, say).
    pub provider: &'a str,
    /// Date of rows without a date column ("" = undated).
    pub date: &'a str,
    /// Where the sheet came from, for each offer's source.
    pub source: &'a str,
}

/// Reads a sheet; bad rows become notices and the rest load. Rows stream
/// through: each is read, checked and merged by its id through an index, so
/// a sheet of a whole provider's catalog reads in time and memory in step
/// with its rows.
pub fn import(text: &str, d: &Defaults, out: &mut Import) {
    let mut recs = records(text);
    let Some(header) = recs.next() else {
        return out.notices.push(Notice::new(0, "the file is empty"));
    };
    let layout = match Layout::read(&header) {
        Ok(layout) => layout,
        Err(e) => return out.notices.push(Notice::new(header.line, e)),
    };
    let mut merged = Merged::default();
    for rec in recs.by_ref() {
        match row(&layout, &rec, d, out, &mut merged) {
            Ok(Some(offer)) => merged.add(&mut out.offers, offer),
            Ok(None) => {}
            Err(e) => out.notices.push(Notice::new(rec.line, e)),
        }
    }
    if let Some(line) = recs.open() {
        out.notices
            .push(Notice::new(line, "a quoted field is never closed; the rest of the file is not read"));
    }
}

/// A price cell: empty (or a marketplace's 0) is none.
fn price(text: &str, what: &str) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let x: f64 = text.parse().map_err(|_| format!("{what} \"{text}\" is not a number"))?;
    if !x.is_finite() || !(0.0..=MAX_PRICE).contains(&x) {
        return Err(format!("{what} {text} is out of range (0 to {MAX_PRICE})"));
    }
    Ok((x > 0.0).then_some(x))
}

/// One row as an offer; `Ok(None)` for a row without an accelerator (a CPU
/// instance) or on a card the catalog lacks (counted in `out.unmapped`).
fn row(
    l: &Layout,
    rec: &Record,
    d: &Defaults,
    out: &mut Import,
    merged: &mut Merged,
) -> Result<Option<Offer>, String> {
    let accelerator = l.get(rec, Col::Accelerator);
    if accelerator.is_empty() {
        return Ok(None);
    }
    let instance = l.get(rec, Col::Instance);
    let provider = notes::provider(match l.get(rec, Col::Provider) {
        "" => d.provider,
        p => p,
    });
    let count: f64 =
        l.get(rec, Col::Count).parse().map_err(|_| "AcceleratorCount is not a number".to_string())?;
    if count.fract() != 0.0 || !(1.0..=1024.0).contains(&count) {
        return Err(format!("AcceleratorCount {count} is not a whole number of GPUs from 1 to 1024"));
    }
    let od = price(l.get(rec, Col::Price), "Price")?;
    let spot = price(l.get(rec, Col::Spot), "SpotPrice")?;
    if od.is_none() && spot.is_none() {
        return Err("no Price or SpotPrice".into());
    }
    let currency = match l.get(rec, Col::Currency) {
        "" => Currency::Usd,
        code => crate::names::parse(&code.to_ascii_uppercase())
            .ok_or_else(|| format!("currency \"{code}\" is not USD or CNY"))?,
    };
    super::check_text(&[("provider", provider), ("instance", instance)], rec.line, out);
    let Some(gpu) = merged.card(accelerator).map(|id| alias::part(id, instance, provider)) else {
        merged.unmapped(&mut out.unmapped, accelerator);
        return Ok(None);
    };
    let region = l.get(rec, Col::Region);
    let regions: u32 = l.get(rec, Col::Regions).parse().unwrap_or(0);
    let od_max = price(l.get(rec, Col::PriceMax), "od_max_usd_h")?;
    let rules = super::rules::for_provider(provider);
    Ok(Some(Offer {
        id: Cow::Owned(format!("{}:{instance}:{region}", provider.to_ascii_lowercase())),
        provider: Cow::Owned(provider.to_string()),
        name: Cow::Owned(format!("{provider} {instance}")),
        region: Cow::Owned(region.to_string()),
        regions,
        gpu: Cow::Borrowed(gpu),
        gpus: count as u32,
        currency,
        od: od.map(|hourly| OnDemand { hourly, ..rules.od.clone() }),
        spot: spot.map(|hourly| Spot { hourly, per_day: None }),
        storage_gb_month: rules.storage_gb_month,
        ip_hour: rules.ip_hour,
        egress: rules.egress.clone(),
        source: Cow::Owned(match l.get(rec, Col::Catalog) {
            "" => d.source.to_string(),
            path => format!("{} ({path})", d.source),
        }),
        date: Cow::Owned(match l.get(rec, Col::Date) {
            "" => d.date.to_string(),
            date => date.to_string(),
        }),
        note: notes::range(od, od_max, rules.note),
        pricing: rules.pricing,
        unknown: rules.unknown,
        ..Offer::default()
    }))
}

/// Where each offer id and unmapped name read so far is, so that a row
/// finds its earlier rows without searching them.
#[derive(Default)]
struct Merged {
    offers: BTreeMap<String, usize>,
    unmapped: BTreeMap<String, usize>,
    /// Accelerator names already looked up in the catalog.
    cards: BTreeMap<String, Option<&'static str>>,
}

impl Merged {
    /// Adds `offer`; rows of one instance in one region (a catalog's zones)
    /// become one offer at the lowest prices.
    fn add(&mut self, offers: &mut Vec<Offer>, offer: Offer) {
        let at = self.offers.get(offer.id.as_ref()).copied();
        match at.and_then(|i| offers.get_mut(i)) {
            Some(same) => lower(same, offer),
            None => {
                self.offers.insert(offer.id.to_string(), offers.len());
                offers.push(offer);
            }
        }
    }

    /// The catalog card `accelerator` names, looked up once per name.
    fn card(&mut self, accelerator: &str) -> Option<&'static str> {
        if let Some(&id) = self.cards.get(accelerator) {
            return id;
        }
        let id = alias::card(accelerator);
        self.cards.insert(accelerator.to_string(), id);
        id
    }

    /// Counts a row on an accelerator the catalog lacks.
    fn unmapped(&mut self, list: &mut Vec<Unmapped>, name: &str) {
        match self.unmapped.get(name).and_then(|&i| list.get_mut(i)) {
            Some(u) => u.rows += 1,
            None => {
                self.unmapped.insert(name.to_string(), list.len());
                list.push(Unmapped { name: notes::printable(name), rows: 1 });
            }
        }
    }
}

/// `same` at the lower of its and `offer`'s prices.
fn lower(same: &mut Offer, offer: Offer) {
    let lower = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let od = lower(same.od.as_ref().map(|o| o.hourly), offer.od.as_ref().map(|o| o.hourly));
    if let (Some(slot), Some(x)) = (same.od.as_mut(), od) {
        slot.hourly = x;
    } else {
        same.od = offer.od;
    }
    let spot = lower(same.spot.as_ref().map(|s| s.hourly), offer.spot.as_ref().map(|s| s.hourly));
    same.spot = spot.map(|hourly| Spot { hourly, per_day: None });
}

/// The columns [`export`] writes: SkyPilot's, with the provider, currency
/// and date this reader also takes.
const EXPORT_HEADER: &str =
    "provider,InstanceType,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice,Currency,date";

/// `offers` as a sheet in SkyPilot's schema, which [`import`] reads back:
/// the on-demand and spot hourly prices only (the JSON export carries every
/// field). Also the number of offers left out, having neither price.
pub fn export(offers: &[Offer]) -> (String, usize) {
    let mut out = String::from(EXPORT_HEADER);
    let mut left_out = 0;
    for o in offers {
        let (od, spot) = (o.od.as_ref().map(|p| p.hourly), o.spot.as_ref().map(|p| p.hourly));
        if od.is_none() && spot.is_none() {
            left_out += 1;
            continue;
        }
        let instance = o.name.strip_prefix(&format!("{} ", o.provider)).unwrap_or(&o.name).to_string();
        let price = |p: Option<f64>| p.map(|x| x.to_string()).unwrap_or_default();
        let cells = [
            o.provider.to_string(),
            instance,
            o.gpu.to_string(),
            o.gpus.to_string(),
            o.region.to_string(),
            price(od),
            price(spot),
            o.currency.code().to_string(),
            o.date.to_string(),
        ];
        out.push('\n');
        out.push_str(&cells.iter().map(|c| quoted(c)).collect::<Vec<_>>().join(","));
    }
    out.push('\n');
    (out, left_out)
}

/// A CSV cell, quoted where it holds a comma, a quote or a line break.
fn quoted(cell: &str) -> Cow<'_, str> {
    if cell.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", cell.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(cell)
    }
}
