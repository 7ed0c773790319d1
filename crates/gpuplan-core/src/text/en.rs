//! English: every sentence the core writes for a reader.

use super::Key;

pub(super) fn text(key: Key) -> &'static str {
    match key {
        Key::ErrOutOfRange => "must be between {min} and {max}",
        Key::ErrNotFinite => "must be a finite number",
        Key::ErrUnknownId => "unknown id \"{id}\"",
        Key::ErrBelowMinimum => "cannot be below {min} ({why})",
        Key::ErrRequired => "is required",
        Key::ErrTooMany => "holds at most {max} entries",
        Key::ErrTooLong => "is at most {max} characters",
        Key::ErrTooFewGpus => "tensor × pipeline parallel needs at least {needed} GPUs",
        Key::MinPrefillAtPeak => {
            "the time the chosen GPU needs for the prompt's 2·P·tokens FLOPs at its peak dense TFLOPS"
        }
        Key::MinPhysical => "the physical minimum",
        Key::RuleKvHeadsLeHeads => "KV heads cannot exceed attention heads",
        Key::RuleHeadsDivisibleByKvHeads => "attention heads must be a multiple of KV heads",
        Key::RuleHiddenDivisibleByHeads => "hidden must be divisible by heads when head_dim is not given",
        Key::RuleExpertsActiveLeExperts => "active experts cannot exceed total experts",
        Key::RuleTpDividesHeads => "tensor parallel degree must divide the attention heads",
        Key::RulePpLeLayers => "pipeline stages cannot exceed the layer count",
        Key::RuleWindowLeContext => "the sliding window must be positive",
        Key::RuleLoraNeedsTransformer => "LoRA/QLoRA needs a transformer model shape",
        Key::RuleQuantizedFullFinetune => {
            "full fine-tuning updates every weight, so they cannot stay in a quantised format (NF4 and the like): choose QLoRA, or bf16 weights"
        }
        Key::RuleWeightsDisagreePrecision => {
            "a full fine-tune's weights follow its precision: bf16 for mixed and pure bf16, fp32 for fp32"
        }
        Key::RuleLoraRankZero => {
            "a LoRA rank of 0 adds no adapter, so nothing would train: choose 1 or more (8-64 is usual)"
        }
        Key::RuleOptInBwdNoAccumulation => {
            "an optimizer step fused into backward leaves no gradient to accumulate: torchtune requires 1 accumulation step"
        }
        Key::RuleEstimateTooLarge => "the estimate exceeds 1 EB; reduce this value",
        Key::RuleTiersRise => "tier bounds must rise; only the last tier may be unbounded",
        Key::RuleBlockDaysStep => "capacity blocks come in 1-day steps to 14 days, then 7-day steps to 182",
        Key::RuleSpotNeverFinishes => "interruptions too frequent: each loses more time than runs between them",
        Key::RuleNamesUnique => "workload names must be unique in a project",
        Key::RuleReuseNeedsAService => "only a service can take over an earlier workload's machines",
        Key::RuleReuseNeedsSameMachines => {
            "the machines taken over must be the same GPU, at least as many as the earlier workload used"
        }
        Key::RuleOverlapsReused => {
            "overlaps the workload whose machines it takes over: the same cards cannot run both at once"
        }
        Key::RuleOther => "contradicts another field",
        Key::NoteMoeResident => "MoE: every expert stays resident; only the active experts compute per token (speed, not memory).",
        Key::NoteVllmPoolUnknown => "vLLM reserves its KV pool up to card memory × gpu_memory_utilization; with no card chosen, only what the requests need is counted.",
        Key::NoteVllmPoolShort => "vLLM's KV pool is smaller than the requests need: it does not fit at this utilisation; use more memory, more GPUs or a shorter context.",
        Key::NoteVllmReserved => "vLLM reserves gpu_memory_utilization of the card at start: the card shows the reservation, not the need computed here.",
        Key::NoteGenericActivations => "Non-transformer model: activations and workspace are the stated figure, not derived.",
        Key::NotePagedOptimizer => "Paged optimizer state can spill to host memory under pressure; counted here as resident.",
        Key::NoteSelectiveWithFlash => "FlashAttention already keeps no attention scores: selective recompute saves nothing more.",
        Key::NoteRuleOfThumbLow => "A common rule of thumb, memory ≈ weights × 1.2-1.5, gives {lo} to {hi}; this estimate is {sum} per GPU, weights × {r}. The rule leaves out the KV cache, which grows with context × concurrency ({kv} here): too low for this plan.",
        Key::NoteRuleOfThumbHigh => "A common rule of thumb, memory ≈ weights × 1.2-1.5, gives {lo} to {hi}; this estimate is {sum} per GPU, weights × {r}. The rule's margin is larger than this plan's KV cache and workspace ({kv} and {ws}): too high for this plan.",
        Key::NoteRuleOfThumbAgree => "A common rule of thumb, memory ≈ weights × 1.2-1.5, gives {lo} to {hi}; this estimate is {sum} per GPU, weights × {r}. The two agree for this plan.",
        Key::CompWeights => "Weights",
        Key::CompGradients => "Gradients",
        Key::CompOptimizer => "Optimizer state",
        Key::CompActivations => "Activations",
        Key::CompKvCache => "KV cache",
        Key::CompWorkspace => "Workspace and runtime",
    }
}
