//! The offers `cost` and `checklist` price the plan against: the shipped
//! market (the core's data/market files, built into the binary so the CLI
//! works offline and reads the same data as the page), price sheets
//! (`--offers FILE`, repeatable, CSV or JSON), a quick quote from price
//! flags, and the market filters.

use gpuplan_core::market::{self, Buy, Defaults, Filter, Import};
use gpuplan_core::money::Currency;
use gpuplan_core::offers::{self, Monthly, Offer, OnDemand, Spot};
use gpuplan_core::plan::Plan;

use crate::args::Flags;
use crate::error::CliError;

const SKYPILOT: &str = include_str!("../../gpuplan-core/data/market/cloud-offers.csv");
const CN: &str = include_str!("../../gpuplan-core/data/market/cn-offers.json");

/// Switches this module reads; commands add them to their own.
pub const SWITCHES: [&str; 2] = ["market", "no-market"];

/// The offers to price and how many rows of the shipped market they hold.
pub struct Offers {
    pub offers: Vec<Offer>,
    /// Whether the shipped market is among them.
    pub market: bool,
}

/// Reads the offer flags: with `--offers` or a quick quote, those offers
/// (plus the market with `--market`); otherwise the built-in examples and
/// the shipped market (`--no-market`: the examples only). Sheet line items
/// join the plan's. Notices about sheets go to stderr.
pub fn read(flags: &mut Flags, plan: &mut Plan) -> Result<Offers, CliError> {
    let files = flags.values("offers")?;
    let quote = quote(flags, plan)?;
    let with_market = flags.switch("market")?;
    let no_market = flags.switch("no-market")?;
    let filter = filter(flags)?;
    let mut own = Import::default();
    for path in &files {
        own.extend(sheet(path)?);
    }
    plan.cost.items.append(&mut own.items);
    let mut offers = own.offers;
    offers.extend(quote);
    let market = !no_market && (offers.is_empty() || with_market);
    if offers.is_empty() || with_market {
        let mut base = offers::defaults();
        if market {
            base.extend(market::shipped(SKYPILOT, CN).offers);
        }
        base.append(&mut offers);
        offers = base;
    }
    Ok(Offers { offers: filter.apply(&offers), market })
}

/// One `--offers FILE`, read whole after its size is checked.
fn sheet(path: &str) -> Result<Import, CliError> {
    let meta = std::fs::metadata(path).map_err(|e| CliError(format!("--offers {path}: {e}")))?;
    if meta.len() > market::MAX_BYTES as u64 {
        let (mb, max) = (meta.len() / (1024 * 1024), market::MAX_BYTES / (1024 * 1024));
        return Err(CliError(format!(
            "--offers {path}: {mb} MB is more than the {max} MB a price sheet may be"
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| CliError(format!("--offers {path}: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("sheet");
    let import = market::import(&text, &Defaults { provider: stem, date: "", source: path });
    for n in &import.notices {
        eprintln!("notice: {path} {}", n.text());
    }
    if !import.unmapped.is_empty() {
        let names: Vec<String> =
            import.unmapped.iter().map(|u| format!("{} ({} rows)", u.name, u.rows)).collect();
        eprintln!("notice: {path}: not in the GPU catalog, left out: {}", names.join(", "));
    }
    Ok(import)
}

/// `--currency usd|cny`: the quote's currency and the bill's.
fn currency(text: &str) -> Result<Currency, CliError> {
    gpuplan_core::names::parse(&text.to_ascii_uppercase())
        .ok_or_else(|| CliError(format!("--currency: unknown \"{text}\"; accepted: usd, cny")))
}

/// A quick quote (`--hourly X --monthly Y --spot Z`, `--currency`,
/// `--instance-gpus N`) on the plan's GPU, checked like any offer.
fn quote(flags: &mut Flags, plan: &mut Plan) -> Result<Option<Offer>, CliError> {
    crate::args::write_flags(flags, plan, crate::args::By::Quote, |_| true)?;
    let mut real = |name: &str| flags.parsed::<f64>(name, "a number");
    let (hourly, monthly, spot) = (real("hourly")?, real("monthly")?, real("spot")?);
    let gpus: Option<u32> = flags.parsed("instance-gpus", "a whole number")?;
    if hourly.is_none() && monthly.is_none() && spot.is_none() {
        return match gpus {
            Some(_) => {
                Err(CliError("--instance-gpus: give a price too (--hourly, --monthly or --spot)".into()))
            }
            None => Ok(None),
        };
    }
    let offer = Offer {
        id: "quote".into(),
        provider: "your quote".into(),
        name: "Your quote".into(),
        gpu: plan.hardware.gpu.clone().into(),
        gpus: gpus.unwrap_or(1),
        currency: plan.cost.currency,
        od: hourly.map(|hourly| OnDemand { hourly, step_s: 1, min_s: 0, keeps_billing: false }),
        spot: spot.map(|hourly| Spot { hourly, per_day: None }),
        monthly: monthly.map(|price| Monthly { price, ..Monthly::default() }),
        source: "command line".into(),
        note: "Typed on the command line: billed per second, no side rates.".into(),
        ..Offer::default()
    };
    let mut errs = Vec::new();
    offer.validate("quote", &mut errs);
    match errs.first() {
        Some(e) => Err(CliError(e.message(crate::args::env_lang()))),
        None => Ok(Some(offer)),
    }
}

/// `--provider`, `--region`, `--price-currency`, `--offer-gpu`, `--buy od|spot|commit`,
/// each repeatable or comma-separated.
fn filter(flags: &mut Flags) -> Result<Filter, CliError> {
    let list = |flags: &mut Flags, name: &str| -> Result<Vec<String>, CliError> {
        let values = flags.values(name)?;
        Ok(values
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect())
    };
    let currencies =
        list(flags, "price-currency")?.iter().map(|c| currency(c)).collect::<Result<Vec<_>, _>>()?;
    let buy = list(flags, "buy")?
        .iter()
        .map(|b| match b.as_str() {
            "od" | "on-demand" => Ok(Buy::OnDemand),
            "spot" => Ok(Buy::Spot),
            "commit" | "commitment" => Ok(Buy::Commitment),
            other => Err(CliError(format!("--buy: unknown \"{other}\"; accepted: od, spot, commit"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (providers, regions, gpus) =
        (list(flags, "provider")?, list(flags, "region")?, list(flags, "offer-gpu")?);
    Ok(Filter { providers, regions, currencies, gpus, buy })
}

/// Today as YYYY-MM-DD (UTC) from the system clock, for the stale flags;
/// `--today` overrides it.
pub fn today(flags: &mut Flags) -> Result<String, CliError> {
    if let Some(t) = flags.value("today")? {
        return match market::parse_date(&t) {
            Some(_) => Ok(t),
            None => Err(CliError(format!("--today: expected YYYY-MM-DD, got \"{t}\""))),
        };
    }
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil(i64::try_from(secs / 86_400).unwrap_or(0));
    Ok(format!("{y:04}-{m:02}-{d:02}"))
}

/// The proleptic Gregorian date of a day count since 1970-01-01
/// (Howard Hinnant's days-to-civil algorithm).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_791), (2026, 12, 4));
        assert_eq!(civil(11_016), (2000, 2, 29));
    }
}
