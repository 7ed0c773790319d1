//! Narrowing a market: by provider, region, price currency and the ways to buy.

use serde::{Deserialize, Serialize};

use crate::money::Currency;
use crate::offers::Offer;

/// A way to buy, as the market filters group the purchase options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Buy {
    OnDemand,
    Spot,
    /// Savings plans, reserved instances, capacity blocks and monthly terms.
    Commitment,
}

/// Empty lists keep everything.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Filter {
    /// Provider names, matched without case.
    pub providers: Vec<String>,
    /// Parts of a region name, matched without case ("us-", "eu").
    pub regions: Vec<String>,
    pub currencies: Vec<Currency>,
    /// Catalog GPU ids ("h100-sxm").
    pub gpus: Vec<String>,
    pub buy: Vec<Buy>,
}

impl Filter {
    /// The offers that pass, each keeping only the ways to buy asked for;
    /// an offer left with none is dropped.
    pub fn apply(&self, offers: &[Offer]) -> Vec<Offer> {
        offers.iter().filter(|o| self.keeps(o)).filter_map(|o| self.narrow(o)).collect()
    }

    fn keeps(&self, o: &Offer) -> bool {
        let provider = self.providers.is_empty()
            || self.providers.iter().any(|p| p.trim().eq_ignore_ascii_case(o.provider.trim()));
        let region = o.region.to_ascii_lowercase();
        let region = self.regions.is_empty()
            || self.regions.iter().any(|r| region.contains(r.trim().to_ascii_lowercase().as_str()));
        let currency = self.currencies.is_empty() || self.currencies.contains(&o.currency);
        let gpu = self.gpus.is_empty() || self.gpus.iter().any(|g| g.trim() == o.gpu.as_ref());
        provider && region && currency && gpu
    }

    fn narrow(&self, o: &Offer) -> Option<Offer> {
        if self.buy.is_empty() {
            return Some(o.clone());
        }
        let wants = |b: Buy| self.buy.contains(&b);
        let mut o = o.clone();
        if !wants(Buy::OnDemand) {
            // A savings plan bills usage above its commitment at on-demand,
            // so a commitment filter keeps the on-demand price it needs.
            if !(wants(Buy::Commitment) && o.sp.is_some()) {
                o.od = None;
            }
        }
        if !wants(Buy::Spot) {
            o.spot = None;
        }
        if !wants(Buy::Commitment) {
            (o.sp, o.ri, o.block, o.monthly) = (None, None, None, None);
        }
        let any = o.od.is_some() || o.spot.is_some() || o.ri.is_some() || o.block.is_some();
        (any || o.monthly.is_some()).then_some(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offers::defaults;

    #[test]
    fn providers_regions_and_ways_to_buy() {
        let all = defaults();
        let aws = Filter { providers: vec!["aws".into()], ..Filter::default() }.apply(&all);
        assert!(!aws.is_empty() && aws.iter().all(|o| o.provider == "AWS"));
        let cny = Filter { currencies: vec![Currency::Cny], ..Filter::default() }.apply(&all);
        assert!(cny.iter().all(|o| o.currency == Currency::Cny) && !cny.is_empty());
        let spot = Filter { buy: vec![Buy::Spot], ..Filter::default() }.apply(&all);
        assert!(spot.iter().all(|o| o.spot.is_some() && o.od.is_none() && o.ri.is_none()));
        let committed = Filter { buy: vec![Buy::Commitment], ..Filter::default() }.apply(&all);
        assert!(committed.iter().all(|o| o.od.is_none() && o.spot.is_none()));
        assert!(committed.iter().any(|o| o.monthly.is_some()));
        let nowhere = Filter { regions: vec!["mars".into()], ..Filter::default() }.apply(&all);
        assert!(nowhere.is_empty());
    }
}
