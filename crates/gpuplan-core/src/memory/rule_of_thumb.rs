//! Seed 002's rule of thumb beside the computed total: inference memory ≈
//! weights × 1.2-1.5. Shown as a comparison with the ratio, so a reader who
//! knows the seed sees where this estimate departs from it and why.

use super::{Components, Note};
use crate::derivation;
use crate::text::Key;

/// Seed 002 §3.1: "显存需求(GB) ≈ 模型权重(GB) × 1.2~1.5".
const LOW: f64 = 1.2;
const HIGH: f64 = 1.5;

/// The comparison for one GPU's inference estimate; None without weights.
pub(super) fn note(c: &Components, total: u64) -> Option<Note> {
    let w = c.weights.bytes as f64;
    if w <= 0.0 {
        return None;
    }
    let ratio = total as f64 / w;
    let (lo, hi, sum) =
        (derivation::size(w * LOW), derivation::size(w * HIGH), derivation::size(total as f64));
    let (kv, ws) = (derivation::size(c.kv_cache.bytes as f64), derivation::size(c.workspace.bytes as f64));
    let r = format!("{ratio:.2}");
    let key = if ratio > HIGH {
        Key::NoteRuleOfThumbLow
    } else if ratio < LOW {
        Key::NoteRuleOfThumbHigh
    } else {
        Key::NoteRuleOfThumbAgree
    };
    let holes: [(&str, &dyn std::fmt::Display); 6] =
        [("lo", &lo), ("hi", &hi), ("sum", &sum), ("r", &r), ("kv", &kv), ("ws", &ws)];
    Some(Note::filled("rule_of_thumb", key, &holes))
}
