//! A replica from a plan and the fit's placement: per-GPU weights and KV from
//! the memory engine, speeds and link from the catalog, factors from the engine.

use super::engine::efficiency_on;
use super::llama_quant::mmq;
use super::step::{Link, Moe, Replica};
use crate::hardware::{Gpu, GpuClass, LinkKind};
use crate::memory::{gathered_embedding_bytes, input_embedding_params, lm_head};
use crate::model::Arch;
use crate::placement::{ModelSize, Placement};
use crate::plan::{Engine, Plan};
use crate::tensor_path::tensor_path;

/// One direction of a PCIe x16 link, GB/s, by generation (PCI-SIG: 8, 16,
/// 32 GT/s per lane for gen 3, 4, 5 with 128b/130b coding).
fn pcie_gbs(gen: Option<u8>) -> f64 {
    match gen {
        Some(3) => 15.75,
        Some(5) => 63.0,
        Some(6) => 121.0,
        _ => 31.5,
    }
}

/// The link `tp` GPUs of this part all-reduce over: the fast link when the
/// group fits its domain, PCIe otherwise.
fn link(gpu: &Gpu, tp: u32) -> Link {
    let fast = gpu.link != LinkKind::Pcie && tp <= gpu.link_domain;
    match gpu.link_gbs.filter(|_| fast) {
        // The catalog gives the bidirectional total: half each way.
        Some(gbs) => Link { gbs: gbs / 2.0, nvlink: true },
        None => Link { gbs: pcie_gbs(gpu.pcie_gen), nvlink: false },
    }
}

/// Routed experts and the share of weights they hold, from the total and
/// active parameter counts: active = (1 − s)·total + s·total·k/E.
fn moe(arch: &Arch, size: ModelSize) -> Option<Moe> {
    if !arch.is_moe() || arch.experts == 0 || size.total <= 0.0 {
        return None;
    }
    let pick = f64::from(arch.experts_active) / f64::from(arch.experts);
    let unread = 1.0 - size.active / size.total;
    let expert_share = if pick < 1.0 { (unread / (1.0 - pick)).clamp(0.0, 1.0) } else { 0.0 };
    Some(Moe { experts: arch.experts, active: arch.experts_active, expert_share })
}

/// The tensor rate the engine's GEMMs run at. llama.cpp multiplies 16-bit
/// matrices through cuBLAS with FP16 accumulation (`CUBLAS_COMPUTE_16F` in
/// ggml-cuda), which GeForce Ampere and Ada parts run at twice their
/// FP32-accumulate rate, the rate the catalog lists for them (their whitepapers
/// give both).
fn engine_tflops(engine: Engine, gpu: &Gpu, tflops: f64, fp8: bool) -> f64 {
    let half_rate_fp32_accumulate =
        gpu.class == GpuClass::Geforce && matches!(gpu.compute_capability.as_ref(), "8.6" | "8.9");
    if engine == Engine::LlamaCpp && half_rate_fp32_accumulate && !fp8 {
        2.0 * tflops
    } else {
        tflops
    }
}

/// The replica a plan runs at `at`, with the catalog's speeds.
pub fn replica(
    plan: &Plan,
    at: &Placement,
    arch: &Arch,
    size: ModelSize,
    bandwidth: f64,
    tflops: f64,
) -> Replica {
    let inf = &plan.inference;
    let tp = at.parallel.tp.max(1);
    let pp = at.parallel.pp.max(1);
    let stage_layers = arch.layers.div_ceil(pp);
    let cached = crate::memory::kv_tokens(arch, inf) as f64;
    let kv_per_token = at.kv_bytes as f64 / cached;
    let other = at.per_gpu_bytes.saturating_sub(at.weights_bytes).saturating_sub(at.kv_bytes);
    let pool = at.usable_bytes.saturating_sub(at.weights_bytes).saturating_sub(other) as f64;
    let per_gpu = f64::from(tp) * f64::from(pp);
    let fp8 = tensor_path(at.gpu, inf.weights).low_precision();
    let (head_params, head_bytes) = lm_head(arch, inf.weights, tp);
    Replica {
        bandwidth_tbs: bandwidth,
        tflops: engine_tflops(inf.engine, at.gpu, tflops, fp8),
        fp8,
        mmq: mmq(inf.engine, inf.weights, at.gpu, &inf.engine_release),
        efficiency: efficiency_on(inf.engine, &at.gpu.id, &inf.engine_release),
        tp,
        pp,
        link: link(at.gpu, tp),
        weight_bytes: at.weights_bytes as f64,
        gathered_bytes: gathered_embedding_bytes(arch, inf.weights, tp, pp),
        head_bytes,
        // Per GPU like the active parameters (spread over the stages).
        head_params: head_params / f64::from(pp),
        embedding_params: input_embedding_params(arch, tp) / f64::from(pp),
        moe: moe(arch, size),
        active_params: size.active / per_gpu,
        attention_width: f64::from(arch.heads) * f64::from(arch.head_dim()) * f64::from(stage_layers)
            / f64::from(tp),
        kv_bytes_per_token: kv_per_token,
        hidden: arch.hidden,
        stage_layers,
        kv_capacity_tokens: if kv_per_token > 0.0 { pool / kv_per_token } else { f64::INFINITY },
    }
}

impl Replica {
    /// The same replica with a wider tensor-parallel group: weights, KV and
    /// FLOPs per GPU divide by the growth, the pool grows by what the weights free.
    pub fn widened(&self, gpu: &Gpu, tp: u32) -> Replica {
        let grow = f64::from(tp) / f64::from(self.tp.max(1));
        let freed = self.weight_bytes - self.weight_bytes / grow;
        let kv = self.kv_bytes_per_token / grow;
        let pool = self.kv_capacity_tokens * self.kv_bytes_per_token + freed;
        Replica {
            tp,
            link: link(gpu, tp),
            weight_bytes: self.weight_bytes / grow,
            gathered_bytes: self.gathered_bytes / grow,
            head_bytes: self.head_bytes / grow,
            head_params: self.head_params / grow,
            embedding_params: self.embedding_params / grow,
            active_params: self.active_params / grow,
            attention_width: self.attention_width / grow,
            kv_bytes_per_token: kv,
            kv_capacity_tokens: if kv > 0.0 { pool / kv } else { f64::INFINITY },
            ..self.clone()
        }
    }
}
