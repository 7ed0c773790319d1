//! How long the plan's data takes to move over the server's network, both
//! ways (seed 004: 140 GB at 10 Gbps takes about two minutes, 10 TB over two
//! hours), and whether that is a visible share of the rental.

use super::text::{bi, size, Bi, Para};
use super::{Facts, Fill};
use crate::plan::Task;

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
pub(super) fn duration(secs: f64) -> Bi {
    if secs < 60.0 {
        let s = format!("{secs:.0}");
        bi!(format!("{s} 秒"), format!("{s} s"))
    } else if secs < 3600.0 {
        let m = format!("{:.0}", secs / 60.0);
        bi!(format!("{m} 分钟"), format!("{m} min"))
    } else {
        let h = format!("{:.1}", secs / 3600.0);
        bi!(format!("{h} 小时"), format!("{h} h"))
    }
}

/// One thing to move: its name, size and time.
fn leg(name: Bi, bytes: u64, gbps: f64) -> (Bi, f64) {
    let secs = seconds(bytes, gbps);
    let t = duration(secs);
    (
        bi!(
            format!("{} {}（约 {}）", name.zh, size(bytes), t.zh),
            format!("{} {} (about {})", name.en, size(bytes), t.en)
        ),
        secs,
    )
}

pub(super) fn transfer(f: &Facts) -> Option<Fill> {
    let gbps = f.network_gbps.unwrap_or(DEFAULT_GBPS);
    let mut inbound = Vec::new();
    if f.weights_bytes > 0 {
        inbound.push(leg(bi!("模型权重", "model weights"), f.weights_bytes, gbps));
    }
    if let Some(d) = f.dataset_bytes.filter(|d| *d > 0 && f.task == Task::Train) {
        inbound.push(leg(bi!("数据集", "dataset"), d, gbps));
    }
    let outbound: Vec<(Bi, f64)> = match f.checkpoint_bytes.filter(|c| *c > 0 && f.task == Task::Train) {
        Some(c) => vec![leg(bi!("检查点", "a checkpoint"), c, gbps)],
        None => Vec::new(),
    };
    if inbound.is_empty() && outbound.is_empty() {
        return None;
    }
    let rate = if f.network_gbps.is_some() {
        bi!(format!("以 {gbps} Gbps 线速"), format!("at {gbps} Gbps line rate"))
    } else {
        bi!(
            format!("以 {gbps} Gbps 线速（报价未写端口速率；单卡套餐常见 10 或 25 Gbps）"),
            format!("at {gbps} Gbps line rate (the offer names no port speed; single-GPU plans often have 10 or 25 Gbps)"),
        )
    };
    let list = |legs: &[(Bi, f64)]| {
        let zh: Vec<&str> = legs.iter().map(|(b, _)| b.zh.as_str()).collect();
        let en: Vec<&str> = legs.iter().map(|(b, _)| b.en.as_str()).collect();
        bi!(zh.join("，"), en.join(", "))
    };
    let (inl, outl) = (list(&inbound), list(&outbound));
    let out_text = if outbound.is_empty() {
        bi!("传出：没有大文件（响应计入出站流量）", "out: nothing large (responses count as egress)")
    } else {
        bi!(format!("传出：{}", outl.zh), format!("out: {}", outl.en))
    };
    let in_text = if inbound.is_empty() {
        bi!("传入：无".to_string(), "in: nothing".to_string())
    } else {
        bi!(format!("传入：{}", inl.zh), format!("in: {}", inl.en))
    };
    let mut p = Para::from(bi!(
        format!("传输时间：{}，{}；{}。", rate.zh, in_text.zh, out_text.zh),
        format!("Transfer times: {}, {}; {}.", rate.en, in_text.en, out_text.en),
    ));
    let total: f64 = inbound.iter().chain(&outbound).map(|(_, s)| s).sum();
    let share = f.rental_hours.filter(|h| *h > 0.0).map(|h| total / 3600.0 / h);
    let visible = share.is_some_and(|s| s >= VISIBLE_SHARE);
    if let (true, Some(s), Some(h)) = (visible, share, f.rental_hours) {
        let (pct, hours, t) = (format!("{:.0}", s * 100.0), format!("{h:.0}"), duration(total));
        p.push(bi!(
            format!("合计约 {}，占 {hours} 小时租期的 {pct}%：传数据时 GPU 照样计费，先把数据放到服务器附近的对象存储，或在开 GPU 之前传好。", t.zh),
            format!("About {} in all, {pct}% of the {hours} h rental: the GPUs bill while data moves, so stage data in object storage near the server or move it before the GPUs start.", t.en),
        ));
    }
    Some(Fill::new(p.done()).risk(visible))
}
