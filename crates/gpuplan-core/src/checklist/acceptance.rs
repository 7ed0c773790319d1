//! Acceptance on delivery, in seed 000's order: each step a command to copy
//! and what a pass looks like for this plan.

use super::before::{driver_text, workload_phrase};
use super::text::{bi, Bi, Para};
use super::{Facts, Fill, Spec};
use crate::hardware::{Gpu, GpuClass, LinkKind, Stack};
use crate::money::num;
use crate::plan::Task;
use crate::present::{gigabytes, size};

pub(super) const SPECS: &[Spec] = &[
    Spec { id: "acc-tools", rule: tools },
    Spec { id: "acc-list", rule: list },
    Spec { id: "acc-inventory", rule: inventory },
    Spec { id: "acc-props", rule: props },
    Spec { id: "acc-persistence", rule: persistence },
    Spec { id: "acc-driver", rule: driver },
    Spec { id: "acc-host", rule: host },
    Spec { id: "acc-topo", rule: topo },
    Spec { id: "acc-pcie", rule: pcie },
    Spec { id: "acc-ecc", rule: ecc },
    Spec { id: "acc-power", rule: power },
    Spec { id: "acc-burn", rule: burn },
    Spec { id: "acc-dcgm", rule: dcgm },
    Spec { id: "acc-nccl", rule: nccl },
    Spec { id: "acc-bench", rule: super::bench::bench },
    Spec { id: "acc-job", rule: job },
    Spec { id: "acc-recheck", rule: recheck },
];

const ECC_QUERY: &str = "nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER";

fn cuda(f: &Facts) -> bool {
    f.stack() == Stack::Cuda
}

/// The NVIDIA-only steps, for a plan on NVIDIA hardware.
fn nvidia(f: &Facts) -> Option<()> {
    cuda(f).then_some(())
}

fn name(f: &Facts) -> String {
    f.gpu.as_ref().map_or_else(|| "GPU".to_string(), |g| g.name.to_string())
}

fn tools(f: &Facts) -> Option<Fill> {
    let tool = match f.stack() {
        Stack::Cuda => return None,
        Stack::Rocm => "amd-smi / rocm-smi",
        Stack::Cann => "npu-smi",
    };
    Some(Fill::new(bi!(
        format!(
            "本方案不是 NVIDIA 卡：用 {tool} 核对与 NVIDIA 步骤相同的内容——数量、显存、驱动、卡间拓扑、显存错误，以及压力测试下的功耗和温度。"
        ),
        format!(
            "This plan is not on NVIDIA: use {tool} to check what the NVIDIA steps check: count, memory, driver, GPU topology, memory errors, and power and temperature under a burn-in."
        ),
    )))
}

fn list(f: &Facts) -> Option<Fill> {
    let n = f.gpus_per_node();
    let command = match f.stack() {
        Stack::Cuda => "nvidia-smi -L",
        Stack::Rocm => "rocm-smi --showproductname",
        Stack::Cann => "npu-smi info",
    };
    let each = if f.nodes > 1 { bi!("每台 ", " on each server") } else { bi!("", "") };
    Some(
        Fill::new(bi!("清点 GPU：数量与订单一致。", "Count the GPUs: the number matches the order."))
            .command(command)
            .expect(bi!(
                format!("{}{n} 张卡，全部为 {}。", each.zh, name(f)),
                format!("{n} GPUs{}, all {}.", each.en, name(f)),
            )),
    )
}

/// What memory.total should read: nominal GB × 1024 MiB, a little less for
/// reserved memory, 1/16 less on GDDR parts with ECC on (T4: 16 GB → 15360 MiB).
fn memory_total(g: &Gpu) -> Bi {
    let mib = (g.memory_gb * 1024.0).round();
    let mut p = Para::from(bi!(
        format!(
            "memory.total 约 {} MiB（标称 {} GB × 1024，少几百 MiB 属正常）",
            num(mib),
            gigabytes(g.memory_gb)
        ),
        format!(
            "memory.total about {} MiB (nominal {} GB × 1024, a few hundred MiB less is normal)",
            num(mib),
            gigabytes(g.memory_gb)
        ),
    ));
    if g.ecc && g.memory_type.starts_with("GDDR") {
        let with_ecc = (mib * 15.0 / 16.0).round();
        p.append(bi!(
            format!("；开启 ECC 时约 {} MiB（GDDR 显存的 ECC 占 1/16）", num(with_ecc)),
            format!("; about {} MiB with ECC on (ECC takes 1/16 of GDDR memory)", num(with_ecc)),
        ));
    }
    p.done()
}

fn inventory(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    let mut p =
        Para::from(bi!(format!("每行 name 为 {}", name(f)), format!("Each row names the {}", name(f))));
    if let Some(g) = &f.gpu {
        let m = memory_total(g);
        p.append(bi!(format!("；{}", m.zh), format!("; {}", m.en)));
    }
    p.append(bi!("；明显更少说明是别的型号。", "; much less means a different part."));
    Some(
        Fill::new(bi!(
            "逐卡记录型号、序列号、UUID、PCI 地址、VBIOS、驱动和显存；板卡序列号与机身标签一致。",
            "Record each card's model, serial, UUID, PCI address, VBIOS, driver and memory; board serials match the chassis labels.",
        ))
        .command("nvidia-smi --query-gpu=name,serial,uuid,pci.bus_id,vbios_version,driver_version,memory.total --format=csv")
        .expect(p.done()),
    )
}

fn props(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    Some(
        Fill::new(bi!(
            "完整属性：不支持的字段显示 N/A；nvidia-smi --help-query-gpu 列出所有可查询字段。",
            "Full properties: unsupported fields show N/A; nvidia-smi --help-query-gpu lists every queryable field.",
        ))
        .command("nvidia-smi -q")
        .expect(bi!(
            format!("每张卡一段，Product Name 与 {} 一致。", name(f)),
            format!("One block per GPU, Product Name matching the {}.", name(f)),
        )),
    )
}

fn persistence(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    Some(
        Fill::new(bi!("持久模式与 PCI 地址。", "Persistence mode and PCI address."))
            .command("nvidia-smi --query-gpu=pci.bus_id,persistence_mode --format=csv")
            .expect(bi!(
                "每张卡一行；服务器上通常为 Enabled（驱动常驻，任务启动时不必重新初始化）。",
                "One row per GPU; servers usually run Enabled (the driver stays loaded, so jobs do not wait for it to initialise).",
            )),
    )
}

fn driver(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    let mut p = match f.cuda {
        Some(v) => {
            let d = driver_text(v);
            Para::from(bi!(d.zh, d.en))
        }
        None => Para::from(bi!(
            "对照所用 CUDA：12.x 需要 ≥ 525，13.x 需要 ≥ 580（各版本确切下限见 NVIDIA CUDA 发行说明）。",
            "Match it to the CUDA you use: 12.x needs ≥ 525, 13.x needs ≥ 580 (NVIDIA's CUDA release notes give each release's floor).",
        )),
    };
    if f.gpu.as_ref().and_then(Gpu::cuda_capability).is_some_and(|(major, _)| major == 12) {
        p.push(bi!("sm_120 的卡需要驱动 ≥ 570.26。", "An sm_120 part needs driver ≥ 570.26."));
    }
    p.push(bi!(
        "nvidia-smi 表头的 CUDA Version 是该驱动支持的最高版本。",
        "The CUDA Version in nvidia-smi's header is the newest the driver supports.",
    ));
    Some(
        Fill::new(bi!("驱动与 CUDA 兼容。", "Driver and CUDA are compatible."))
            .command("nvidia-smi --query-gpu=driver_version --format=csv,noheader")
            .expect(p.done()),
    )
}

fn host(f: &Facts) -> Option<Fill> {
    let n = f.gpus_per_node();
    let cores = if n > 1 { 14 * n } else { 8 };
    let mut p = Para::from(bi!(
        format!("nproc 与订单一致（本方案建议至少 {cores}）"),
        format!("nproc matches the order (this plan suggests at least {cores})"),
    ));
    if let Some(g) = &f.gpu {
        let ram_gb = g.memory_gb * f64::from(n);
        let gib = (ram_gb * 1e9 / f64::from(1u32 << 30)).floor();
        p.append(bi!(
            format!(
                "；free -g 的 total 至少约 {} GiB（= {} GB，与该台显存总量相当）",
                num(gib),
                gigabytes(ram_gb)
            ),
            format!(
                "; free -g total at least about {} GiB (= {} GB, the server's total GPU memory)",
                num(gib),
                gigabytes(ram_gb)
            ),
        ));
    }
    let disk = match f.checkpoint_bytes.filter(|_| f.task == Task::Train) {
        Some(c) => {
            let need = size(c.saturating_mul(2));
            bi!(
                format!("；数据盘为 NVMe（ROTA 为 0），至少 {need}。"),
                format!("; an NVMe data disk (ROTA 0) of at least {need}."),
            )
        }
        None => bi!(
            "；数据盘为 NVMe（ROTA 为 0），容量与订单一致。",
            "; an NVMe data disk (ROTA 0) of the size ordered.",
        ),
    };
    p.append(bi!(disk.zh, disk.en));
    Some(
        Fill::new(bi!(
            "主机：CPU 核数、内存和磁盘与订单一致。",
            "Host: CPU cores, RAM and disks match the order.",
        ))
        .command("nproc; free -g; lsblk -d -o NAME,SIZE,ROTA,MODEL")
        .expect(p.done()),
    )
}

fn topo(f: &Facts) -> Option<Fill> {
    if f.gpus_per_node() < 2 {
        return None;
    }
    let link = f.link();
    let (command, expect) = match f.stack() {
        Stack::Cuda => ("nvidia-smi topo -m", nvlink_matrix(link)),
        Stack::Rocm => (
            "rocm-smi --showtopo",
            bi!(
                "GPU 之间的连接类型为 XGMI（Infinity Fabric），而不是 PCIE。",
                "The link type between GPUs is XGMI (Infinity Fabric), not PCIE.",
            ),
        ),
        Stack::Cann => return None,
    };
    Some(
        Fill::new(bi!("拓扑：GPU 之间怎么连接。", "Topology: how the GPUs are connected."))
            .command(command)
            .expect(expect),
    )
}

fn nvlink_matrix(link: Option<LinkKind>) -> Bi {
    match link {
        Some(LinkKind::Fabric) => bi!(
            "每对 GPU 之间显示 NV#（# 为 NVLink 链路数）；出现 PIX/PXB/PHB/NODE/SYS 说明那一对不走 NVLink。",
            "NV# (# = number of NVLinks) between every pair of GPUs; PIX/PXB/PHB/NODE/SYS for a pair means it is not on NVLink.",
        ),
        Some(LinkKind::Bridge) => bi!(
            "桥接的卡之间显示 NV#，其余为 PIX/PXB/PHB/NODE/SYS；与供应商说的桥接方式一致。",
            "NV# between bridged cards, PIX/PXB/PHB/NODE/SYS elsewhere, matching the bridging the vendor described.",
        ),
        Some(LinkKind::Pcie) => bi!(
            "没有 NV#，只有 PIX/PXB/PHB/NODE/SYS：此型号本来就没有 NVLink。记下哪些卡跨 CPU（SYS）。",
            "No NV#, only PIX/PXB/PHB/NODE/SYS: this part has no NVLink. Note which pairs cross CPUs (SYS).",
        ),
        None => bi!("NVLink 连接的卡对显示 NV#。", "NV# for the pairs joined by NVLink."),
    }
}

fn pcie(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    let expect = match f.gpu.as_ref().and_then(|g| g.pcie_gen) {
        Some(g) => bi!(
            format!("负载下 Gen {g}、宽度 16；空闲时降代省电属正常，负载下仍偏低说明插槽或主机更旧。"),
            format!("Gen {g}, width 16 under load; a lower gen at idle saves power, but lower under load means an older slot or host."),
        ),
        None => bi!("负载下为该卡支持的代数、宽度 16。", "The card's PCIe generation and width 16 under load."),
    };
    Some(
        Fill::new(bi!("PCIe 链路（在负载下查看）。", "PCIe link (read it under load)."))
            .command("nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv")
            .expect(expect),
    )
}

fn ecc(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    let text =
        bi!("显存健康：ECC、退役页与行重映射。", "Memory health: ECC, retired pages and row remapping.");
    let Some(g) = &f.gpu else {
        return Some(Fill::new(text).command(ECC_QUERY).expect(ecc_pass(true)));
    };
    if !g.ecc {
        return Some(
            Fill::new(text)
                .command(ECC_QUERY)
                .expect(bi!(
                    format!("{} 没有 ECC，这里显示 N/A：N/A 表示不支持，不是通过；这张卡无法报告显存错误。", g.name),
                    format!("The {} has no ECC, so these show N/A: N/A means not available, not pass; this card cannot report memory errors.", g.name),
                ))
                .risk(true),
        );
    }
    let ampere = g.cuda_capability().is_none_or(|cc| cc >= (8, 0));
    Some(Fill::new(text).command(ECC_QUERY).expect(ecc_pass(ampere)))
}

/// Ampere and newer remap rows; older parts retire pages.
fn ecc_pass(ampere: bool) -> Bi {
    let (zh, en) = if ampere {
        (
            "remapped_rows.pending 与 remapped_rows.failure 为 No",
            "remapped_rows.pending and remapped_rows.failure No",
        )
    } else {
        ("retired_pages.pending 为 No", "retired_pages.pending No")
    };
    bi!(
        format!("ECC 模式 Enabled；不可纠正错误（ecc.errors.uncorrected.*）为 0；{zh}。"),
        format!("ECC mode Enabled; uncorrected errors (ecc.errors.uncorrected.*) 0; {en}."),
    )
}

fn power(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    let g = f.gpu.as_ref();
    let limit = match (g.and_then(|g| g.tdp_min_w), g.and_then(|g| g.tdp_w)) {
        (Some(lo), Some(hi)) => bi!(
            format!("power.limit 与 enforced.power.limit 在可配置的 {}–{} W 之内、与约定的一档一致，低于 {} W 说明被封顶，问清原因；", num(lo), num(hi), num(lo)),
            format!("power.limit and enforced.power.limit within the configurable {}-{} W, at the setting agreed (below {} W means capped: ask why);", num(lo), num(hi), num(lo)),
        ),
        (_, Some(w)) => bi!(
            format!("power.limit 与 enforced.power.limit 为 {} W，低于它说明被封顶，问清原因；", num(w)),
            format!("power.limit and enforced.power.limit at {} W (lower means capped: ask why);", num(w)),
        ),
        (_, None) => bi!(
            "power.limit 与 enforced.power.limit 为该卡的额定功耗，低于它说明被封顶；",
            "power.limit and enforced.power.limit at the card's rated power (lower means capped);",
        ),
    };
    Some(
        Fill::new(bi!("温度与功耗：在下一步的压力测试期间运行。", "Temperature and power: run it during the burn-in below."))
            .command("nvidia-smi --query-gpu=temperature.gpu,temperature.memory,power.draw,power.limit,enforced.power.limit,clocks.sm,clocks_event_reasons.active --format=csv -l 5")
            .expect(bi!(
                format!("{}温度稳定、不持续上升；出现 HW Slowdown、热降频或 Power Brake 说明散热或供电有问题（nvidia-smi -q -d PERFORMANCE 列出名称），满功耗下的 SW Power Cap 属正常。风扇转速是目标值，不是实测值。", limit.zh),
                format!("{} temperatures level off; HW slowdown, thermal slowdown or power brake mean cooling or power trouble (nvidia-smi -q -d PERFORMANCE names them), while SW power cap at full power is normal. Fan speed is the intended speed, not a measurement.", limit.en),
            )),
    )
}

fn burn(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    Some(
        Fill::new(bi!(
            "压力测试：gpu-burn 用张量核满载一小时。",
            "Burn-in: gpu-burn at full load on the tensor cores for an hour.",
        ))
        .command("./gpu_burn -tc 3600")
        .expect(bi!(
            "结束时每张卡都是 OK、错误为 0；期间看上一步的功耗、温度和降频原因。",
            "Every GPU ends OK with 0 errors; watch power, temperature and clock reasons from the step above meanwhile.",
        )),
    )
}

fn dcgm(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    (f.class() == Some(GpuClass::Datacenter)).then(|| {
        Fill::new(bi!("DCGM 诊断（-r 2 更短）。", "DCGM diagnostics (-r 2 is shorter)."))
            .command("dcgmi diag -r 3")
            .expect(bi!("所有测试为 Pass。", "Every test Pass."))
    })
}

fn nccl(f: &Facts) -> Option<Fill> {
    let n = f.gpus_per_node();
    if n < 2 || f.stack() == Stack::Cann {
        return None;
    }
    let text = match f.stack() {
        Stack::Rocm => {
            bi!("带宽：rccl-tests 单机 all-reduce。", "Bandwidth: rccl-tests all-reduce within one server.")
        }
        _ => bi!("带宽：nccl-tests 单机 all-reduce。", "Bandwidth: nccl-tests all-reduce within one server."),
    };
    let mut p = busbw(f, n);
    if f.nodes > 1 {
        p.push(bi!(
            "跨服务器时用 MPI 每卡一个进程再跑一次，busbw 受服务器之间的网卡限制。",
            "Across servers, run it again with MPI, one process per GPU; busbw is then bounded by the NICs between servers.",
        ));
    }
    Some(
        Fill::new(text).command(format!("./build/all_reduce_perf -b 8 -e 128M -f 2 -g {n}")).expect(p.done()),
    )
}

/// Per-direction PCIe x16 rate: Gen5 about 128 GB/s both ways, halving per generation down.
fn pcie_dir_gbs(gen: u8) -> Option<f64> {
    match gen {
        3 => Some(16.0),
        4 => Some(32.0),
        5 => Some(64.0),
        6 => Some(128.0),
        _ => None,
    }
}

/// What busbw should be for the link: bounded by the per-direction rate.
fn busbw(f: &Facts, n: u32) -> Para {
    let factor = 2.0 * f64::from(n - 1) / f64::from(n);
    let mut p = Para::from(bi!(
        format!(
            "看最大消息（128M）那一行的 busbw（busbw = algbw × 2(n−1)/n = algbw × {}）；消息更大时还会上升，-e 8G 可看到峰值。",
            num(factor)
        ),
        format!(
            "Read busbw at the largest size, 128M (busbw = algbw × 2(n-1)/n = algbw × {}); it keeps rising with size, and -e 8G shows the peak.",
            num(factor)
        ),
    ));
    let Some(g) = &f.gpu else {
        p.push(bi!("与链路的单向速率比较。", "Compare it with the link's per-direction rate."));
        return p;
    };
    let link = g.link_name.to_string();
    match (g.link, g.link_gbs) {
        (LinkKind::Fabric, Some(both)) => {
            let u = both / 2.0;
            p.push(bi!(
                format!("上限约为单向链路速率 {} GB/s（{link} 双向 {} GB/s ÷ 2）。", num(u), num(both)),
                format!("Its ceiling is about the per-direction link rate, {} GB/s ({link}: {} GB/s both ways ÷ 2).", num(u), num(both)),
            ));
            if g.stack == Stack::Cuda {
                p.push(bi!(
                    "参考：8 × H200 约 482 GB/s（NVSwitch 的交换机内归约可略超单向速率）。",
                    "Reference: 8 × H200 reached about 482 GB/s (NVSwitch in-switch reduction can slightly exceed the per-direction rate).",
                ));
            }
            p.push(bi!(
                format!("远低于此（例如不到一半，{} GB/s）时，用 NCCL_DEBUG=INFO 看流量是否走了 {link}。", num(u / 2.0)),
                format!("Far below it (say under half, {} GB/s), rerun with NCCL_DEBUG=INFO to see whether traffic uses {link}.", num(u / 2.0)),
            ));
        }
        (LinkKind::Bridge, Some(both)) => p.push(bi!(
            format!("桥接的卡对之间接近单向 {} GB/s；跨桥组的流量走 PCIe，{n} 卡的 busbw 受最慢的一段限制。", num(both / 2.0)),
            format!("Bridged pairs approach {} GB/s per direction; traffic between groups crosses PCIe, so {n}-GPU busbw is bounded by the slowest hop.", num(both / 2.0)),
        )),
        (LinkKind::Pcie, _) | (_, None) => match g.pcie_gen.and_then(pcie_dir_gbs) {
            Some(u) => p.push(bi!(
                format!("预计低于 PCIe Gen{} x16 的单向 {} GB/s（多卡共享 PCIe 交换芯片或跨 CPU 时更低）：这是没有 NVLink 时的正常值。", g.pcie_gen.unwrap_or(0), num(u)),
                format!("Expect less than PCIe Gen{} x16's {} GB/s per direction (lower when cards share a PCIe switch or cross CPUs): normal without NVLink.", g.pcie_gen.unwrap_or(0), num(u)),
            )),
            None => p.push(bi!("与链路的单向速率比较。", "Compare it with the link's per-direction rate.")),
        },
    }
    p
}

fn job(f: &Facts) -> Option<Fill> {
    let w = workload_phrase(f);
    let fill = Fill::new(bi!(
        format!("代表性任务：{}，在 {} 张 GPU 上按真实参数运行。", w.zh, f.gpu_count),
        format!("A representative job: {}, on {} GPUs with the real settings.", w.en, f.gpu_count),
    ));
    let mut p = Para::default();
    if f.per_gpu_bytes > 0 {
        let mib = (f.per_gpu_bytes as f64 / f64::from(1u32 << 20)).round();
        p.push(bi!(
            format!("每卡 memory.used 峰值约 {} MiB（本方案每卡 {}）", num(mib), size(f.per_gpu_bytes)),
            format!(
                "Peak memory.used per GPU about {} MiB (the plan's {} per GPU)",
                num(mib),
                size(f.per_gpu_bytes)
            ),
        ));
        if f.task == Task::Infer {
            p.append(bi!(
                "；预先分配 KV 池的引擎（如 vLLM）显示的是池的大小。",
                "; engines that reserve a KV pool up front (such as vLLM) show the pool instead.",
            ));
        } else {
            p.append(bi!("。", "."));
        }
    }
    p.push(bi!(
        "GPU 利用率长期低于 30–40% 时先查数据加载或批处理；日志中没有 OOM 或 Xid，任务跑完。",
        "GPU utilisation below 30-40% for long means fixing data loading or batching first; no OOM or Xid in the logs, and the job completes.",
    ));
    let expect = p.done();
    Some(match f.stack() {
        Stack::Cuda => fill
            .command("nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv -l 5")
            .expect(expect),
        _ => fill.expect(expect),
    })
}

fn recheck(f: &Facts) -> Option<Fill> {
    nvidia(f)?;
    Some(
        Fill::new(bi!(
            "压力测试后复查 ECC、重映射和 Xid。",
            "After the stress runs, re-check ECC, remapping and Xid.",
        ))
        .command(format!("sudo dmesg -T | grep -i xid; {ECC_QUERY}"))
        .expect(bi!(
            "dmesg 中没有 Xid 行（Xid 48 为双比特 ECC 错误，63 为页退役或行重映射，64 为重映射失败，需要 RMA）；错误计数与第一次检查相同。",
            "No Xid lines in dmesg (Xid 48 is a double-bit ECC error, 63 a retired page or remapped row, 64 a remap failure, which means RMA); error counts unchanged since the first check.",
        )),
    )
}
