//! Host price sheets: a vendor ships `prices.json` next to the static files,
//! or posts the same shape to the embedded page. Offers that come this way are
//! checked like the user's own and labelled as the host's.

use serde::Deserialize;

use crate::error::FieldError;
use crate::offers::Offer;

/// The documented sheet format (docs/embedding.md).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Sheet {
    pub version: u32,
    /// Shown beside every offer of the sheet that names no provider.
    pub provider: String,
    pub offers: Vec<Offer>,
}

/// Reads a sheet from its JSON text, or says which part is wrong
/// ("offers[1].gpus: invalid type: ..."). Absent fields keep their
/// defaults and unknown ones are skipped.
pub fn from_json(text: &str) -> Result<Sheet, String> {
    read(text, "")
}

/// Reads a list of offers (as posted by the host page) from its JSON text.
pub fn offers_from_json(text: &str) -> Result<Vec<Offer>, String> {
    read(text, "offers")
}

/// Reads JSON without the failing field's path (serde_json gives its line
/// and column): the page reads every JSON it takes in (a sheet, the shipped
/// market, a saved sheet, a reader's answer) with this one deserializer, as
/// each other one compiles the offers' whole reader into the page again,
/// and the path tracking's the largest (docs/performance.md).
pub fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// serde_json, with the path of the failing field (under `root`, the name
/// of the whole value) in front of its message.
fn read<T: serde::de::DeserializeOwned>(text: &str, root: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value =
        serde_path_to_error::deserialize(&mut de).map_err(|e| match e.path().to_string().as_str() {
            "." => e.inner().to_string(),
            path => format!("{root}{path}: {}", e.inner()),
        })?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
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

    /// Every built-in offer and a fully populated one read back as written,
    /// so a field that serialises in a shape it cannot be read in fails here.
    #[test]
    fn offers_read_back_as_written() {
        use crate::money::Currency;
        use crate::offers::{Band, Block, Monthly, OnDemand, Reserved, SavingsPlan, Spot, Tier};
        let offers = crate::offers::defaults();
        let text = serde_json::json!({ "version": 1, "provider": "P", "offers": offers }).to_string();
        let sheet = from_json(&text).unwrap();
        assert_eq!(sheet.offers, offers);
        let every = Offer {
            spot: Some(Spot { hourly: 1.5, per_day: Some(0.25) }),
            sp: Some(SavingsPlan { hourly: 2.0, years: 3 }),
            ri: Some(Reserved { hourly: 1.0, upfront: 5000.0, years: 3 }),
            block: Some(Block { hourly: 3.0 }),
            monthly: Some(Monthly { price: 900.0, egress_gb: 10.0, min_months: 2 }),
            od: Some(OnDemand { hourly: 4.0, step_s: 3600, min_s: 0, keeps_billing: true }),
            egress: vec![Tier { upto_gb: Some(10.0), per_gb: 0.1 }, Tier { upto_gb: None, per_gb: 0.05 }],
            bandwidth: vec![
                Band { upto_mbps: Some(5.0), per_mbps_month: 25.0 },
                Band { upto_mbps: None, per_mbps_month: 100.0 },
            ],
            region: "cn-north".into(),
            currency: Currency::Cny,
            host: true,
            note: "n".into(),
            ..offers[0].clone()
        };
        let text = serde_json::to_string(&vec![every.clone()]).unwrap();
        assert_eq!(offers_from_json(&text), Ok(vec![every]));
    }

    #[test]
    fn messages_name_the_wrong_field() {
        let err = from_json(r#"{"offers":[{"id":"x"},{"gpus":"8"}]}"#).unwrap_err();
        assert!(err.starts_with("offers[1].gpus: invalid type: string \"8\""), "{err}");
        let err = offers_from_json(r#"[{"od":{"hourly":"x"}}]"#).unwrap_err();
        assert!(err.starts_with("offers[0].od.hourly: invalid type"), "{err}");
        let err = from_json(r#"{"offers":[{"currency":"EUR"}]}"#).unwrap_err();
        assert!(err.starts_with("offers[0].currency: unknown variant `EUR`"), "{err}");
        assert!(from_json("<html>").unwrap_err().starts_with("expected value"));
        assert!(from_json(r#"{"offers":[]} 2"#).is_err());
        assert!(from_json(&"[".repeat(100_000)).is_err());
    }
}
