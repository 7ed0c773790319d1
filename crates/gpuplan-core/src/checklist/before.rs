//! Before ordering: seed 004's ten pre-order steps, filled from the plan.

use super::cuda::{driver_floor, Floor};
use super::facts::Facts;
use super::text::{self, bi, Bi, Para};
use super::{Fill, Spec};
use crate::hardware::{Gpu, HwFormat, LinkKind, Stack, Support};
use crate::model::WeightFormat;
use crate::money::num;
use crate::plan::{Method, Task};
use crate::present::{billions, gigabytes, size};
use crate::tensor_path::{tensor_path, TensorPath};

pub(super) const SPECS: &[Spec] = &[
    Spec { id: "workload", rule: workload },
    Spec { id: "memory", rule: memory },
    Spec { id: "gpu-count", rule: gpu_count },
    Spec { id: "gpu-sharing", rule: super::caveats::sharing },
    Spec { id: "interconnect", rule: interconnect },
    Spec { id: "multinode", rule: multinode },
    Spec { id: "precision", rule: precision },
    Spec { id: "host-cpu", rule: host_cpu },
    Spec { id: "host-ram", rule: host_ram },
    Spec { id: "nvme", rule: nvme },
    Spec { id: "egress", rule: egress },
    Spec { id: "transfer", rule: super::transfer::transfer },
    Spec { id: "backups", rule: backups },
    Spec { id: "stack", rule: stack },
    Spec { id: "ssh", rule: ssh },
    Spec { id: "term", rule: term },
    Spec { id: "book-ahead", rule: super::caveats::supply },
    Spec { id: "final-check", rule: final_check },
];

/// "Llama 3.1 70B (70.6B)", or a generic name when the plan has none.
pub(super) fn model(f: &Facts) -> Bi {
    let params = if f.params > 0.0 { format!("（{}）", billions(f.params)) } else { String::new() };
    let params_en = if f.params > 0.0 { format!(" ({})", billions(f.params)) } else { String::new() };
    if f.model_name.is_empty() {
        bi!(format!("模型{params}"), format!("the model{params_en}"))
    } else {
        bi!(format!("{}{params}", f.model_name), format!("{}{params_en}", f.model_name))
    }
}

pub(super) fn gpu_name(f: &Facts) -> Bi {
    match &f.gpu {
        Some(g) => bi!(g.name.to_string(), g.name.to_string()),
        None => bi!("所选 GPU", "the chosen GPU"),
    }
}

/// The plan's workload in one phrase, for this item and the representative job.
pub(super) fn workload_phrase(f: &Facts) -> Bi {
    let m = model(f);
    match f.task {
        Task::Infer => bi!(
            format!(
                "{}，{} 权重，最大上下文 {} token，并发 {} 个序列",
                m.zh,
                text::weights(f.weights),
                f.context,
                f.concurrency
            ),
            format!(
                "{}, {} weights, context up to {} tokens, {} {} at once",
                m.en,
                text::weights(f.weights),
                f.context,
                f.concurrency,
                if f.concurrency == 1 { "sequence" } else { "sequences" }
            ),
        ),
        Task::Train => bi!(
            format!(
                "{}，{}，{}，序列长度 {}，每卡微批次 {}",
                m.zh,
                text::method(f.method, crate::lang::Lang::Zh),
                text::precision(f.precision, crate::lang::Lang::Zh),
                f.seq,
                f.batch
            ),
            format!(
                "{}, {}, {}, sequence length {}, micro-batch {} per GPU",
                m.en,
                text::method(f.method, crate::lang::Lang::En),
                text::precision(f.precision, crate::lang::Lang::En),
                f.seq,
                f.batch
            ),
        ),
    }
}

fn workload(f: &Facts) -> Option<Fill> {
    let w = workload_phrase(f);
    Some(Fill::new(bi!(format!("写下工作负载：{}。", w.zh), format!("Write down the workload: {}.", w.en))))
}

fn memory(f: &Facts) -> Option<Fill> {
    if f.per_gpu_bytes == 0 {
        return Some(Fill::new(bi!(
            "计算每卡显存峰值，再留 10–30% 余量，然后决定单卡还是多卡。",
            "Compute peak memory per GPU, add 10-30% headroom, then decide on one GPU or several.",
        )));
    }
    let h = num(f.headroom_pct);
    let peak = size(f.per_gpu_bytes);
    let mut over = false;
    let mut p = match &f.gpu {
        None => Para::from(bi!(
            format!("每卡显存：本方案峰值 {peak}，选卡时再留 {h}% 余量。"),
            format!("Memory per GPU: the plan peaks at {peak}; keep {h}% headroom when choosing the card."),
        )),
        Some(g) => {
            let usable = g.memory_gb * (1.0 - f.headroom_pct / 100.0);
            over = f.per_gpu_bytes as f64 / 1e9 > usable;
            let (mem, use_) = (gigabytes(g.memory_gb), gigabytes(usable));
            let mut p = Para::from(bi!(
                format!("每卡显存：本方案峰值 {peak}；{} 标称 {mem} GB，留 {h}% 余量后可用 {use_} GB。", g.name),
                format!(
                    "Memory per GPU: the plan peaks at {peak}; the {} has {mem} GB, {use_} GB usable with {h}% headroom.",
                    g.name
                ),
            ));
            if over {
                p.push(bi!(
                    "超出可用显存：换更大显存的卡、增加 GPU，或降低精度、上下文或并发。",
                    "That is over: choose a larger card or more GPUs, or lower precision, context or concurrency.",
                ));
            }
            p
        }
    };
    let low = f.headroom_pct < 10.0;
    if low {
        p.push(bi!(
            format!("余量 {h}% 低于常用的 10–30%。"),
            format!("{h}% headroom is below the usual 10-30%."),
        ));
    }
    p.push(bi!(
        "常见的经验法则是在“参数量 × 每参数字节数”之上留三到五成余量：那是只算权重时替 KV 缓存、激活和运行时留的；这里已逐项计入它们，余量只需覆盖显存碎片和估算误差。",
        "A common rule of thumb adds 30-50% over parameters × bytes per parameter: that margin stands in for the KV cache, activations and runtime when only weights are counted; they are counted here, so the headroom covers only allocator fragmentation and estimate error.",
    ));
    Some(Fill::new(p.done()).risk(over || low))
}

/// "张量并行 4" / "tensor parallel 4", plus pipeline and sharding when used.
pub(super) fn split_phrase(f: &Facts) -> Bi {
    let mut zh = Vec::new();
    let mut en = Vec::new();
    if f.tensor_parallel > 1 {
        zh.push(format!("张量并行 {}", f.tensor_parallel));
        en.push(format!("tensor parallel {}", f.tensor_parallel));
    }
    if f.pipeline_parallel > 1 {
        zh.push(format!("流水线并行 {}", f.pipeline_parallel));
        en.push(format!("pipeline parallel {}", f.pipeline_parallel));
    }
    let shard = text::shard(f.shard);
    if !shard.is_empty() {
        zh.push(shard.to_string());
        en.push(shard.to_string());
    }
    if zh.is_empty() {
        let (z, e) = match f.task {
            Task::Infer => ("各卡独立副本", "independent replicas"),
            Task::Train => ("数据并行", "data parallel"),
        };
        zh.push(z.into());
        en.push(e.into());
    }
    bi!(zh.join("，"), en.join(", "))
}

fn gpu_count(f: &Facts) -> Option<Fill> {
    if !f.multi_gpu() {
        return Some(Fill::new(bi!(
            "单卡方案：模型和缓存都在一张卡上，不依赖卡间互联。",
            "Single-GPU plan: model and cache fit on one card, no GPU-to-GPU link involved.",
        )));
    }
    let split = split_phrase(f);
    let servers = if f.nodes > 1 {
        bi!(
            format!("，{} 台服务器各 {} 张", f.nodes, f.gpus_per_node()),
            format!(" on {} servers of {}", f.nodes, f.gpus_per_node()),
        )
    } else {
        bi!("", "")
    };
    Some(Fill::new(bi!(
        format!(
            "多卡方案：{} 张 GPU{}，{}。确认所用框架支持这种切分，且每卡的分片、激活和工作区都放得下。",
            f.gpu_count, servers.zh, split.zh
        ),
        format!(
            "Multi-GPU plan: {} GPUs{}, {}. Confirm your framework supports this split and that each GPU's shard, activations and workspace fit.",
            f.gpu_count, servers.en, split.en
        ),
    )))
}

/// Why the GPUs exchange data in this plan.
fn why_talk(f: &Facts) -> Bi {
    if f.tensor_parallel > 1 {
        bi!(
            format!("张量并行 {} 每一层都在卡间交换激活", f.tensor_parallel),
            format!("tensor parallel {} exchanges activations every layer", f.tensor_parallel),
        )
    } else if f.task == Task::Train {
        bi!(
            "训练每一步都在卡间同步全部梯度或收集分片",
            "training syncs full gradients or gathers shards every step",
        )
    } else {
        bi!("流水线并行在各级之间传递激活", "pipeline parallel passes activations between stages")
    }
}

fn link_rate(f: &Facts) -> Bi {
    match f.gpu.as_ref().and_then(|g| g.link_gbs) {
        Some(gbs) => {
            bi!(format!("（双向合计 {} GB/s）", num(gbs)), format!(" ({} GB/s both ways)", num(gbs)))
        }
        None => bi!(" ", ""),
    }
}

fn interconnect(f: &Facts) -> Option<Fill> {
    if !f.multi_gpu() {
        return None;
    }
    if !f.gpus_talk() {
        let why = match f.task {
            Task::Infer => bi!("各卡独立运行副本", "the GPUs run independent replicas"),
            Task::Train => {
                bi!("每步只同步很小的适配器梯度", "each step syncs only the small adapter gradients")
            }
        };
        return Some(Fill::new(bi!(
            format!("卡间互联：{}，PCIe 就够，不必为 NVLink 多付钱。", why.zh),
            format!("Interconnect: {}, so PCIe is enough; no need to pay for NVLink.", why.en),
        )));
    }
    let Some(g) = &f.gpu else {
        return Some(Fill::new(bi!(
            format!("卡间互联：{}，选带 NVLink 的配置，或明知 PCIe 的代价再接受。", why_talk(f).zh),
            format!(
                "Interconnect: {}: choose a configuration with NVLink, or accept PCIe's cost knowingly.",
                why_talk(f).en
            ),
        )));
    };
    let mut p = match g.link {
        LinkKind::Pcie => pcie_only(f, g),
        LinkKind::Fabric | LinkKind::Bridge => fast_link(f, g),
    };
    let mut risk = g.link == LinkKind::Pcie;
    let per_node = f.gpus_per_node();
    if g.link != LinkKind::Pcie && per_node > g.link_domain {
        risk = true;
        p.push(bi!(
            format!(
                "但 {} 只连通 {} 张卡，每台 {per_node} 张时组与组之间走 PCIe：问清哪些卡互相连通。",
                g.link_name, g.link_domain
            ),
            format!(
                "But {} joins only {} cards, so with {per_node} per server traffic between groups goes over PCIe: ask which GPUs are linked.",
                g.link_name, g.link_domain
            ),
        ));
    }
    if f.tensor_parallel > per_node {
        risk = true;
        p.push(bi!(
            format!("张量并行 {} 超过每台的 {per_node} 张卡，要跨服务器走网络：尽量让张量并行留在一台之内。", f.tensor_parallel),
            format!(
                "Tensor parallel {} spans more than the {per_node} GPUs of a server, so it runs over the network: keep tensor parallel inside one server where possible.",
                f.tensor_parallel
            ),
        ));
    }
    Some(Fill::new(p.done()).risk(risk))
}

fn fast_link(f: &Facts, g: &Gpu) -> Para {
    let why = why_talk(f);
    let rate = link_rate(f);
    let name = &g.link_name;
    let per_node = f.gpus_per_node();
    let joined = if per_node <= g.link_domain {
        bi!(format!("每台的全部 {per_node} 张卡"), format!("all {per_node} GPUs of each server"))
    } else {
        bi!(format!("{} 张卡", g.link_domain), format!("{} GPUs", g.link_domain))
    };
    let check = match g.stack {
        Stack::Cuda => bi!("交付后用 nvidia-smi topo -m 核对", "check nvidia-smi topo -m on delivery"),
        Stack::Rocm => bi!("交付后用 rocm-smi --showtopo 核对", "check rocm-smi --showtopo on delivery"),
        Stack::Cann => bi!("交付后核对拓扑", "check the topology on delivery"),
    };
    Para::from(bi!(
        format!("卡间互联：{}，需要 {name}{}连通{}。向供应商确认，{}（见验收）。", why.zh, rate.zh, joined.zh, check.zh),
        format!(
            "Interconnect: {}, so it needs {name}{} joining {}. Confirm with the vendor and {} (see acceptance).",
            why.en, rate.en, joined.en, check.en
        ),
    ))
}

fn pcie_only(f: &Facts, g: &Gpu) -> Para {
    let why = why_talk(f);
    Para::from(bi!(
        format!(
            "卡间互联：{}，但 {} 没有 NVLink，流量走 PCIe（Gen5 x16 双向约 128 GB/s，NVLink4 为 900 GB/s）。明知代价再接受，或换带 NVLink 的型号。",
            why.zh, g.name
        ),
        format!(
            "Interconnect: {}, but the {} has no NVLink, so it goes over PCIe (Gen5 x16 about 128 GB/s both ways, NVLink4 900 GB/s). Accept that cost knowingly or choose a part with NVLink.",
            why.en, g.name
        ),
    ))
}

fn multinode(f: &Facts) -> Option<Fill> {
    (f.nodes > 1).then(|| {
        Fill::new(bi!(
            format!(
                "跨服务器：{} 台之间的网络决定多机效率（HGX 服务器常见每卡一块 400G 网卡）；在订单中申请服务器之间的私有网络。",
                f.nodes
            ),
            format!(
                "Across servers: the network between the {} servers decides multi-node speed (HGX servers commonly have one 400G NIC per GPU); ask for a private network between them in the order.",
                f.nodes
            ),
        ))
    })
}

/// One precision need: the format, what it requires, and the part's support.
struct Need {
    format: &'static str,
    requires: Bi,
    support: Support,
}

/// Whether `g` multiplies NVFP4 on FP4 tensor cores (unknown where its FP4
/// support is).
fn nvfp4_support(g: &Gpu) -> Support {
    match (g.supports(HwFormat::Fp4), tensor_path(g, WeightFormat::Nvfp4)) {
        (Support::Unknown, _) => Support::Unknown,
        (_, TensorPath::Fp4) => Support::Yes,
        _ => Support::No,
    }
}

fn precision(f: &Facts) -> Option<Fill> {
    let Some(g) = &f.gpu else {
        return Some(Fill::new(bi!(
            "精度格式：确认所选 GPU 支持方案依赖的格式（FP8 需要 Hopper/Ada 或更新；FP4 需要 Blackwell 或 MI355X）。",
            "Precision formats: confirm the chosen GPU supports what the plan depends on (FP8 needs Hopper/Ada or newer; FP4 needs Blackwell or MI355X).",
        )));
    };
    let mut needs = Vec::new();
    if f.needs_fp8() {
        let requires = bi!("FP8 需要 Hopper/Ada 或更新", "FP8 needs Hopper/Ada or newer");
        needs.push(Need { format: "FP8", requires, support: g.supports(HwFormat::Fp8) });
    }
    if f.needs_fp4() {
        let requires = bi!(
            "原生 FP4 需要 Blackwell 或 MI355X，其他卡要靠反量化内核（确认推理框架支持）",
            "native FP4 needs Blackwell or MI355X; other parts rely on a dequantising kernel (check your engine has one)",
        );
        needs.push(Need { format: "FP4", requires, support: g.supports(HwFormat::Fp4) });
    }
    if f.needs_nvfp4() {
        let requires = bi!(
            "NVFP4 在 FP4 张量核心上运行需要 NVIDIA Blackwell（计算能力 10.x/12.x），其他卡只能按仅权重方式运行（确认推理框架有该内核）",
            "NVFP4 on FP4 tensor cores needs NVIDIA Blackwell (compute capability 10.x/12.x); other parts run it weight-only (check your engine has the kernel)",
        );
        needs.push(Need { format: "NVFP4", requires, support: nvfp4_support(g) });
    }
    if f.needs_bf16() {
        let requires = bi!("BF16 需要 Ampere 或更新", "BF16 needs Ampere or newer");
        needs.push(Need { format: "BF16", requires, support: g.supports(HwFormat::Bf16) });
    }
    let cc = g
        .cuda_capability()
        .map(|(a, b)| (format!("（计算能力 {a}.{b}）"), format!(" (compute capability {a}.{b})")))
        .unwrap_or_default();
    if needs.is_empty() {
        return Some(Fill::new(bi!(
            format!(
                "精度格式：{} 不依赖 FP8/FP4/BF16 硬件；确认推理或训练框架在 {}{} 上支持它。",
                text::weights(f.weights),
                g.name,
                cc.0
            ),
            format!(
                "Precision formats: {} does not depend on FP8/FP4/BF16 hardware; confirm your framework supports it on the {}{}.",
                text::weights(f.weights),
                g.name,
                cc.1
            ),
        )));
    }
    let mut zh = Vec::new();
    let mut en = Vec::new();
    for n in &needs {
        let (z, e) = match n.support {
            Support::Yes => {
                (format!("{} 支持 {}", g.name, n.format), format!("the {} supports {}", g.name, n.format))
            }
            Support::No => (
                format!("{}，{} 不支持", n.requires.zh, g.name),
                format!("{}; the {} does not", n.requires.en, g.name),
            ),
            Support::Unknown => (
                format!("{}：向供应商确认 {} 的支持", n.requires.zh, g.name),
                format!("{}: confirm support on the {} with the vendor", n.requires.en, g.name),
            ),
        };
        zh.push(z);
        en.push(e);
    }
    let risk = needs.iter().any(|n| n.support != Support::Yes);
    Some(
        Fill::new(bi!(
            format!("精度格式{}：{}。", cc.0, zh.join("；")),
            format!("Precision formats{}: {}.", cc.1, en.join("; ")),
        ))
        .risk(risk),
    )
}

fn host_cpu(f: &Facts) -> Option<Fill> {
    let n = f.gpus_per_node();
    let fill = if n > 1 {
        let (lo, hi) = (14 * n, 16 * n);
        Fill::new(bi!(
            format!(
                "CPU：至少 8 核；8 卡服务器常配每卡 14–16 核，每台 {n} 张卡即 {lo}–{hi} 核。分词、数据加载和推理调度都在 CPU 上，视觉和视频流水线需要更多。"
            ),
            format!(
                "CPU: at least 8 cores; 8-GPU servers commonly have 14-16 per GPU, which is {lo}-{hi} for {n} GPUs per server. Tokenising, data loading and serving run on the CPU; vision and video pipelines need more."
            ),
        ))
    } else {
        Fill::new(bi!(
            "CPU：至少 8 核（单卡套餐常见 16–28 个 vCPU）。分词、数据加载和推理调度都在 CPU 上。",
            "CPU: at least 8 cores (single-GPU plans commonly come with 16-28 vCPU). Tokenising, data loading and serving run on the CPU.",
        ))
    };
    Some(fill)
}

/// A GPU server's host memory, at least 32 GB: the floor rental guides give.
const HOST_RAM_FLOOR_GB: f64 = 32.0;

fn host_ram(f: &Facts) -> Option<Fill> {
    let n = f.gpus_per_node();
    let vram = f.gpu.as_ref().map(|g| (g.memory_gb, g.memory_gb * f64::from(n)));
    let floor = gigabytes(HOST_RAM_FLOOR_GB);
    let mut p = match vram {
        Some((per, total)) => {
            let need = gigabytes(total.max(HOST_RAM_FLOOR_GB));
            Para::from(bi!(
                format!("内存：每台至少取 {floor} GB（GPU 服务器的常见下限）与 GPU 显存总量中的较大者：{n} × {} GB = {} GB，即至少 {need} GB。", gigabytes(per), gigabytes(total)),
                format!("RAM: at least the larger of {floor} GB (a common floor for a GPU server) and the server's total GPU memory: {n} × {} GB = {} GB, so at least {need} GB.", gigabytes(per), gigabytes(total)),
            ))
        }
        None => Para::from(bi!(
            format!("内存：每台至少取 {floor} GB（GPU 服务器的常见下限）与 GPU 显存总量中的较大者。"),
            format!(
                "RAM: at least the larger of {floor} GB (a common floor for a GPU server) and the server's total GPU memory."
            ),
        )),
    };
    let adapter = matches!(f.method, Method::Lora | Method::Qlora);
    if f.task == Task::Train && adapter && f.params > 0.0 {
        // The merged model is BF16: 2 bytes per parameter.
        let merge = f.params * 2.0 / 1e9;
        let need = vram.map_or(merge, |(_, total)| total.max(merge)).max(HOST_RAM_FLOOR_GB);
        let b = billions(f.params);
        p.push(bi!(
            format!(
                "把 LoRA 适配器合并进 BF16 模型要把整个模型放进内存：{b} × 2 字节 ≈ {} GB（70B 约 140 GB），所以至少 {} GB。",
                gigabytes(merge),
                gigabytes(need)
            ),
            format!(
                "Merging the LoRA adapter into the BF16 model holds the whole model in RAM: {b} × 2 bytes ≈ {} GB (70B: about 140 GB), so at least {} GB.",
                gigabytes(merge),
                gigabytes(need)
            ),
        ));
    }
    match f.task {
        Task::Train => p.push(bi!(
            "把优化器状态卸载到 CPU 或在内存中缓存数据集时需要更多。",
            "Offloading optimizer state to the CPU or caching the dataset in RAM needs more.",
        )),
        Task::Infer => p.push(bi!(
            "把权重或 KV 缓存卸载到 CPU 时需要更多。",
            "Offloading weights or KV cache to the CPU needs more.",
        )),
    }
    Some(Fill::new(p.done()))
}

/// Checkpoints kept on disk: the last good one while the next is written.
const CHECKPOINTS_KEPT: u64 = 2;

/// Minutes to copy bytes out at 10 Gbps line rate (1.25 GB/s).
pub(super) fn minutes_at_10gbps(bytes: u64) -> f64 {
    (super::transfer::seconds(bytes, 10.0) / 60.0).ceil()
}

fn nvme(f: &Facts) -> Option<Fill> {
    let weights = if f.weights_bytes > 0 {
        bi!(
            format!("权重（约 {}）", size(f.weights_bytes)),
            format!("weights (about {})", size(f.weights_bytes)),
        )
    } else {
        bi!("权重", "weights")
    };
    let mut p = Para::from(bi!(
        format!(
            "NVMe：放{}、数据集和检查点；只有 50 GB 的系统盘装完驱动和框架就满了，数据盘要 NVMe 而不是机械盘。",
            weights.zh
        ),
        format!(
            "NVMe: room for {}, datasets and checkpoints; a 50 GB system disk fills up with drivers and frameworks, and the data disk should be NVMe, not spinning disks.",
            weights.en
        ),
    ));
    let kept_bytes = f.checkpoint().map(|c| c.saturating_mul(CHECKPOINTS_KEPT));
    let big = kept_bytes.is_some_and(|k| k > 1_000_000_000_000);
    if let (Some(c), Some(k)) = (f.checkpoint(), kept_bytes) {
        let (one, kept) = (size(c), size(k));
        p.push(bi!(
            format!("一个可续训检查点（权重 + 优化器状态）约 {one}；写新检查点时保留上一份，至少 {kept}。"),
            format!("One resumable checkpoint (weights + optimizer state) is about {one}; keeping the last good one while the next is written needs at least {kept}."),
        ));
        if big {
            p.push(bi!(
                "超过 1 TB，而单卡套餐常见只有 1–3.5 TB NVMe：按此下单。",
                "That is over 1 TB, while single-GPU plans often have only 1-3.5 TB of NVMe: order disks for it.",
            ));
        }
    }
    Some(Fill::new(p.done()).risk(big))
}

fn egress(f: &Facts) -> Option<Fill> {
    let est = f.egress_gb_month;
    let fill = match (est > 0.0, f.egress_included_gb) {
        (true, Some(inc)) => {
            let over = est - inc;
            let (zh_over, en_over) = if over > 0.0 {
                (
                    format!("超出 {} GB，问清超额单价。", gigabytes(over)),
                    format!(" That is {} GB over: ask the price per extra GB.", gigabytes(over)),
                )
            } else {
                (String::new(), String::new())
            };
            Fill::new(bi!(
                format!("出站流量：估计每月 {} GB，套餐包含 {} GB。{zh_over}", gigabytes(est), gigabytes(inc)),
                format!("Egress: about {} GB a month against {} GB included.{en_over}", gigabytes(est), gigabytes(inc)),
            ))
            .risk(over > 0.0)
        }
        (true, None) => Fill::new(bi!(
            format!("出站流量：估计每月 {} GB；问清套餐包含多少、超出后的单价。", gigabytes(est)),
            format!("Egress: about {} GB a month; ask how much is included and the price beyond it.", gigabytes(est)),
        )),
        (false, _) => Fill::new(bi!(
            "出站流量：估算每月出站量（API 响应、下载权重和检查点），对照套餐包含的流量。",
            "Egress: estimate monthly egress (API responses, downloading weights and checkpoints) against the included allowance.",
        )),
    };
    Some(fill)
}

fn backups(f: &Facts) -> Option<Fill> {
    let mut p = Para::from(bi!(
        "备份放在服务器之外：许多供应商除非书面约定，不备份本地盘。",
        "Keep backups off the server: many vendors do not back up local disks unless agreed in writing.",
    ));
    if let Some(c) = f.checkpoint() {
        let m = num(minutes_at_10gbps(c));
        p.push(bi!(
            format!("以 10 Gbps 线速，传出一份 {} 的检查点约需 {m} 分钟。", size(c)),
            format!("At 10 Gbps line rate, copying one {} checkpoint out takes about {m} minutes.", size(c)),
        ));
    }
    Some(Fill::new(p.done()))
}

fn stack(f: &Facts) -> Option<Fill> {
    match f.stack() {
        Stack::Cuda => Some(cuda_stack(f)),
        other => {
            let name = text::stack(other);
            Some(Fill::new(bi!(
                format!("软件栈：{name} 版本与驱动、操作系统镜像；问清预装版本或能否自行安装。"),
                format!("Software stack: {name} and driver versions, and the OS image; ask what is installed or whether you can install it."),
            )))
        }
    }
}

fn cuda_stack(f: &Facts) -> Fill {
    let cc = f.gpu.as_ref().and_then(Gpu::cuda_capability);
    let mut p = Para::from(bi!(
        "软件栈：CUDA 与驱动版本、操作系统镜像。",
        "Software stack: CUDA and driver versions, and the OS image.",
    ));
    let mut risk = false;
    if let Some(v) = f.cuda {
        let floor = driver_text(v);
        p.push(bi!(floor.zh, floor.en));
        if let Some((major, minor)) = cc.filter(|cc| v.major >= 13 && *cc < (7, 5)) {
            risk = true;
            p.push(bi!(
                format!("CUDA 13 不再为 Maxwell、Pascal 和 Volta 离线编译：计算能力 {major}.{minor} 的卡要用 CUDA 12.x。"),
                format!("CUDA 13 dropped offline compilation for Maxwell, Pascal and Volta: a compute capability {major}.{minor} part needs CUDA 12.x."),
            ));
        }
    }
    if cc.is_some_and(|(major, _)| major == 12) {
        risk |= f.cuda.is_some_and(|v| (v.major, v.minor) < (12, 8));
        p.push(bi!(
            "计算能力 12.0（sm_120，如 RTX 50 系列）需要 CUDA ≥ 12.8 和驱动 ≥ 570.26。",
            "Compute capability 12.0 (sm_120, e.g. RTX 50 series) needs CUDA ≥ 12.8 and driver ≥ 570.26.",
        ));
    }
    Fill::new(p.done()).risk(risk)
}

/// "CUDA 12.8 needs driver >= 570.26", in both languages.
pub(super) fn driver_text(v: super::facts::CudaVersion) -> Bi {
    let ver = format!("{}.{}", v.major, v.minor);
    match driver_floor(v) {
        Floor::Exact(d) => bi!(format!("CUDA {ver} 需要驱动 ≥ {d}。"), format!("CUDA {ver} needs driver ≥ {d}.")),
        Floor::AtLeast { driver, from } => bi!(
            format!(
                "CUDA {ver} 需要驱动至少 ≥ {driver}（CUDA {}.{} 的下限；{ver} 的确切下限见 NVIDIA CUDA 发行说明）。",
                from.major, from.minor
            ),
            format!(
                "CUDA {ver} needs driver ≥ {driver} at least (the floor of CUDA {}.{}; NVIDIA's CUDA release notes give {ver}'s exact floor).",
                from.major, from.minor
            ),
        ),
        Floor::Major(d) => bi!(
            format!("CUDA {ver} 需要 {d} 或更新的驱动分支（确切下限见 NVIDIA CUDA 发行说明）。"),
            format!("CUDA {ver} needs the {d} driver branch or newer (NVIDIA's CUDA release notes give the exact floor)."),
        ),
        Floor::Unknown => bi!(
            format!("CUDA {ver} 的驱动下限见 NVIDIA CUDA 发行说明。"),
            format!("NVIDIA's CUDA release notes give the driver floor of CUDA {ver}."),
        ),
    }
}

fn ssh(_: &Facts) -> Option<Fill> {
    Some(Fill::new(bi!(
        "交付前准备好 SSH 公钥和防火墙方案（开放哪些端口、对谁开放）。",
        "Have your SSH public key and firewall plan (which ports, open to whom) ready before delivery.",
    )))
}

fn term(f: &Facts) -> Option<Fill> {
    let chosen = f
        .option
        .map(|o| {
            (
                format!("已选：{}。", o.label(crate::lang::Lang::Zh)),
                format!(" Chosen: {}.", o.label(crate::lang::Lang::En)),
            )
        })
        .unwrap_or_default();
    Some(Fill::new(bi!(
        format!("租期：先按小时或按天短租，跑通并实测显存、流量和性能，再决定包月或长期承诺。{}", chosen.0),
        format!(
            "Term: start short (hourly or daily), run the job and measure memory, traffic and speed, then commit to monthly or longer.{}",
            chosen.1
        ),
    )))
}

fn final_check(f: &Facts) -> Option<Fill> {
    let config = f
        .gpu
        .as_ref()
        .map(|g| (format!("（{} × {}）", f.gpu_count, g.name), format!(" ({} × {})", f.gpu_count, g.name)))
        .unwrap_or_default();
    Some(Fill::new(bi!(
        format!("付款前核对配置{}、价格和交付日期。", config.0),
        format!("Before paying, verify the configuration{}, the price and the delivery date.", config.1),
    )))
}
