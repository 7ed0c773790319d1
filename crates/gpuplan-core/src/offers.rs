//! Offers: what a provider charges for an instance of some catalog GPU, in
//! each way it can be bought, plus the side rates (disk, IP, egress).
//!
//! The default offers are dated examples copied from public price pages (via
//! the reference notes in billing.md). Prices go stale: every row names its
//! source and date, and the user can overwrite any price or add offers.
//! Egress volumes count 1 TB = 1,024 GB, as AWS's price calculator does.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit, Problem};
use crate::lang::Lang;
use crate::money::Currency;
use crate::text::{self, Key};

type Text = Cow<'static, str>;

/// Largest price accepted for anything (per hour, month, GB...).
pub const MAX_PRICE: f64 = 1.0e9;

/// Pay-as-you-go: billed while running, in increments, with a minimum per start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnDemand {
    /// Price per instance-hour.
    pub hourly: f64,
    /// Billing increment in seconds: 1 = per second, 3600 = hourly.
    pub step_s: u32,
    /// Minimum billed per start (AWS: 60 s; each stop→start starts a new one).
    pub min_s: u32,
    /// A stopped instance keeps billing (Tencent's GPU page: GPU servers do
    /// not support 关机不收费), so the whole time it is held is billed.
    pub keeps_billing: bool,
}

impl Default for OnDemand {
    fn default() -> Self {
        Self { hourly: 0.0, step_s: 1, min_s: 60, keeps_billing: false }
    }
}

/// Interruptible capacity, billed like on-demand at its own price.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Spot {
    pub hourly: f64,
    /// Interruptions per instance-day for this offer; `None` takes the user's assumption.
    pub per_day: Option<f64>,
}

/// A spend commitment per hour over a 1- or 3-year term (AWS Savings Plans).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavingsPlan {
    /// Discounted price per instance-hour inside the commitment.
    pub hourly: f64,
    pub years: u32,
}

impl Default for SavingsPlan {
    fn default() -> Self {
        Self { hourly: 0.0, years: 1 }
    }
}

/// A reserved instance: every hour of the term billed, running or not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Reserved {
    /// Recurring price per instance-hour of the term.
    pub hourly: f64,
    /// One-off payment per instance at the start of the term.
    pub upfront: f64,
    pub years: u32,
}

impl Default for Reserved {
    fn default() -> Self {
        Self { hourly: 0.0, upfront: 0.0, years: 1 }
    }
}

/// A capacity block: a window of whole days, paid up front.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Block {
    /// Effective price per instance-hour of the window.
    pub hourly: f64,
}

/// A dedicated server at a fixed price per month.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Monthly {
    /// Price per instance-month.
    pub price: f64,
    /// Egress included each month (GB).
    pub egress_gb: f64,
    /// Shortest term in months.
    pub min_months: u32,
}

impl Default for Monthly {
    fn default() -> Self {
        Self { price: 0.0, egress_gb: 0.0, min_months: 1 }
    }
}

/// One egress tier: GB sent in a month up to `upto_gb` (cumulative; `None` =
/// no upper bound) cost `per_gb` each.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tier {
    pub upto_gb: Option<f64>,
    pub per_gb: f64,
}

/// One tier of a fixed-bandwidth port: Mbps up to `upto_mbps` (cumulative;
/// `None` = no upper bound) cost `per_mbps_month` each a month, traffic unmetered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Band {
    pub upto_mbps: Option<f64>,
    pub per_mbps_month: f64,
}

/// How an offer's prices are set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pricing {
    /// The provider's published price.
    #[default]
    List,
    /// One host's offer on a marketplace when the catalog was read (Vast.ai):
    /// it comes and goes, and another host asks another price.
    Marketplace,
    /// The floor of an auction's bids (Mithril): the price paid is whatever clears.
    Auction,
}

impl Pricing {
    pub fn is_list(&self) -> bool {
        *self == Pricing::List
    }
}

/// A side price an offer's source does not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Storage,
    Ip,
    Egress,
}

/// One provider's instance of a catalog GPU, with every way to pay for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Offer {
    pub id: Text,
    pub provider: Text,
    pub name: Text,
    /// Where it is sold: a region, or the cheapest of `regions` a collapsed
    /// catalog row covers.
    pub region: Text,
    /// Regions a collapsed catalog row covers (0 or 1: the one region).
    #[serde(skip_serializing_if = "uncounted")]
    pub regions: u32,
    /// GPU catalog id (the fit rules apply to it), or "custom" for the plan's own card.
    pub gpu: Text,
    /// GPUs in one instance.
    pub gpus: u32,
    pub currency: Currency,
    pub od: Option<OnDemand>,
    pub spot: Option<Spot>,
    pub sp: Option<SavingsPlan>,
    pub ri: Option<Reserved>,
    pub block: Option<Block>,
    pub monthly: Option<Monthly>,
    /// Block storage per GB-month (charged while stopped too).
    pub storage_gb_month: f64,
    /// Public IPv4 per IP-hour (charged in every state).
    pub ip_hour: f64,
    /// Egress to the internet per month; empty = not metered.
    pub egress: Vec<Tier>,
    /// A fixed-bandwidth port priced per Mbps a month (traffic unmetered);
    /// empty = the offer sells none.
    pub bandwidth: Vec<Band>,
    pub source: Text,
    pub date: Text,
    /// From the embedding page's price sheet or posted offers (labelled as the
    /// host's); the built-in offers, seed 004's vendor included, are not.
    pub host: bool,
    /// What the source leaves out or what was assumed.
    pub note: Text,
    /// List, marketplace or auction price.
    #[serde(skip_serializing_if = "Pricing::is_list")]
    pub pricing: Pricing,
    /// Side prices not in the source: billed as nothing, and every total
    /// that leaves one out says so, until the user fills it in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<Side>,
}

impl Default for Offer {
    fn default() -> Self {
        Self {
            id: Cow::Borrowed("custom"),
            provider: Cow::Borrowed(""),
            name: Cow::Borrowed("Custom offer"),
            region: Cow::Borrowed(""),
            regions: 0,
            gpu: Cow::Borrowed("h100-sxm"),
            gpus: 1,
            currency: Currency::Usd,
            od: None,
            spot: None,
            sp: None,
            ri: None,
            block: None,
            monthly: None,
            storage_gb_month: 0.0,
            ip_hour: 0.0,
            egress: Vec::new(),
            bandwidth: Vec::new(),
            source: Cow::Borrowed(""),
            date: Cow::Borrowed(""),
            host: false,
            note: Cow::Borrowed(""),
            pricing: Pricing::List,
            unknown: Vec::new(),
        }
    }
}

/// Serde's test for a region count not given.
fn uncounted(n: &u32) -> bool {
    *n == 0
}

/// Where an offer is sold, in the reader's words: the region, the cheapest
/// of the several a catalog row covers, or that the source names none.
pub fn region_text(region: &str, regions: u32, lang: Lang) -> String {
    match (region, regions) {
        ("" | "(unspecified)", _) => text::get(Key::RegionUnspecified, lang).to_string(),
        ("all-regions(uniform)", _) => text::get(Key::RegionAll, lang).to_string(),
        (one, 0 | 1) => one.to_string(),
        (cheapest, n) => text::fill(Key::RegionCheapestOf, lang, &[("region", &cheapest), ("n", &n)]),
    }
}

impl Offer {
    /// Range checks on every price and count; `path` is this offer's field path.
    pub fn validate(&self, path: &str, errs: &mut Vec<FieldError>) {
        let price = Limit::real(0.0, MAX_PRICE);
        let f = |name: &str| format!("{path}.{name}");
        Limit::int(1, 1024).check_u64(&f("gpus"), u64::from(self.gpus), errs);
        if let Some(od) = &self.od {
            price.check_f64(&f("od.hourly"), od.hourly, errs);
            Limit::int(1, 86_400).check_u64(&f("od.step_s"), u64::from(od.step_s), errs);
            Limit::int(0, 86_400).check_u64(&f("od.min_s"), u64::from(od.min_s), errs);
        }
        if let Some(spot) = &self.spot {
            price.check_f64(&f("spot.hourly"), spot.hourly, errs);
            if let Some(per_day) = spot.per_day {
                Limit::real(0.0, 1000.0).check_f64(&f("spot.per_day"), per_day, errs);
            }
        }
        if let Some(sp) = &self.sp {
            price.check_f64(&f("sp.hourly"), sp.hourly, errs);
            Limit::int(1, 5).check_u64(&f("sp.years"), u64::from(sp.years), errs);
        }
        if let Some(ri) = &self.ri {
            price.check_f64(&f("ri.hourly"), ri.hourly, errs);
            price.check_f64(&f("ri.upfront"), ri.upfront, errs);
            Limit::int(1, 5).check_u64(&f("ri.years"), u64::from(ri.years), errs);
        }
        if let Some(block) = &self.block {
            price.check_f64(&f("block.hourly"), block.hourly, errs);
        }
        if let Some(m) = &self.monthly {
            price.check_f64(&f("monthly.price"), m.price, errs);
            Limit::real(0.0, 1.0e9).check_f64(&f("monthly.egress_gb"), m.egress_gb, errs);
            Limit::int(1, 120).check_u64(&f("monthly.min_months"), u64::from(m.min_months), errs);
        }
        price.check_f64(&f("storage_gb_month"), self.storage_gb_month, errs);
        price.check_f64(&f("ip_hour"), self.ip_hour, errs);
        let egress: Vec<_> = self.egress.iter().map(|t| (t.upto_gb, t.per_gb)).collect();
        validate_tiers(&f("egress"), ["upto_gb", "per_gb"], &egress, errs);
        let bands: Vec<_> = self.bandwidth.iter().map(|b| (b.upto_mbps, b.per_mbps_month)).collect();
        validate_tiers(&f("bandwidth"), ["upto_mbps", "per_mbps_month"], &bands, errs);
    }
}

/// Tier bounds rise strictly; only the last tier may be unbounded. `names`
/// are the bound's and the price's field names; `tiers` (bound, price) pairs.
fn validate_tiers(path: &str, names: [&str; 2], tiers: &[(Option<f64>, f64)], errs: &mut Vec<FieldError>) {
    let [upto_name, per_name] = names;
    let mut last = 0.0;
    let count = tiers.len();
    for (i, &(upto, per)) in tiers.iter().enumerate() {
        Limit::real(0.0, MAX_PRICE).check_f64(&format!("{path}[{i}].{per_name}"), per, errs);
        match upto {
            Some(upto) => {
                let field = format!("{path}[{i}].{upto_name}");
                Limit::real(0.0, 1.0e12).check_f64(&field, upto, errs);
                if upto.is_finite() && upto <= last && i > 0 {
                    errs.push(FieldError::new(field, Problem::Inconsistent { rule: "tiers_rise" }));
                }
                last = upto;
            }
            None if i + 1 < count => errs.push(FieldError::new(
                format!("{path}[{i}].{upto_name}"),
                Problem::Inconsistent { rule: "tiers_rise" },
            )),
            None => {}
        }
    }
}

/// AWS data transfer out to the internet, US regions (billing.md).
pub(crate) fn aws_egress() -> Vec<Tier> {
    let tier = |upto_gb: Option<f64>, per_gb: f64| Tier { upto_gb, per_gb };
    vec![
        tier(Some(100.0), 0.0),
        tier(Some(10_240.0), 0.09),
        tier(Some(51_200.0), 0.085),
        tier(Some(153_600.0), 0.07),
        tier(None, 0.05),
    ]
}

const AWS_SOURCE: &str = "AWS EC2 pricing pages, us-east-1 (gpuplan reference billing.md)";
pub(crate) const AWS_NOTE: &str =
    "Linux, per-second billing with a 60 s minimum per start; EBS gp3 0.08/GB-month; \
public IPv4 0.005/IP-hour; egress tiers after 100 GB free a month.";

/// An AWS instance with its on-demand price and the usual AWS side rates.
fn aws(
    id: &'static str,
    name: &'static str,
    gpu: &'static str,
    gpus: u32,
    hourly: f64,
    date: &'static str,
) -> Offer {
    Offer {
        id: Cow::Borrowed(id),
        provider: Cow::Borrowed("AWS"),
        name: Cow::Borrowed(name),
        region: Cow::Borrowed("us-east-1"),
        gpu: Cow::Borrowed(gpu),
        gpus,
        currency: Currency::Usd,
        od: Some(OnDemand { hourly, step_s: 1, min_s: 60, keeps_billing: false }),
        storage_gb_month: 0.08,
        ip_hour: 0.005,
        egress: aws_egress(),
        source: Cow::Borrowed(AWS_SOURCE),
        date: Cow::Borrowed(date),
        note: Cow::Borrowed(AWS_NOTE),
        ..Offer::default()
    }
}

const NO_SIDE_RATES: &str = "The source gives only the GPU price: storage, IP and egress prices are \
not given (totals leave them out) and billing is assumed per second without a minimum; enter the \
provider's rates.";

/// The side prices a source giving the GPU price alone leaves out.
fn no_side_prices() -> Vec<Side> {
    vec![Side::Storage, Side::Ip, Side::Egress]
}

/// A specialist cloud's hourly offer whose source gives the GPU price only.
fn cloud(
    id: &'static str,
    provider: &'static str,
    name: &'static str,
    gpus: u32,
    hourly: f64,
    date: &'static str,
) -> Offer {
    Offer {
        id: Cow::Borrowed(id),
        provider: Cow::Borrowed(provider),
        name: Cow::Borrowed(name),
        gpu: Cow::Borrowed("h100-sxm"),
        gpus,
        od: Some(OnDemand { hourly, step_s: 1, min_s: 0, keeps_billing: false }),
        source: Cow::Borrowed("Provider price page (gpuplan reference billing.md)"),
        date: Cow::Borrowed(date),
        note: Cow::Borrowed(NO_SIDE_RATES),
        unknown: no_side_prices(),
        ..Offer::default()
    }
}

/// The shipped example offers, our own examples named in English (or in
/// the one language of a one-language build). Each is dated; prices go stale.
pub fn defaults() -> Vec<Offer> {
    defaults_in(Lang::En)
}

/// The shipped example offers, our own examples named in `lang`.
pub fn defaults_in(lang: Lang) -> Vec<Offer> {
    let say = |key| Cow::Borrowed(text::get(key, lang));
    let mut p5 = aws("aws-p5", "AWS p5.48xlarge", "h100-sxm", 8, 55.04, "2026-03");
    p5.spot = Some(Spot { hourly: 30.24, per_day: None });
    p5.ri = Some(Reserved { hourly: 23.777, upfront: 0.0, years: 3 });
    p5.block = Some(Block { hourly: 34.61 });
    p5.note = Cow::Borrowed(
        "Linux, per-second billing with a 60 s minimum per start; Spot and 3-year RI 2026-03 \
(RI as its effective hourly rate, no upfront); Capacity Block 2026-05; the older 98.32/h is stale. \
EBS gp3 0.08/GB-month; public IPv4 0.005/IP-hour; egress tiers after 100 GB free a month.",
    );
    vec![
        p5,
        aws("aws-p4d", "AWS p4d.24xlarge", "a100-40-sxm", 8, 21.96, "2026-03"),
        aws("aws-p5en", "AWS p5en.48xlarge", "h200-sxm", 8, 63.30, "2026-05"),
        aws("aws-p6-b200", "AWS p6-b200.48xlarge", "b200", 8, 113.93, "2025-05"),
        aws("aws-g6e", "AWS g6e.xlarge", "l40s", 1, 1.861, "2026-03"),
        aws("aws-g5", "AWS g5.xlarge", "a10g", 1, 1.006, "2026-06"),
        aws("aws-g6", "AWS g6.xlarge", "l4", 1, 0.8048, "undated"),
        cloud("lambda-h100", "Lambda", "Lambda 1x H100 SXM", 1, 3.78, "2026-05"),
        Offer { name: say(Key::OfferRunpodH100), ..cloud("runpod-h100", "RunPod", "", 1, 2.69, "2026-05") },
        cloud("coreweave-h100", "CoreWeave", "CoreWeave HGX H100 8x", 8, 49.24, "2026-02"),
        Offer { provider: say(Key::OfferGuideHost), name: say(Key::OfferGuideMi355x), ..host_mi355x() },
        Offer { provider: say(Key::OfferGuideHost), name: say(Key::OfferGuideGb300), ..host_gb300() },
        Offer { provider: say(Key::OfferBudgetGuide), ..guide_rtx4090() },
    ]
}

/// The host of a buying guide (named by `defaults_in`): 8x MI355X server,
/// monthly, 50 TB egress a month included.
fn host_mi355x() -> Offer {
    Offer {
        id: Cow::Borrowed("host-mi355x"),
        gpu: Cow::Borrowed("mi355x"),
        gpus: 8,
        monthly: Some(Monthly { price: 19_900.0, egress_gb: 50.0 * 1024.0, min_months: 1 }),
        source: Cow::Borrowed("Buying guide 'How to choose a GPU server for AI' (a host's page)"),
        date: Cow::Borrowed("2026"),
        note: Cow::Borrowed(
            "Prepaid monthly, minimum one month, cancel any month; local NVMe included and not backed up; \
no overage price for egress above the allowance is given.",
        ),
        ..Offer::default()
    }
}

/// The same host's rack-scale GB300 NVL72: from 7,990 per GPU-month, 12-36 month terms.
fn host_gb300() -> Offer {
    Offer {
        id: Cow::Borrowed("host-gb300"),
        gpu: Cow::Borrowed("gb300"),
        gpus: 72,
        monthly: Some(Monthly { price: 7_990.0 * 72.0, egress_gb: 0.0, min_months: 12 }),
        source: Cow::Borrowed("Buying guide 'How to choose a GPU server for AI' (a host's page)"),
        date: Cow::Borrowed("2026"),
        note: Cow::Borrowed(
            "\"From\" 7,990 per GPU-month × 72 GPUs, on request, 12-36 month terms; \
egress allowance not given.",
        ),
        ..Offer::default()
    }
}

/// A GPU rental budget guide's Chinese-platform example (its provider named
/// by `defaults_in`): RTX 4090 about 10 CNY/h, monthly about 2,000-2,200 CNY.
fn guide_rtx4090() -> Offer {
    Offer {
        id: Cow::Borrowed("cn-rtx4090"),
        name: Cow::Borrowed("1x RTX 4090"),
        gpu: Cow::Borrowed("rtx-4090"),
        gpus: 1,
        currency: Currency::Cny,
        od: Some(OnDemand { hourly: 10.0, step_s: 1, min_s: 0, keeps_billing: false }),
        monthly: Some(Monthly { price: 2_200.0, egress_gb: 0.0, min_months: 1 }),
        source: Cow::Borrowed(
            "GPU rental budget guide 'GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南'",
        ),
        date: Cow::Borrowed("undated"),
        note: Cow::Borrowed(
            "Monthly at the upper end of the guide's 2,000-2,200 CNY range; billing step, storage, \
IP and traffic prices not given (totals leave them out).",
        ),
        unknown: no_side_prices(),
        ..Offer::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id column of the reference GPU catalog (gpus.csv) that offers may name.
    const CATALOG_IDS: &[&str] =
        &["h100-sxm", "h200-sxm", "b200", "gb300", "a100-40-sxm", "l40s", "l4", "a10g", "rtx-4090", "mi355x"];

    #[test]
    fn defaults_are_valid_dated_and_unique() {
        let offers = defaults();
        let mut ids: Vec<&str> = offers.iter().map(|o| o.id.as_ref()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), offers.len());
        for (i, o) in offers.iter().enumerate() {
            let mut errs = Vec::new();
            o.validate(&format!("offers[{i}]"), &mut errs);
            assert!(errs.is_empty(), "{}: {errs:?}", o.id);
            assert!(!o.source.is_empty() && !o.date.is_empty(), "{}", o.id);
            assert!(CATALOG_IDS.contains(&o.gpu.as_ref()), "{}", o.gpu);
            // "The host's offer" is only what an embedding page supplies.
            assert!(!o.host, "{}", o.id);
        }
    }

    #[test]
    fn per_gpu_hour_matches_the_reference_table() {
        let offers = defaults();
        let find = |id: &str| offers.iter().find(|o| o.id == id);
        let p5 = find("aws-p5").and_then(|o| o.od.as_ref()).map(|od| od.hourly / 8.0);
        assert_eq!(p5, Some(6.88));
        let mi = find("host-mi355x").and_then(|o| o.monthly.as_ref()).map(|m| m.price / 8.0 / 730.0);
        assert!(mi.is_some_and(|x| (x - 3.41).abs() < 0.005));
    }

    #[test]
    fn tiers_must_rise() {
        let offer = Offer {
            egress: vec![
                Tier { upto_gb: Some(100.0), per_gb: 0.0 },
                Tier { upto_gb: Some(50.0), per_gb: 0.09 },
                Tier { upto_gb: None, per_gb: 0.05 },
                Tier { upto_gb: None, per_gb: 0.04 },
            ],
            ..Offer::default()
        };
        let mut errs = Vec::new();
        offer.validate("o", &mut errs);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["o.egress[1].upto_gb", "o.egress[2].upto_gb"]);
    }
}
