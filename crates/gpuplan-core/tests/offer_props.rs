//! Offers, whatever their fields: gpuplan's offers file (export -> import)
//! and the share link (plan -> link -> plan) both give them back unchanged,
//! and a SkyPilot sheet written from them reads back to the same prices.

use gpuplan_core::cost::Item;
use gpuplan_core::market::{export, import, Defaults};
use gpuplan_core::money::Currency;
use gpuplan_core::offers::{
    Band, Block, Monthly, Offer, OnDemand, Pricing, Reserved, SavingsPlan, Side, Spot, Tier,
};
use gpuplan_core::plan::Plan;
use gpuplan_core::share::{decode, encode};
use proptest::prelude::*;

/// A price with at most four decimals (what sheets carry).
fn price() -> impl Strategy<Value = f64> {
    (0u64..100_000_000).prop_map(|x| x as f64 / 10_000.0)
}

fn tiers() -> impl Strategy<Value = Vec<(Option<f64>, f64)>> {
    proptest::collection::vec((1u32..1000, price()), 0..4).prop_flat_map(|steps| {
        let mut bound = 0.0;
        let mut out: Vec<(Option<f64>, f64)> = steps
            .into_iter()
            .map(|(step, per)| {
                bound += f64::from(step);
                (Some(bound), per)
            })
            .collect();
        if let Some(last) = out.last_mut() {
            last.0 = None;
        }
        Just(out)
    })
}

prop_compose! {
    fn offer()(
        id in "[a-z0-9:._-]{1,16}",
        provider in "\\PC{0,16}",
        name in "\\PC{0,16}",
        region in "\\PC{0,12}",
        gpu in prop_oneof![Just("h100-sxm"), Just("rtx-4090"), Just("a100-80-pcie")],
        gpus in 1u32..64,
        cny in any::<bool>(),
        od in proptest::option::of((price(), 1u32..3601, 0u32..3601, any::<bool>())),
        spot in proptest::option::of((price(), proptest::option::of(0u32..100))),
        sp in proptest::option::of((price(), 1u32..4)),
        ri in proptest::option::of((price(), price(), 1u32..4)),
        block in proptest::option::of(price()),
        monthly in proptest::option::of((price(), 0u32..100_000, 1u32..37)),
        side in (price(), price()),
        egress in tiers(),
        bandwidth in tiers(),
        text in ("\\PC{0,20}", "[0-9-]{0,10}", "\\PC{0,30}"),
        pricing in prop_oneof![Just(Pricing::List), Just(Pricing::Marketplace), Just(Pricing::Auction)],
        unknown in proptest::sample::subsequence(vec![Side::Storage, Side::Ip, Side::Egress], 0..=3),
    ) -> Offer {
        Offer {
            id: id.into(),
            provider: provider.into(),
            name: name.into(),
            region: region.into(),
            regions: 0,
            gpu: gpu.into(),
            gpus,
            currency: if cny { Currency::Cny } else { Currency::Usd },
            od: od.map(|(hourly, step_s, min_s, keeps_billing)| OnDemand { hourly, step_s, min_s, keeps_billing }),
            spot: spot.map(|(hourly, per_day)| Spot { hourly, per_day: per_day.map(f64::from) }),
            sp: sp.map(|(hourly, years)| SavingsPlan { hourly, years }),
            ri: ri.map(|(hourly, upfront, years)| Reserved { hourly, upfront, years }),
            block: block.map(|hourly| Block { hourly }),
            monthly: monthly.map(|(price, gb, min_months)| Monthly { price, egress_gb: f64::from(gb), min_months }),
            storage_gb_month: side.0,
            ip_hour: side.1,
            egress: egress.into_iter().map(|(upto_gb, per_gb)| Tier { upto_gb, per_gb }).collect(),
            bandwidth: bandwidth.into_iter().map(|(upto_mbps, per_mbps_month)| Band { upto_mbps, per_mbps_month }).collect(),
            source: text.0.into(),
            date: text.1.into(),
            note: text.2.into(),
            host: false,
            pricing,
            unknown,
        }
    }
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    proptest::collection::vec(
        ("\\PC{0,20}", price(), any::<bool>(), any::<bool>()).prop_map(|(name, amount, cny, monthly)| Item {
            name,
            amount,
            currency: if cny { Currency::Cny } else { Currency::Usd },
            monthly,
        }),
        0..3,
    )
}

const NO_DEFAULTS: Defaults = Defaults { provider: "", date: "", source: "" };

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn offers_file_round_trips(offers in proptest::collection::vec(offer(), 0..5), items in items()) {
        // Ids are unique in a file (a later offer replaces an earlier one).
        let mut offers = offers;
        offers.dedup_by(|a, b| a.id == b.id);
        let back = import(&export(&offers, &items), &NO_DEFAULTS);
        // Names with markup load as text, with a warning; nothing else is refused.
        prop_assert!(back.notices.iter().all(|n| n.message.ends_with("kept as plain text")), "{:?}", back.notices);
        prop_assert_eq!(back.offers, offers);
        prop_assert_eq!(back.items, items);
    }

    #[test]
    fn link_round_trips_offers(offers in proptest::collection::vec(offer(), 0..4), items in items()) {
        let mut plan = Plan::default();
        plan.cost.offers = offers;
        plan.cost.items = items;
        let link = decode(&encode(&plan, None, None));
        prop_assert_eq!(link.ignored, vec![]);
        prop_assert_eq!(link.plan.cost, plan.cost);
    }

    #[test]
    fn skypilot_rows_read_back(gpus in 1u32..16, od in price(), spot in price()) {
        let text = format!(
            "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,SpotPrice\n\
             inst,H100-SXM,{gpus},8,64,{od},r1,{spot}\n"
        );
        let m = import(&text, &Defaults { provider: "p", date: "2026-12-04", source: "s" });
        prop_assert_eq!(m.notices, vec![]);
        let o = &m.offers[0];
        prop_assert_eq!(o.gpus, gpus);
        prop_assert_eq!(o.od.as_ref().map(|x| x.hourly), (od > 0.0).then_some(od));
        prop_assert_eq!(o.spot.as_ref().map(|x| x.hourly), (spot > 0.0).then_some(spot));
    }
}
