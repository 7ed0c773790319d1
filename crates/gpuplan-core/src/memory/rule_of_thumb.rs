//! Seed 002's rule of thumb beside the computed total: inference memory ≈
//! weights × 1.2-1.5. Shown as a comparison with the ratio, so a reader who
//! knows the seed sees where this estimate departs from it and why.

use super::{Components, Note};
use crate::derivation;
use crate::lang::bi;

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
    let head = bi!(
        format!("常见的经验法则“显存 ≈ 权重 × 1.2–1.5”给出 {lo} 到 {hi}；本估算每卡 {sum}，即权重 × {r}。"),
        format!("A common rule of thumb, memory ≈ weights × 1.2-1.5, gives {lo} to {hi}; this estimate is {sum} per GPU, weights × {r}."),
    );
    let why = if ratio > HIGH {
        bi!(
            format!("该法则没有计入随上下文 × 并发增长的 KV 缓存（本方案 {kv}），对本方案偏低。"),
            format!(" The rule leaves out the KV cache, which grows with context × concurrency ({kv} here): too low for this plan."),
        )
    } else if ratio < LOW {
        bi!(
            format!("该法则留的余量大于本方案的 KV 缓存和工作区（{kv} 与 {ws}）：对本方案偏高。"),
            format!(" The rule's margin is larger than this plan's KV cache and workspace ({kv} and {ws}): too high for this plan."),
        )
    } else {
        bi!("两者对本方案一致。", " The two agree for this plan.")
    };
    Some(Note::new("rule_of_thumb", bi!(format!("{}{}", head.zh, why.zh), format!("{}{}", head.en, why.en))))
}
