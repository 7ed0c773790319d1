//! Questions for the vendor (seed 000, with seed 001's power, cooling,
//! redundancy and data-deletion questions), filled with what the plan needs.

use super::before::driver_text;
use super::text::{bi, Para};
use super::{Facts, Fill, Spec};
use crate::cost::OptionKind;
use crate::hardware::{LinkKind, Stack};
use crate::money::num;
use crate::present::gigabytes;

pub(super) const SPECS: &[Spec] = &[
    Spec { id: "ask-card", rule: card },
    Spec { id: "ask-link", rule: link },
    Spec { id: "ask-power", rule: power },
    Spec { id: "ask-cooling", rule: cooling },
    Spec { id: "ask-redundancy", rule: redundancy },
    Spec { id: "ask-software", rule: software },
    Spec { id: "ask-line-items", rule: line_items },
    Spec { id: "ask-billing-rules", rule: billing_rules },
    Spec { id: "ask-data-deletion", rule: data_deletion },
];

fn card(f: &Facts) -> Option<Fill> {
    let text = match &f.gpu {
        Some(g) => {
            let form = if g.form_factor.is_empty() { String::new() } else { format!(", {}", g.form_factor) };
            let zh_form =
                if g.form_factor.is_empty() { String::new() } else { format!("，{}", g.form_factor) };
            bi!(
                format!(
                    "确切卡型与数量、每卡显存：{} × {}，每卡 {} GB{zh_form}（同名不同版本的卡规格不同）。",
                    f.gpu_count,
                    g.name,
                    gigabytes(g.memory_gb)
                ),
                format!(
                    "Exact card model and count, memory per card: {} × {}, {} GB each{form} (variants under one name differ).",
                    f.gpu_count,
                    g.name,
                    gigabytes(g.memory_gb)
                ),
            )
        }
        None => bi!("确切卡型与数量、每卡显存。", "Exact card model and count, and memory per card."),
    };
    Some(Fill::new(text))
}

fn link(f: &Facts) -> Option<Fill> {
    if !f.multi_gpu() {
        return None;
    }
    let mut p = match &f.gpu {
        Some(g) if g.link == LinkKind::Pcie => Para::from(bi!(
            "互联方式：只有 PCIe；哪些卡共用 PCIe 交换芯片或同一颗 CPU。",
            "Interconnect: PCIe only; which cards share a PCIe switch or a CPU socket.",
        )),
        Some(g) => Para::from(bi!(
            format!("互联方式：{}，哪些卡之间直连。", g.link_name),
            format!("Interconnect: {}, and which GPUs are linked to which.", g.link_name),
        )),
        None => Para::from(bi!(
            "互联方式：NVLink 还是 PCIe，哪些卡之间直连。",
            "Interconnect: NVLink or PCIe, and which GPUs are linked to which.",
        )),
    };
    if f.nodes > 1 {
        p.push(bi!("服务器之间的网卡与网络。", "The NICs and network between the servers."));
    }
    Some(Fill::new(p.done()))
}

fn power(f: &Facts) -> Option<Fill> {
    let g = f.gpu.as_ref();
    let (zh, en) = match (g.and_then(|g| g.tdp_min_w), g.and_then(|g| g.tdp_w)) {
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (num(lo), num(hi));
            (
                format!("该卡功耗可在 {lo}–{hi} W 之间配置：设的是哪一档，每卡能否跑满 {hi} W"),
                format!("the card's power is configurable from {lo} to {hi} W: which limit is set, and can each card draw {hi} W"),
            )
        }
        (_, Some(w)) => {
            (format!("每卡能否跑满 {} W", num(w)), format!("can each card draw its full {} W", num(w)))
        }
        (_, None) => ("每卡能否跑满额定功耗".to_string(), "can each card draw its rated power".to_string()),
    };
    Some(Fill::new(bi!(
        format!("功率上限：{zh}？有的商家给整机做功率封顶，四卡机器实际只拿到两卡半的性能。"),
        format!(
            "Power cap: {en}? Some vendors cap the whole box: a 4-GPU machine can end up delivering 2.5 GPUs' worth."
        ),
    )))
}

fn cooling(f: &Facts) -> Option<Fill> {
    let dense = if f.gpus_per_node() > 1 {
        bi!(
            "密排卡位中间几张卡是否过热降频，",
            "whether the middle cards in dense slots run hot and throttle, and ",
        )
    } else {
        bi!("", "")
    };
    Some(Fill::new(bi!(
        format!("散热：风冷还是液冷；{}长时间满载后性能是否下降。", dense.zh),
        format!("Cooling: air or liquid; {}whether speed drops after hours at full load.", dense.en),
    )))
}

fn redundancy(f: &Facts) -> Option<Fill> {
    let text = if f.long_run {
        bi!(
            "本方案长时间运行：机房是否有冗余供电和温控。",
            "This plan runs for a long time: is there redundant power and temperature control?",
        )
    } else {
        bi!("机房是否有冗余供电和温控。", "Is there redundant power and temperature control?")
    };
    Some(Fill::new(text))
}

fn software(f: &Facts) -> Option<Fill> {
    if !f.rented {
        return None;
    }
    let mut p = Para::from(bi!(
        "预装了哪个驱动和 CUDA/框架版本，或能否通过 SSH 自行安装。",
        "Which driver and CUDA or framework versions are installed, or whether you can install your own over SSH.",
    ));
    if let (Stack::Cuda, Some(v)) = (f.stack(), f.cuda) {
        let d = driver_text(v);
        p.push(bi!(format!("本方案：{}", d.zh), format!("This plan: {}", d.en)));
    }
    Some(Fill::new(p.done()))
}

fn line_items(f: &Facts) -> Option<Fill> {
    f.rented.then(|| {
        Fill::new(bi!(
            "账单项：GPU 或实例单价、计费单位和承诺范围，以及存储、IP、网络传输和报价单上的其他资源。",
            "Bill lines: GPU or instance price, billing unit and what a commitment covers, plus storage, IP, network transfer and every other resource on the quote.",
        ))
    })
}

fn billing_rules(f: &Facts) -> Option<Fill> {
    if !f.rented {
        return None;
    }
    let mut p = Para::from(bi!(
        "停机、删除、未用完的承诺和计费状态变化的规则：停机后什么还在收费（如 AWS 实例停止后 EBS 卷和弹性 IP 仍可能计费，每次从停止到运行开始新的计费周期，最低一分钟）。",
        "Rules for stopping, deleting, unused commitments and billing state changes: what still bills when stopped (on AWS, EBS volumes and Elastic IPs may still bill after an instance stops, and each stop-to-start begins a new billing period with a one-minute minimum).",
    ));
    match f.option {
        Some(OptionKind::Spot) => p.push(bi!(
            "竞价实例回收前多久通知。",
            "How much notice comes before a spot instance is reclaimed.",
        )),
        Some(o) if super::text::is_commitment(o) => p.push(bi!(
            "承诺期内不用也照常收费：问清能否转让或更换。",
            "A commitment bills whether used or not: ask whether it can be exchanged or transferred.",
        )),
        Some(OptionKind::Monthly) => p.push(bi!(
            "最短租期、取消和续租规则。",
            "The minimum term and the rules for cancelling and renewing.",
        )),
        _ => {}
    }
    Some(Fill::new(p.done()))
}

fn data_deletion(f: &Facts) -> Option<Fill> {
    f.rented.then(|| {
        Fill::new(bi!(
            "租期结束时的数据销毁策略；数据盘上的数据集和权重用完即删。",
            "The data deletion policy when the rental ends; wipe datasets and weights from the data disks when done.",
        ))
    })
}
