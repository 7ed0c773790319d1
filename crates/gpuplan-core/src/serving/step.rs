//! One engine step: the batch's decode tokens plus any prompt tokens that
//! share the step (chunked prefill). A step reads the weights once (for MoE,
//! the experts the batch's tokens touch; the input embedding is a gather of
//! a few rows, not a read) and the KV of every active sequence, and computes
//! 2·P FLOPs per token in its GEMMs. The LM head runs only on the tokens that
//! need logits: decode tokens and the last token of a prompt (llama.cpp since
//! PR 6122, vLLM's logits processor, TensorRT-LLM without context logits); a
//! prefill chunk that ends no prompt skips it. It lasts the memory time plus
//! the GEMMs' time at the engine's achieved efficiency, plus attention, plus
//! the tensor-parallel all-reduces and fixed costs per layer and per sequence.
//! Memory and compute add rather than overlap: the achieved FLOP rate then
//! saturates with the tokens in a step, n ÷ (n + n*) of the compute share,
//! n* being the tokens whose GEMMs take as long as the weight read (skinny
//! GEMMs are bandwidth-bound). Measured runs choose this over the roofline's
//! max(memory, compute): vLLM's growth of step time with batch on an RTX 4090
//! and TensorRT-LLM's static batches fit the same compute share with it, and
//! shares 1.7x apart with the max (docs/serving.md).
//!
//! Attention over the context is its own kernel (FlashAttention), with its
//! own roofline rather than a share of the GEMMs' sum: the larger of its
//! FLOPs at the GEMMs' share and its KV reads at the achieved bandwidth. A
//! decode token's attention reads its sequence's KV once, which the memory
//! time already holds; a prompt chunk's attention reads the KV once per tile
//! of query rows. A separate fitted attention share was tried and rejected
//! (docs/serving.md, "Calibration").

use serde::Serialize;

use super::engine::Efficiency;
use super::llama_quant::Mmq;

/// NCCL's small-message all-reduce latency inside one server: a few
/// microseconds per call over NVLink, more over PCIe (nccl-tests `all_reduce_perf`
/// at 8 B-64 KiB report 5-20 µs).
const ALLREDUCE_LATENCY_S: (f64, f64) = (8.0e-6, 20.0e-6);

/// Bytes per activation element the all-reduce moves (16-bit activations).
const ACTIVATION_BYTES: f64 = 2.0;

/// Query rows one FlashAttention thread block holds while it streams the KV
/// past them: each block reads its sequence's KV once. FlashAttention-2's
/// forward kernels take 64 or 128 rows (`Kernel_traits` kBlockM in
/// `flash_fwd_launch_template.h`, 64 for the larger head dimensions and on
/// consumer Ampere/Ada); llama.cpp's tensor-core kernel up to 64 columns.
const QUERY_TILE: f64 = 64.0;

/// The routed experts of a MoE model, for the share of them a batch touches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moe {
    pub experts: u32,
    pub active: u32,
    /// Share of the weight bytes that are routed experts.
    pub expert_share: f64,
}

/// The GPU link the tensor-parallel all-reduce runs over.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    /// One direction, GB/s.
    pub gbs: f64,
    pub nvlink: bool,
}

/// Seconds to do `work` at `rate` per second; none when there is no rate
/// (the other terms of the step then carry its cost).
fn per_s(work: f64, rate: f64) -> f64 {
    if rate > 0.0 {
        work / rate
    } else {
        0.0
    }
}

/// One model replica on its GPUs: per-GPU figures of a stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replica {
    pub bandwidth_tbs: f64,
    /// Dense TFLOPS at the format the GEMMs run in.
    pub tflops: f64,
    /// Low-precision GEMMs: FP8 on FP8 tensor cores or NVFP4 on FP4 ones
    /// (the engine's FP8 compute share applies).
    pub fp8: bool,
    /// llama.cpp's int8 kernel for quantised weights, which sets the GEMMs'
    /// rate instead of the 16-bit one (or, in a build before the MMQ rework,
    /// the FP16 copy its cuBLAS passes read); attention stays 16-bit.
    pub mmq: Option<Mmq>,
    pub efficiency: Efficiency,
    pub tp: u32,
    pub pp: u32,
    pub link: Link,
    /// Weight bytes one GPU holds.
    pub weight_bytes: f64,
    /// Of those, the input embedding: a step gathers one row per token from
    /// it instead of reading it whole.
    pub gathered_bytes: f64,
    /// Of those, the LM head (the tied embedding where tied): read only by a
    /// step with tokens that need logits.
    pub head_bytes: f64,
    /// LM head parameters per GPU: 2 FLOPs each per token that needs logits.
    pub head_params: f64,
    /// Untied input embedding parameters per GPU: gathered, not multiplied.
    pub embedding_params: f64,
    pub moe: Option<Moe>,
    /// Active parameters per GPU (one stage's shard), embedding and head
    /// included: 2 FLOPs each per token, less the embedding and the head.
    pub active_params: f64,
    /// Query width × layers on one GPU, for attention FLOPs over the context.
    pub attention_width: f64,
    /// KV bytes per token of context on one GPU.
    pub kv_bytes_per_token: f64,
    pub hidden: u32,
    pub stage_layers: u32,
    /// Tokens the KV pool of one GPU holds.
    pub kv_capacity_tokens: f64,
}

/// How long one step of one stage takes, by part.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Step {
    pub memory_s: f64,
    /// The GEMMs (projections, MLP, LM head).
    pub compute_s: f64,
    /// Attention beyond the decode KV read that `memory_s` holds.
    pub attention_s: f64,
    pub comm_s: f64,
    pub overhead_s: f64,
}

impl Step {
    pub fn seconds(&self) -> f64 {
        self.overhead_s + self.memory_s + self.compute_s + self.attention_s + self.comm_s
    }

    /// More time computing than reading.
    pub fn compute_bound(&self) -> bool {
        self.compute_s + self.attention_s > self.memory_s
    }
}

impl Replica {
    /// Share of the weight bytes a step with `tokens` tokens reads: every
    /// expert a token routes to, 1 − (1 − k/E)^tokens of them on average.
    pub fn weight_share(&self, tokens: f64) -> f64 {
        match self.moe {
            Some(m) if m.experts > 0 => {
                let pick = (f64::from(m.active) / f64::from(m.experts)).clamp(0.0, 1.0);
                let touched = 1.0 - (1.0 - pick).powf(tokens.max(1.0));
                (1.0 - m.expert_share) + m.expert_share * touched
            }
            _ => 1.0,
        }
    }

    /// A step decoding `batch` sequences at a mean context of `context`
    /// tokens, with `prefill` prompt tokens at a mean context of
    /// `prefill_context` that end a prompt (its last token needs logits).
    pub fn step(&self, batch: f64, context: f64, prefill: f64, prefill_context: f64) -> Step {
        self.step_with_logits(batch, context, prefill, prefill_context, batch + prefill.min(1.0))
    }

    /// The same step when its prompt tokens end no prompt (an earlier chunk
    /// of a longer prompt): only the decode tokens need logits.
    pub fn chunk_step(&self, batch: f64, context: f64, prefill: f64, prefill_context: f64) -> Step {
        self.step_with_logits(batch, context, prefill, prefill_context, batch)
    }

    fn step_with_logits(
        &self,
        batch: f64,
        context: f64,
        prefill: f64,
        prefill_context: f64,
        logits: f64,
    ) -> Step {
        let e = &self.efficiency;
        let tokens = batch + prefill;
        let head = if logits > 0.0 { self.head_bytes } else { 0.0 };
        let body =
            (self.weight_bytes - self.gathered_bytes - self.head_bytes).max(0.0) * self.weight_share(tokens);
        let layers = (self.active_params - self.head_params - self.embedding_params).max(0.0);
        let copy = self.mmq.map_or(0.0, |m| m.copy_bytes_per_weight(tokens)) * layers;
        let bytes = body + head + copy + batch * context * self.kv_bytes_per_token;
        let flops = 2.0 * (layers * tokens + self.head_params * logits);
        Step {
            memory_s: bytes / self.bytes_per_s(),
            compute_s: flops / (self.tflops * 1e12 * self.compute_share() * self.gemm_scale()),
            attention_s: self.attention_s(batch, context, prefill, prefill_context),
            comm_s: self.allreduce_s(tokens),
            overhead_s: e.layer_overhead_s * f64::from(self.stage_layers) + e.seq_overhead_s * batch,
        }
    }

    /// Achieved memory bandwidth, bytes per second.
    fn bytes_per_s(&self) -> f64 {
        self.bandwidth_tbs * 1e12 * self.efficiency.bandwidth
    }

    /// Attention of `batch` decode tokens at a mean context of `context` and
    /// `prefill` prompt tokens at a mean context of `prefill_context`: the
    /// larger of its FLOPs (QKᵀ and PV, 4 × query width per token of
    /// context) at the GEMMs' share and its KV reads, less the decode KV
    /// read the memory time already counts. A decode token is one query row
    /// of its sequence, so its attention reads that sequence's KV once and
    /// shows here only if its FLOPs outlast the read (they do not: a decode
    /// token does 2 FLOPs per KV byte per query head sharing the KV head); a
    /// prompt chunk reads the KV once per tile of query rows.
    fn attention_s(&self, batch: f64, context: f64, prefill: f64, prefill_context: f64) -> f64 {
        let flops = 4.0 * self.attention_width * (batch * context + prefill * prefill_context);
        let flop_s = per_s(flops, self.tflops * 1e12 * self.compute_share());
        let tiles = (prefill / QUERY_TILE).ceil();
        let bytes_per_s = self.bytes_per_s();
        let decode_s = per_s(batch * context * self.kv_bytes_per_token, bytes_per_s);
        let prefill_s = per_s(tiles * prefill_context * self.kv_bytes_per_token, bytes_per_s);
        (flop_s.max(decode_s + prefill_s) - decode_s).max(0.0)
    }

    /// The GEMMs' rate over the 16-bit GEMMs' rate: the MMQ kernel's where
    /// it runs, else 1.
    fn gemm_scale(&self) -> f64 {
        self.mmq.map_or(1.0, |m| m.scale())
    }

    /// Achieved share of the peak the GEMMs run at.
    pub fn compute_share(&self) -> f64 {
        if self.fp8 {
            self.efficiency.compute_fp8
        } else {
            self.efficiency.compute
        }
    }

    /// Two ring all-reduces of the hidden state per layer under tensor parallel.
    fn allreduce_s(&self, tokens: f64) -> f64 {
        if self.tp <= 1 {
            return 0.0;
        }
        let tp = f64::from(self.tp);
        let bytes = tokens * f64::from(self.hidden) * ACTIVATION_BYTES;
        let latency = if self.link.nvlink { ALLREDUCE_LATENCY_S.0 } else { ALLREDUCE_LATENCY_S.1 };
        let one = latency + 2.0 * (tp - 1.0) / tp * bytes / (self.link.gbs * 1e9);
        2.0 * f64::from(self.stage_layers) * one
    }

    /// Sequences of `tokens` tokens each that the KV pool holds at once.
    pub fn kv_sequences(&self, tokens: f64) -> f64 {
        if self.kv_bytes_per_token > 0.0 {
            self.kv_capacity_tokens / tokens.max(1.0)
        } else {
            f64::INFINITY
        }
    }
}
