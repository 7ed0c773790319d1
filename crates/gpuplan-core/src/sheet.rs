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
}
