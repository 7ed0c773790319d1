//! Host price sheets: a vendor ships `prices.json` next to the static files,
//! or posts the same shape to the embedded page. Offers that come this way are
//! checked like the user's own and labelled as the host's.

use serde::Deserialize;

use crate::cost::Currency;
use crate::error::FieldError;
use crate::json::{self, Json};
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
/// reader keeps serde's generic code out of the page (issue 10). As with
/// serde, absent fields keep their defaults and unknown ones are skipped.
pub fn from_json(text: &str) -> Result<Sheet, String> {
    let Json::Obj(fields) = json::parse(text)? else { return Err("the sheet: expected an object".into()) };
    let mut sheet = Sheet::default();
    for (key, v) in &fields {
        match (key.as_str(), v) {
            ("version", Json::Num(x)) if whole(*x) => sheet.version = *x as u32,
            ("version", _) => return Err("version: expected a whole number".into()),
            ("provider", Json::Str(name)) => sheet.provider.clone_from(name),
            ("provider", _) => return Err("provider: expected a string".into()),
            ("offers", v) => sheet.offers = offers(v)?,
            _ => {}
        }
    }
    Ok(sheet)
}

/// Reads a list of offers (as posted by the host page) from its JSON text.
pub fn offers_from_json(text: &str) -> Result<Vec<Offer>, String> {
    offers(&json::parse(text)?)
}

fn offers(v: &Json) -> Result<Vec<Offer>, String> {
    let Json::Arr(items) = v else { return Err("offers: expected a list".into()) };
    let read = |(i, item): (usize, &Json)| {
        let at = format!("offers[{i}]");
        let Json::Obj(fields) = item else { return Err(format!("{at}: expected an object")) };
        let mut offer = Offer::default();
        read_fields(&mut offer, "", &at, fields, 0)?;
        Ok(offer)
    };
    items.iter().enumerate().map(read).collect()
}

fn whole(x: f64) -> bool {
    x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x)
}

/// How one field of an offer is read: nested objects are flattened
/// ("od.hourly") and list items share one entry ("egress[].per_gb"), so
/// every field is a row of [`FIELDS`], not a generic function. The `usize`
/// is the list item's index.
#[derive(Clone, Copy)]
enum Slot {
    Num(fn(&mut Offer, usize) -> Option<&mut f64>),
    /// A number, or `null` for none.
    MaybeNum(fn(&mut Offer, usize) -> Option<&mut Option<f64>>),
    Int(fn(&mut Offer) -> &mut u32),
    Text(fn(&mut Offer) -> &mut Text),
    Flag(fn(&mut Offer) -> &mut bool),
    Currency,
    /// An optional part: `null` removes it, an object starts it at its defaults.
    Part(fn(&mut Offer, bool)),
    /// A list, sized to the JSON array before its items are read.
    List(fn(&mut Offer, usize)),
}

impl Slot {
    fn want(self) -> &'static str {
        match self {
            Slot::Num(_) => "a number",
            Slot::MaybeNum(_) => "a number or null",
            Slot::Int(_) => "a whole number",
            Slot::Text(_) => "a string",
            Slot::Flag(_) => "true or false",
            Slot::Currency => "USD or CNY",
            Slot::Part(_) => "an object or null",
            Slot::List(_) => "a list",
        }
    }
}

type Text = std::borrow::Cow<'static, str>;

/// A part of an offer, started at its defaults when absent.
macro_rules! part {
    ($o:ident . $part:ident) => {
        $o.$part.get_or_insert_with(Default::default)
    };
}

/// Every field of an offer, by its serde name.
const FIELDS: &[(&str, Slot)] = &[
    ("id", Slot::Text(|o| &mut o.id)),
    ("provider", Slot::Text(|o| &mut o.provider)),
    ("name", Slot::Text(|o| &mut o.name)),
    ("gpu", Slot::Text(|o| &mut o.gpu)),
    ("gpus", Slot::Int(|o| &mut o.gpus)),
    ("currency", Slot::Currency),
    ("od", Slot::Part(|o, on| o.od = on.then(OnDemand::default))),
    ("od.hourly", Slot::Num(|o, _| Some(&mut part!(o.od).hourly))),
    ("od.step_s", Slot::Int(|o| &mut part!(o.od).step_s)),
    ("od.min_s", Slot::Int(|o| &mut part!(o.od).min_s)),
    ("spot", Slot::Part(|o, on| o.spot = on.then(Spot::default))),
    ("spot.hourly", Slot::Num(|o, _| Some(&mut part!(o.spot).hourly))),
    ("spot.per_day", Slot::MaybeNum(|o, _| Some(&mut part!(o.spot).per_day))),
    ("sp", Slot::Part(|o, on| o.sp = on.then(SavingsPlan::default))),
    ("sp.hourly", Slot::Num(|o, _| Some(&mut part!(o.sp).hourly))),
    ("sp.years", Slot::Int(|o| &mut part!(o.sp).years)),
    ("ri", Slot::Part(|o, on| o.ri = on.then(Reserved::default))),
    ("ri.hourly", Slot::Num(|o, _| Some(&mut part!(o.ri).hourly))),
    ("ri.upfront", Slot::Num(|o, _| Some(&mut part!(o.ri).upfront))),
    ("ri.years", Slot::Int(|o| &mut part!(o.ri).years)),
    ("block", Slot::Part(|o, on| o.block = on.then(Block::default))),
    ("block.hourly", Slot::Num(|o, _| Some(&mut part!(o.block).hourly))),
    ("monthly", Slot::Part(|o, on| o.monthly = on.then(Monthly::default))),
    ("monthly.price", Slot::Num(|o, _| Some(&mut part!(o.monthly).price))),
    ("monthly.egress_gb", Slot::Num(|o, _| Some(&mut part!(o.monthly).egress_gb))),
    ("monthly.min_months", Slot::Int(|o| &mut part!(o.monthly).min_months)),
    ("storage_gb_month", Slot::Num(|o, _| Some(&mut o.storage_gb_month))),
    ("ip_hour", Slot::Num(|o, _| Some(&mut o.ip_hour))),
    ("egress", Slot::List(|o, n| o.egress.resize(n, Tier::default()))),
    ("egress[].upto_gb", Slot::MaybeNum(|o, j| o.egress.get_mut(j).map(|t| &mut t.upto_gb))),
    ("egress[].per_gb", Slot::Num(|o, j| o.egress.get_mut(j).map(|t| &mut t.per_gb))),
    ("source", Slot::Text(|o| &mut o.source)),
    ("date", Slot::Text(|o| &mut o.date)),
    ("host", Slot::Flag(|o| &mut o.host)),
    ("note", Slot::Text(|o| &mut o.note)),
];

/// Reads an object's fields into `o`: `prefix` is its place in [`FIELDS`]
/// ("", "od", "egress[]"), `at` its path for messages ("offers[2].egress[0]").
fn read_fields(
    o: &mut Offer,
    prefix: &str,
    at: &str,
    fields: &[(String, Json)],
    j: usize,
) -> Result<(), String> {
    for (key, v) in fields {
        let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        let Some(&(_, slot)) = FIELDS.iter().find(|(n, _)| *n == name) else { continue };
        let at = || format!("{at}.{key}");
        let ok = match (slot, v) {
            (Slot::Num(f), Json::Num(x)) => f(o, j).map(|t| *t = *x).is_some(),
            (Slot::MaybeNum(f), Json::Num(x)) => f(o, j).map(|t| *t = Some(*x)).is_some(),
            (Slot::MaybeNum(f), Json::Null) => f(o, j).map(|t| *t = None).is_some(),
            (Slot::Int(f), Json::Num(x)) if whole(*x) => {
                *f(o) = *x as u32;
                true
            }
            (Slot::Text(f), Json::Str(s)) => {
                *f(o) = Text::Owned(s.clone());
                true
            }
            (Slot::Flag(f), Json::Bool(b)) => {
                *f(o) = *b;
                true
            }
            (Slot::Currency, Json::Str(code)) => {
                crate::names::parse(code).map(|c: Currency| o.currency = c).is_some()
            }
            (Slot::Part(f), Json::Null) => {
                f(o, false);
                true
            }
            (Slot::Part(f), Json::Obj(inner)) => {
                f(o, true);
                read_fields(o, &name, &at(), inner, j)?;
                true
            }
            (Slot::List(f), Json::Arr(items)) => {
                f(o, items.len());
                for (i, item) in items.iter().enumerate() {
                    let here = format!("{}[{i}]", at());
                    let Json::Obj(inner) = item else { return Err(format!("{here}: expected an object")) };
                    read_fields(o, &format!("{name}[]"), &here, inner, i)?;
                }
                true
            }
            _ => false,
        };
        if !ok {
            return Err(format!("{}: expected {}", at(), slot.want()));
        }
    }
    Ok(())
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
