//! Host price sheets: a vendor ships `prices.json` next to the static files,
//! or posts the same shape to the embedded page. Offers that come this way are
//! checked like the user's own and labelled as the host's.

use serde::Deserialize;

use crate::cost::Currency;
use crate::error::FieldError;
use crate::json::{self, from_json_fields, FromJson, Json, Wrong};
use crate::offers::{Block, Monthly, Offer, OnDemand, Reserved, SavingsPlan, Spot, Tier};

/// The documented sheet format (docs/embedding.md).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Sheet {
    pub version: u32,
    /// Shown beside every offer of the sheet that names no provider.
    pub provider: String,
    pub offers: Vec<Offer>,
}

/// Reads a sheet from its JSON text, or says which part is wrong. Serde's
/// `Deserialize` reads the same shape (the CLI and the JS API use it); this
/// reader keeps serde's generic code out of the page (issue 10).
pub fn from_json(text: &str) -> Result<Sheet, String> {
    Sheet::from_json(&json::parse(text)?).map_err(|e| e.to_string())
}

/// Reads a list of offers (as posted by the host page) from its JSON text.
pub fn offers_from_json(text: &str) -> Result<Vec<Offer>, String> {
    Vec::from_json(&json::parse(text)?).map_err(|e| e.under("offers").to_string())
}

from_json_fields!(Sheet { version, provider, offers });
from_json_fields!(Offer {
    id,
    provider,
    name,
    gpu,
    gpus,
    currency,
    od,
    spot,
    sp,
    ri,
    block,
    monthly,
    storage_gb_month,
    ip_hour,
    egress,
    source,
    date,
    host,
    note,
});
from_json_fields!(OnDemand { hourly, step_s, min_s });
from_json_fields!(Spot { hourly, per_day });
from_json_fields!(SavingsPlan { hourly, years });
from_json_fields!(Reserved { hourly, upfront, years });
from_json_fields!(Block { hourly });
from_json_fields!(Monthly { price, egress_gb, min_months });
from_json_fields!(Tier { upto_gb, per_gb });

impl FromJson for Currency {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        let code = String::from_json(v)?;
        crate::names::parse(&code).ok_or(Wrong::new("USD or CNY"))
    }
}

/// The sheet's offers, each marked `host`, or every invalid field. Ids are
/// prefixed with "host:" so a sheet never silently replaces a default offer.
pub fn host_offers(sheet: Sheet) -> Result<Vec<Offer>, Vec<FieldError>> {
    let mut errs = Vec::new();
    let offers: Vec<Offer> = sheet
        .offers
        .into_iter()
        .enumerate()
        .map(|(i, mut o)| {
            o.validate(&format!("sheet.offers[{i}]"), &mut errs);
            o.host = true;
            if o.provider.is_empty() {
                o.provider = sheet.provider.clone().into();
            }
            if !o.id.starts_with("host:") {
                o.id = format!("host:{}", o.id).into();
            }
            o
        })
        .collect();
    if errs.is_empty() {
        Ok(offers)
    } else {
        Err(errs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_offers_are_labelled_and_checked() {
        let sheet: Sheet = serde_json::from_str(
            r#"{"version":1,"provider":"Vendor","offers":[{"id":"h100x8","name":"8x H100","gpu":"h100-sxm","gpus":8,"od":{"hourly":20}}]}"#,
        )
        .unwrap();
        let offers = host_offers(sheet).unwrap();
        assert_eq!(offers[0].id, "host:h100x8");
        assert!(offers[0].host);
        assert_eq!(offers[0].provider, "Vendor");
        let bad: Sheet =
            serde_json::from_str(r#"{"offers":[{"id":"x","gpu":"h100-sxm","gpus":8,"od":{"hourly":-1}}]}"#)
                .unwrap();
        assert!(host_offers(bad).is_err());
    }

    /// The page's reader and serde's agree on every built-in offer, so a field
    /// added to an offer without its reader fails here.
    #[test]
    fn json_reader_matches_serde() {
        let offers = crate::offers::defaults();
        let text = serde_json::json!({ "version": 1, "provider": "P", "offers": offers }).to_string();
        let serde: Sheet = serde_json::from_str(&text).unwrap();
        assert_eq!(from_json(&text), Ok(serde.clone()));
        let every = Offer {
            spot: Some(Spot { hourly: 1.5, per_day: Some(0.25) }),
            sp: Some(SavingsPlan { hourly: 2.0, years: 3 }),
            ri: Some(Reserved { hourly: 1.0, upfront: 5000.0, years: 3 }),
            block: Some(Block { hourly: 3.0 }),
            monthly: Some(Monthly { price: 900.0, egress_gb: 10.0, min_months: 2 }),
            od: Some(OnDemand { hourly: 4.0, step_s: 3600, min_s: 0 }),
            egress: vec![Tier { upto_gb: Some(10.0), per_gb: 0.1 }, Tier { upto_gb: None, per_gb: 0.05 }],
            currency: Currency::Cny,
            host: true,
            note: "n".into(),
            ..serde.offers[0].clone()
        };
        let text = serde_json::to_string(&vec![every.clone()]).unwrap();
        assert_eq!(offers_from_json(&text), Ok(vec![every]));
    }

    #[test]
    fn json_reader_names_the_wrong_field() {
        let err = from_json(r#"{"offers":[{"id":"x"},{"gpus":"8"}]}"#).unwrap_err();
        assert_eq!(err, "offers[1].gpus: expected a whole number");
        let err = offers_from_json(r#"[{"od":{"hourly":"x"}}]"#).unwrap_err();
        assert_eq!(err, "offers[0].od.hourly: expected a number");
        assert_eq!(
            from_json(r#"{"offers":[{"currency":"EUR"}]}"#).unwrap_err(),
            "offers[0].currency: expected USD or CNY"
        );
        assert!(from_json("<html>").is_err());
    }
}
