//! Seed rules about what the estimate cannot promise: supply and peak
//! prices (seed 002 §10, seed 004), sharing a GPU among small jobs (seed 002
//! §9.3), 4-bit quality (seed 002 §9.1, seed 004) and the communication
//! buffers that live beside the estimate on every GPU (seed 000).

use super::text::{bi, Bi};
use super::{Facts, Fill};
use crate::cost::OptionKind;
use crate::plan::{Method, Shard, Task};
use crate::present::{gigabytes, size};

/// Seed 002 §10: at peak times prices can be about twice the usual.
const PEAK_PRICE_FACTOR: f64 = 2.0;

/// A job is "small" for sharing when it needs at most this share of the card.
const SMALL_JOB_SHARE: f64 = 0.5;

/// Below this many bits per weight, the quality caveat applies (4-bit formats).
const FOUR_BIT_BELOW: f64 = 5.0;

/// Book ahead: the rate is only worth something if the GPUs are there.
pub(super) fn supply(f: &Facts) -> Option<Fill> {
    if !f.rented {
        return None;
    }
    let x = PEAK_PRICE_FACTOR;
    let text = bi!(
        format!("提前订好资源：热门时段的价格可能是平日的约 {x} 倍，2026 年按需库存常常售罄。有可预期的高峰（大促、发布）就提前一个月锁定，并向供应商确认需要时确实有卡，而不只是单价。"),
        format!("Book ahead: at peak times prices can be about {x}× the usual, and in 2026 on-demand stock is often sold out. Before a predictable peak (a launch, a sale) reserve a month ahead, and confirm with the provider that the GPUs are there when you need them, not only the rate."),
    );
    let exposed = matches!(f.option, Some(OptionKind::OnDemand | OptionKind::Spot));
    Some(Fill::new(text).risk(exposed))
}

/// Several small jobs on one GPU: MIG where the part has it, else containers
/// with a memory cap each.
pub(super) fn sharing(f: &Facts) -> Option<Fill> {
    let gpu = f.gpu.as_ref()?;
    let card = gpu.memory_gb * 1e9;
    let small = !f.multi_gpu() && f.per_gpu_bytes > 0 && (f.per_gpu_bytes as f64) <= card * SMALL_JOB_SHARE;
    if !small {
        return None;
    }
    let (need, name, whole) = (size(f.per_gpu_bytes), gpu.name.as_ref(), gigabytes(gpu.memory_gb));
    let text = if gpu.mig > 0 {
        let n = gpu.mig;
        bi!(
            format!("这个任务只用 {need}，不到 {name}（{whole} GB）的一半：它最多可切成 {n} 个 MIG 实例（NVIDIA MIG 用户指南），可以租一个 MIG 切片，或让几个小任务共用一张卡。"),
            format!("This job needs {need}, under half of the {name}'s {whole} GB: the card splits into up to {n} MIG instances (NVIDIA MIG User Guide), so rent a MIG slice or run several small jobs on one card."),
        )
    } else {
        bi!(
            format!("这个任务只用 {need}，不到 {name}（{whole} GB）的一半：这款卡不支持 MIG，但几个小任务可以用容器共用一张卡，每个容器设显存上限，否则一个任务占满显存会让另一个 OOM。"),
            format!("This job needs {need}, under half of the {name}'s {whole} GB: the card has no MIG, but several small jobs can share it in containers, each with a memory cap, or one job filling the memory makes the other run out."),
        )
    };
    Some(Fill::new(text))
}

/// 4-bit weights (served, or QLoRA's frozen base) lose more quality than 8-bit.
pub(super) fn four_bit(f: &Facts) -> Option<Fill> {
    let served = f.task == Task::Infer && f.weights.bits() < FOUR_BIT_BELOW;
    let qlora = f.task == Task::Train && f.method == Method::Qlora;
    if !served && !qlora {
        return None;
    }
    let what: Bi = if qlora {
        bi!("QLoRA 的 4 位基座", "QLoRA's 4-bit base")
    } else {
        bi!(
            format!("{} 权重", super::text::weights(f.weights)),
            format!("{} weights", super::text::weights(f.weights))
        )
    };
    let text = bi!(
        format!("{}：INT8 几乎无感，4 位在复杂任务上可能掉点，损失比 8 位更明显。下单前在你自己的评测集上测一遍；显存够就先试 8 位。", what.zh),
        format!("{}: INT8 is barely noticeable, while 4-bit can lose accuracy on complex tasks, more than 8-bit does. Test on your own evaluation set before ordering, and try 8-bit first if memory allows.", what.en),
    );
    Some(Fill::new(text).risk(true))
}

/// NCCL's buffers and the framework's buckets take memory on every GPU that talks.
pub(super) fn comm_buffers(f: &Facts) -> Option<Fill> {
    let sharded = f.shard != Shard::None;
    if !f.multi_gpu() || (f.tensor_parallel <= 1 && f.pipeline_parallel <= 1 && !sharded) {
        return None;
    }
    let h = f.headroom_pct;
    let text = bi!(
        format!("通信缓冲区占每张卡的显存，不在估算里（框架工作区、分片方式和通信缓冲区都要另算）：NCCL 按每个通道、每个对端保留 NCCL_BUFFSIZE（默认 4 MiB，NCCL 文档）；DeepSpeed ZeRO 的 reduce_bucket_size 与 allgather_bucket_size 默认各 5e8 个元素（DeepSpeed 配置文档），PyTorch DDP 按 bucket_cap_mb = 25 MB 分桶。让它们落在 {h} % 余量之内，或调小桶的大小。"),
        format!("Communication buffers take memory on every GPU, outside the estimate (framework workspace, sharding and communication buffers are counted apart): NCCL keeps NCCL_BUFFSIZE (default 4 MiB, NCCL docs) per channel and peer; DeepSpeed ZeRO's reduce_bucket_size and allgather_bucket_size default to 5e8 elements each (DeepSpeed config docs), and PyTorch DDP buckets gradients by bucket_cap_mb = 25 MB. Keep them within the {h} % headroom, or lower the bucket sizes."),
    );
    Some(Fill::new(text))
}
