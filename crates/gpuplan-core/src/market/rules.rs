//! Billing rules a catalog row does not carry, by provider: what the
//! reference notes (billing.md) say, or an assumption the note states.

use crate::offers::{aws_egress, OnDemand, Pricing, Side, Tier, AWS_NOTE};

/// The rules a market row is priced with.
pub struct Rules {
    pub od: OnDemand,
    pub storage_gb_month: f64,
    pub ip_hour: f64,
    pub egress: Vec<Tier>,
    pub note: &'static str,
    pub pricing: Pricing,
    /// Side prices the catalog row does not give.
    pub unknown: Vec<Side>,
}

const ONLY_INSTANCE: &str = "The catalog gives only the instance price: billing assumed per second \
without a minimum; storage, IP and egress prices are not in the catalog (totals leave them out); \
enter the provider's rates.";

/// Marketplaces and auctions among SkyPilot's clouds (their catalog price
/// is one host's asking price or a bid floor on the day it was read).
const NOT_LIST: &[(&str, Pricing)] = &[("Vast.ai", Pricing::Marketplace), ("Mithril", Pricing::Auction)];

/// AWS's published side rates (billing.md); for any other provider the
/// instance price alone, said so in the note.
pub fn for_provider(provider: &str) -> Rules {
    if provider.eq_ignore_ascii_case("aws") {
        return Rules {
            od: OnDemand { hourly: 0.0, step_s: 1, min_s: 60, keeps_billing: false },
            storage_gb_month: 0.08,
            ip_hour: 0.005,
            egress: aws_egress(),
            note: AWS_NOTE,
            pricing: Pricing::List,
            unknown: Vec::new(),
        };
    }
    Rules {
        od: OnDemand { hourly: 0.0, step_s: 1, min_s: 0, keeps_billing: false },
        storage_gb_month: 0.0,
        ip_hour: 0.0,
        egress: Vec::new(),
        note: ONLY_INSTANCE,
        pricing: NOT_LIST
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(provider))
            .map_or(Pricing::List, |(_, p)| *p),
        unknown: vec![Side::Storage, Side::Ip, Side::Egress],
    }
}
