//! What nvidia-smi shows for a training run. PyTorch's caching allocator
//! keeps freed blocks in its reserved pool, which grows past the allocated
//! peak as differently sized tensors come and go, and the card also holds the
//! CUDA context (and NCCL's buffers on several GPUs). Reserved = allocated ×
//! a ratio measured on runs that report both (`docs/training.md`), by the
//! shape of the batches and the GPU count; never more than the card, since
//! under pressure the allocator releases its cache and retries.

use serde::Serialize;

use super::runtime::CUDA_CONTEXT;
use crate::derivation::{self, why};

/// Reserved ÷ allocated at the peak, for one shape of batch and GPU count:
/// the median over the fitting source's runs with memory to spare.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// Every sequence packed to the full length (else: batches of varying length).
    pub packed: bool,
    /// Sharded or replicated over more than one GPU.
    pub several: bool,
    pub value: f64,
}

/// The calibrated ratios (fms-acceleration benchmark tables, A100 80GB).
pub const RATIOS: [Ratio; 4] = [
    Ratio { packed: true, several: false, value: 1.23 },
    Ratio { packed: true, several: true, value: 1.40 },
    Ratio { packed: false, several: false, value: 1.67 },
    Ratio { packed: false, several: true, value: 1.48 },
];

/// The ratio for `packed` batches on `gpus` GPUs.
pub fn ratio(packed: bool, gpus: u32) -> f64 {
    let several = gpus > 1;
    RATIOS.iter().find(|r| r.packed == packed && r.several == several).map_or(1.0, |r| r.value)
}

/// What nvidia-smi shows for an allocated peak of `allocated` bytes (PyTorch's
/// counter, without the CUDA context), at most the card's `card` bytes.
pub fn shown(allocated: f64, packed: bool, gpus: u32, card: Option<f64>) -> f64 {
    let v = allocated * ratio(packed, gpus) + CUDA_CONTEXT;
    card.filter(|c| *c > 0.0).map_or(v, |c| v.min(c))
}

/// A training run's two figures beside its allocated peak.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct NvidiaSmi {
    /// PyTorch's allocated peak (`torch.cuda.max_memory_allocated`): the
    /// engine's peak less the CUDA context.
    pub allocated_bytes: u64,
    /// nvidia-smi with batches of varying length (data not packed), an
    /// expected value: held out, the calibration misses by 11 % at the
    /// median and 24 % at worst (docs/training.md).
    pub varying_bytes: u64,
    /// nvidia-smi with every sequence packed to the full length (expected, likewise).
    pub packed_bytes: u64,
    pub derivation: String,
}

/// The figures for a run whose engine peak (with the CUDA context) is `peak` bytes.
pub fn nvidia_smi(peak: u64, gpus: u32, card: Option<f64>) -> NvidiaSmi {
    let allocated = (peak as f64 - CUDA_CONTEXT).max(0.0);
    let varying = shown(allocated, false, gpus, card);
    let packed = shown(allocated, true, gpus, card);
    let where_ = if gpus > 1 { "several GPUs" } else { "1 GPU" };
    let cap = match card {
        Some(c) if varying >= c => why!(", at most the card's {}", derivation::size(c)),
        _ => String::new(),
    };
    let derivation = why!(
        "torch allocated {} × {} (varying-length batches, {where_}) + CUDA ctx {} = {}{cap}; packed × {} → {}",
        derivation::size(allocated),
        derivation::num(ratio(false, gpus)),
        derivation::size(CUDA_CONTEXT),
        derivation::size(varying),
        derivation::num(ratio(true, gpus)),
        derivation::size(packed)
    );
    NvidiaSmi {
        allocated_bytes: allocated.round() as u64,
        varying_bytes: varying.round() as u64,
        packed_bytes: packed.round() as u64,
        derivation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserve_grows_with_varying_batches_and_stops_at_the_card() {
        let gib = 1024.0 * 1024.0 * 1024.0;
        let s = nvidia_smi((20.0 * gib + CUDA_CONTEXT) as u64, 1, None);
        assert_eq!(s.allocated_bytes, (20.0 * gib) as u64);
        assert_eq!(s.varying_bytes, (20.0 * gib * 1.67 + CUDA_CONTEXT).round() as u64);
        assert!(s.packed_bytes < s.varying_bytes);
        let capped = nvidia_smi((70.0 * gib) as u64, 1, Some(80.0 * gib));
        assert_eq!(capped.varying_bytes, (80.0 * gib) as u64);
        assert!(ratio(true, 8) > ratio(true, 1));
    }
}
