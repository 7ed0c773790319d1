//! How long the plan's data takes to move over the server's network, both
//! ways (seed 004: 140 GB at 10 Gbps takes about two minutes, 10 TB over two
//! hours), and whether that is a visible share of the rental.

use super::text::{bi, Bi, Para};
use super::{Facts, Fill};
use crate::plan::Task;
use crate::present::size;

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
struct Leg {
    text: Bi,
    secs: f64,
}

fn leg(name: Bi, bytes: u64, gbps: f64) -> Leg {
    let secs = seconds(bytes, gbps);
    let t = duration(secs);
    let text = bi!(
        format!("{} {}（约 {}）", name.zh, size(bytes), t.zh),
        format!("{} {} (about {})", name.en, size(bytes), t.en)
    );
    Leg { text, secs }
}

/// Onto the server: the weights, and a training run's dataset.
fn inbound(f: &Facts, gbps: f64) -> Vec<Leg> {
    let weights = (f.weights_bytes > 0).then(|| leg(bi!("模型权重", "model weights"), f.weights_bytes, gbps));
    let data = f.dataset_bytes.filter(|d| *d > 0 && f.task == Task::Train);
    weights.into_iter().chain(data.map(|d| leg(bi!("数据集", "dataset"), d, gbps))).collect()
}

/// Off the server: a training run's checkpoint (a service sends responses,
/// which the egress item counts).
fn outbound(f: &Facts, gbps: f64) -> Vec<Leg> {
    f.checkpoint()
        .filter(|c| *c > 0)
        .map(|c| leg(bi!("检查点", "a checkpoint"), c, gbps))
        .into_iter()
        .collect()
}

/// "in: model weights 140 GB (about 2 min), dataset ..." or what stands for none.
fn list(zh: &str, en: &str, legs: &[Leg], none: Bi) -> Bi {
    if legs.is_empty() {
        return none;
    }
    let zh_items: Vec<&str> = legs.iter().map(|l| l.text.zh.as_str()).collect();
    let en_items: Vec<&str> = legs.iter().map(|l| l.text.en.as_str()).collect();
    bi!(format!("{zh}：{}", zh_items.join("，")), format!("{en}: {}", en_items.join(", ")))
}

fn rate(f: &Facts, gbps: f64) -> Bi {
    if f.network_gbps.is_some() {
        bi!(format!("以 {gbps} Gbps 线速"), format!("at {gbps} Gbps line rate"))
    } else {
        bi!(
            format!("以 {gbps} Gbps 线速（报价未写端口速率；单卡套餐常见 10 或 25 Gbps）"),
            format!("at {gbps} Gbps line rate (the offer names no port speed; single-GPU plans often have 10 or 25 Gbps)"),
        )
    }
}

pub(super) fn transfer(f: &Facts) -> Option<Fill> {
    let gbps = f.network_gbps.unwrap_or(DEFAULT_GBPS);
    let (inb, outb) = (inbound(f, gbps), outbound(f, gbps));
    if inb.is_empty() && outb.is_empty() {
        return None;
    }
    let (r, i) = (rate(f, gbps), list("传入", "in", &inb, bi!("传入：无", "in: nothing")));
    let o = list(
        "传出",
        "out",
        &outb,
        bi!("传出：没有大文件（响应计入出站流量）", "out: nothing large (responses count as egress)"),
    );
    let mut p = Para::from(bi!(
        format!("传输时间：{}，{}；{}。", r.zh, i.zh, o.zh),
        format!("Transfer times: {}, {}; {}.", r.en, i.en, o.en),
    ));
    let total: f64 = inb.iter().chain(&outb).map(|l| l.secs).sum();
    let visible = share_of_rental(f, total).filter(|s| *s >= VISIBLE_SHARE);
    if let (Some(s), Some(h)) = (visible, f.rental_hours) {
        let (pct, hours, t) = (format!("{:.0}", s * 100.0), format!("{h:.0}"), duration(total));
        p.push(bi!(
            format!("合计约 {}，占 {hours} 小时租期的 {pct}%：传数据时 GPU 照样计费，先把数据放到服务器附近的对象存储，或在开 GPU 之前传好。", t.zh),
            format!("About {} in all, {pct}% of the {hours} h rental: the GPUs bill while data moves, so stage data in object storage near the server or move it before the GPUs start.", t.en),
        ));
    }
    Some(Fill::new(p.done()).risk(visible.is_some()))
}

/// Transfer time as a share of the hours the rental bills.
fn share_of_rental(f: &Facts, secs: f64) -> Option<f64> {
    f.rental_hours.filter(|h| *h > 0.0).map(|h| secs / 3600.0 / h)
}
