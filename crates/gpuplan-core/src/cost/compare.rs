//! Every option of every offer side by side: the cheapest that meets the
//! plan, why each other one loses, cost over time and break-even points.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::sync::Arc;

use serde::Serialize;

use super::bill::{build, Bill, BuildError};
use super::inputs::{CostInputs, Fx, Horizon, PriceKey};
use super::line::{Accrual, Category, Line};
use super::options::{OptionKind, Unavailable};
use super::shared::{Interner, Texts};
use super::usage::{Demand, Need, Usage};
use crate::error::{FieldError, Problem};
use crate::lang::Lang;
use crate::money::{num, Currency, Money};
use crate::offers::{Block, Monthly, Offer, OnDemand, Pricing, Reserved, SavingsPlan, Side, Spot};
use crate::text::{self, Key};

/// Intervals in each cost-over-time series.
const SERIES_STEPS: u32 = 48;

/// Options, first in rank, whose bill lines carry their derivation text
/// when there are more: the rest carry the amounts alone.
pub const DETAILED_OPTIONS: usize = 200;

/// Options, first in rank, that get a cost-over-time series and break-even
/// points: the chart draws a few, and curves for a whole market's options
/// would cost more than pricing them.
pub const SERIES_OPTIONS: usize = 12;

/// One point of a cumulative cost curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    pub hours: f64,
    /// Paid by then, in the bill's currency.
    pub cost: f64,
}

/// Why an option is not the answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Loss {
    /// It meets the plan but costs more; `main` is where most of the gap is.
    Dearer { by: Money, pct: f64, main: Category, paid_hours: f64, used_hours: f64 },
    /// The run takes longer than the deadline.
    Deadline { hours: f64, deadline_h: f64 },
}

impl Loss {
    pub fn text(&self, lang: Lang, currency: Currency) -> String {
        match self {
            Loss::Dearer { by, pct, main, paid_hours, used_hours } => {
                let idle = *paid_hours > used_hours * 1.01 + 0.01;
                let (by, pct, main, cur) = (by.text(), num(pct.round()), main.label(lang), currency.code());
                let (paid, used) = (num(paid_hours.round()), num(used_hours.round()));
                let key = if idle { Key::LossDearerIdle } else { Key::LossDearer };
                let holes: [(&str, &dyn Display); 6] = [
                    ("by", &by),
                    ("cur", &cur),
                    ("pct", &pct),
                    ("main", &main),
                    ("paid", &paid),
                    ("used", &used),
                ];
                text::fill(key, lang, &holes)
            }
            Loss::Deadline { hours, deadline_h } => text::fill(
                Key::LossDeadline,
                lang,
                &[("hours", &num(*hours)), ("deadline", &num(*deadline_h))],
            ),
        }
    }
}

/// One purchase option of one offer, fully priced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionCost {
    /// "offer-id/option", unique in the report.
    pub id: String,
    /// Offer name and option, in English ([`OptionCost::label`] for other languages).
    pub name: String,
    pub offer: Arc<str>,
    pub offer_name: Arc<str>,
    pub kind: OptionKind,
    pub provider: Arc<str>,
    pub region: Arc<str>,
    /// Regions a collapsed catalog row covers ([`crate::offers::region_text`]).
    pub regions: u32,
    pub gpu: Arc<str>,
    pub gpus_per_instance: u32,
    pub instances: u32,
    pub total: Money,
    /// The option's list price per GPU-hour, in the bill's currency
    /// ([`OptionKind::per_gpu_hour`]).
    pub per_gpu_hour: Option<f64>,
    pub compute: Money,
    pub storage: Money,
    pub ip: Money,
    pub network: Money,
    pub other: Money,
    pub committed: Money,
    /// The bill's currency.
    pub currency: Currency,
    /// The currency the offer's prices are in.
    pub offer_currency: Currency,
    pub run_hours: f64,
    pub horizon_hours: f64,
    pub paid_hours: f64,
    pub meets: bool,
    /// 1 = the answer.
    pub rank: usize,
    pub loss: Option<Loss>,
    pub lines: Vec<Line>,
    pub series: Vec<Point>,
    pub source: Arc<str>,
    pub date: Arc<str>,
    pub host: bool,
    /// List, marketplace or auction price (the offer's).
    pub pricing: Pricing,
    /// Parts of the bill the plan uses but the offer's source has no price
    /// for: the total leaves them out (they read 0 in their columns).
    pub unpriced: Vec<Category>,
}

impl OptionCost {
    /// Offer name and option in `lang`.
    pub fn label(&self, lang: Lang) -> String {
        format!("{} · {}", self.offer_name, self.kind.label(lang))
    }

    /// What a reader must know about this option's prices: a marketplace or
    /// auction price, and the parts of the bill the catalog has no price for.
    pub fn price_notes(&self, lang: Lang) -> Vec<String> {
        let mut notes = Vec::new();
        match self.pricing {
            Pricing::List => {}
            Pricing::Marketplace => notes.push(text::get(Key::PricingMarketplace, lang).to_string()),
            Pricing::Auction => notes.push(text::get(Key::PricingAuction, lang).to_string()),
        }
        if !self.unpriced.is_empty() {
            let sep = lang.pick("、", ", ");
            let parts: Vec<&str> = self.unpriced.iter().map(|c| c.label(lang)).collect();
            notes.push(text::fill(Key::Unpriced, lang, &[("parts", &parts.join(sep))]));
        }
        notes
    }

    pub fn part(&self, cat: Category) -> Money {
        match cat {
            Category::Compute => self.compute,
            Category::Storage => self.storage,
            Category::Ip => self.ip,
            Category::Network => self.network,
            Category::Other => self.other,
        }
    }

    /// Paid by hour `t` (bill currency units); the contingency in step with the rest.
    pub fn paid_by(&self, t: f64) -> f64 {
        let proportional = |l: &&Line| l.accrual == Accrual::Proportional;
        let base_total: f64 = self.lines.iter().filter(|l| !proportional(l)).map(|l| l.amount.units()).sum();
        let base_paid: f64 = self
            .lines
            .iter()
            .filter(|l| !proportional(l))
            .map(|l| l.amount.units() * l.accrual.share(t))
            .sum();
        let ratio = if base_total > 0.0 { base_paid / base_total } else { 1.0 };
        let rest: f64 = self.lines.iter().filter(proportional).map(|l| l.amount.units() * ratio).sum();
        base_paid + rest
    }
}

/// An offer or option left out, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Skip {
    /// The plan has no fit or speed figures for this offer's GPU.
    NoFigures {
        gpu: String,
    },
    /// The plan does not fit in this GPU's memory at any count the fit allows.
    DoesNotFit {
        gpu: String,
    },
    Unavailable(Unavailable),
    /// An amount beyond the money limit (absurd prices or counts).
    TooLarge(FieldError),
}

impl Skip {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Skip::NoFigures { gpu } => text::fill(Key::SkipNoFigures, lang, &[("gpu", gpu)]),
            Skip::DoesNotFit { gpu } => text::fill(Key::SkipDoesNotFit, lang, &[("gpu", gpu)]),
            Skip::Unavailable(u) => u.text(lang),
            Skip::TooLarge(e) => e.message(lang),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    /// Offer id, or "offer-id/option".
    pub id: String,
    pub name: String,
    pub skip: Skip,
}

/// Where two cost curves cross: before `hours` one is cheaper, after it the other.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakEven {
    pub cheaper_before: String,
    pub cheaper_after: String,
    /// Approximate (linear between the series points).
    pub hours: f64,
}

/// Every option, ranked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostReport {
    pub currency: Currency,
    /// Id of the cheapest option that meets the plan.
    pub best: Option<String>,
    /// Meeting options by total, then the rest.
    pub options: Vec<OptionCost>,
    pub skipped: Vec<Skipped>,
    /// Crossings of each option's curve with the best one's.
    pub break_even: Vec<BreakEven>,
    /// Where the best option is a marketplace or auction price: the
    /// cheapest option at a list price that meets the plan.
    pub best_list: Option<String>,
    /// The exchange rate the bill converts at, and its day.
    pub fx: Fx,
}

impl CostReport {
    /// "cheapest at a list price: …", where the best option is a
    /// marketplace or auction price.
    pub fn best_list_text(&self, lang: Lang) -> Option<String> {
        let id = self.best_list.as_ref()?;
        let o = self.options.iter().find(|o| &o.id == id)?;
        let (name, total, cur) = (o.label(lang), o.total.text(), self.currency.code());
        Some(text::fill(Key::BestList, lang, &[("name", &name), ("total", &total), ("cur", &cur)]))
    }
}

/// Prices every option of every offer for the demand, its formulas in
/// `lang`. `offers` are the defaults (or a vendor's sheet); the inputs' own
/// offers and edits apply on top.
pub fn compare(
    inputs: &CostInputs,
    demand: &Demand,
    offers: &[Offer],
    lang: Lang,
) -> Result<CostReport, Vec<FieldError>> {
    let mut errs = Vec::new();
    inputs.validate(&mut errs);
    demand.validate(&mut errs);
    // The inputs' own offers and edit values are checked by `inputs.validate`.
    for (i, offer) in offers.iter().enumerate() {
        offer.validate(&format!("offers[{i}]"), &mut errs);
    }
    let offers = effective_offers(inputs, offers, &mut errs);
    if !errs.is_empty() {
        return Err(errs);
    }
    let price_all = || {
        let (mut options, mut skipped) = (Vec::new(), Vec::new());
        let mut seen = Interner::default();
        for offer in offers.iter() {
            price_offer(offer, inputs, demand, &mut seen, &mut options, &mut skipped);
        }
        (options, skipped)
    };
    // A big sheet is priced without derivation text, then the options near
    // the top get theirs: formatting every formula was most of its time.
    let detailed = offers.offers.len() * OptionKind::ALL.len() <= DETAILED_OPTIONS;
    let (mut options, mut skipped) = if detailed { price_all() } else { crate::derivation::quiet(price_all) };
    rank(&mut options, inputs);
    if !detailed {
        explain(&mut options, &offers, inputs, demand);
    }
    add_series(&mut options);
    written(&mut options, &mut skipped, lang);
    let break_even = break_evens(&options);
    let first = options.first().filter(|o| o.meets);
    let best = first.map(|o| o.id.clone());
    let best_list = first
        .filter(|o| !o.pricing.is_list())
        .and_then(|_| options.iter().find(|o| o.meets && o.pricing.is_list()))
        .map(|o| o.id.clone());
    Ok(CostReport {
        currency: inputs.currency,
        best,
        options,
        skipped,
        break_even,
        best_list,
        fx: inputs.fx(),
    })
}

/// Every line's formula and every skipped option's name written in `lang`.
fn written(options: &mut [OptionCost], skipped: &mut [Skipped], lang: Lang) {
    for line in options.iter_mut().flat_map(|o| o.lines.iter_mut()) {
        line.derivation = text::written(&line.derivation, lang);
    }
    for s in skipped {
        s.name = text::written(&s.name, lang);
    }
}

/// The offers priced: the given ones and the user's own (same id
/// replaces), borrowed, as a sheet may hold many thousands; and copies of
/// those the user's price edits change.
struct Effective<'a> {
    offers: Vec<&'a Offer>,
    /// Edited copies, with their place in `offers` (a user edits a few).
    edited: Vec<(usize, Offer)>,
}

impl Effective<'_> {
    fn iter(&self) -> impl Iterator<Item = &Offer> {
        self.offers.iter().enumerate().map(|(i, &o)| self.edited(i).unwrap_or(o))
    }

    fn edited(&self, at: usize) -> Option<&Offer> {
        self.edited.iter().find(|(i, _)| *i == at).map(|(_, o)| o)
    }
}

/// The offers after the user's additions and price edits, each id found
/// through an index.
fn effective_offers<'a>(
    inputs: &'a CostInputs,
    base: &'a [Offer],
    errs: &mut Vec<FieldError>,
) -> Effective<'a> {
    let mut offers: Vec<&Offer> = base.iter().collect();
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, o) in base.iter().enumerate() {
        at.entry(o.id.as_ref()).or_insert(i);
    }
    for own in &inputs.offers {
        match at.get(own.id.as_ref()).and_then(|&i| offers.get_mut(i)) {
            Some(slot) => *slot = own,
            None => {
                at.insert(own.id.as_ref(), offers.len());
                offers.push(own);
            }
        }
    }
    let edited = edited(inputs, &offers, &at, errs);
    Effective { offers, edited }
}

/// Copies of the offers the user's price edits change, with their places.
fn edited(
    inputs: &CostInputs,
    offers: &[&Offer],
    at: &BTreeMap<&str, usize>,
    errs: &mut Vec<FieldError>,
) -> Vec<(usize, Offer)> {
    let mut edited: Vec<(usize, Offer)> = Vec::new();
    for (n, edit) in inputs.edits.iter().enumerate() {
        match at.get(edit.id.as_str()).and_then(|&i| Some((i, *offers.get(i)?))) {
            Some((i, offer)) => {
                if !edited.iter().any(|(at, _)| *at == i) {
                    edited.push((i, offer.clone()));
                }
                if let Some((_, copy)) = edited.iter_mut().find(|(at, _)| *at == i) {
                    apply_edit(copy, edit.key, edit.value);
                }
            }
            None => errs.push(FieldError::new(
                format!("cost.edits[{n}].id"),
                Problem::Unknown { id: edit.id.clone() },
            )),
        }
    }
    edited
}

/// Sets one price; an option the offer lacks is created with default terms.
fn apply_edit(offer: &mut Offer, key: PriceKey, value: f64) {
    match key {
        PriceKey::Od => offer.od.get_or_insert_with(OnDemand::default).hourly = value,
        PriceKey::Spot => offer.spot.get_or_insert_with(Spot::default).hourly = value,
        PriceKey::Sp => offer.sp.get_or_insert_with(SavingsPlan::default).hourly = value,
        PriceKey::Ri => offer.ri.get_or_insert_with(Reserved::default).hourly = value,
        PriceKey::RiUpfront => offer.ri.get_or_insert_with(Reserved::default).upfront = value,
        PriceKey::Block => offer.block.get_or_insert_with(Block::default).hourly = value,
        PriceKey::Monthly => offer.monthly.get_or_insert_with(Monthly::default).price = value,
        PriceKey::Storage => {
            offer.storage_gb_month = value;
            offer.unknown.retain(|s| *s != Side::Storage);
        }
        PriceKey::Ip => {
            offer.ip_hour = value;
            offer.unknown.retain(|s| *s != Side::Ip);
        }
    }
}

/// The first [`DETAILED_OPTIONS`] options' lines again, with their derivation text.
fn explain(options: &mut [OptionCost], offers: &Effective<'_>, inputs: &CostInputs, demand: &Demand) {
    let mut by_id: BTreeMap<&str, &Offer> = BTreeMap::new();
    for offer in offers.iter() {
        by_id.entry(offer.id.as_ref()).or_insert(offer);
    }
    for option in options.iter_mut().take(DETAILED_OPTIONS) {
        let Some(offer) = by_id.get(&*option.offer) else { continue };
        let Some(need) = need_for(demand, &offer.gpu) else { continue };
        let usage = Usage::new(inputs, need, offer.gpus);
        // Two offers may share an id: a bill is the option's only if its total is.
        if let Ok(Some(bill)) = build(option.kind, offer, &usage, inputs, demand) {
            if bill.total == option.total {
                option.lines = bill.lines;
            }
        }
    }
}

/// What the plan needs on `gpu`; "custom" names the plan's own card.
fn need_for<'a>(demand: &'a Demand, gpu: &str) -> Option<&'a Need> {
    demand.needs.iter().find(|n| n.gpu == gpu || (gpu == "custom" && n.custom))
}

/// Prices each option of `offer` into `options`, or says in `skipped` why not.
fn price_offer<'a>(
    offer: &'a Offer,
    inputs: &CostInputs,
    demand: &Demand,
    seen: &mut Interner<'a>,
    options: &mut Vec<OptionCost>,
    skipped: &mut Vec<Skipped>,
) {
    // "custom" names the plan's own card, whatever its id.
    let gpu = offer.gpu.as_ref();
    let Some(need) = need_for(demand, gpu) else {
        let skip = if demand.unfit.iter().any(|g| g == gpu) {
            Skip::DoesNotFit { gpu: gpu.to_string() }
        } else {
            Skip::NoFigures { gpu: gpu.to_string() }
        };
        skipped.push(Skipped { id: offer.id.to_string(), name: offer.name.to_string(), skip });
        return;
    };
    let usage = Usage::new(inputs, need, offer.gpus);
    let texts = Texts::new(offer, seen);
    for kind in OptionKind::ALL {
        let id = format!("{}/{}", offer.id, kind.code());
        let name = format!("{} · {}", offer.name, kind.label(Lang::En));
        match build(kind, offer, &usage, inputs, demand) {
            Ok(Some(bill)) => options.push(option_cost(id, name, kind, offer, &texts, bill, inputs)),
            Ok(None) => {}
            Err(failed) => {
                // Named in the reader's language once the bill is written.
                let name = format!("{} · {}", offer.name, text::later(kind.key(), &[]));
                let skip = match failed {
                    BuildError::Unavailable(u) => Skip::Unavailable(u),
                    BuildError::TooLarge(e) => Skip::TooLarge(e),
                };
                skipped.push(Skipped { id, name, skip });
            }
        }
    }
}

fn option_cost(
    id: String,
    name: String,
    kind: OptionKind,
    offer: &Offer,
    texts: &Texts,
    bill: Bill,
    inputs: &CostInputs,
) -> OptionCost {
    let meets = inputs.horizon != Horizon::Run
        || inputs.deadline_h <= 0.0
        || bill.usage.run_hours <= inputs.deadline_h + 1.0e-9;
    OptionCost {
        id,
        name,
        offer: texts.offer.clone(),
        offer_name: texts.offer_name.clone(),
        kind,
        provider: texts.provider.clone(),
        region: texts.region.clone(),
        regions: offer.regions,
        gpu: texts.gpu.clone(),
        gpus_per_instance: offer.gpus,
        instances: bill.usage.instances,
        total: bill.total,
        per_gpu_hour: kind
            .per_gpu_hour(offer)
            .map(|x| x * offer.currency.factor(inputs.currency, inputs.cny_per_usd)),
        compute: bill.compute,
        storage: bill.storage,
        ip: bill.ip,
        network: bill.network,
        other: bill.other,
        committed: bill.committed,
        currency: inputs.currency,
        offer_currency: offer.currency,
        run_hours: bill.usage.run_hours,
        horizon_hours: bill.end_hours(),
        paid_hours: bill.paid_hours,
        meets,
        rank: 0,
        loss: None,
        series: Vec::new(),
        source: texts.source.clone(),
        date: texts.date.clone(),
        host: offer.host,
        pricing: offer.pricing,
        unpriced: unpriced(offer, inputs),
        lines: bill.lines,
    }
}

/// The bill's parts the plan uses and the offer has no price for.
fn unpriced(offer: &Offer, inputs: &CostInputs) -> Vec<Category> {
    let used = |side: &Side| match side {
        Side::Storage => inputs.storage_gb > 0.0,
        Side::Ip => inputs.ips > 0,
        Side::Egress => inputs.egress_auto || inputs.egress_gb > 0.0,
    };
    let mut parts: Vec<Category> = offer
        .unknown
        .iter()
        .filter(|s| used(s))
        .map(|s| match s {
            Side::Storage => Category::Storage,
            Side::Ip => Category::Ip,
            Side::Egress => Category::Network,
        })
        .collect();
    parts.dedup();
    parts
}

/// Meeting options by total (then id), then the rest; each loser gets its reason.
fn rank(options: &mut [OptionCost], inputs: &CostInputs) {
    sort_by_rank(options);
    let best = options.first().filter(|o| o.meets).cloned();
    for (i, option) in options.iter_mut().enumerate() {
        option.rank = i + 1;
        option.loss = if !option.meets {
            Some(Loss::Deadline { hours: option.run_hours, deadline_h: inputs.deadline_h })
        } else {
            best.as_ref().filter(|b| b.id != option.id).map(|b| dearer(option, b))
        };
    }
}

/// Meeting options by total, then id. The sort moves small keys, not the
/// options: a whole market's options are large to move about, and are
/// then put in that order in place, each swapped at most once, without a
/// second list of them.
fn sort_by_rank(options: &mut [OptionCost]) {
    let mut order: Vec<usize> = (0..options.len()).collect();
    let key = |i: usize| options.get(i).map(|o| (!o.meets, o.total, o.id.as_str()));
    order.sort_by(|&a, &b| key(a).cmp(&key(b)));
    permute(options, &mut order);
}

/// Puts `items` in `order` (`order[i]` names the item that goes to `i`),
/// following each cycle of the permutation; `order` is used up.
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        while let Some(&from) = order.get(at).filter(|&&from| from != start && from < items.len()) {
            items.swap(at, from);
            if let Some(done) = order.get_mut(at) {
                *done = at;
            }
            at = from;
        }
        if let Some(done) = order.get_mut(at) {
            *done = at;
        }
    }
}

fn dearer(option: &OptionCost, best: &OptionCost) -> Loss {
    let main = Category::ALL
        .into_iter()
        .max_by_key(|cat| option.part(*cat).minus(best.part(*cat)).cents())
        .unwrap_or(Category::Compute);
    let by = option.total.minus(best.total);
    let pct = if best.total.cents() > 0 { by.units() / best.total.units() * 100.0 } else { 0.0 };
    Loss::Dearer { by, pct, main, paid_hours: option.paid_hours, used_hours: option.run_hours }
}

/// Cumulative cost of the first [`SERIES_OPTIONS`] options on one shared
/// axis: evenly spaced hours plus every hour where some curve bends or
/// jumps. A jump (an upfront or a monthly payment) appears as two points at
/// the same hour, before and after, so the curves are exactly linear
/// between consecutive points.
fn add_series(options: &mut [OptionCost]) {
    let end = options.iter().map(|o| o.horizon_hours).fold(0.0, f64::max);
    let mut hours: Vec<f64> =
        (0..=SERIES_STEPS).map(|i| end * f64::from(i) / f64::from(SERIES_STEPS)).collect();
    for option in options.iter().take(SERIES_OPTIONS) {
        hours.extend(option.lines.iter().flat_map(|l| l.accrual.knots()));
    }
    hours.retain(|h| h.is_finite() && (0.0..=end).contains(h));
    hours.sort_unstable_by(f64::total_cmp);
    hours.dedup_by(|a, b| (*a - *b).abs() < 1.0e-6);
    for option in options.iter_mut().take(SERIES_OPTIONS) {
        let mut series = Vec::with_capacity(hours.len() + 8);
        for &t in &hours {
            let before = cents_rounded(option.paid_by(t - 1.0e-6));
            let at = if t >= end { option.total.units() } else { cents_rounded(option.paid_by(t)) };
            if (at - before).abs() >= 0.005 {
                series.push(Point { hours: t, cost: before });
            }
            series.push(Point { hours: t, cost: at });
        }
        option.series = series;
    }
}

fn cents_rounded(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Hours where each option's curve crosses the best one's, from the
/// series (exact where the curves are linear between points).
fn break_evens(options: &[OptionCost]) -> Vec<BreakEven> {
    let Some(best) = options.first().filter(|o| o.meets) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for other in options.iter().take(SERIES_OPTIONS).skip(1) {
        let mut last: Option<(f64, f64)> = None;
        for (t, diff) in differences(other, best) {
            if diff.abs() < 0.005 {
                continue;
            }
            if let Some((t0, d0)) = last.filter(|(_, d0)| d0.signum() != diff.signum()) {
                let hours = t0 + (t - t0) * d0 / (d0 - diff);
                let (before, after) = if diff > 0.0 { (other, best) } else { (best, other) };
                out.push(BreakEven {
                    cheaper_before: before.id.clone(),
                    cheaper_after: after.id.clone(),
                    hours: (hours * 10.0).round() / 10.0,
                });
            }
            last = Some((t, diff));
        }
    }
    out
}

/// (hour, a − b) at every point of both series, jumps included.
fn differences(a: &OptionCost, b: &OptionCost) -> Vec<(f64, f64)> {
    let mut hours: Vec<f64> = a.series.iter().chain(&b.series).map(|p| p.hours).collect();
    hours.sort_unstable_by(f64::total_cmp);
    hours.dedup();
    let mut out = Vec::with_capacity(hours.len() * 2);
    for t in hours {
        out.push((t, a.paid_by(t - 1.0e-6) - b.paid_by(t - 1.0e-6)));
        out.push((t, a.paid_by(t) - b.paid_by(t)));
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// Putting items in a sorted order in place gives the sorted list.
        #[test]
        fn permute_puts_items_in_order(items in prop::collection::vec(0u16..50, 0..40)) {
            let mut order: Vec<usize> = (0..items.len()).collect();
            order.sort_by_key(|&i| items.get(i).copied());
            let mut permuted = items.clone();
            super::permute(&mut permuted, &mut order);
            let mut sorted = items;
            sorted.sort_unstable();
            prop_assert_eq!(permuted, sorted);
        }
    }
}
