//! The words an imported offer carries: its region range, its price range
//! and user text made safe to quote in a message.

use crate::cost::num;

/// "us-east-2 (cheapest of 12 regions)", or the region alone.
pub fn region(cheapest: &str, regions: u32) -> String {
    match regions {
        0 | 1 => cheapest.to_string(),
        n => format!("{cheapest} (cheapest of {n} regions)"),
    }
}

/// The provider's note, after the on-demand range across regions if there is one.
pub fn range(min: Option<f64>, max: Option<f64>, note: &str) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) if hi > lo => {
            format!("On-demand {}-{}/h across regions. {note}", num(lo), num(hi))
        }
        _ => note.to_string(),
    }
}

/// At most 60 characters of `text`, control characters shown as '?'.
pub fn printable(text: &str) -> String {
    text.chars().take(60).map(|c| if c.is_control() { '?' } else { c }).collect()
}
