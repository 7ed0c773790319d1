//! The purchase options. Each prices the compute of one usage profile on one
//! offer, as a pure function, and says how many hours it pays for.

use serde::Serialize;

use super::inputs::{block_days_valid, CostInputs, Horizon};
use super::line::{Accrual, Draft, Fee, LineKind};
use super::usage::{rerun, Rerun, Usage, HOURS_PER_MONTH, HOURS_PER_YEAR};
use crate::derivation::why;
use crate::lang::Lang;
use crate::money::{num, Currency};
use crate::offers::{Block, Monthly, Offer, OnDemand, Reserved, SavingsPlan, Spot};
use crate::text::{self, Key};

/// A way to pay for an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    OnDemand,
    Spot,
    SavingsPlan,
    Reserved,
    Block,
    Monthly,
}

impl OptionKind {
    pub const ALL: [OptionKind; 6] = [
        OptionKind::OnDemand,
        OptionKind::Spot,
        OptionKind::SavingsPlan,
        OptionKind::Reserved,
        OptionKind::Block,
        OptionKind::Monthly,
    ];

    pub fn code(self) -> &'static str {
        match self {
            OptionKind::OnDemand => "od",
            OptionKind::Spot => "spot",
            OptionKind::SavingsPlan => "sp",
            OptionKind::Reserved => "ri",
            OptionKind::Block => "block",
            OptionKind::Monthly => "monthly",
        }
    }

    pub fn label(self, lang: Lang) -> &'static str {
        text::get(self.key(), lang)
    }

    /// The key of the option's name.
    pub(crate) fn key(self) -> Key {
        match self {
            OptionKind::OnDemand => Key::OptionOnDemand,
            OptionKind::Spot => Key::OptionSpot,
            OptionKind::SavingsPlan => Key::OptionSavingsPlan,
            OptionKind::Reserved => Key::OptionReserved,
            OptionKind::Block => Key::OptionBlock,
            OptionKind::Monthly => Key::OptionMonthly,
        }
    }

    /// The option's price per GPU-hour in the offer's currency, the market's
    /// common measure before a plan is priced: a reserved upfront spread over
    /// its term, a month as 730 h. None when the offer does not sell it.
    pub fn per_gpu_hour(self, offer: &Offer) -> Option<f64> {
        let hourly = match self {
            OptionKind::OnDemand => offer.od.as_ref()?.hourly,
            OptionKind::Spot => offer.spot.as_ref()?.hourly,
            OptionKind::SavingsPlan => offer.sp.as_ref()?.hourly,
            OptionKind::Reserved => {
                let ri = offer.ri.as_ref()?;
                ri.hourly + ri.upfront / (f64::from(ri.years.max(1)) * HOURS_PER_YEAR)
            }
            OptionKind::Block => offer.block.as_ref()?.hourly,
            OptionKind::Monthly => offer.monthly.as_ref()?.price / HOURS_PER_MONTH,
        };
        Some(hourly / f64::from(offer.gpus.max(1)))
    }

    /// Whether the offer sells this option.
    pub fn offered(self, offer: &Offer) -> bool {
        match self {
            OptionKind::OnDemand => offer.od.is_some(),
            OptionKind::Spot => offer.spot.is_some(),
            OptionKind::SavingsPlan => offer.sp.is_some(),
            OptionKind::Reserved => offer.ri.is_some(),
            OptionKind::Block => offer.block.is_some(),
            OptionKind::Monthly => offer.monthly.is_some(),
        }
    }
}

/// Why an offered option cannot carry the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Unavailable {
    /// Usage above a savings plan bills at on-demand, which the offer lacks.
    NeedsOnDemand,
    /// The run needs a longer window than capacity blocks allow (182 days).
    BlockTooLong { need_h: f64 },
    /// The chosen block is shorter than the run.
    BlockTooShort { days: u32, need_h: f64 },
    /// Interruptions come faster than checkpoints save work.
    SpotNeverFinishes,
}

impl Unavailable {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Unavailable::NeedsOnDemand => text::get(Key::UnavailableNeedsOnDemand, lang).into(),
            Unavailable::BlockTooLong { need_h } => {
                text::fill(Key::UnavailableBlockTooLong, lang, &[("hours", &num(*need_h))])
            }
            Unavailable::BlockTooShort { days, need_h } => {
                text::fill(Key::UnavailableBlockTooShort, lang, &[("days", days), ("hours", &num(*need_h))])
            }
            Unavailable::SpotNeverFinishes => text::get(Key::UnavailableSpotNeverFinishes, lang).into(),
        }
    }
}

/// The compute part of a bill.
#[derive(Clone, Debug, PartialEq)]
pub struct Compute {
    pub drafts: Vec<Draft>,
    /// The profile after the option's own changes (spot re-runs).
    pub usage: Usage,
    /// Hours paid per instance (billed time, the term, the window or whole months).
    pub paid_hours: f64,
    /// Egress included per month (GB).
    pub allowance_gb: f64,
}

/// Prices `kind` on `offer` for `usage`. `Ok(None)`: the offer does not sell it.
pub fn price(
    kind: OptionKind,
    offer: &Offer,
    usage: &Usage,
    inputs: &CostInputs,
) -> Result<Option<Compute>, Unavailable> {
    let cur = offer.currency;
    let od = offer.od.as_ref();
    Ok(Some(match kind {
        OptionKind::OnDemand => match od {
            Some(od) => on_demand(usage, od, cur),
            None => return Ok(None),
        },
        OptionKind::Spot => match &offer.spot {
            Some(spot) => spot_run(usage, spot, od, inputs, cur)?,
            None => return Ok(None),
        },
        OptionKind::SavingsPlan => match (&offer.sp, od) {
            (Some(sp), Some(od)) => savings_plan(usage, sp, od, inputs, cur),
            (Some(_), None) => return Err(Unavailable::NeedsOnDemand),
            (None, _) => return Ok(None),
        },
        OptionKind::Reserved => match &offer.ri {
            Some(ri) => reserved(usage, ri, inputs.prorate, cur),
            None => return Ok(None),
        },
        OptionKind::Block => match &offer.block {
            Some(block) => capacity_block(usage, block, inputs, cur)?,
            None => return Ok(None),
        },
        OptionKind::Monthly => match &offer.monthly {
            Some(m) => monthly(usage, m, od, inputs, cur),
            None => return Ok(None),
        },
    }))
}

/// Time over which usage fees accrue: the run, or the whole serving horizon.
fn run_span(u: &Usage) -> Accrual {
    // Not `clamp`, which panics when the horizon is below zero or NaN.
    let end = if u.spread { u.horizon_hours } else { u.run_hours.min(u.horizon_hours).max(0.0) };
    Accrual::Spread { from_h: 0.0, to_h: end }
}

/// "[2 starts × 90 s; step 1 s, min 60 s]"
fn billed_note(u: &Usage, step_s: u32, min_s: u32) -> String {
    let b = u.billed(step_s, min_s);
    let secs = num(b.per_start_s);
    let holes: [(&str, &dyn std::fmt::Display); 4] =
        [("starts", &u.starts), ("secs", &secs), ("step", &step_s), ("min", &min_s)];
    why!("{}", text::later(Key::CostBilledStarts, &holes))
}

/// On-demand: price × instances × billed hours, each start billed its
/// minimum; an offer whose stopped instances keep billing pays every hour held.
pub fn on_demand(u: &Usage, od: &OnDemand, cur: Currency) -> Compute {
    let b = u.billed(od.step_s, od.min_s);
    let inst = f64::from(u.instances);
    let (hours, note) = if od.keeps_billing && u.horizon_hours > b.hours {
        (u.horizon_hours, why!("{}", text::later(Key::CostHeldHorizon, &[])))
    } else {
        (b.hours, billed_note(u, od.step_s, od.min_s))
    };
    let formula = why!("{}/h × {} × {} h {note}", num(od.hourly), instances(u.instances), num(hours));
    let draft =
        Draft::new(LineKind::OnDemand, Fee::Usage, od.hourly * inst * hours, cur, formula, run_span(u));
    Compute { drafts: vec![draft], usage: *u, paid_hours: hours, allowance_gb: 0.0 }
}

/// Spot: the run grows by the expected re-run overhead; each interruption
/// opens a new billing period; billed like on-demand at the spot price.
pub fn spot_run(
    u: &Usage,
    spot: &Spot,
    od: Option<&OnDemand>,
    inputs: &CostInputs,
    cur: Currency,
) -> Result<Compute, Unavailable> {
    let per_day = spot.per_day.unwrap_or(inputs.spot_per_day);
    let r = rerun(u.run_hours, per_day, inputs).map_err(|_| Unavailable::SpotNeverFinishes)?;
    let extra_starts = (r.interruptions - 1.0e-9).ceil().clamp(0.0, 1.0e6) as u32;
    let mut usage = u.longer(r.extra_hours, inputs.horizon);
    usage.starts = usage.starts.saturating_add(extra_starts);
    let (step_s, min_s) = od.map_or((1, 60), |od| (od.step_s, od.min_s));
    let b = usage.billed(step_s, min_s);
    let formula = why!(
        "{}/h × {} × {} h {} {}",
        num(spot.hourly),
        instances(usage.instances),
        num(b.hours),
        rerun_note(u.run_hours, &r, inputs, per_day),
        billed_note(&usage, step_s, min_s)
    );
    let native = spot.hourly * f64::from(usage.instances) * b.hours;
    let draft = Draft::new(LineKind::Spot, Fee::Usage, native, cur, formula, run_span(&usage));
    Ok(Compute { drafts: vec![draft], usage, paid_hours: b.hours, allowance_gb: 0.0 })
}

/// "[run 10 h + re-run 0.5 h: 2 interruptions × (10 min ÷ 2 + 10 min) at 1/day]"
fn rerun_note(run_hours: f64, r: &Rerun, inputs: &CostInputs, per_day: f64) -> String {
    let (run, rerun, n) = (num(run_hours), num(r.extra_hours), num(r.interruptions));
    let (ckpt, restart, per_day) = (num(inputs.ckpt_min), num(inputs.restart_min), num(per_day));
    let holes: [(&str, &dyn std::fmt::Display); 6] = [
        ("run", &run),
        ("rerun", &rerun),
        ("n", &n),
        ("ckpt", &ckpt),
        ("restart", &restart),
        ("per_day", &per_day),
    ];
    why!("{}", text::later(Key::CostSpotRerun, &holes))
}

/// "3 inst", in the reader's language once it is known.
pub(super) fn instances(n: u32) -> String {
    text::later(Key::CostInst, &[("n", &n)])
}

/// Hours of 1-3 year terms billed: whole terms covering the horizon, or only
/// the horizon when prorated. Returns (hours, formula text).
fn term_hours(years: u32, horizon_h: f64, prorate: bool) -> (f64, String) {
    let term = f64::from(years) * HOURS_PER_YEAR;
    if prorate {
        let h = num(horizon_h);
        return (horizon_h, why!("{}", text::later(Key::CostTermShare, &[("h", &h), ("years", &years)])));
    }
    let terms = (horizon_h / term - 1.0e-9).ceil().max(1.0);
    let (h, n) = (num(terms * term), num(terms));
    (terms * term, why!("{}", text::later(Key::CostTerms, &[("h", &h), ("n", &n), ("years", &years)])))
}

/// Savings plan: the commitment is owed for every hour of the term; running
/// usage is covered up to it at the plan rate, the excess bills at on-demand.
pub fn savings_plan(
    u: &Usage,
    sp: &SavingsPlan,
    od: &OnDemand,
    inputs: &CostInputs,
    cur: Currency,
) -> Compute {
    let inst = f64::from(u.instances);
    let fleet = inst * sp.hourly;
    let commit = if inputs.sp_commit > 0.0 { inputs.sp_commit } else { fleet };
    let (hours, term_text) = term_hours(sp.years, u.horizon_hours, inputs.prorate);
    let total = commit * hours;
    let share = inputs.sp_upfront.share();
    let mut drafts = Vec::new();
    if share > 0.0 {
        let formula = why!("{} × {}/h × {term_text}", num(share), num(commit));
        drafts.push(Draft::new(
            LineKind::SpUpfront,
            Fee::Committed,
            total * share,
            cur,
            formula,
            Accrual::Upfront,
        ));
    }
    if share < 1.0 {
        let formula = why!("{} × {}/h × {term_text}", num(1.0 - share), num(commit));
        let accrual = Accrual::Spread { from_h: 0.0, to_h: hours };
        drafts.push(Draft::new(
            LineKind::SpCommit,
            Fee::Committed,
            total * (1.0 - share),
            cur,
            formula,
            accrual,
        ));
    }
    // Instance-equivalents not covered while running.
    let over = if sp.hourly > 0.0 { (fleet - commit).max(0.0) / sp.hourly } else { 0.0 };
    let b = u.billed(od.step_s, od.min_s);
    let formula = why!(
        "max(0, {} × {}/h − {}/h) ÷ {}/h = {} × {}/h × {} h",
        instances(u.instances),
        num(sp.hourly),
        num(commit),
        num(sp.hourly),
        text::later(Key::CostInst, &[("n", &num(over))]),
        num(od.hourly),
        num(b.hours)
    );
    drafts.push(Draft::new(
        LineKind::SpOver,
        Fee::Usage,
        over * od.hourly * b.hours,
        cur,
        formula,
        run_span(u),
    ));
    Compute { drafts, usage: *u, paid_hours: hours.max(b.hours), allowance_gb: 0.0 }
}

/// Reserved instances: upfront plus every hour of the term, per instance.
pub fn reserved(u: &Usage, ri: &Reserved, prorate: bool, cur: Currency) -> Compute {
    let inst = f64::from(u.instances);
    let (hours, term_text) = term_hours(ri.years, u.horizon_hours, prorate);
    let terms = hours / (f64::from(ri.years) * HOURS_PER_YEAR);
    let mut drafts = Vec::new();
    if ri.upfront > 0.0 {
        let terms_text = text::later(Key::CostTermsN, &[("n", &num(terms))]);
        let formula = why!("{} × {} × {terms_text}", num(ri.upfront), instances(u.instances));
        let native = ri.upfront * inst * terms;
        drafts.push(Draft::new(LineKind::RiUpfront, Fee::Committed, native, cur, formula, Accrual::Upfront));
    }
    let formula = why!("{}/h × {} × {term_text}", num(ri.hourly), instances(u.instances));
    let accrual = Accrual::Spread { from_h: 0.0, to_h: hours };
    drafts.push(Draft::new(
        LineKind::RiHourly,
        Fee::Committed,
        ri.hourly * inst * hours,
        cur,
        formula,
        accrual,
    ));
    Compute { drafts, usage: *u, paid_hours: hours, allowance_gb: 0.0 }
}

/// Smallest block length holding `need_h` hours, with instances ended 30 min
/// before the window closes.
fn shortest_block(need_h: f64) -> Option<u32> {
    let days = ((need_h + 0.5) / 24.0 - 1.0e-9).ceil().max(1.0);
    let days = if days <= 14.0 { days } else { (days / 7.0).ceil() * 7.0 };
    (days <= 182.0).then_some(days as u32).filter(|d| block_days_valid(*d))
}

/// Capacity block: whole days paid up front, used in part or in full.
pub fn capacity_block(
    u: &Usage,
    block: &Block,
    inputs: &CostInputs,
    cur: Currency,
) -> Result<Compute, Unavailable> {
    let need_h = match inputs.horizon {
        Horizon::Run => u.run_hours,
        Horizon::Serve => u.horizon_hours,
    };
    let days = match inputs.block_days {
        0 => shortest_block(need_h).ok_or(Unavailable::BlockTooLong { need_h })?,
        days => days,
    };
    let window_h = f64::from(days) * 24.0;
    if window_h - 0.5 < need_h - 1.0e-9 {
        return Err(Unavailable::BlockTooShort { days, need_h });
    }
    let formula = why!(
        "{}/h × 24 h × {days} d × {} {}",
        num(block.hourly),
        instances(u.instances),
        text::later(Key::CostBlockNeeds, &[("h", &num(need_h))])
    );
    let native = block.hourly * window_h * f64::from(u.instances);
    let draft = Draft::new(LineKind::Block, Fee::Committed, native, cur, formula, Accrual::Upfront);
    Ok(Compute { drafts: vec![draft], usage: *u, paid_hours: window_h, allowance_gb: 0.0 })
}

/// Months a monthly server is held: from the first start to the end of the
/// horizon (stopping it does not stop the bill), whole months, at least the minimum.
fn months_held(u: &Usage, m: &Monthly, inputs: &CostInputs) -> u32 {
    let months = match inputs.horizon {
        Horizon::Run => u.horizon_hours / HOURS_PER_MONTH,
        Horizon::Serve => inputs.months,
    };
    ((months - 1.0e-9).ceil().clamp(1.0, 1.0e6) as u32).max(m.min_months)
}

/// Monthly dedicated server: whole months per instance. Shows the break-even
/// hours a month against the offer's hourly price.
pub fn monthly(u: &Usage, m: &Monthly, od: Option<&OnDemand>, inputs: &CostInputs, cur: Currency) -> Compute {
    let months = months_held(u, m, inputs);
    let mut formula = why!(
        "{}{} × {} × {} {}",
        num(m.price),
        text::later(Key::CostPerMonth, &[]),
        instances(u.instances),
        text::later(Key::CostMonths, &[("n", &months)]),
        text::later(Key::CostWholeMonths, &[("min", &m.min_months)])
    );
    if let Some((od, hours)) = od.and_then(|od| break_even_hours(m.price, od.hourly).map(|h| (od, h))) {
        let (monthly, hourly, h) = (num(m.price), num(od.hourly), num(hours));
        let holes: [(&str, &dyn std::fmt::Display); 3] =
            [("monthly", &monthly), ("hourly", &hourly), ("h", &h)];
        formula.push_str(&why!(" {}", text::later(Key::CostBreakEven, &holes)));
    }
    let native = m.price * f64::from(u.instances) * f64::from(months);
    let draft =
        Draft::new(LineKind::Monthly, Fee::Committed, native, cur, formula, Accrual::Monthly { months });
    let paid_hours = f64::from(months) * HOURS_PER_MONTH;
    Compute { drafts: vec![draft], usage: *u, paid_hours, allowance_gb: m.egress_gb }
}

/// Break-even hours a month of a monthly price against an hourly one.
pub fn break_even_hours(monthly_price: f64, hourly: f64) -> Option<f64> {
    (hourly > 0.0).then(|| monthly_price / hourly).filter(|h| h.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_lengths_follow_the_steps() {
        assert_eq!(shortest_block(23.5), Some(1));
        assert_eq!(shortest_block(23.6), Some(2));
        assert_eq!(shortest_block(14.0 * 24.0 - 0.5), Some(14));
        assert_eq!(shortest_block(15.0 * 24.0), Some(21));
        assert_eq!(shortest_block(182.0 * 24.0), None);
    }

    #[test]
    fn per_gpu_hour_spreads_upfronts_and_months() {
        let offer = Offer {
            gpus: 8,
            od: Some(OnDemand { hourly: 55.04, ..OnDemand::default() }),
            ri: Some(Reserved { hourly: 8.0, upfront: 8760.0 * 3.0 * 8.0, years: 3 }),
            monthly: Some(Monthly { price: 730.0 * 16.0, ..Monthly::default() }),
            ..Offer::default()
        };
        assert_eq!(OptionKind::OnDemand.per_gpu_hour(&offer), Some(6.88));
        assert_eq!(OptionKind::Reserved.per_gpu_hour(&offer), Some(2.0));
        assert_eq!(OptionKind::Monthly.per_gpu_hour(&offer), Some(2.0));
        assert_eq!(OptionKind::Spot.per_gpu_hour(&offer), None);
    }

    #[test]
    fn break_even() {
        assert_eq!(break_even_hours(2200.0, 10.0), Some(220.0));
        assert_eq!(break_even_hours(2200.0, 0.0), None);
    }
}
