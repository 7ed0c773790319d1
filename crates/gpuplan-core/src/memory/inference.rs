//! Inference: weights + KV cache + runtime workspace, and what the engine
//! makes of them. vLLM reserves a KV pool up to `gpu_memory_utilization` of
//! the card, so its peak is the reservation; llama.cpp reserves the whole
//! context up front; Transformers allocates as it goes.

use crate::derivation::why;
use crate::model::{Arch, Generic};
use crate::plan::{Engine, Inference};

use super::split::Split;
use super::{kv, runtime, weights, Built, Note, Part, PeakKind, Pool};
use crate::derivation;
use crate::text::Key;

/// The card an estimate is made for: the plan's GPU (vLLM's defaults depend
/// on it) and the memory vLLM's reservation is sized from (`None`: none).
#[derive(Clone, Copy)]
pub struct Card<'a> {
    pub gpu: Option<&'a crate::hardware::Gpu>,
    pub memory: Option<f64>,
}

/// vLLM allocates the cache in blocks of 16 tokens.
const VLLM_BLOCK: u64 = 16;

/// The KV cache a plan needs, as (tokens per sequence, sequences). A paged
/// engine (vLLM, SGLang) holds the tokens in flight, in whole blocks: with
/// requests at every stage of their output, a sequence holds its prompt and
/// half its output on average. It still needs room for one sequence at the
/// full context, or it refuses to start. Other engines hold every sequence
/// at the full context.
fn kv_shape(arch: &Arch, inf: &Inference) -> (u64, u64) {
    if !inf.engine.pools() {
        return (inf.context, inf.concurrency);
    }
    let blocks = |tokens: u64| tokens.div_ceil(VLLM_BLOCK).saturating_mul(VLLM_BLOCK);
    let resident = inf.prompt_tokens.saturating_add(inf.output_tokens.div_ceil(2)).min(inf.context);
    let one = (blocks(inf.context), 1);
    let many = (blocks(resident), inf.concurrency);
    // Compared as the layers hold them: a sliding window caps one long sequence.
    let kept = |(tokens, seqs): (u64, u64)| kv::token_layers(arch, tokens, seqs);
    if kept(many) < kept(one) {
        one
    } else {
        many
    }
}

/// Tokens the KV cache holds in all: what per-token KV bytes divide by.
pub fn kv_tokens(arch: &Arch, inf: &Inference) -> u64 {
    let (tokens, seqs) = kv_shape(arch, inf);
    tokens.saturating_mul(seqs).max(1)
}

pub fn estimate(arch: &Arch, split: &Split, inf: &Inference, card: Card) -> Built {
    let gpu_memory = card.memory;
    let (w, w_txt) = weights::bytes(arch, inf.weights, split);
    let (tokens, seqs) = kv_shape(arch, inf);
    let (kv_need, kv_txt) = kv::bytes(arch, inf.kv_dtype, split, tokens, seqs);
    let kv_txt = if inf.engine.pools() {
        why!(
            "paged, in flight: {seqs} × (prompt {} + output {}/2, ≥ one context {}): {kv_txt}",
            inf.prompt_tokens,
            inf.output_tokens,
            inf.context
        )
    } else {
        kv_txt
    };
    let ws = runtime::bytes(arch, split, inf, card.gpu);
    let mut notes = Vec::new();
    if arch.is_moe() {
        notes.push(Note::new("moe_resident", Key::NoteMoeResident));
    }
    let pool = if inf.engine.pools() {
        vllm_pool(w, ws.in_budget, kv_need, inf.gpu_mem_util, gpu_memory, &mut notes)
    } else {
        None
    };
    let peak_kind = match inf.engine {
        Engine::Transformers => PeakKind::Allocated,
        _ => PeakKind::Reserved,
    };
    Built {
        weights: Part::new(w, w_txt, weights::SOURCE),
        gradients: Part::none(),
        optimizer: Part::none(),
        activations: Part::none(),
        kv_cache: Part::new(kv_need, kv_txt, kv::SOURCE),
        workspace: Part::new(ws.total, ws.derivation, runtime::SOURCE),
        trainable_params: 0.0,
        peak_kind,
        pool,
        notes,
    }
}

/// vLLM's reservation on a card of `gpu_memory` bytes: `util × memory`, of
/// which the KV pool is what weights and the profiled workspace leave. The
/// CUDA context is outside it: vLLM measures from a snapshot taken after the
/// context exists.
fn vllm_pool(
    w: f64,
    ws: f64,
    need: f64,
    util: f64,
    gpu_memory: Option<f64>,
    notes: &mut Vec<Note>,
) -> Option<Pool> {
    let Some(mem) = gpu_memory else {
        notes.push(Note::new("vllm_pool_unknown", Key::NoteVllmPoolUnknown));
        return None;
    };
    let reserved = util * mem;
    let kv = (reserved - w - ws).max(0.0);
    let derivation = why!(
        "util {} × {} = {}; KV pool = {} − weights {} − profiled workspace {} = {}",
        derivation::num(util),
        derivation::size(mem),
        derivation::size(reserved),
        derivation::size(reserved),
        derivation::size(w),
        derivation::size(ws),
        derivation::size(kv)
    );
    if kv < need {
        notes.push(Note::new("vllm_pool_short", Key::NoteVllmPoolShort));
    } else {
        notes.push(Note::new("vllm_reserved", Key::NoteVllmReserved));
    }
    Some(Pool { reserved, kv, derivation })
}

/// A generic model served: weights in the chosen format (every parameter at
/// the format's bits), the stated activations, and the CUDA context.
pub fn estimate_generic(g: &Generic, split: &Split, inf: &Inference) -> Built {
    let bits = inf.weights.bits();
    let per_gpu = g.params / (split.tp_f() * f64::from(split.pp));
    let w = per_gpu * bits / 8.0;
    let act = g.activation_gb * 1e9;
    Built {
        weights: Part::new(
            w,
            why!(
                "{}×{}b ÷ 8 bit/B = {}",
                derivation::count(per_gpu),
                derivation::num(bits),
                derivation::size(w)
            ),
            weights::SOURCE,
        ),
        gradients: Part::none(),
        optimizer: Part::none(),
        activations: Part::new(
            act,
            why!("stated {}", derivation::size(act)),
            "user input (model.generic.activation_gb)",
        ),
        kv_cache: Part::none(),
        workspace: Part::new(
            runtime::CUDA_CONTEXT,
            why!("CUDA ctx {}", derivation::size(runtime::CUDA_CONTEXT)),
            runtime::SOURCE,
        ),
        trainable_params: 0.0,
        peak_kind: PeakKind::Allocated,
        pool: None,
        notes: vec![Note::new("generic_activations", Key::NoteGenericActivations)],
    }
}
