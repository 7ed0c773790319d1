//! Hand-computed bills, to the cent, through the public API.

use proptest::prelude::*;

use super::*;
use crate::error::FieldError;
use crate::lang::Lang;
use crate::money::{Currency, Money};
use crate::offers::{self, Block, Monthly, Offer, OnDemand, SavingsPlan, Tier};

/// Inputs with every side cost and buffer off, so one part can be checked alone.
fn bare(horizon: Horizon) -> CostInputs {
    CostInputs {
        horizon,
        storage_gb: 0.0,
        ips: 0,
        egress_auto: false,
        debug_pct: 0.0,
        contingency_pct: 0.0,
        ..CostInputs::default()
    }
}

fn demand(gpu: &str, gpus: u32, run_hours: f64) -> Demand {
    Demand { needs: vec![Need { gpu: gpu.into(), gpus, run_hours, custom: false }], ..Demand::default() }
}

/// The bill with its formulas in English.
fn compare_en(inputs: &CostInputs, demand: &Demand, offers: &[Offer]) -> Result<CostReport, Vec<FieldError>> {
    compare(inputs, demand, offers, Lang::En)
}

fn default_offer(id: &str) -> Offer {
    offers::defaults().into_iter().find(|o| o.id == id).unwrap_or_default()
}

fn bill(kind: OptionKind, offer: &Offer, inputs: &CostInputs, demand: &Demand) -> Bill {
    let need = demand.needs.first().cloned().unwrap_or_default();
    let usage = Usage::new(inputs, &need, offer.gpus);
    match build(kind, offer, &usage, inputs, demand) {
        Ok(Some(bill)) => bill,
        other => panic!("no bill: {other:?}"),
    }
}

fn cents(m: Money) -> i64 {
    m.cents()
}

#[test]
fn sixty_second_minimum_per_start() {
    let p5 = default_offer("aws-p5");
    // Ten starts of 30 s each: each start bills its 60 s minimum → 600 s.
    let inputs = CostInputs { starts: 10, ..bare(Horizon::Run) };
    let b = bill(OptionKind::OnDemand, &p5, &inputs, &demand("h100-sxm", 8, 300.0 / 3600.0));
    // 55.04 × 600 / 3600 = 9.17333…
    assert_eq!(cents(b.compute), 917);
    // The same 300 s in one start: 55.04 × 300 / 3600 = 4.58667.
    let one = CostInputs { starts: 1, ..bare(Horizon::Run) };
    let b1 = bill(OptionKind::OnDemand, &p5, &one, &demand("h100-sxm", 8, 300.0 / 3600.0));
    assert_eq!(cents(b1.compute), 459);
    // Billed hourly instead: ten starts of 30 s are ten hours.
    let mut hourly = p5.clone();
    hourly.od = Some(OnDemand { hourly: 55.04, step_s: 3600, min_s: 3600, keeps_billing: false });
    let bh = bill(OptionKind::OnDemand, &hourly, &inputs, &demand("h100-sxm", 8, 300.0 / 3600.0));
    assert_eq!(cents(bh.compute), 55_040);
    // The formula's words are the English build's.
    #[cfg(not(feature = "zh"))]
    let line = b.lines.first().map(|l| crate::text::written(&l.derivation, Lang::En)).unwrap_or_default();
    #[cfg(not(feature = "zh"))]
    assert!(line.contains("10 × 60 s per start") && line.ends_with("= 9.17 USD"), "{line}");
}

#[test]
fn stopped_week_still_pays_disk_and_ip() {
    let g5 = default_offer("aws-g5");
    let inputs = CostInputs { storage_gb: 500.0, ips: 1, stopped_days: 7.0, ..bare(Horizon::Run) };
    let b = bill(OptionKind::OnDemand, &g5, &inputs, &demand("a10g", 1, 10.0));
    // 10 h running + 168 h stopped = 178 h.
    assert_eq!(b.usage.horizon_hours, 178.0);
    assert_eq!(cents(b.compute), 1006); // 1.006 × 10
    assert_eq!(cents(b.storage), 975); // 0.08 × 500 × 178 / 730 = 9.7534
    assert_eq!(cents(b.ip), 89); // 0.005 × 178
    assert_eq!(cents(b.total), 2070);
    // Without the stopped week the disk and IP cost only the 10 running hours.
    let running = CostInputs { stopped_days: 0.0, ..inputs };
    let r = bill(OptionKind::OnDemand, &g5, &running, &demand("a10g", 1, 10.0));
    assert_eq!((cents(r.storage), cents(r.ip)), (55, 5)); // 0.5479, 0.05
}

#[test]
fn tiered_egress_across_a_boundary() {
    let g5 = default_offer("aws-g5");
    let inputs = CostInputs { months: 1.0, egress_gb: 12_000.0, ..bare(Horizon::Serve) };
    let b = bill(OptionKind::OnDemand, &g5, &inputs, &demand("a10g", 1, 0.0));
    // 100 GB free + 10,140 × 0.09 + 1,760 × 0.085 = 912.60 + 149.60.
    assert_eq!(cents(b.network), 106_220);
    let small = CostInputs { egress_gb: 150.0, ..inputs.clone() };
    assert_eq!(cents(bill(OptionKind::OnDemand, &g5, &small, &demand("a10g", 1, 0.0)).network), 450);
    // Three months: the free 100 GB comes back each month.
    let three = CostInputs { months: 3.0, egress_gb: 150.0, ..inputs };
    assert_eq!(cents(bill(OptionKind::OnDemand, &g5, &three, &demand("a10g", 1, 0.0)).network), 1350);
}

#[test]
fn egress_estimated_from_requests() {
    let g5 = default_offer("aws-g5");
    let inputs = CostInputs { months: 1.0, egress_auto: true, ..bare(Horizon::Serve) };
    let d = Demand { qps: 10.0, response_kb: 300.0, ..demand("a10g", 1, 0.0) };
    // 7,884 GB a month: (7,884 − 100) × 0.09 = 700.56.
    assert_eq!(cents(bill(OptionKind::OnDemand, &g5, &inputs, &d).network), 70_056);
}

fn sp_offer() -> Offer {
    Offer {
        id: "sp-test".into(),
        gpu: "l4".into(),
        od: Some(OnDemand { hourly: 10.0, step_s: 1, min_s: 60, keeps_billing: false }),
        sp: Some(SavingsPlan { hourly: 6.0, years: 1 }),
        ..Offer::default()
    }
}

#[test]
fn savings_plan_under_and_over_the_commitment() {
    // Two instances always on for a year (8,760 h): plan-rate spend 12/h.
    let d = demand("l4", 2, 0.0);
    let under = CostInputs { sp_commit: 15.0, ..bare(Horizon::Serve) };
    let b = bill(OptionKind::SavingsPlan, &sp_offer(), &under, &d);
    // Commitment 15 × 8,760 = 131,400 owed in full; nothing above it.
    assert_eq!(cents(b.compute), 13_140_000);
    assert_eq!(cents(b.committed), 13_140_000);
    let over = CostInputs { sp_commit: 9.0, ..under.clone() };
    let b = bill(OptionKind::SavingsPlan, &sp_offer(), &over, &d);
    // 9 × 8,760 = 78,840 committed; (12 − 9) / 6 = 0.5 instance at 10/h × 8,760 h = 43,800.
    assert_eq!(cents(b.committed), 7_884_000);
    assert_eq!(cents(b.compute), 7_884_000 + 4_380_000);
    // Partial upfront splits the commitment in halves without changing the total.
    let partial = CostInputs { sp_upfront: Upfront::Partial, ..over };
    let b = bill(OptionKind::SavingsPlan, &sp_offer(), &partial, &d);
    let kinds: Vec<(LineKind, i64)> = b
        .lines
        .iter()
        .filter(|l| l.category == Category::Compute)
        .map(|l| (l.kind, cents(l.amount)))
        .collect();
    assert_eq!(
        kinds,
        [(LineKind::SpUpfront, 3_942_000), (LineKind::SpCommit, 3_942_000), (LineKind::SpOver, 4_380_000)]
    );
    // A one-month horizon still owes the year unless prorated.
    let month = CostInputs { months: 1.0, ..under.clone() };
    assert_eq!(cents(bill(OptionKind::SavingsPlan, &sp_offer(), &month, &d).compute), 13_140_000);
    let prorated = CostInputs { prorate: true, ..month };
    assert_eq!(cents(bill(OptionKind::SavingsPlan, &sp_offer(), &prorated, &d).compute), 1_095_000);
}

#[test]
fn capacity_block_partly_used() {
    let p5 = default_offer("aws-p5");
    let inputs = bare(Horizon::Run);
    // 30 h needs 2 days (instances end 30 min early): 34.61 × 48 = 1,661.28, 18 h unused.
    let b = bill(OptionKind::Block, &p5, &inputs, &demand("h100-sxm", 8, 30.0));
    assert_eq!(cents(b.compute), 166_128);
    assert_eq!(b.paid_hours, 48.0);
    // 23.5 h still fits one day; 23.6 h does not.
    assert_eq!(cents(bill(OptionKind::Block, &p5, &inputs, &demand("h100-sxm", 8, 23.5)).compute), 83_064);
    assert_eq!(cents(bill(OptionKind::Block, &p5, &inputs, &demand("h100-sxm", 8, 23.6)).compute), 166_128);
    // A chosen 7-day block is paid in full for the same 30 h.
    let week = CostInputs { block_days: 7, ..inputs };
    assert_eq!(cents(bill(OptionKind::Block, &p5, &week, &demand("h100-sxm", 8, 30.0)).compute), 581_448);
}

#[test]
fn monthly_against_hourly_on_both_sides_of_break_even() {
    let gpu = default_offer("cn-rtx4090");
    let inputs = CostInputs { currency: Currency::Cny, ..bare(Horizon::Run) };
    // Break-even 2,200 ÷ 10 = 220 h a month.
    let at = |hours: f64, kind| cents(bill(kind, &gpu, &inputs, &demand("rtx-4090", 1, hours)).total);
    assert_eq!(at(200.0, OptionKind::OnDemand), 200_000);
    assert_eq!(at(200.0, OptionKind::Monthly), 220_000);
    assert_eq!(at(300.0, OptionKind::OnDemand), 300_000);
    assert_eq!(at(300.0, OptionKind::Monthly), 220_000);
    // 800 h spans two months.
    assert_eq!(at(800.0, OptionKind::Monthly), 440_000);
    let b = bill(OptionKind::Monthly, &gpu, &inputs, &demand("rtx-4090", 1, 200.0));
    #[cfg(not(feature = "zh"))]
    let formula = b.lines.first().map(|l| crate::text::written(&l.derivation, Lang::En)).unwrap_or_default();
    #[cfg(not(feature = "zh"))]
    assert!(formula.contains("break-even 2200 ÷ 10/h = 220 h a month"), "{formula}");
    // In USD at 7.0197 CNY per USD, the offer's own currency stays on the line.
    let usd = CostInputs { currency: Currency::Usd, ..inputs };
    let b = bill(OptionKind::OnDemand, &gpu, &usd, &demand("rtx-4090", 1, 200.0));
    assert_eq!(cents(b.compute), 28_491); // 2,000 / 7.0197 = 284.912
    let line = b.lines.first().map(|l| (l.native_currency, cents(l.native))).unwrap_or_default();
    assert_eq!(line, (Currency::Cny, 200_000));
}

#[test]
#[cfg(not(feature = "zh"))]
fn ranks_and_finds_break_even() {
    let gpu = default_offer("cn-rtx4090");
    let inputs = CostInputs { currency: Currency::Cny, ..bare(Horizon::Run) };
    let below = compare_en(&inputs, &demand("rtx-4090", 1, 200.0), std::slice::from_ref(&gpu));
    let below = below.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(below.best.as_deref(), Some("cn-rtx4090/od"));
    let loser = below.options.get(1).and_then(|o| o.loss.clone());
    let text = loser.map(|l| l.text(crate::lang::Lang::En, Currency::Cny)).unwrap_or_default();
    assert_eq!(text, "costs 200.00 CNY more (+10%), mostly compute: pays 730 h per instance, uses 200 h");
    let above =
        compare_en(&inputs, &demand("rtx-4090", 1, 300.0), &[gpu]).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(above.best.as_deref(), Some("cn-rtx4090/monthly"));
    // Monthly is paid at hour 0; on-demand catches up at 2,200 / 10 = 220 h.
    let be = above.break_even.first().cloned();
    assert_eq!(be.map(|b| (b.cheaper_before, b.hours)), Some(("cn-rtx4090/od".into(), 220.0)));
    let series = above.options.first().map(|o| o.series.clone()).unwrap_or_default();
    // The upfront month shows as a jump at hour 0.
    let start: Vec<(f64, f64)> = series.iter().take(2).map(|p| (p.hours, p.cost)).collect();
    assert_eq!(start, [(0.0, 0.0), (0.0, 2200.0)]);
    assert_eq!(series.last().map(|p| (p.hours, p.cost)), Some((300.0, 2200.0)));
}

#[test]
fn spot_misses_a_tight_deadline() {
    let p5 = default_offer("aws-p5");
    let inputs = CostInputs { deadline_h: 101.0, ..bare(Horizon::Run) };
    let report =
        compare_en(&inputs, &demand("h100-sxm", 8, 100.0), &[p5]).unwrap_or_else(|e| panic!("{e:?}"));
    // One interruption a day loses 5 + 10 min: 100 / (1 − 0.25/24) = 101.05 h.
    let spot = report.options.iter().find(|o| o.kind == OptionKind::Spot);
    assert_eq!(spot.map(|o| o.meets), Some(false));
    assert!(matches!(spot.and_then(|o| o.loss.clone()), Some(Loss::Deadline { .. })));
    // The 3-year RI pays 26,280 h for a 100 h run; the block is cheapest here.
    assert_eq!(report.best.as_deref(), Some("aws-p5/block"));
}

#[test]
fn buffer_and_contingency_are_their_own_lines() {
    let g5 = default_offer("aws-g5");
    let inputs = CostInputs { debug_pct: 40.0, contingency_pct: 20.0, ..bare(Horizon::Run) };
    let b = bill(OptionKind::OnDemand, &g5, &inputs, &demand("a10g", 1, 100.0));
    // Compute 100.60; the buffer is 40 h more: 140.84 − 100.60 = 40.24; contingency 20 % of 140.84.
    let amounts: Vec<(LineKind, i64)> = b.lines.iter().map(|l| (l.kind, cents(l.amount))).collect();
    assert_eq!(
        amounts,
        [
            (LineKind::OnDemand, 10_060),
            (LineKind::Storage, 0),
            (LineKind::Ip, 0),
            (LineKind::Buffer, 4_024),
            (LineKind::Egress, 0),
            (LineKind::Contingency, 2_817),
        ]
    );
    assert_eq!(cents(b.other), 4_024 + 2_817);
    assert_eq!(cents(b.total), 10_060 + 4_024 + 2_817);
    // The buffer is free inside a capacity block that already holds the longer run.
    let p5 = default_offer("aws-p5");
    let b = bill(OptionKind::Block, &p5, &inputs, &demand("h100-sxm", 8, 10.0));
    let buffer = b.lines.iter().find(|l| l.kind == LineKind::Buffer).map(|l| cents(l.amount));
    assert_eq!(buffer, Some(0));
}

#[test]
fn edits_and_own_offers_apply() {
    let inputs = CostInputs {
        edits: vec![Edit { id: "aws-g5".into(), key: PriceKey::Od, value: 2.0 }],
        offers: vec![Offer {
            id: "mine".into(),
            gpu: "a10g".into(),
            monthly: Some(Monthly { price: 100.0, ..Monthly::default() }),
            ..Offer::default()
        }],
        ..bare(Horizon::Run)
    };
    let report = compare_en(&inputs, &demand("a10g", 1, 10.0), &offers::defaults())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let g5 = report.options.iter().find(|o| o.id == "aws-g5/od").map(|o| cents(o.total));
    assert_eq!(g5, Some(2_000));
    assert!(report.options.iter().any(|o| o.id == "mine/monthly"));
    // Offers for GPUs without figures are listed, not priced.
    assert!(report.skipped.iter().any(|s| s.id == "aws-p5"));
    let bad = CostInputs { edits: vec![Edit { id: "nope".into(), key: PriceKey::Ip, value: 1.0 }], ..inputs };
    let errs = compare_en(&bad, &demand("a10g", 1, 10.0), &[]).err().unwrap_or_default();
    assert_eq!(errs.first().map(|e| e.field.as_str()), Some("cost.edits[0].id"));
}

#[test]
fn absurd_amounts_are_refused_not_infinite() {
    let offer = Offer {
        id: "huge".into(),
        gpu: "l4".into(),
        od: Some(OnDemand { hourly: 1.0e9, ..OnDemand::default() }),
        block: Some(Block { hourly: 0.0 }),
        egress: vec![Tier { upto_gb: None, per_gb: 1.0e9 }],
        ..Offer::default()
    };
    let inputs = bare(Horizon::Run);
    let report =
        compare_en(&inputs, &demand("l4", 100_000, 1.0e6), &[offer]).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(report.skipped.iter().any(|s| s.id == "huge/od" && matches!(s.skip, Skip::TooLarge(_))));
}

proptest! {
    #[test]
    fn totals_and_series_stay_finite(
        price in 0.0f64..1.0e9,
        hours in 0.0f64..1.0e6,
        gpus in 1u32..100_000,
        starts in 1u32..1000,
        serve in any::<bool>(),
    ) {
        let offer = Offer {
            id: "p".into(),
            gpu: "l4".into(),
            od: Some(OnDemand { hourly: price, ..OnDemand::default() }),
            spot: Some(crate::offers::Spot { hourly: price, per_day: None }),
            sp: Some(SavingsPlan { hourly: price, years: 3 }),
            block: Some(Block { hourly: price }),
            monthly: Some(Monthly { price, egress_gb: 0.0, min_months: 1 }),
            storage_gb_month: price,
            ip_hour: price,
            ..Offer::default()
        };
        let horizon = if serve { Horizon::Serve } else { Horizon::Run };
        let inputs = CostInputs { horizon, starts, ..CostInputs::default() };
        let report = compare_en(&inputs, &demand("l4", gpus, hours), &[offer]);
        prop_assert!(report.is_ok());
        for option in report.map(|r| r.options).unwrap_or_default() {
            prop_assert!(option.total.units().is_finite() && option.total.cents() >= 0);
            prop_assert!(option.series.iter().all(|p| p.cost.is_finite() && p.hours.is_finite()));
        }
    }
}

#[test]
fn reserved_bills_every_hour_of_the_term() {
    let p5 = default_offer("aws-p5");
    let month = CostInputs { months: 1.0, ..bare(Horizon::Serve) };
    // One month still owes the 3-year term: 23.777 × 26,280 = 624,859.56.
    assert_eq!(
        cents(bill(OptionKind::Reserved, &p5, &month, &demand("h100-sxm", 8, 0.0)).compute),
        62_485_956
    );
    // Prorated: 23.777 × 730 = 17,357.21.
    let prorated = CostInputs { prorate: true, ..month };
    assert_eq!(
        cents(bill(OptionKind::Reserved, &p5, &prorated, &demand("h100-sxm", 8, 0.0)).compute),
        1_735_721
    );
}

#[test]
fn spot_adds_re_runs_and_restarts() {
    let p5 = default_offer("aws-p5");
    let inputs = CostInputs { spot_per_day: 2.4, ckpt_min: 10.0, restart_min: 10.0, ..bare(Horizon::Run) };
    let b = bill(OptionKind::Spot, &p5, &inputs, &demand("h100-sxm", 8, 100.0));
    // T' = 100 / (1 − 0.1 × 0.25) = 102.5641 h; 10.26 interruptions → 12 billing periods of
    // 30,769.23 s, each rounded up to 30,770 s: 369,240 s = 102.5667 h × 30.24 = 3,101.616.
    assert_eq!(b.usage.starts, 12);
    assert_eq!(cents(b.compute), 310_162);
}

/// Seed 001's service: 10 req/s of 300 KB responses, all day (docs/market.md).
fn serving_24_mbps() -> (CostInputs, Demand) {
    let inputs = CostInputs { egress_auto: true, months: 1.0, ..bare(Horizon::Serve) };
    let demand = Demand { qps: 10.0, response_kb: 300.0, ..demand("rtx-4090", 1, 0.0) };
    (inputs, demand)
}

#[test]
fn a_fixed_port_is_sized_from_the_traffic() {
    let (inputs, demand) = serving_24_mbps();
    let port = Offer {
        gpu: "rtx-4090".into(),
        od: Some(OnDemand { hourly: 1.0, ..OnDemand::default() }),
        bandwidth: vec![
            crate::offers::Band { upto_mbps: Some(5.0), per_mbps_month: 25.0 },
            crate::offers::Band { upto_mbps: None, per_mbps_month: 100.0 },
        ],
        ..Offer::default()
    };
    // 5 × 25 + 19 × 100 = 2,025 a month, for the one month served.
    let b = bill(OptionKind::OnDemand, &port, &inputs, &demand);
    assert_eq!(cents(b.network), 202_500);
    #[cfg(not(feature = "zh"))]
    let line = b
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Port)
        .map(|l| crate::text::written(&l.derivation, Lang::En));
    #[cfg(not(feature = "zh"))]
    assert!(line.is_some_and(|l| l.contains("24 Mbps port: 5 Mbps × 25 + 19 Mbps × 100")));
    // Sold metered too, at 0.8 a GB (6,307.20 a month): the port is cheaper and kept.
    let both = Offer { egress: vec![Tier { upto_gb: None, per_gb: 0.8 }], ..port.clone() };
    let b = bill(OptionKind::OnDemand, &both, &inputs, &demand);
    assert_eq!(cents(b.network), 202_500);
    // At 0.1 a GB (788.40) metered wins, and the line names the port's price.
    let cheap = Offer { egress: vec![Tier { upto_gb: None, per_gb: 0.1 }], ..port };
    let b = bill(OptionKind::OnDemand, &cheap, &inputs, &demand);
    assert_eq!(cents(b.network), 78_840);
    #[cfg(not(feature = "zh"))]
    let line = b
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Egress)
        .map(|l| crate::text::written(&l.derivation, Lang::En));
    #[cfg(not(feature = "zh"))]
    assert!(line.is_some_and(|l| l.contains("cheaper than the offer's fixed port: 2025/month")));
}

#[test]
fn stopped_instances_that_keep_billing_pay_the_horizon() {
    // Serving 8 h a day for a month: 243.33 h running, 730 h held.
    let inputs = CostInputs { hours_per_day: 8.0, months: 1.0, ..bare(Horizon::Serve) };
    let mut offer = Offer {
        gpu: "rtx-4090".into(),
        od: Some(OnDemand { hourly: 2.0, step_s: 1, min_s: 0, keeps_billing: false }),
        ..Offer::default()
    };
    let stops = bill(OptionKind::OnDemand, &offer, &inputs, &demand("rtx-4090", 1, 0.0));
    assert_eq!(cents(stops.compute), 48_667);
    offer.od = offer.od.map(|od| OnDemand { keeps_billing: true, ..od });
    let keeps = bill(OptionKind::OnDemand, &offer, &inputs, &demand("rtx-4090", 1, 0.0));
    assert_eq!(cents(keeps.compute), 146_000);
}

#[test]
fn offers_on_a_card_the_plan_does_not_fit_lose_for_memory() {
    let demand = Demand { unfit: vec!["l4".into()], ..demand("h100-sxm", 1, 0.0) };
    let offers = [default_offer("aws-g6"), default_offer("aws-p4d")];
    let report = compare_en(&bare(Horizon::Serve), &demand, &offers).unwrap();
    let skips: Vec<&Skip> = report.skipped.iter().map(|s| &s.skip).collect();
    assert_eq!(
        skips,
        [&Skip::DoesNotFit { gpu: "l4".into() }, &Skip::NoFigures { gpu: "a100-40-sxm".into() }]
    );
    let custom =
        Offer { id: "mine".into(), gpu: "custom".into(), od: Some(OnDemand::default()), ..Offer::default() };
    let on_own = Demand {
        needs: vec![Need { gpu: "my-card".into(), gpus: 1, run_hours: 0.0, custom: true }],
        ..demand
    };
    let report = compare_en(&bare(Horizon::Serve), &on_own, &[custom]).unwrap();
    assert_eq!(report.best.as_deref(), Some("mine/od"));
}

#[test]
fn a_big_market_prices_every_option_and_explains_the_top_ones() {
    let offers: Vec<Offer> = (0..DETAILED_OPTIONS + 50)
        .map(|i| Offer {
            id: format!("o{i}").into(),
            gpu: "h100-sxm".into(),
            od: Some(OnDemand { hourly: 2.0 + i as f64 / 100.0, ..OnDemand::default() }),
            ..Offer::default()
        })
        .collect();
    let (inputs, d) = (CostInputs::default(), demand("h100-sxm", 1, 0.0));
    let all = compare_en(&inputs, &d, &offers).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(all.options.len(), offers.len());
    for (option, offer) in all.options.iter().zip(&offers) {
        // The same totals as each offer priced alone, with its derivations.
        let alone = bill(OptionKind::OnDemand, offer, &inputs, &d);
        assert_eq!(option.total, alone.total, "{}", option.id);
        let explained = option.lines.iter().all(|l| !l.derivation.is_empty());
        assert_eq!(explained, option.rank <= DETAILED_OPTIONS, "{}", option.id);
    }
}
