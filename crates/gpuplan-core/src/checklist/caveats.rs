//! Seed rules about what the estimate cannot promise: supply and peak
//! prices (seed 002 §10, seed 004), sharing a GPU among small jobs (seed 002
//! §9.3), 4-bit quality (seed 002 §9.1, seed 004) and the communication
//! buffers that live beside the estimate on every GPU (seed 000).

use super::{Facts, Fill};
use crate::cost::OptionKind;
use crate::plan::{Method, Shard, Task};
use crate::present::{gigabytes, size};
use crate::text::Key;

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
    let text = crate::text::both(Key::CaveatSupply, &[("x", &x)]);
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
        crate::text::both(
            Key::CaveatShareMig,
            &[("need", &need), ("name", &name), ("whole", &whole), ("n", &n)],
        )
    } else {
        crate::text::both(Key::CaveatShareContainers, &[("need", &need), ("name", &name), ("whole", &whole)])
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
    let text = if qlora {
        crate::text::both(Key::CaveatFourBitQlora, &[])
    } else {
        crate::text::both(Key::CaveatFourBitWeights, &[("format", &super::text::weights(f.weights))])
    };
    Some(Fill::new(text).risk(true))
}

/// NCCL's buffers and the framework's buckets take memory on every GPU that talks.
pub(super) fn comm_buffers(f: &Facts) -> Option<Fill> {
    let sharded = f.shard != Shard::None;
    if !f.multi_gpu() || (f.tensor_parallel <= 1 && f.pipeline_parallel <= 1 && !sharded) {
        return None;
    }
    let h = f.headroom_pct;
    let text = crate::text::both(Key::CaveatCommBuffers, &[("h", &h)]);
    Some(Fill::new(text))
}
