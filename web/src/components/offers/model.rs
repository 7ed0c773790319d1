//! The offer form as plain data: each field's text in and out of an
//! [`Offer`], what changed against the listed offer it edits, and new ids.
//! A price's empty text means the offer does not sell that way, and a side
//! price the source did not give reads as empty, never as 0.

use std::borrow::Cow;

use gpuplan_core::money::Currency;
use gpuplan_core::offers::{
    Band, Block, Monthly, Offer, OnDemand, Pricing, Reserved, SavingsPlan, Side, Spot, Tier,
};

use crate::components::inputs::parse;
use crate::i18n::{t, Lang, K};

/// How a field's text is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Real,
    Whole,
}

/// One field of the offer form.
#[derive(Clone, Copy)]
pub struct Field {
    pub label: K,
    /// Its path inside the offer, as the core's validation names it.
    pub path: &'static str,
    pub kind: Kind,
    pub unit: Option<K>,
    /// What an empty number means (a price not sold, a side price not
    /// known); None: it must be given.
    pub empty: Option<K>,
    /// Whether the field is shown: a price's details only once it is sold.
    pub applies: fn(&Offer) -> bool,
    pub get: fn(&Offer) -> String,
    /// Sets the field from a value already read as its kind reads it.
    pub set: fn(&mut Offer, Value),
}

/// A field's text, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    Number(Option<f64>),
}

impl Value {
    fn number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => *n,
            Value::Text(_) => None,
        }
    }

    fn text(self) -> Cow<'static, str> {
        match self {
            Value::Text(s) => s.into(),
            Value::Number(_) => Cow::Borrowed(""),
        }
    }

    fn whole(&self) -> Option<u32> {
        self.number().filter(|n| (0.0..=f64::from(u32::MAX)).contains(n)).map(|n| n as u32)
    }
}

impl Field {
    /// Reads `text` as this field's kind: the message key of a typo, if any.
    pub fn read(&self, text: &str) -> Result<Value, K> {
        let optional = self.empty.is_some();
        match self.kind {
            Kind::Text => Ok(Value::Text(text.trim().to_string())),
            Kind::Real => parse(text, false, optional).map(Value::Number),
            Kind::Whole => parse(text, true, optional).map(Value::Number),
        }
    }

    /// Sets the field from `text`, or says why it cannot.
    pub fn write(&self, offer: &mut Offer, text: &str) -> Result<(), K> {
        let value = self.read(text)?;
        (self.set)(offer, value);
        Ok(())
    }
}

fn always(_: &Offer) -> bool {
    true
}

fn num(v: f64) -> String {
    format!("{v}")
}

/// A side price as the form shows it: empty while the source did not give it.
fn side(o: &Offer, side: Side, v: f64) -> String {
    if o.unknown.contains(&side) {
        String::new()
    } else {
        num(v)
    }
}

/// A side price typed in is known from then on; emptied, it is unknown again.
fn set_side(o: &mut Offer, side: Side, v: Option<f64>, slot: fn(&mut Offer) -> &mut f64) {
    match v {
        Some(v) => {
            o.unknown.retain(|s| *s != side);
            *slot(o) = v;
        }
        None => {
            *slot(o) = 0.0;
            if !o.unknown.contains(&side) {
                o.unknown.push(side);
            }
        }
    }
}

const fn field(
    label: K,
    path: &'static str,
    kind: Kind,
    get: fn(&Offer) -> String,
    set: fn(&mut Offer, Value),
) -> Field {
    Field { label, path, kind, unit: None, empty: None, applies: always, get, set }
}

impl Field {
    const fn unit(self, unit: K) -> Field {
        Field { unit: Some(unit), ..self }
    }

    const fn empty(self, means: K) -> Field {
        Field { empty: Some(means), ..self }
    }

    const fn only_if(self, applies: fn(&Offer) -> bool) -> Field {
        Field { applies, ..self }
    }
}

/// Who sells it and what.
pub const ABOUT: &[Field] = &[
    field(K::Provider, "provider", Kind::Text, |o| o.provider.to_string(), |o, v| o.provider = v.text()),
    field(K::OfferName, "name", Kind::Text, |o| o.name.to_string(), |o, v| o.name = v.text()),
    field(K::Region, "region", Kind::Text, |o| o.region.to_string(), |o, v| o.region = v.text()),
    field(
        K::GpusPerInstance,
        "gpus",
        Kind::Whole,
        |o| o.gpus.to_string(),
        |o, v| o.gpus = v.whole().unwrap_or(o.gpus),
    ),
];

/// The ways to buy it, each with its details once it is sold.
pub const PRICES: &[Field] = &[
    field(
        K::OdHourly,
        "od.hourly",
        Kind::Real,
        |o| o.od.as_ref().map(|x| num(x.hourly)).unwrap_or_default(),
        |o, v| o.od = v.number().map(|hourly| OnDemand { hourly, ..o.od.clone().unwrap_or_default() }),
    )
    .unit(K::UnitPerInstanceHour)
    .empty(K::NotSold),
    field(
        K::OdStep,
        "od.step_s",
        Kind::Whole,
        |o| o.od.as_ref().map(|x| x.step_s.to_string()).unwrap_or_default(),
        |o, v| {
            if let (Some(od), Some(n)) = (o.od.as_mut(), v.whole()) {
                od.step_s = n;
            }
        },
    )
    .unit(K::UnitSeconds)
    .only_if(|o| o.od.is_some()),
    field(
        K::OdMin,
        "od.min_s",
        Kind::Whole,
        |o| o.od.as_ref().map(|x| x.min_s.to_string()).unwrap_or_default(),
        |o, v| {
            if let (Some(od), Some(n)) = (o.od.as_mut(), v.whole()) {
                od.min_s = n;
            }
        },
    )
    .unit(K::UnitSeconds)
    .only_if(|o| o.od.is_some()),
    field(
        K::SpotHourly,
        "spot.hourly",
        Kind::Real,
        |o| o.spot.as_ref().map(|x| num(x.hourly)).unwrap_or_default(),
        |o, v| o.spot = v.number().map(|hourly| Spot { hourly, ..o.spot.clone().unwrap_or_default() }),
    )
    .unit(K::UnitPerInstanceHour)
    .empty(K::NotSold),
    field(
        K::OfferSpotPerDay,
        "spot.per_day",
        Kind::Real,
        |o| o.spot.as_ref().and_then(|x| x.per_day).map(num).unwrap_or_default(),
        |o, v| {
            if let Some(spot) = o.spot.as_mut() {
                spot.per_day = v.number();
            }
        },
    )
    .only_if(|o| o.spot.is_some())
    .empty(K::PlanAssumption),
    field(
        K::SpHourly,
        "sp.hourly",
        Kind::Real,
        |o| o.sp.as_ref().map(|x| num(x.hourly)).unwrap_or_default(),
        |o, v| o.sp = v.number().map(|hourly| SavingsPlan { hourly, ..o.sp.clone().unwrap_or_default() }),
    )
    .unit(K::UnitPerInstanceHour)
    .empty(K::NotSold),
    field(
        K::TermYears,
        "sp.years",
        Kind::Whole,
        |o| o.sp.as_ref().map(|x| x.years.to_string()).unwrap_or_default(),
        |o, v| {
            if let (Some(sp), Some(n)) = (o.sp.as_mut(), v.whole()) {
                sp.years = n;
            }
        },
    )
    .only_if(|o| o.sp.is_some()),
    field(
        K::RiHourly,
        "ri.hourly",
        Kind::Real,
        |o| o.ri.as_ref().map(|x| num(x.hourly)).unwrap_or_default(),
        |o, v| o.ri = v.number().map(|hourly| Reserved { hourly, ..o.ri.clone().unwrap_or_default() }),
    )
    .unit(K::UnitPerInstanceHour)
    .empty(K::NotSold),
    field(
        K::RiUpfront,
        "ri.upfront",
        Kind::Real,
        |o| o.ri.as_ref().map(|x| num(x.upfront)).unwrap_or_default(),
        |o, v| {
            if let (Some(ri), Some(n)) = (o.ri.as_mut(), v.number()) {
                ri.upfront = n;
            }
        },
    )
    .only_if(|o| o.ri.is_some()),
    field(
        K::TermYears,
        "ri.years",
        Kind::Whole,
        |o| o.ri.as_ref().map(|x| x.years.to_string()).unwrap_or_default(),
        |o, v| {
            if let (Some(ri), Some(n)) = (o.ri.as_mut(), v.whole()) {
                ri.years = n;
            }
        },
    )
    .only_if(|o| o.ri.is_some()),
    field(
        K::BlockHourly,
        "block.hourly",
        Kind::Real,
        |o| o.block.as_ref().map(|x| num(x.hourly)).unwrap_or_default(),
        |o, v| o.block = v.number().map(|hourly| Block { hourly }),
    )
    .unit(K::UnitPerInstanceHour)
    .empty(K::NotSold),
    field(
        K::MonthlyPrice,
        "monthly.price",
        Kind::Real,
        |o| o.monthly.as_ref().map(|x| num(x.price)).unwrap_or_default(),
        |o, v| o.monthly = v.number().map(|price| Monthly { price, ..o.monthly.clone().unwrap_or_default() }),
    )
    .unit(K::UnitPerInstanceMonth)
    .empty(K::NotSold),
    field(
        K::MonthlyEgress,
        "monthly.egress_gb",
        Kind::Real,
        |o| o.monthly.as_ref().map(|x| num(x.egress_gb)).unwrap_or_default(),
        |o, v| {
            if let (Some(m), Some(n)) = (o.monthly.as_mut(), v.number()) {
                m.egress_gb = n;
            }
        },
    )
    .unit(K::UnitGb)
    .only_if(|o| o.monthly.is_some()),
    field(
        K::MonthlyMin,
        "monthly.min_months",
        Kind::Whole,
        |o| o.monthly.as_ref().map(|x| x.min_months.to_string()).unwrap_or_default(),
        |o, v| {
            if let (Some(m), Some(n)) = (o.monthly.as_mut(), v.whole()) {
                m.min_months = n;
            }
        },
    )
    .unit(K::UnitMonths)
    .only_if(|o| o.monthly.is_some()),
];

/// Disk and IP, billed beside the GPUs.
pub const SIDES: &[Field] = &[
    field(
        K::StoragePrice,
        "storage_gb_month",
        Kind::Real,
        |o| side(o, Side::Storage, o.storage_gb_month),
        |o, v| set_side(o, Side::Storage, v.number(), |o| &mut o.storage_gb_month),
    )
    .unit(K::UnitPerGbMonth)
    .empty(K::NotInCatalog),
    field(
        K::IpPrice,
        "ip_hour",
        Kind::Real,
        |o| side(o, Side::Ip, o.ip_hour),
        |o, v| set_side(o, Side::Ip, v.number(), |o| &mut o.ip_hour),
    )
    .unit(K::UnitPerIpHour)
    .empty(K::NotInCatalog),
];

/// Where the prices come from.
pub const SOURCE: &[Field] = &[
    field(K::AsOf, "date", Kind::Text, |o| o.date.to_string(), |o, v| o.date = v.text()),
    field(K::PriceNotes, "note", Kind::Text, |o| o.note.to_string(), |o, v| o.note = v.text()),
];

/// Every text field, in the form's order.
pub fn fields() -> impl Iterator<Item = &'static Field> {
    [ABOUT, PRICES, SIDES, SOURCE].into_iter().flatten()
}

/// Egress tiers and bandwidth ports: both a list of (bound, price) rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiers {
    Egress,
    Bandwidth,
}

impl Tiers {
    pub fn path(self) -> &'static str {
        match self {
            Tiers::Egress => "egress",
            Tiers::Bandwidth => "bandwidth",
        }
    }

    /// The rows' bound and price field names, as the core's validation names them.
    pub fn names(self) -> [&'static str; 2] {
        match self {
            Tiers::Egress => ["upto_gb", "per_gb"],
            Tiers::Bandwidth => ["upto_mbps", "per_mbps_month"],
        }
    }

    pub fn rows(self, o: &Offer) -> Vec<(Option<f64>, f64)> {
        match self {
            Tiers::Egress => o.egress.iter().map(|t| (t.upto_gb, t.per_gb)).collect(),
            Tiers::Bandwidth => o.bandwidth.iter().map(|b| (b.upto_mbps, b.per_mbps_month)).collect(),
        }
    }

    fn put(self, o: &mut Offer, rows: Vec<(Option<f64>, f64)>) {
        match self {
            Tiers::Egress => {
                o.unknown.retain(|s| *s != Side::Egress);
                o.egress = rows.into_iter().map(|(upto_gb, per_gb)| Tier { upto_gb, per_gb }).collect();
            }
            Tiers::Bandwidth => {
                o.bandwidth = rows
                    .into_iter()
                    .map(|(upto_mbps, per_mbps_month)| Band { upto_mbps, per_mbps_month })
                    .collect();
            }
        }
    }

    /// Adds a row above the last bound: an open-ended one after a bounded
    /// last row, else one that keeps the open row last.
    pub fn add(self, o: &mut Offer) {
        let mut rows = self.rows(o);
        match rows.last().copied() {
            Some((None, price)) => {
                let below = rows.iter().rev().nth(1).and_then(|r| r.0).unwrap_or(0.0);
                let at = rows.len() - 1;
                rows.insert(at, (Some(below * 2.0 + 100.0), price));
            }
            _ => rows.push((None, 0.0)),
        }
        self.put(o, rows);
    }

    pub fn remove(self, o: &mut Offer, row: usize) {
        let mut rows = self.rows(o);
        if row < rows.len() {
            rows.remove(row);
        }
        self.put(o, rows);
    }

    /// Sets one row's bound (empty text: no upper bound) or price.
    pub fn write(self, o: &mut Offer, row: usize, bound: bool, text: &str) -> Result<(), K> {
        let value = parse(text, false, bound)?;
        let mut rows = self.rows(o);
        let Some(slot) = rows.get_mut(row) else { return Ok(()) };
        match (bound, value) {
            (true, v) => slot.0 = v,
            (false, Some(v)) => slot.1 = v,
            (false, None) => return Err(K::NotNumber),
        }
        self.put(o, rows);
        Ok(())
    }
}

/// The choice lists of the form, as the core spells them.
pub const PRICINGS: &[(Pricing, &str, K)] = &[
    (Pricing::List, "list", K::PricingList),
    (Pricing::Marketplace, "marketplace", K::Marketplace),
    (Pricing::Auction, "auction", K::Auction),
];

/// A field whose value differs between the listed offer and the user's copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub label: K,
    pub before: String,
    pub after: String,
}

/// A catalog GPU by its name, an id the catalog does not hold as written.
fn gpu_name(id: &str) -> String {
    gpuplan_core::hardware::find(id).map_or_else(|| id.to_string(), |g| g.name.to_string())
}

/// How an offer's prices are set, in the reader's words.
fn pricing_name(p: Pricing, lang: Lang) -> String {
    PRICINGS.iter().find(|(q, ..)| *q == p).map(|(.., k)| t(lang, *k).to_string()).unwrap_or_default()
}

/// Whether stopped instances keep billing, in the reader's words ("" without on-demand).
fn keeps_billing(o: &Offer, lang: Lang) -> String {
    o.od.as_ref()
        .map(|x| t(lang, if x.keeps_billing { K::Yes } else { K::No }).to_string())
        .unwrap_or_default()
}

/// What the user changed in a listed offer, field by field, in `lang`.
pub fn changes(listed: &Offer, own: &Offer, lang: Lang) -> Vec<Change> {
    let mut out: Vec<Change> = fields()
        .filter_map(|f| {
            let (before, after) = ((f.get)(listed), (f.get)(own));
            (before != after).then_some(Change { label: f.label, before, after })
        })
        .collect();
    let pairs: [(K, String, String); 5] = [
        (K::Gpu, gpu_name(&listed.gpu), gpu_name(&own.gpu)),
        (K::Currency, listed.currency.code().to_string(), own.currency.code().to_string()),
        (K::PricingKind, pricing_name(listed.pricing, lang), pricing_name(own.pricing, lang)),
        (K::Egress, tiers_text(Tiers::Egress.rows(listed)), tiers_text(Tiers::Egress.rows(own))),
        (K::Bandwidth, tiers_text(Tiers::Bandwidth.rows(listed)), tiers_text(Tiers::Bandwidth.rows(own))),
    ];
    let keeps = (K::KeepsBilling, keeps_billing(listed, lang), keeps_billing(own, lang));
    out.extend(
        pairs.into_iter().chain([keeps]).filter(|(_, a, b)| a != b).map(|(label, before, after)| Change {
            label,
            before,
            after,
        }),
    );
    out
}

/// Tiers in a line: "≤ 100: 0 · ≤ 10240: 0.09 · 0.05".
fn tiers_text(rows: Vec<(Option<f64>, f64)>) -> String {
    let row = |(bound, price): (Option<f64>, f64)| match bound {
        Some(b) => format!("≤ {b}: {price}"),
        None => num(price),
    };
    rows.into_iter().map(row).collect::<Vec<_>>().join(" · ")
}

/// The first "own-N" id no offer has.
pub fn fresh_id(taken: &[Offer]) -> String {
    (1..).map(|n| format!("own-{n}")).find(|id| taken.iter().all(|o| o.id != id.as_str())).unwrap_or_default()
}

/// A new offer for the plan's GPU: no price yet, so it is not ranked until
/// one is typed; the side prices are unknown until typed.
pub fn blank(taken: &[Offer], gpu: &str, name: String, date: String) -> Offer {
    Offer {
        id: fresh_id(taken).into(),
        name: name.into(),
        gpu: gpu.to_string().into(),
        source: Cow::Borrowed("user"),
        date: date.into(),
        unknown: vec![Side::Storage, Side::Ip, Side::Egress],
        ..Offer::default()
    }
}

/// A copy of `offer` under a new id, its name marked as the copy.
pub fn duplicate(taken: &[Offer], offer: &Offer, mark: &str) -> Offer {
    Offer { id: fresh_id(taken).into(), name: format!("{} {mark}", offer.name).into(), ..offer.clone() }
}

/// A currency by the code the selects write ("USD", "CNY").
pub fn currency(code: &str) -> Currency {
    if code == Currency::Cny.code() {
        Currency::Cny
    } else {
        Currency::Usd
    }
}

/// An offer's heading: its provider and name.
pub fn title(o: &Offer) -> String {
    match o.provider.trim() {
        "" => o.name.to_string(),
        provider => format!("{provider} · {}", o.name),
    }
}
