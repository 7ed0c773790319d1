//! Training state: weights, gradients and optimizer state per GPU, for full
//! fine-tuning, LoRA and QLoRA, under each precision recipe, optimizer and
//! data-parallel sharding.

use crate::derivation::why;
use crate::model::WeightFormat;
use crate::model::{Arch, Matrix, Role};
use crate::plan::{GradCkpt, LoraTargets, Method, Optimizer, Precision, Shard, Training};

use super::split::{self, Split};
use super::{activations, runtime, weights, Built, Note, Part, PeakKind};
use crate::derivation;
use crate::text::Key;

pub const SOURCE: &str = "ZeRO paper (mixed Adam 2+2+12 B/param); torchtune (pure bf16, optimizer_in_bwd); \
     DeepSpeed estimate_zero2/3_model_states_mem_needs (fp32 grad partition, 4·largest layer); bitsandbytes \
     8-bit optimizers; Adafactor (Shazeer & Stern 2018); LoRA paper r·(d_in + d_out)";

/// Bytes per trainable parameter of a precision recipe.
struct Recipe {
    weight: f64,
    grad: f64,
    /// fp32 master copy kept by the optimizer (mixed precision only).
    master: f64,
    /// Bytes of one full-size optimizer state.
    state: f64,
}

fn recipe(p: Precision) -> Recipe {
    match p {
        Precision::Mixed => Recipe { weight: 2.0, grad: 2.0, master: 4.0, state: 4.0 },
        Precision::PureBf16 => Recipe { weight: 2.0, grad: 2.0, master: 0.0, state: 2.0 },
        Precision::Fp32 => Recipe { weight: 4.0, grad: 4.0, master: 0.0, state: 4.0 },
    }
}

/// What the optimizer trains on one GPU.
struct Trainable {
    params: f64,
    /// Row + column statistics Adafactor keeps instead of a full second moment.
    factored: f64,
    /// The largest single trainable tensor (the gradient kept when the step runs in backward).
    largest: f64,
}

fn targeted(role: Role, targets: LoraTargets) -> bool {
    use Role as R;
    match targets {
        LoraTargets::Qv => matches!(role, R::AttnQ | R::AttnV),
        LoraTargets::Attention => matches!(role, R::AttnQ | R::AttnK | R::AttnV | R::AttnO),
        LoraTargets::AllLinear => !matches!(role, R::Embedding | R::LmHead | R::Router),
    }
}

fn full_trainable(arch: &Arch, split: &Split) -> Trainable {
    let share = split.stage_fraction(arch.layers) * arch.param_scale();
    let ms = arch.matrices();
    let factored = ms.iter().map(|m| (m.rows + m.cols) * m.count).sum::<f64>() * share;
    let largest = ms.iter().map(|m| m.rows * m.cols).fold(0.0, f64::max) / split.tp_f();
    Trainable { params: split::params_on_gpu(arch, split), factored, largest }
}

fn lora_trainable(arch: &Arch, split: &Split, rank: f64, targets: LoraTargets) -> Trainable {
    let share = split.stage_fraction(arch.layers) / split.tp_f();
    let ms: Vec<Matrix> = arch.matrices().into_iter().filter(|m| targeted(m.role, targets)).collect();
    let params = ms.iter().map(|m| rank * (m.rows + m.cols) * m.count).sum::<f64>() * share;
    let factored = ms.iter().map(|m| (m.rows + m.cols + 2.0 * rank) * m.count).sum::<f64>() * share;
    let largest = ms.iter().map(|m| rank * m.rows.max(m.cols)).fold(0.0, f64::max);
    Trainable { params, factored, largest }
}

/// LoRA adapter weights of the whole model, r·(d_in + d_out) per adapted matrix.
pub fn adapter_params(arch: &Arch, t: &Training) -> f64 {
    let one = Split { tp: 1, pp: 1, dp: 1, shard: Shard::None };
    lora_trainable(arch, &one, f64::from(t.lora_rank), t.lora_targets).params
}

/// Optimizer bytes per trainable parameter (master copy included), or the
/// factored total for Adafactor, with the notation.
fn optimizer_bytes(opt: Optimizer, r: &Recipe, t: &Trainable) -> (f64, String) {
    let m = r.master;
    let full = |states: f64, bytes: f64| {
        let per = m + states * bytes;
        (
            per * t.params,
            why!(
                "{} × ({} + {}·{} B)",
                derivation::count(t.params),
                derivation::num(m),
                derivation::num(states),
                derivation::num(bytes)
            ),
        )
    };
    match opt {
        Optimizer::Adamw => full(2.0, r.state),
        // 8-bit states with an fp32 absmax per block of 2048.
        Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit => full(2.0, 1.0 + 4.0 / 2048.0),
        Optimizer::Sgd | Optimizer::Lion => full(1.0, r.state),
        Optimizer::Adafactor => {
            let b = m * t.params + t.factored * r.state;
            let d = why!(
                "{} × {} B + factored (rows+cols) {} × {} B",
                derivation::count(t.params),
                derivation::num(m),
                derivation::count(t.factored),
                derivation::num(r.state)
            );
            (b, d)
        }
    }
}

/// The gathered unit under ZeRO-3 / FSDP: one block or the embedding, whichever is larger.
fn largest_unit(arch: &Arch, split: &Split) -> f64 {
    let c = arch.shape_counts();
    arch.largest_layer_params().max(c.embedding * arch.param_scale()) / split.tp_f()
}

fn base_format(t: &Training) -> WeightFormat {
    t.base_weights.unwrap_or(match (t.method, t.precision) {
        (Method::Qlora, _) => WeightFormat::Nf4,
        (_, Precision::Fp32) => WeightFormat::Fp32,
        _ => WeightFormat::Bf16,
    })
}

/// Weights, gradients and optimizer state on one GPU.
struct State {
    weights: Part,
    gradients: Part,
    optimizer: Part,
    notes: Vec<Note>,
}

/// The frozen base of LoRA / QLoRA on one GPU: bytes and derivation.
struct Frozen {
    bytes: f64,
    derivation: String,
    /// Bytes per parameter of a body layer: FSDP gathers the frozen base in
    /// its stored format (torchtune's NF4 tensors all-gather quantised).
    per_param: f64,
}

fn state(tr: &Trainable, frozen: Option<Frozen>, unit: f64, split: &Split, t: &Training) -> State {
    let r = recipe(t.precision);
    let n = split.state_ranks();
    let sharded_weights = matches!(split.shard, Shard::Zero3 | Shard::Fsdp);
    let sharded_grads = sharded_weights || split.shard == Shard::Zero2;
    let deepspeed = matches!(split.shard, Shard::Zero1 | Shard::Zero2 | Shard::Zero3);
    let mut notes = Vec::new();

    // Weights: frozen base and trainable weights, sharded under ZeRO-3 / FSDP,
    // plus the gathered unit (its 16-bit params and grads, DeepSpeed's 4·largest layer).
    let div = if sharded_weights { n } else { 1.0 };
    let gathered = match (&frozen, sharded_weights) {
        (_, false) => 0.0,
        (None, true) => unit * (r.weight + r.grad),
        (Some(f), true) => unit * f.per_param,
    };
    let frozen_bytes = frozen.as_ref().map_or(0.0, |f| f.bytes);
    let w = (frozen_bytes + tr.params * r.weight) / div + gathered;
    let mut w_txt = frozen.map_or(String::new(), |f| why!("base {}; ", f.derivation));
    w_txt.push_str(&why!("trainable {} × {} B", derivation::count(tr.params), derivation::num(r.weight)));
    if sharded_weights {
        w_txt.push_str(&why!(
            " ÷ N {}; + gathered unit {} params",
            derivation::num(n),
            derivation::count(unit)
        ));
    }
    w_txt.push_str(&why!(" = {}", derivation::size(w)));

    // Gradients: the full buffer, or one tensor at a time when the step runs in backward.
    let (g_params, g_what) =
        if t.opt_in_bwd { (tr.largest, "largest tensor") } else { (tr.params, "trainable") };
    let g_div = if sharded_grads && !t.opt_in_bwd { n } else { 1.0 };
    let ds_fp32 = if deepspeed && t.precision == Precision::Mixed { 4.0 * tr.params / n } else { 0.0 };
    let g = g_params * r.grad / g_div + ds_fp32;
    let mut g_txt = why!("{g_what} {} × {} B", derivation::count(g_params), derivation::num(r.grad));
    if g_div > 1.0 {
        g_txt.push_str(&why!(" ÷ N {}", derivation::num(n)));
    }
    if ds_fp32 > 0.0 {
        g_txt.push_str(&why!(
            " + DeepSpeed fp32 partition 4 B × {} ÷ N {}",
            derivation::count(tr.params),
            derivation::num(n)
        ));
    }
    g_txt.push_str(&why!(" = {}", derivation::size(g)));

    // Optimizer: master copy and states, sharded by every ZeRO stage and FSDP.
    let (o_full, o_txt) = optimizer_bytes(t.optimizer, &r, tr);
    let o = o_full / n;
    let o_txt = why!(
        "{o_txt}{} = {}",
        if n > 1.0 { why!(" ÷ N {}", derivation::num(n)) } else { String::new() },
        derivation::size(o)
    );
    if t.optimizer == Optimizer::PagedAdamw8bit {
        notes.push(Note::new("paged_optimizer", Key::NotePagedOptimizer));
    }
    State {
        weights: Part::new(w, w_txt, SOURCE),
        gradients: Part::new(g, g_txt, SOURCE),
        optimizer: Part::new(o, o_txt, SOURCE),
        notes,
    }
}

/// Whether the gradients are made during backward rather than resident
/// through forward: one micro-batch per step (an accumulated gradient waits
/// through the next forward), gradients set to None after each step (PyTorch
/// 2's default), and no framework buffer holding them (DDP buckets, DeepSpeed
/// partitions, Megatron's contiguous buffer; FSDP allocates per layer).
fn gradients_made_in_backward(split: &Split, t: &Training) -> bool {
    let plain = split.shard == Shard::None && split.dp == 1 && split.tp == 1;
    t.grad_accum == 1 && !t.opt_in_bwd && split.pp == 1 && (plain || split.shard == Shard::Fsdp)
}

/// The gradients' share of the peak. When they are made during backward,
/// they grow as the activations are consumed, after the loss's logits are
/// freed: the peak is activations + max(0, gradients − logits), not the sum.
fn beside_activations(g: Part, kept: &activations::Kept, split: &Split, t: &Training) -> Part {
    if !gradients_made_in_backward(split, t) {
        return g;
    }
    let shown = (g.bytes - kept.loss).max(0.0);
    let derivation = why!(
        "{}; made in backward once the loss's {} is freed: max(0, {} − {}) = {}",
        g.derivation,
        derivation::size(kept.loss),
        derivation::size(g.bytes),
        derivation::size(kept.loss),
        derivation::size(shown)
    );
    Part::new(shown, derivation, g.source)
}

/// Components of a transformer training run on its busiest GPU.
pub fn estimate(arch: &Arch, split: &Split, t: &Training) -> Built {
    let (tr, frozen) = match t.method {
        Method::Full => (full_trainable(arch, split), None),
        Method::Lora | Method::Qlora => {
            let format = base_format(t);
            let (bytes, derivation) = weights::bytes(arch, format, split);
            let tr = lora_trainable(arch, split, f64::from(t.lora_rank), t.lora_targets);
            let per_param = format.bits() / 8.0;
            (tr, Some(Frozen { bytes, derivation, per_param }))
        }
    };
    let st = state(&tr, frozen, largest_unit(arch, split), split, t);

    let mut notes = st.notes;
    if t.grad_ckpt == GradCkpt::Selective && t.flash_attn {
        notes.push(Note::new("selective_with_flash", Key::NoteSelectiveWithFlash));
    }
    let elem = if t.precision == Precision::Fp32 { 4.0 } else { 2.0 };
    let kept = activations::training(arch, split, t, elem);
    let gradients = beside_activations(st.gradients, &kept, split, t);

    // Workspace: CUDA context, plus one dequantised matrix when the base is quantised.
    let quantized = t.method != Method::Full && weights::is_quantized(base_format(t));
    let largest_body = arch
        .matrices()
        .iter()
        .filter(|m| !matches!(m.role, Role::Embedding | Role::LmHead))
        .map(|m| m.rows * m.cols)
        .fold(0.0, f64::max)
        / split.tp_f();
    let dequant = if quantized { largest_body * 2.0 } else { 0.0 };
    let ws = runtime::CUDA_CONTEXT + dequant;
    let ws_txt = if quantized {
        why!(
            "CUDA ctx {} + dequantised matrix {} × 2 B = {}",
            derivation::size(runtime::CUDA_CONTEXT),
            derivation::count(largest_body),
            derivation::size(ws)
        )
    } else {
        why!("CUDA ctx {}", derivation::size(ws))
    };

    let mut weights = st.weights;
    weights.derivation.push_str(&split.note(arch.layers));
    if t.method != Method::Full {
        weights.source = weights::SOURCE;
    }
    Built {
        weights,
        gradients,
        optimizer: st.optimizer,
        activations: Part::new(kept.bytes, kept.derivation, activations::SOURCE),
        kv_cache: Part::none(),
        workspace: Part::new(ws, ws_txt, runtime::SOURCE),
        trainable_params: tr.params,
        peak_kind: PeakKind::Allocated,
        pool: None,
        notes,
    }
}

/// Full fine-tuning of a generic model: the state from its parameter count
/// (tensor and pipeline parallel split it evenly), activations as stated.
/// Without matrix shapes, Adafactor's factored state and the largest tensor
/// are unknown: both are taken at their upper bound (a full-size state, the
/// whole gradient), and ZeRO-3 / FSDP's gathered unit is not counted.
pub fn estimate_generic(params: f64, activation_bytes: f64, split: &Split, t: &Training) -> Built {
    let per_gpu = params / (split.tp_f() * f64::from(split.pp));
    let tr = Trainable { params: per_gpu, factored: per_gpu, largest: per_gpu };
    let st = state(&tr, None, 0.0, split, t);
    let mut notes = st.notes;
    notes.push(Note::new("generic_activations", Key::NoteGenericActivations));
    Built {
        weights: st.weights,
        gradients: st.gradients,
        optimizer: st.optimizer,
        activations: Part::new(
            activation_bytes,
            why!("stated {}", derivation::size(activation_bytes)),
            "user input (model.generic.activation_gb)",
        ),
        kv_cache: Part::none(),
        workspace: Part::new(
            runtime::CUDA_CONTEXT,
            why!("CUDA ctx {}", derivation::size(runtime::CUDA_CONTEXT)),
            runtime::SOURCE,
        ),
        trainable_params: per_gpu,
        peak_kind: PeakKind::Allocated,
        pool: None,
        notes,
    }
}
