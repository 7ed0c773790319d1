//! The market: offers read from price sheets users already have
//! (SkyPilot's catalog CSV, gpuplan's own JSON), the shipped dated market
//! (`data/market/`), each price's age and the filters a comparison takes.
//!
//! Importing never fails as a whole: rows that cannot be read become
//! line-numbered notices, accelerators the catalog lacks are counted, and
//! every good row loads. Provider and instance names stay plain text.

mod age;
mod alias;
mod csv;
mod filter;
mod notes;
mod own;
mod rules;
mod sky;

pub use age::{age, parse_date, Age, STALE_MONTHS};
pub use alias::catalog_id;
pub use filter::{Buy, Filter};
pub use own::{export, VERSION};
pub use sky::{export as export_csv, Defaults};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cost::Item;
use crate::offers::Offer;

/// Largest file read (a SkyPilot per-cloud catalog is under 4 MB; the
/// largest file the issue names, 50 MB, is refused).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;

/// Date the shipped SkyPilot snapshot was read (data/market/README.md).
pub const SNAPSHOT_DATE: &str = "2026-12-04";

/// A line of a file that could not be used, or a warning about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    pub message: String,
}

impl Notice {
    pub fn new(line: usize, message: impl Into<String>) -> Notice {
        Notice { line, message: message.into() }
    }

    /// "line 12: ..." (or the message alone for the whole file).
    pub fn text(&self) -> String {
        match self.line {
            0 => self.message.clone(),
            n => format!("line {n}: {}", self.message),
        }
    }
}

/// An accelerator name no catalog GPU answers to, and the rows that named it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unmapped {
    pub name: String,
    pub rows: usize,
}

/// What an import read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Import {
    pub offers: Vec<Offer>,
    pub items: Vec<Item>,
    pub notices: Vec<Notice>,
    pub unmapped: Vec<Unmapped>,
}

impl Import {
    /// Adds another import's offers (same id: the later one wins), items
    /// and notices, finding each id through an index rather than a search.
    pub fn extend(&mut self, other: Import) {
        let mut at: BTreeMap<String, usize> =
            self.offers.iter().enumerate().map(|(i, o)| (o.id.to_string(), i)).collect();
        for offer in other.offers {
            match at.get(offer.id.as_ref()).and_then(|&i| self.offers.get_mut(i)) {
                Some(slot) => *slot = offer,
                None => {
                    at.insert(offer.id.to_string(), self.offers.len());
                    self.offers.push(offer);
                }
            }
        }
        self.items.extend(other.items);
        self.notices.extend(other.notices);
        let mut named: BTreeMap<String, usize> =
            self.unmapped.iter().enumerate().map(|(i, u)| (u.name.clone(), i)).collect();
        for u in other.unmapped {
            match named.get(&u.name).and_then(|&i| self.unmapped.get_mut(i)) {
                Some(m) => m.rows += u.rows,
                None => {
                    named.insert(u.name.clone(), self.unmapped.len());
                    self.unmapped.push(u);
                }
            }
        }
    }
}

/// Reads a price sheet: JSON (gpuplan's offers file) when it starts with
/// '{' or '[', else CSV in SkyPilot's schema.
pub fn import(text: &str, defaults: &Defaults) -> Import {
    let mut out = Import::default();
    if text.len() > MAX_BYTES {
        let mb = text.len() / (1024 * 1024);
        out.notices.push(Notice::new(
            0,
            format!("{mb} MB is more than the {} MB a price sheet may be", MAX_BYTES / (1024 * 1024)),
        ));
        return out;
    }
    let body = text.trim_start_matches('\u{feff}');
    if body.trim_start().starts_with(['{', '[']) {
        own::import(body, &mut out);
    } else {
        sky::import(body, defaults, &mut out);
    }
    out
}

/// The shipped market: the SkyPilot snapshot (data/market/cloud-offers.csv)
/// and the Chinese providers' list prices (data/market/cn-offers.json).
pub fn shipped(skypilot_csv: &str, cn_json: &str) -> Import {
    let sky = Defaults {
        provider: "",
        date: SNAPSHOT_DATE,
        source: "SkyPilot public catalog snapshot (gpuplan data/market/README.md)",
    };
    let mut market = import(skypilot_csv, &sky);
    market.extend(import(cn_json, &Defaults { provider: "", date: "", source: "" }));
    market
}

/// Notices for names holding markup or control characters (kept as text).
fn check_text(fields: &[(&str, &str)], line: usize, out: &mut Import) {
    for (what, text) in fields {
        if text.contains(['<', '>']) || text.chars().any(char::is_control) {
            let shown = notes::printable(text);
            out.notices.push(Notice::new(
                line,
                format!("{what} \"{shown}\" holds markup or control characters; kept as plain text"),
            ));
        }
    }
}

#[cfg(test)]
mod tests;
