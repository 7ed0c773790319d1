//! The whole bill of one purchase option on one offer:
//! TOTAL = compute + storage + IP + network + other, each line with its derivation.

use serde::Serialize;

use super::egress::{estimate, mbps_for, port, tiered};
use super::inputs::{CostInputs, Horizon};
use super::line::{Accrual, Category, Draft, Fee, Line, LineKind};
use super::options::{instances, price, Compute, OptionKind, Unavailable};
use super::usage::{Demand, Usage, HOURS_PER_MONTH};
use crate::derivation::why;
use crate::error::FieldError;
use crate::money::{num, Money};
use crate::offers::Offer;
use crate::text::{self, Key};

/// One option's bill, in the bill's currency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bill {
    pub lines: Vec<Line>,
    pub compute: Money,
    pub storage: Money,
    pub ip: Money,
    pub network: Money,
    pub other: Money,
    pub total: Money,
    /// The part owed whatever the usage (commitments, blocks, months).
    pub committed: Money,
    /// The profile priced (after spot re-runs).
    pub usage: Usage,
    /// Hours paid per instance.
    pub paid_hours: f64,
}

impl Bill {
    /// Hour by which every line is paid.
    pub fn end_hours(&self) -> f64 {
        self.lines.iter().map(|l| l.accrual.end()).fold(self.usage.horizon_hours, f64::max)
    }
}

/// Why a bill could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    Unavailable(Unavailable),
    /// An amount beyond [`crate::money::MAX_UNITS`].
    TooLarge(FieldError),
}

impl From<Unavailable> for BuildError {
    fn from(u: Unavailable) -> Self {
        BuildError::Unavailable(u)
    }
}

impl From<FieldError> for BuildError {
    fn from(e: FieldError) -> Self {
        BuildError::TooLarge(e)
    }
}

/// The bill of `kind` on `offer` for `usage`; `Ok(None)` when the offer does not sell it.
pub fn build(
    kind: OptionKind,
    offer: &Offer,
    usage: &Usage,
    inputs: &CostInputs,
    demand: &Demand,
) -> Result<Option<Bill>, BuildError> {
    let path = format!("offers.{}.{}", offer.id, kind.code());
    let finish = |d: Draft| d.finish(inputs.currency, inputs.cny_per_usd, &path);
    let Some(compute) = price(kind, offer, usage, inputs)? else {
        return Ok(None);
    };
    let mut lines =
        timed_drafts(&compute, offer, inputs).into_iter().map(finish).collect::<Result<Vec<_>, _>>()?;
    if let Some(buffer) = buffer(kind, offer, usage, inputs, sum(&lines))? {
        lines.push(finish(buffer)?);
    }
    lines.push(finish(network(&compute, offer, inputs, demand))?);
    for draft in items(&compute.usage, inputs) {
        lines.push(finish(draft)?);
    }
    let pct = inputs.contingency_pct;
    if pct > 0.0 {
        let base = sum(&lines);
        let formula = why!("{}% × {}", num(pct), base.text());
        let amount = base.units() * pct / 100.0;
        let draft = Draft::new(
            LineKind::Contingency,
            Fee::Usage,
            amount,
            inputs.currency,
            formula,
            Accrual::Proportional,
        );
        lines.push(finish(draft)?);
    }
    Ok(Some(totals(lines, compute.usage, compute.paid_hours, &path)?))
}

fn sum(lines: &[Line]) -> Money {
    lines.iter().fold(Money::ZERO, |acc, l| acc.plus(l.amount))
}

/// Adds the lines up by category; refuses totals beyond the money limit.
/// The lines keep no spare room: a whole market's bills are kept.
fn totals(mut lines: Vec<Line>, usage: Usage, paid_hours: f64, path: &str) -> Result<Bill, FieldError> {
    lines.shrink_to_fit();
    let part = |cat: Category| {
        lines.iter().filter(|l| l.category == cat).fold(Money::ZERO, |acc, l| acc.plus(l.amount))
    };
    let total = sum(&lines);
    if Money::round(total.units()).is_none() {
        let max = crate::money::MAX_UNITS;
        return Err(FieldError::new(path, crate::error::Problem::OutOfRange { min: 0.0, max }));
    }
    let committed =
        lines.iter().filter(|l| l.fee == Fee::Committed).fold(Money::ZERO, |acc, l| acc.plus(l.amount));
    Ok(Bill {
        compute: part(Category::Compute),
        storage: part(Category::Storage),
        ip: part(Category::Ip),
        network: part(Category::Network),
        other: part(Category::Other),
        total,
        committed,
        lines,
        usage,
        paid_hours,
    })
}

/// The lines that grow with time: compute, storage and IPs.
fn timed_drafts(compute: &Compute, offer: &Offer, inputs: &CostInputs) -> Vec<Draft> {
    let u = &compute.usage;
    let inst = f64::from(u.instances);
    let span = Accrual::Spread { from_h: 0.0, to_h: u.horizon_hours };
    let cur = offer.currency;
    let storage = Draft::new(
        LineKind::Storage,
        Fee::Usage,
        offer.storage_gb_month * inputs.storage_gb * inst * u.horizon_hours / HOURS_PER_MONTH,
        cur,
        why!(
            "{}{} × {} GB × {} × {} h ÷ 730 h",
            num(offer.storage_gb_month),
            text::later(Key::CostPerGbMonth, &[]),
            num(inputs.storage_gb),
            instances(u.instances),
            num(u.horizon_hours)
        ),
        span,
    );
    let ips = f64::from(inputs.ips);
    let ip = Draft::new(
        LineKind::Ip,
        Fee::Usage,
        offer.ip_hour * ips * inst * u.horizon_hours,
        cur,
        why!(
            "{}/IP-h × {} IP × {} × {} h",
            num(offer.ip_hour),
            inputs.ips,
            instances(u.instances),
            num(u.horizon_hours)
        ),
        span,
    );
    let mut drafts = compute.drafts.clone();
    drafts.push(storage);
    drafts.push(ip);
    drafts
}

/// Debugging buffer (runs only): the bill of a run `debug_pct` longer minus
/// the bill of the run, so that fixed-price options pay only what the extra
/// time really costs them.
fn buffer(
    kind: OptionKind,
    offer: &Offer,
    usage: &Usage,
    inputs: &CostInputs,
    base: Money,
) -> Result<Option<Draft>, BuildError> {
    if inputs.horizon != Horizon::Run || inputs.debug_pct <= 0.0 || usage.run_hours <= 0.0 {
        return Ok(None);
    }
    let extra = usage.run_hours * inputs.debug_pct / 100.0;
    let longer = usage.longer(extra, Horizon::Run);
    let Some(compute) = price(kind, offer, &longer, inputs)? else {
        return Ok(None);
    };
    let path = format!("offers.{}.{}", offer.id, kind.code());
    let mut buffered = Money::ZERO;
    for draft in timed_drafts(&compute, offer, inputs) {
        buffered = buffered.plus(draft.finish(inputs.currency, inputs.cny_per_usd, &path)?.amount);
    }
    let (run, pct, longer_h) = (num(usage.run_hours), num(inputs.debug_pct), num(longer.run_hours));
    let (buffered_text, base_text) = (buffered.text(), base.text());
    let holes: [(&str, &dyn std::fmt::Display); 5] = [
        ("run", &run),
        ("pct", &pct),
        ("longer", &longer_h),
        ("buffered", &buffered_text),
        ("base", &base_text),
    ];
    let formula = why!("{}", text::later(Key::CostBuffer, &holes));
    let run_end = compute.usage.run_hours;
    let accrual = Accrual::Spread { from_h: run_end - extra, to_h: run_end };
    let amount = buffered.minus(base).units();
    Ok(Some(Draft::new(LineKind::Buffer, Fee::Usage, amount, inputs.currency, formula, accrual)))
}

/// Network: the plan's traffic per month, billed the way the offer sells it:
/// metered egress through its tiers, a fixed-bandwidth port sized for the
/// traffic, or, when the offer sells both, the cheaper of the two.
fn network(compute: &Compute, offer: &Offer, inputs: &CostInputs, demand: &Demand) -> Draft {
    let traffic = traffic(compute, inputs, demand);
    let metered = metered(&traffic, compute, offer);
    let accrual = Accrual::Spread { from_h: 0.0, to_h: compute.usage.horizon_hours };
    let draft = |(kind, per_month, formula): (LineKind, f64, String)| {
        Draft::new(kind, Fee::Usage, per_month * traffic.months, offer.currency, formula, accrual)
    };
    match (offer.bandwidth.is_empty(), offer.egress.is_empty()) {
        (true, _) => draft(metered),
        (false, true) => draft(fixed(&traffic, offer, None)),
        (false, false) => {
            let port = fixed(&traffic, offer, Some(metered.1));
            if port.1 < metered.1 {
                draft(port)
            } else {
                let (kind, cost, text) = metered;
                draft((
                    kind,
                    cost,
                    why!("{text} {}", text::later(Key::CostCheaperThanPort, &[("price", &num(port.1))])),
                ))
            }
        }
    }
}

/// GB sent a month, over how many months, and how it was found.
struct Traffic {
    per_month: f64,
    months: f64,
    hours_per_day: f64,
    text: String,
}

/// Serving takes GB a month (estimated from QPS × response size when asked
/// and a QPS is given); a run's total is spread over the months it spans.
fn traffic(compute: &Compute, inputs: &CostInputs, demand: &Demand) -> Traffic {
    let hours_per_day = inputs.hours_per_day;
    match inputs.horizon {
        Horizon::Serve if inputs.egress_auto && demand.qps > 0.0 => {
            let (gb, text) = estimate(demand.qps, demand.response_kb, hours_per_day);
            Traffic { per_month: gb, months: inputs.months, hours_per_day, text: why!("{text}; ") }
        }
        Horizon::Serve => {
            Traffic { per_month: inputs.egress_gb, months: inputs.months, hours_per_day, text: String::new() }
        }
        Horizon::Run => {
            let months = (compute.usage.horizon_hours / HOURS_PER_MONTH - 1.0e-9).ceil().max(1.0);
            let per_month = inputs.egress_gb / months;
            Traffic { per_month, months, hours_per_day: 24.0, text: String::new() }
        }
    }
}

/// Metered egress: the month's GB less the allowance, through the offer's tiers.
fn metered(t: &Traffic, compute: &Compute, offer: &Offer) -> (LineKind, f64, String) {
    let allowance = compute.allowance_gb * f64::from(compute.usage.instances);
    let billable = (t.per_month - allowance).max(0.0);
    let (per_month_cost, tiers_text) = tiered(billable, &offer.egress);
    let (gb, allow) = (num(t.per_month), num(allowance));
    let mut formula = why!("{}{}", t.text, text::later(Key::CostIncluded, &[("gb", &gb), ("allow", &allow)]));
    formula.push_str(&why!("{tiers_text} = {}", per_month_for(per_month_cost, t.months)));
    if offer.egress.is_empty() && billable > 0.0 {
        formula.push_str(&why!(" {}", text::later(Key::CostNoEgressPrice, &[])));
    }
    (LineKind::Egress, per_month_cost, formula)
}

/// "120/month × 12 months", in the reader's language once it is known.
fn per_month_for(per_month: f64, months: f64) -> String {
    let month = text::later(Key::CostPerMonth, &[]);
    format!("{}{month} × {}", num(per_month), text::later(Key::CostMonths, &[("n", &num(months))]))
}

/// A fixed port of whole Mbps carrying the month's traffic on average, one
/// port for the fleet; `metered` is the metered price it was weighed against.
fn fixed(t: &Traffic, offer: &Offer, metered: Option<f64>) -> (LineKind, f64, String) {
    let (mbps, mbps_text) = mbps_for(t.per_month, t.hours_per_day);
    let whole = mbps.ceil();
    let (per_month_cost, bands_text) = port(whole, &offer.bandwidth);
    let mut formula = why!(
        "{}{mbps_text}, {}: {bands_text} = {}",
        t.text,
        text::later(Key::CostPort, &[("mbps", &num(whole))]),
        per_month_for(per_month_cost, t.months)
    );
    if let Some(m) = metered {
        formula.push_str(&why!(" {}", text::later(Key::CostCheaperThanMetered, &[("price", &num(m))])));
    }
    (LineKind::Port, per_month_cost, formula)
}

/// The user's own lines: once, or every month of the horizon.
fn items(u: &Usage, inputs: &CostInputs) -> Vec<Draft> {
    let months = u.horizon_hours / HOURS_PER_MONTH;
    inputs
        .items
        .iter()
        .map(|item| {
            let (native, formula, accrual) = if item.monthly {
                let accrual = Accrual::Spread { from_h: 0.0, to_h: u.horizon_hours };
                let month = text::later(Key::CostPerMonth, &[]);
                let formula = why!("{}{month} × {} h ÷ 730 h", num(item.amount), num(u.horizon_hours));
                (item.amount * months, formula, accrual)
            } else {
                (item.amount, num(item.amount), Accrual::Upfront)
            };
            let mut draft = Draft::new(LineKind::Item, Fee::Usage, native, item.currency, formula, accrual);
            draft.name = item.name.clone();
            draft
        })
        .collect()
}
