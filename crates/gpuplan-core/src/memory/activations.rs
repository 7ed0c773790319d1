//! Activations, derived from the architecture in the manner of Korthikanti
//! et al. 2022 ("Reducing Activation Recomputation in Large Transformer
//! Models"): per layer and token, the tensors autograd keeps for backward.
//! Unlike the paper's fixed 34·h (GPT block, 4h GELU MLP, MHA, dropout), the
//! terms come from the model: SwiGLU keeps gate, up, act and product (4·i),
//! GELU keeps 2·i, GQA keeps only k KV heads, head_dim comes from the config,
//! and no dropout masks are kept (fine-tuning runs without dropout).

use crate::derivation::why;
use crate::model::{Arch, Attention, Mlp};
use crate::plan::{GradCkpt, LoraTargets, Loss, Method, Training};

use super::split::Split;
use crate::derivation;

pub const SOURCE: &str = "Korthikanti et al. 2022 (activation terms, selective/full recompute), derived \
     per architecture; memory.md \"Activations\" (offload, 1F1B); docs/training.md (logits per loss: \
     transformers ForCausalLMLoss, torchtune CEWithChunkedOutputLoss, Liger FusedLinearCrossEntropy)";

/// Per-token tensors of one layer, in elements unless said otherwise.
struct LayerTerms {
    /// Not split by tensor parallel: norm inputs, QKV and MLP inputs (and MLA latents).
    replicated: f64,
    /// Split by tensor parallel, already per GPU: q, k, v, attention output, MLP intermediates.
    sharded: f64,
    /// Softmax output per token per context token (eager attention), per GPU.
    scores_per_ctx: f64,
    /// fp32 bytes FlashAttention keeps (log-sum-exp per head), per GPU.
    lse_bytes: f64,
}

/// MLP tensors of the MLP's width kept for backward: SwiGLU keeps gate, up,
/// act(gate) and their product; GELU its input and output.
fn kept_per_width(mlp: Mlp) -> f64 {
    match mlp {
        Mlp::Swiglu => 4.0,
        Mlp::Gelu => 2.0,
    }
}

/// Whether the MLP's matrices are frozen without adapters (LoRA on
/// attention only, 16-bit base). Autograd then keeps neither the MLP's input
/// (only a trainable weight's gradient needs it) nor the down projection's
/// input: gate, up and act(gate) stay, for the gradient through the product.
/// QLoRA's bitsandbytes layers save their input whatever needs a gradient
/// (`MatMul4Bit` keeps `(A, B)`), so a quantised base keeps everything.
fn frozen_mlp(t: &Training) -> bool {
    t.method == Method::Lora && t.lora_targets != LoraTargets::AllLinear
}

fn terms(arch: &Arch, split: &Split, frozen_mlp: bool) -> LayerTerms {
    let tp = split.tp_f();
    let h = f64::from(arch.hidden);
    let a_t = f64::from(arch.heads) / tp;
    let (attn_repl, attn) = match arch.attention {
        Attention::Standard => {
            let d = f64::from(arch.head_dim());
            let k_t = f64::from(arch.kv_heads.div_ceil(split.tp).max(1));
            (0.0, 2.0 * a_t * d + 2.0 * k_t * d)
        }
        Attention::Mla { kv_lora_rank, q_lora_rank, rope_dim, nope_dim, v_head_dim } => {
            let (c, q) = (f64::from(kv_lora_rank), f64::from(q_lora_rank));
            let (r, n, v) = (f64::from(rope_dim), f64::from(nope_dim), f64::from(v_head_dim));
            // q latent and its norm, kv latent (+ rope key) and its norm; then per head q, k, v, out.
            (2.0 * q + (c + r) + c, a_t * (2.0 * (n + r) + 2.0 * v))
        }
    };
    // Norm inputs (2h), the attention's input (h) and the MLP's input (h).
    let (inputs, mlp_kept) =
        if frozen_mlp { (3.0, kept_per_width(arch.mlp) - 1.0) } else { (4.0, kept_per_width(arch.mlp)) };
    LayerTerms {
        replicated: inputs * h + attn_repl,
        sharded: attn + mlp_elements(arch, tp, mlp_kept),
        scores_per_ctx: a_t,
        lse_bytes: 4.0 * a_t,
    }
}

/// MLP intermediates per token on one GPU (the heaviest layer kind), with
/// `per_width` tensors of the MLP's width.
fn mlp_elements(arch: &Arch, tp: f64, per_width: f64) -> f64 {
    let h = f64::from(arch.hidden);
    let dense = per_width * f64::from(arch.dense_width()) / tp;
    if !arch.is_moe() {
        return dense;
    }
    let i = f64::from(arch.intermediate) / tp;
    let routed = f64::from(arch.experts_active) * (h + per_width * i);
    let moe = routed + f64::from(arch.shared_experts) * per_width * i + 2.0 * f64::from(arch.experts);
    if arch.dense_mlp_layers() > 0 {
        moe.max(dense)
    } else {
        moe
    }
}

/// Bytes one layer keeps per token with nothing recomputed.
fn layer_bytes_per_token(arch: &Arch, split: &Split, seq: f64, t: &Training, elem: f64) -> f64 {
    let x = terms(arch, split, frozen_mlp(t));
    let attention_core = if t.flash_attn {
        x.lse_bytes
    } else if t.grad_ckpt == GradCkpt::Selective {
        0.0
    } else {
        x.scores_per_ctx * seq * elem
    };
    (x.replicated + x.sharded) * elem + attention_core
}

/// What the loss keeps per token, bytes, with its notation: the full
/// logits (V per token, split by tensor parallel) or, fused, a chunk the
/// size of the hidden states.
fn loss_bytes_per_token(loss: Loss, arch: &Arch, split: &Split, elem: f64) -> (f64, String) {
    let v = f64::from(arch.vocab) / split.tp_f();
    let tp = if split.tp > 1 { format!("/tp {}", split.tp) } else { String::new() };
    // The fp32 copies: an upcast when computing in 16 bits, always the log-softmax kept for backward.
    let upcast = if elem < 4.0 { 4.0 } else { 0.0 };
    match loss {
        // Logits in the compute dtype (kept in the model's output), the fp32
        // upcast and the fp32 log-softmax kept for backward.
        Loss::HfTrainer => {
            let per = elem + upcast + 4.0;
            (v * per, format!("V {}{tp}·{} B", arch.vocab, derivation::num(per)))
        }
        // The logits of all 8 chunks, and one chunk's fp32 upcast and log-softmax at a time.
        Loss::Chunked => {
            let per = elem + (upcast + 4.0) / CHUNKS;
            (
                v * per,
                format!(
                    "V {}{tp}·({} + {} / {CHUNKS}) B",
                    arch.vocab,
                    derivation::num(elem),
                    derivation::num(upcast + 4.0)
                ),
            )
        }
        // Liger sizes a chunk of tokens so that its fp32 logits match the
        // hidden states (about h fp32 values per token), and keeps the
        // gradient of the hidden states (h in the compute dtype) from forward.
        Loss::Fused => {
            let h = f64::from(arch.hidden);
            (h * (4.0 + elem), format!("fused h {}·({} + 4) B", arch.hidden, derivation::num(elem)))
        }
    }
}

/// Activation offloading (torchtune's `OffloadActivations`, copied by TRL)
/// copies each saved tensor of 1 KiB or more to host memory as forward makes
/// it, and keeps the last `max_fwd_stash_size` (5) alive on the GPU until
/// their copies finish; backward brings each back for its node and frees it
/// after the next. With full recompute a layer saves one tensor, its input:
/// five layers' inputs stay at the end of forward. Without recompute five
/// tensors are less than one layer's set: one layer is counted. The output
/// projection and the loss are left out of offloading (their tensors are
/// used at once) and stay in full.
const OFFLOAD_STASH: u32 = 5;

/// torchtune's `num_output_chunks`.
const CHUNKS: f64 = 8.0;

/// Training activations on the busiest GPU at the end of forward.
pub struct Kept {
    pub bytes: f64,
    /// The loss's share (logits and their fp32 work), freed once the loss's
    /// backward is done.
    pub loss: f64,
    pub derivation: String,
}

/// Training activations on the busiest GPU, with the derivation.
pub fn training(arch: &Arch, split: &Split, t: &Training, elem: f64) -> Kept {
    let (b, s) = (t.batch as f64, t.seq as f64);
    let tokens = b * s;
    let h = f64::from(arch.hidden);
    let full_layer = layer_bytes_per_token(arch, split, s, t, elem);
    let (kept_per_layer, recompute) = match t.grad_ckpt {
        GradCkpt::Full => (h * elem, full_layer),
        GradCkpt::None | GradCkpt::Selective => (full_layer, 0.0),
    };
    let stage = split.stage_layers(arch.layers);
    let resident = match (t.act_offload, t.grad_ckpt) {
        (false, _) => stage,
        (true, GradCkpt::Full) => stage.min(OFFLOAD_STASH),
        (true, GradCkpt::None | GradCkpt::Selective) => stage.min(1),
    };
    let in_flight = f64::from(split.pp);
    let kept = f64::from(resident) * kept_per_layer * tokens;
    let (loss_per_token, loss_notation) = loss_bytes_per_token(t.loss, arch, split, elem);
    let logits = tokens * loss_per_token;
    let head_inputs = 2.0 * h * elem * tokens;
    let recompute_bytes = recompute * tokens;
    // Backward reaches the last layer, and recomputes it, only after the
    // loss's and the output projection's backward have freed the logits:
    // the two never coexist, the larger one counts.
    let tail = logits.max(recompute_bytes);
    // 1F1B: the first stage keeps pp micro-batches, the last one computes the loss.
    let first = kept * in_flight + recompute_bytes;
    let last = kept + head_inputs + tail;
    let total = if split.pp > 1 { first.max(last) } else { last };
    let kept_txt = why!("L {resident}·{} B", derivation::num(kept_per_layer));
    let recompute_txt =
        if recompute > 0.0 { why!(" + recompute {} B", derivation::num(recompute)) } else { String::new() };
    let head_txt = why!("head 2·h {}·{} B", arch.hidden, derivation::num(elem));
    let loss_txt = if recompute > 0.0 {
        why!("{head_txt} + max({loss_notation}, recompute {} B)", derivation::num(recompute))
    } else {
        why!("{head_txt} + {loss_notation}")
    };
    let tokens_txt = why!("b·s {}·{}", t.batch, t.seq);
    let d = if split.pp > 1 {
        why!(
            "max(first stage {tokens_txt} × ({} micro-batches × {kept_txt}{recompute_txt}), \
             last stage {tokens_txt} × ({kept_txt} + {loss_txt})) = {}",
            split.pp,
            derivation::size(total)
        )
    } else {
        why!("{tokens_txt} × ({kept_txt} + {loss_txt}) = {}", derivation::size(total))
    };
    // What backward frees before the layers' gradients appear: the part of
    // the tail the recompute does not take over.
    Kept { bytes: total, loss: tail - recompute_bytes, derivation: d }
}

/// Live tensors of one layer at its widest point during an inference
/// forward pass, per token on one GPU, elements.
pub fn inference_elements_per_token(arch: &Arch, split: &Split) -> f64 {
    let tp = split.tp_f();
    let attn = terms(arch, split, false).sharded - mlp_elements(arch, tp, kept_per_width(arch.mlp));
    // SwiGLU: gate, up and product live at once (act is in place); GELU: input and output.
    let live = match arch.mlp {
        Mlp::Swiglu => 3.0,
        Mlp::Gelu => 2.0,
    };
    let mlp = mlp_elements(arch, tp, live);
    // residual and norm output, plus the attention tensors or the MLP intermediates
    2.0 * f64::from(arch.hidden) + attn.max(mlp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Shard;

    const ONE: Split = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };

    fn train(ckpt: GradCkpt, flash: bool) -> Training {
        Training { batch: 1, seq: 1024, grad_ckpt: ckpt, flash_attn: flash, ..Training::default() }
    }

    #[test]
    fn gpt_block_reproduces_korthikanti_without_dropout() {
        // The paper's GPT block keeps 34·h bytes per token: norm inputs 4h, QKV input 2h,
        // Q and K 4h, V 2h, out-proj input 2h, MLP input 2h, GELU input 8h, GELU output 8h
        // (= 32h) plus two 1-byte dropout masks (2h); its 5·a·s is softmax output 2·a·s,
        // dropout mask a·s and dropout output 2·a·s. Without dropout: 32h and 2·a·s.
        let arch = Arch {
            hidden: 1024,
            heads: 16,
            kv_heads: 16,
            head_dim: None,
            intermediate: 4096,
            mlp: Mlp::Gelu,
            ..Arch::default()
        };
        let per_token = layer_bytes_per_token(&arch, &ONE, 1024.0, &train(GradCkpt::None, true), 2.0);
        // 32h bytes + lse 4 B × 16 heads
        assert_eq!(per_token, 2.0 * 16.0 * 1024.0 + 64.0);
        let eager = layer_bytes_per_token(&arch, &ONE, 1024.0, &train(GradCkpt::None, false), 2.0);
        assert_eq!(eager, 2.0 * 16.0 * 1024.0 + 2.0 * 16.0 * 1024.0);
        let selective = layer_bytes_per_token(&arch, &ONE, 1024.0, &train(GradCkpt::Selective, false), 2.0);
        assert_eq!(selective, 2.0 * 16.0 * 1024.0);
    }

    #[test]
    fn llama_8b_layer_terms() {
        // 4h + q 4096 + k,v 2·1024 + o 4096 + SwiGLU 4·14336 = 83,968 elements, ×2 B, + lse 128 B.
        let per_token =
            layer_bytes_per_token(&Arch::default(), &ONE, 4096.0, &train(GradCkpt::None, true), 2.0);
        assert_eq!(per_token, 2.0 * 83_968.0 + 128.0);
    }

    #[test]
    fn full_checkpointing_keeps_layer_inputs_and_one_layer() {
        let arch = Arch::default();
        let t = Training { loss: Loss::HfTrainer, ..train(GradCkpt::Full, true) };
        let b = training(&arch, &ONE, &t, 2.0).bytes;
        let tokens = 1024.0;
        // The recomputed layer (168 kB a token) comes after the logits (1.28 MB a token) are freed.
        let expect = tokens * 32.0 * 4096.0 * 2.0 + tokens * 128_256.0 * 10.0 + 2.0 * 4096.0 * 2.0 * tokens;
        assert_eq!(b, expect);
        let fused = training(&arch, &ONE, &Training { loss: Loss::Fused, ..t }, 2.0).bytes;
        // Fused, the loss keeps h·6 B a token: now the recomputed layer is the larger.
        let layer = tokens * (2.0 * 83_968.0 + 128.0);
        assert_eq!(fused, tokens * 32.0 * 4096.0 * 2.0 + layer + 2.0 * 4096.0 * 2.0 * tokens);
    }

    #[test]
    fn each_loss_keeps_its_own_share_of_the_logits() {
        let arch = Arch::default();
        let per = |loss| loss_bytes_per_token(loss, &arch, &ONE, 2.0).0;
        // bf16 logits + fp32 upcast + fp32 log-softmax: 10 B per vocabulary entry.
        assert_eq!(per(Loss::HfTrainer), 128_256.0 * 10.0);
        // bf16 logits of every chunk + one of 8 chunks' 8 B of fp32 work.
        assert_eq!(per(Loss::Chunked), 128_256.0 * 3.0);
        // A chunk the size of the hidden states in fp32 + its bf16 gradient: 6·h.
        assert_eq!(per(Loss::Fused), 4096.0 * 6.0);
    }

    #[test]
    fn lora_on_attention_keeps_no_mlp_input_nor_down_projection_input() {
        let lora =
            |targets| Training { method: Method::Lora, lora_targets: targets, ..train(GradCkpt::None, true) };
        let all = layer_bytes_per_token(&Arch::default(), &ONE, 4096.0, &lora(LoraTargets::AllLinear), 2.0);
        let qv = layer_bytes_per_token(&Arch::default(), &ONE, 4096.0, &lora(LoraTargets::Qv), 2.0);
        // h 4096 (MLP input) + i 14336 (down projection input), 2 B each.
        assert_eq!(all - qv, 2.0 * (4096.0 + 14_336.0));
    }

    #[test]
    fn chunked_loss_and_offload_reduce_memory() {
        let arch = Arch::default();
        let base = training(&arch, &ONE, &train(GradCkpt::None, true), 2.0).bytes;
        let chunked = Training { loss: Loss::Chunked, ..train(GradCkpt::None, true) };
        assert!(training(&arch, &ONE, &chunked, 2.0).bytes < base);
        let fused = Training { loss: Loss::Fused, ..chunked.clone() };
        assert!(training(&arch, &ONE, &fused, 2.0).bytes < training(&arch, &ONE, &chunked, 2.0).bytes);
        let off = Training { act_offload: true, ..train(GradCkpt::None, true) };
        assert!(training(&arch, &ONE, &off, 2.0).bytes < base);
    }

    #[test]
    fn offload_keeps_five_layer_inputs_with_recompute_and_one_layer_without() {
        let arch = Arch::default();
        let (tokens, h) = (1024.0, f64::from(arch.hidden));
        let full = train(GradCkpt::Full, true);
        let kept = |t: &Training| training(&arch, &ONE, t, 2.0).bytes;
        let on = |t: &Training| Training { act_offload: true, ..t.clone() };
        // Recompute keeps h per layer and token: L layers down to the stash's 5.
        let saved = f64::from(arch.layers - OFFLOAD_STASH) * h * 2.0 * tokens;
        assert!((kept(&full) - kept(&on(&full)) - saved).abs() < 1.0);
        let none = train(GradCkpt::None, true);
        let layer = layer_bytes_per_token(&arch, &ONE, 1024.0, &none, 2.0) * tokens;
        assert!((kept(&none) - kept(&on(&none)) - f64::from(arch.layers - 1) * layer).abs() < 1.0);
    }
}
