//! How long the plan's data takes to move over the server's network, both
//! ways (140 GB at 10 Gbps takes about two minutes, 10 TB over two
//! hours), and whether that is a visible share of the rental.

use std::fmt::Display;

use super::text::Para;
use super::{Facts, Fill};
use crate::lang::Lang;
use crate::plan::Task;
use crate::present::size;
use crate::text::{self, Key};

/// The port assumed when the offer names none: seed 004's single-GPU plans
/// come with 10 or 25 Gbps, so the slower.
const DEFAULT_GBPS: f64 = 10.0;

/// Transfer time that the bill notices: the GPUs bill while data moves.
const VISIBLE_SHARE: f64 = 0.05;

/// Seconds to move `bytes` at `gbps` line rate.
pub(super) fn seconds(bytes: u64, gbps: f64) -> f64 {
    bytes as f64 * 8.0 / (gbps * 1e9)
}

/// "2 min", "2.2 h", "40 s".
fn duration(secs: f64, lang: Lang) -> String {
    if secs < 60.0 {
        text::fill(Key::DurationSeconds, lang, &[("n", &format!("{secs:.0}"))])
    } else if secs < 3600.0 {
        text::fill(Key::DurationMinutes, lang, &[("n", &format!("{:.0}", secs / 60.0))])
    } else {
        text::fill(Key::DurationHours, lang, &[("n", &format!("{:.1}", secs / 3600.0))])
    }
}

/// One thing to move: what it is, its size and time.
struct Leg {
    name: Key,
    bytes: u64,
    secs: f64,
}

impl Leg {
    fn new(name: Key, bytes: u64, gbps: f64) -> Leg {
        Leg { name, bytes, secs: seconds(bytes, gbps) }
    }

    /// "model weights 140 GB (about 2 min)".
    fn text(&self, lang: Lang) -> String {
        let (name, time) = (text::get(self.name, lang), duration(self.secs, lang));
        text::fill(Key::TransferLeg, lang, &[("name", &name), ("size", &size(self.bytes)), ("time", &time)])
    }
}

/// Onto the server: the weights, and a training run's dataset.
fn inbound(f: &Facts, gbps: f64) -> Vec<Leg> {
    let weights = (f.weights_bytes > 0).then(|| Leg::new(Key::TransferWeights, f.weights_bytes, gbps));
    let data = f.dataset_bytes.filter(|d| *d > 0 && f.task == Task::Train);
    weights.into_iter().chain(data.map(|d| Leg::new(Key::TransferDataset, d, gbps))).collect()
}

/// Off the server: a training run's checkpoint (a service sends responses,
/// which the egress item counts).
fn outbound(f: &Facts, gbps: f64) -> Vec<Leg> {
    f.checkpoint()
        .filter(|c| *c > 0)
        .map(|c| Leg::new(Key::TransferCheckpoint, c, gbps))
        .into_iter()
        .collect()
}

/// "in: model weights 140 GB (about 2 min), dataset ..." or what stands for none.
fn list(head: Key, none: Key, legs: &[Leg], lang: Lang) -> String {
    if legs.is_empty() {
        return text::get(none, lang).to_string();
    }
    let items: Vec<String> = legs.iter().map(|l| l.text(lang)).collect();
    text::fill(head, lang, &[("items", &items.join(text::get(Key::ListSeparator, lang)))])
}

pub(super) fn transfer(f: &Facts) -> Option<Fill> {
    let gbps = f.network_gbps.unwrap_or(DEFAULT_GBPS);
    let (inb, outb) = (inbound(f, gbps), outbound(f, gbps));
    if inb.is_empty() && outb.is_empty() {
        return None;
    }
    let rate = if f.network_gbps.is_some() { Key::TransferRate } else { Key::TransferRateAssumed };
    let mut p = Para::from(text::each(|lang| {
        let holes: [(&str, &dyn Display); 3] = [
            ("rate", &text::fill(rate, lang, &[("gbps", &gbps)])),
            ("in", &list(Key::TransferIn, Key::TransferInNone, &inb, lang)),
            ("out", &list(Key::TransferOut, Key::TransferOutNone, &outb, lang)),
        ];
        text::fill(Key::TransferTimes, lang, &holes)
    }));
    let total: f64 = inb.iter().chain(&outb).map(|l| l.secs).sum();
    let visible = share_of_rental(f, total).filter(|s| *s >= VISIBLE_SHARE);
    if let (Some(s), Some(h)) = (visible, f.rental_hours) {
        let (pct, hours) = (format!("{:.0}", s * 100.0), format!("{h:.0}"));
        p.push(text::each(|lang| {
            let holes: [(&str, &dyn Display); 3] =
                [("time", &duration(total, lang)), ("pct", &pct), ("hours", &hours)];
            text::fill(Key::TransferVisible, lang, &holes)
        }));
    }
    Some(Fill::new(p.done()).risk(visible.is_some()))
}

/// Transfer time as a share of the hours the rental bills.
fn share_of_rental(f: &Facts, secs: f64) -> Option<f64> {
    f.rental_hours.filter(|h| *h > 0.0).map(|h| secs / 3600.0 / h)
}
