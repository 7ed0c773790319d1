//! Common pitfalls (seed 000, plus seeds 001 and 002), each shown only when it
//! applies, with the reason it applies to this plan.

use super::before::{gpu_name, minutes_at_10gbps, split_phrase};
use super::text::{self, bi, Para};
use super::{Facts, Fill, Spec};
use crate::cost::{OptionKind, HOURS_PER_MONTH};
use crate::hardware::{GpuClass, Stack};
use crate::lang::Lang;
use crate::money::num;
use crate::plan::Task;
use crate::present::{gigabytes, size};

pub(super) const SPECS: &[Spec] = &[
    Spec { id: "pit-weights-only", rule: weights_only },
    Spec { id: "pit-comm-buffers", rule: super::caveats::comm_buffers },
    Spec { id: "pit-4bit-quality", rule: super::caveats::four_bit },
    Spec { id: "pit-vram-sum", rule: vram_sum },
    Spec { id: "pit-price-only", rule: price_only },
    Spec { id: "pit-geforce-licence", rule: geforce_licence },
    Spec { id: "pit-no-ecc", rule: no_ecc },
    Spec { id: "pit-smoke-test", rule: smoke_test },
    Spec { id: "pit-long-contract", rule: long_contract },
    Spec { id: "pit-low-util", rule: low_util },
    Spec { id: "pit-spot-checkpoints", rule: spot_checkpoints },
    Spec { id: "pit-cost-alarm", rule: cost_alarm },
    Spec { id: "pit-stack-port", rule: stack_port },
    Spec { id: "pit-windows-error-43", rule: windows_error_43 },
    Spec { id: "pit-long-term-ticket", rule: long_term_ticket },
];

fn weights_only(f: &Facts) -> Option<Fill> {
    let peak = if f.per_gpu_bytes > 0 {
        bi!(
            format!("，已计入每卡 {}", size(f.per_gpu_bytes)),
            format!(", already in the {} per GPU", size(f.per_gpu_bytes)),
        )
    } else {
        bi!("", "")
    };
    let why = match f.task {
        Task::Infer => bi!(
            format!(
                "KV 缓存随上下文 {} × 并发 {} 增长{}；改上下文或并发后要重算。",
                f.context, f.concurrency, peak.zh
            ),
            format!(
                "The KV cache grows with context {} × concurrency {}{}; recompute it when either changes.",
                f.context, f.concurrency, peak.en
            ),
        ),
        Task::Train => bi!(
            format!("训练还要放梯度、优化器状态和激活{}。", peak.zh),
            format!("Training also holds gradients, optimizer state and activations{}.", peak.en),
        ),
    };
    Some(
        Fill::new(bi!(
            "只算权重，漏掉训练状态、激活或 KV 缓存。",
            "Counting only the weights and missing training state, activations or the KV cache.",
        ))
        .expect(why),
    )
}

fn vram_sum(f: &Facts) -> Option<Fill> {
    if !f.gpus_talk() {
        return None;
    }
    let sum = match &f.gpu {
        Some(g) => {
            let total = g.memory_gb * f64::from(f.gpu_count);
            format!("{} × {} GB = {} GB", f.gpu_count, gigabytes(g.memory_gb), gigabytes(total))
        }
        None => format!("{} × GPU", f.gpu_count),
    };
    let split = split_phrase(f);
    Some(
        Fill::new(bi!(
            "直接累加标称显存，没有核对每卡切分、运行时开销和互联。",
            "Adding up nominal memory across cards without checking the split, runtime overhead and interconnect.",
        ))
        .expect(bi!(
            format!("{sum} 不是一整块显存：本方案的切分方式为{}，每卡都要放下自己的分片和工作区。", split.zh),
            format!("{sum} is not one pool: this plan splits by {}, and each GPU must hold its own shard and workspace.", split.en),
        )),
    )
}

fn price_only(f: &Facts) -> Option<Fill> {
    f.rented.then(|| {
        Fill::new(bi!(
            "只比较 GPU 小时单价，漏掉承诺、存储、IP 和网络费用。",
            "Comparing GPU-hour prices only, missing commitments, storage, IP and network charges.",
        ))
        .expect(bi!(
            "本方案是租用：账单里还有存储、IP、流量等项，停机后有些仍在收费。",
            "This plan rents: the bill has storage, IP and traffic lines too, and some keep billing while stopped.",
        ))
    })
}

fn geforce_licence(f: &Facts) -> Option<Fill> {
    if f.class() != Some(GpuClass::Geforce) || !f.rented {
        return None;
    }
    Some(
        Fill::new(bi!(
            "以为 GeForce 卡能点亮就可以部署或提供商业托管。",
            "Assuming a GeForce card that boots may be deployed or hosted commercially.",
        ))
        .expect(bi!(
            format!(
                "本方案租用 {}：GeForce 驱动许可（2025-02-25 版）第 2.7 条禁止出租、分许可或用该软件提供商业托管服务（除非明确授权），第 2.8 条只许可用于自有的 GeForce/Titan 硬件，且不许可数据中心部署。请供应商和内部负责人核对适用授权。以上为一般信息，不构成法律意见。",
                gpu_name(f).zh
            ),
            format!(
                "This plan rents the {}: the GeForce driver licence (2025-02-25) §2.7 forbids renting, sublicensing or commercial hosting with the software unless expressly authorised, and §2.8 licenses it only for GeForce/Titan hardware you own and not for datacenter deployment. Have the vendor and your own responsible person confirm the authorisation. General information, not legal advice.",
                gpu_name(f).en
            ),
        ))
        .risk(true),
    )
}

fn no_ecc(f: &Facts) -> Option<Fill> {
    let g = f.gpu.as_ref()?;
    if g.ecc || !(f.long_run || f.task == Task::Train) {
        return None;
    }
    let why = if f.task == Task::Train {
        bi!("本方案训练", "This plan trains")
    } else {
        bi!("本方案长时间运行", "This plan runs for long")
    };
    Some(
        Fill::new(bi!(
            "用没有 ECC 的卡跑长时间任务：显存位翻转不会被发现。",
            "Long runs on a card without ECC: memory bit flips go unnoticed.",
        ))
        .expect(bi!(
            format!("{}，而 {} 没有 ECC：定期核对结果或检查点，生产服务优先选带 ECC 的卡。", why.zh, g.name),
            format!("{}, and the {} has no ECC: verify results or checkpoints periodically, and prefer ECC cards for production.", why.en, g.name),
        ))
        .risk(true),
    )
}

fn smoke_test(f: &Facts) -> Option<Fill> {
    let what = match f.task {
        Task::Infer => bi!(
            format!("{} 权重、上下文 {}、并发 {}", text::weights(f.weights), f.context, f.concurrency),
            format!(
                "{} weights, context {}, concurrency {}",
                text::weights(f.weights),
                f.context,
                f.concurrency
            ),
        ),
        Task::Train => bi!(
            format!("{}、序列长度 {}、微批次 {}", text::method(f.method, Lang::Zh), f.seq, f.batch),
            format!(
                "{}, sequence length {}, micro-batch {}",
                text::method(f.method, Lang::En),
                f.seq,
                f.batch
            ),
        ),
    };
    Some(
        Fill::new(bi!(
            "只确认 nvidia-smi 能运行，没有跑与生产参数一致的任务。",
            "Checking that nvidia-smi runs but not running a production-like job.",
        ))
        .expect(bi!(
            format!("验收的代表性任务要用本方案的参数：{}。", what.zh),
            format!("The acceptance job must use this plan's settings: {}.", what.en),
        )),
    )
}

fn long_contract(f: &Facts) -> Option<Fill> {
    let o = f.option.filter(|o| text::is_commitment(*o))?;
    Some(
        Fill::new(bi!("没实测就签长期合约。", "Signing a long contract before measuring."))
            .expect(bi!(
                format!("本方案选了{}（1 或 3 年承诺）：先按小时跑通并实测，再承诺。", o.label(Lang::Zh)),
                format!("This plan picks {} (a 1- or 3-year commitment): run and measure hourly first, then commit.", o.label(Lang::En)),
            ))
            .risk(true),
    )
}

fn low_util(f: &Facts) -> Option<Fill> {
    if !f.multi_gpu() {
        return None;
    }
    Some(
        Fill::new(bi!(
            "GPU 利用率低于 30–40% 时还在加卡。",
            "Adding GPUs while utilisation is below 30-40%.",
        ))
        .expect(bi!(
            format!("本方案用 {} 张 GPU：先在一张卡上看利用率，低就先改数据加载或批处理。", f.gpu_count),
            format!("This plan uses {} GPUs: check utilisation on one first, and fix data loading or batching if it is low.", f.gpu_count),
        )),
    )
}

fn spot_checkpoints(f: &Facts) -> Option<Fill> {
    if f.option != Some(OptionKind::Spot) {
        return None;
    }
    let why = match (f.task, f.checkpoint_bytes) {
        (Task::Train, Some(c)) => bi!(
            format!("本方案用竞价实例训练：每 5–10 分钟保存一次检查点（每份约 {}，存到对象存储），被回收最多损失 10 分钟。", size(c)),
            format!("This plan trains on spot: checkpoint every 5-10 minutes (about {} each, to object storage), so a reclaim loses at most 10 minutes.", size(c)),
        ),
        (Task::Train, None) => bi!(
            "本方案用竞价实例训练：每 5–10 分钟保存一次检查点到对象存储，被回收最多损失 10 分钟。",
            "This plan trains on spot: checkpoint to object storage every 5-10 minutes, so a reclaim loses at most 10 minutes.",
        ),
        (Task::Infer, _) => bi!(
            "本方案用竞价实例推理：实例可能被回收，进行中的请求会丢失；监听回收通知并能自动重建。",
            "This plan serves on spot: instances can be reclaimed and requests in flight are lost; watch for the notice and rebuild automatically.",
        ),
    };
    let mut p = Para::from(bi!(why.zh, why.en));
    if let Some(c) = f.checkpoint().filter(|c| minutes_at_10gbps(*c) > 10.0) {
        let m = num(minutes_at_10gbps(c));
        p.push(bi!(
            format!("但以 10 Gbps 传出一份要约 {m} 分钟，比间隔还长：先写本地 NVMe 再异步上传，或重新考虑竞价实例。"),
            format!("But copying one out at 10 Gbps takes about {m} minutes, longer than the interval: write to local NVMe first and upload in the background, or reconsider spot."),
        ));
    }
    Some(
        Fill::new(bi!("竞价实例没有检查点。", "Spot instances without checkpoints."))
            .expect(p.done())
            .risk(true),
    )
}

fn cost_alarm(f: &Facts) -> Option<Fill> {
    if !f.rented || f.option == Some(OptionKind::Monthly) {
        return None;
    }
    Some(
        Fill::new(bi!("没有费用告警或支出上限。", "No cost alarm or spend cap."))
            .expect(bi!(
                "本方案按用量计费：设置费用告警和资源上限（例如单日超额自动关停）。",
                "This plan bills by use: set a cost alarm and a resource cap (for example, stop instances past a daily amount).",
            )),
    )
}

fn stack_port(f: &Facts) -> Option<Fill> {
    let s = f.stack();
    if s == Stack::Cuda {
        return None;
    }
    let name = text::stack(s);
    Some(
        Fill::new(bi!(
            "以为 CUDA 上能跑的东西换个平台照样能跑。",
            "Assuming what runs on CUDA runs unchanged elsewhere.",
        ))
        .expect(bi!(
            format!("本方案用 {name}：自定义 CUDA 内核、部分量化库和小众工具可能需要移植或无法运行；下单前把实际用的整套工具端到端跑一遍。"),
            format!("This plan is on {name}: custom CUDA kernels, some quantisation libraries and niche tools may need porting or may not run; run your whole stack end to end before ordering."),
        ))
        .risk(true),
    )
}

/// Seed 002 §8: error 43 is Windows not recognising the card, nearly always
/// its driver; common on self-built machines with consumer or workstation
/// cards, rare on cloud Linux images.
fn windows_error_43(f: &Facts) -> Option<Fill> {
    let class = f.class()?;
    let own = !f.rented && class == GpuClass::Workstation;
    if class != GpuClass::Geforce && !own {
        return None;
    }
    let name = gpu_name(f);
    Some(
        Fill::new(bi!(
            "Windows 主机上的消费级卡报错误代码 43。",
            "Error code 43 on a Windows host with a consumer card.",
        ))
        .expect(bi!(
            format!("本方案用 {}：若主机装的是 Windows，错误 43 表示系统认不出显卡，九成是驱动不匹配或损坏。在安全模式下用 Display Driver Uninstaller（DDU）彻底清除现有驱动，再装 NVIDIA 官方驱动；双显卡笔记本还要更新核显驱动或检查 BIOS 中的显卡模式。云上的 Linux 镜像基本不会遇到。", name.zh),
            format!("This plan uses the {}: on a Windows host, error 43 means the OS does not recognise the card, nearly always a mismatched or broken driver. Remove the driver completely with Display Driver Uninstaller (DDU) in safe mode, then install NVIDIA's driver; on a laptop with two GPUs, update the integrated GPU's driver or check the BIOS graphics mode. Cloud Linux images rarely meet it.", name.en),
        )),
    )
}

/// Months in a long term that seed 004 says is negotiated by ticket.
const LONG_TERM_MONTHS: f64 = 6.0;

/// Seed 004, step 9: month to month, or 6-12 months by ticket once a server
/// runs, with a volume price for several servers.
fn long_term_ticket(f: &Facts) -> Option<Fill> {
    let months = f.rental_hours? / HOURS_PER_MONTH;
    if !f.rented || f.option != Some(OptionKind::Monthly) || months < LONG_TERM_MONTHS {
        return None;
    }
    let m = format!("{months:.0}");
    let volume = if f.nodes > 1 {
        bi!(
            format!("本方案要 {} 台服务器，一并问批量价格。", f.nodes),
            format!(" With {} servers, ask for a volume price too.", f.nodes)
        )
    } else {
        bi!("", "")
    };
    Some(
        Fill::new(bi!(
            "长期使用却一直按月续租，没问长期价格。",
            "Renewing month by month for a long run without asking for a term price.",
        ))
        .expect(bi!(
            format!("本方案按月租用约 {m} 个月：服务器跑起来后，通过工单申请 6–12 个月的长期租用。{}", volume.zh),
            format!("This plan rents monthly for about {m} months: once a server runs, ask by ticket for a 6-12 month term.{}", volume.en),
        )),
    )
}
