//! gpuplan's own offers file: every field of every offer and the user's
//! line items, as JSON. `{"version": 1, "provider": "...", "offers": [...],
//! "items": [...]}` (the host sheet's shape plus items), or a bare list of
//! offers. Each offer is read on its own, so one bad offer is named by its
//! line and the others load.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{Import, Notice};
use crate::cost::Item;
use crate::error::Limit;
use crate::lang::Lang;
use crate::offers::Offer;

pub const VERSION: u32 = 1;

#[derive(Deserialize)]
struct Doc<'a> {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    provider: String,
    #[serde(borrow, default)]
    offers: Vec<&'a RawValue>,
    #[serde(borrow, default)]
    items: Vec<&'a RawValue>,
}

#[derive(Serialize)]
struct Out<'a> {
    version: u32,
    offers: &'a [Offer],
    items: &'a [Item],
}

/// The offers file for `offers` and `items`.
pub fn export(offers: &[Offer], items: &[Item]) -> String {
    serde_json::to_string_pretty(&Out { version: VERSION, offers, items }).unwrap_or_default()
}

/// serde_json's message without its position (the notice carries the line).
fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text.get(..at).unwrap_or(&text).to_string(),
        None => text,
    }
}

/// Line (1-based) where `part`, a slice of `text`, starts.
fn line_of(text: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    text.get(..offset).map_or(0, |before| before.matches('\n').count() + 1)
}

/// Reads an offers file into `out`.
pub fn import(text: &str, out: &mut Import) {
    let doc = if text.trim_start().starts_with('[') {
        serde_json::from_str(text).map(|offers| Doc {
            version: VERSION,
            provider: String::new(),
            offers,
            items: Vec::new(),
        })
    } else {
        serde_json::from_str::<Doc>(text)
    };
    let doc = match doc {
        Ok(doc) => doc,
        Err(e) => {
            return out.notices.push(Notice::new(e.line(), format!("not an offers file: {}", message(&e))))
        }
    };
    if doc.version > VERSION {
        out.notices.push(Notice::new(
            1,
            format!(
                "version {} is newer than this gpuplan reads ({VERSION}); read as {VERSION}",
                doc.version
            ),
        ));
    }
    for (i, raw) in doc.offers.iter().enumerate() {
        let line = line_of(text, raw.get());
        match serde_json::from_str::<Offer>(raw.get()) {
            Ok(offer) => add_offer(offer, i, line, &doc.provider, out),
            Err(e) => out.notices.push(Notice::new(
                line + e.line().saturating_sub(1),
                format!("offers[{i}]: {}", message(&e)),
            )),
        }
    }
    for (i, raw) in doc.items.iter().enumerate() {
        let line = line_of(text, raw.get());
        match serde_json::from_str::<Item>(raw.get()) {
            Ok(item) => add_item(item, i, line, out),
            Err(e) => out
                .notices
                .push(Notice::new(line + e.line().saturating_sub(1), format!("items[{i}]: {}", message(&e)))),
        }
    }
}

fn add_offer(mut offer: Offer, i: usize, line: usize, provider: &str, out: &mut Import) {
    let mut errs = Vec::new();
    offer.validate(&format!("offers[{i}]"), &mut errs);
    if let Some(e) = errs.first() {
        return out.notices.push(Notice::new(line, e.message(Lang::En)));
    }
    if offer.id.trim().is_empty() {
        offer.id = format!("import-{}", out.offers.len() + 1).into();
    }
    if offer.provider.is_empty() {
        offer.provider = provider.to_string().into();
    }
    // Only an embedding page's sheet is the host's (sheet::host_offers).
    offer.host = false;
    super::check_text(&[("provider", &offer.provider), ("name", &offer.name)], line, out);
    out.offers.push(offer);
}

fn add_item(item: Item, i: usize, line: usize, out: &mut Import) {
    let mut errs = Vec::new();
    Limit::real(0.0, 1.0e12).check_f64(&format!("items[{i}].amount"), item.amount, &mut errs);
    match errs.first() {
        Some(e) => out.notices.push(Notice::new(line, e.message(Lang::En))),
        None => out.items.push(item),
    }
}
