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
        Key::FlagNoFit => "does not fit on up to {n} × {gpu} under any sharding the workload allows",
        Key::FlagFastLinkPcie => "{what} splits the model over {group} GPUs and exchanges data every layer or step, which wants an NVLink-class link; {gpu} has PCIe only. Choose an NVLink configuration, or accept PCIe's cost knowingly",
        Key::FlagFastLinkDomain => "{what} needs a fast link across {group} GPUs, but {link} on {gpu} joins only {domain}; the rest goes over PCIe or the network",
        Key::FlagBridgeCheck => "{what} relies on the NVLink bridge ({link}): confirm the offer's machine has it fitted",
        Key::FlagFp8 => "FP8 weights: {name} has no FP8 tensor cores (FP8 needs Ada/Hopper or newer); at best it runs weight-only, dequantised to 16-bit and slower; check your engine supports that",
        Key::FlagFp4 => "MXFP4 weights: FP4 needs Blackwell or MI355X; on {name} they run only where the engine has a fallback kernel, without FP4 speed",
        Key::FlagBf16 => "{name} has no BF16: use FP16 instead (with loss scaling when training); models trained in BF16 can overflow in FP16",
        Key::FlagPrecisionUnverified => "our sources do not say whether {name} runs {format} in hardware: check with the vendor",
        Key::FlagGeforceLicence => "GeForce software licence: §2.8 covers only GeForce/Titan hardware you own and does not license datacenter deployment; §2.7 forbids renting it out or using it for commercial hosting unless expressly authorised. Have the provider and your own responsible person check the licence before renting or hosting. General information, not legal advice",
        Key::FlagNoEcc => "{name} has no ECC: long runs and production serving risk silent data errors",
        Key::FlagCuda12Only => "CUDA 13 removed offline compilation for Maxwell, Pascal and Volta: {name} needs CUDA 12.x (driver >= 525); check the image's versions",
        Key::FlagCuda128 => "{name} (sm_120) needs CUDA >= 12.8 and driver >= 570.26; older images and PyTorch builds will not run",
        Key::FlagRocm => "{name} runs ROCm: PyTorch, vLLM and SGLang work, but custom CUDA kernels, some quantisation libraries and niche tools may need porting or not run; run your whole stack end to end before deciding",
        Key::FlagCann => "{name} runs Huawei CANN, not CUDA: frameworks, serving engines and quantisation libraries all need Ascend builds; run your whole stack end to end before deciding",
        Key::FlagNearLimit => "uses {p}% of usable memory per GPU, within 10% of the limit. A common rule: at a card's edge, go up one tier (a larger card or one more GPU)",
        Key::FlagNearLimitVllm => "uses {p}% of usable memory per GPU, within 10% of the limit (vLLM's KV pool fills up to gpu_memory_utilization, leaving little room for more context or concurrency). A common rule: at a card's edge, go up one tier (a larger card or one more GPU)",
        Key::FlagSpecsUnverified => "some {gpu} specs conflict or are unverified ({fields}): {notes}",
        Key::FlagCatalogNote => "{gpu}: {notes}",
        Key::SplitSingle => "single GPU",
        Key::SplitZero1 => "ZeRO-1 (optimizer states sharded)",
        Key::SplitZero2 => "ZeRO-2 (plus gradients sharded)",
        Key::SplitFsdp => "FSDP full shard",
        Key::SplitZero3 => "ZeRO-3 (plus weights sharded)",
        Key::SplitTensor => "tensor parallel",
        Key::SplitPipeline => "pipeline parallel",
        Key::SplitTensorFsdp => "tensor parallel + FSDP",
        Key::SplitTensorPipeline => "tensor + pipeline parallel",
        Key::NetRdma => "{g} GPUs need {nodes} servers ({per_node} per server): data-parallel and sharded training synchronise across servers every step, which needs an RDMA network (InfiniBand or RoCE). For scale, HGX servers usually carry one 400 Gb/s NIC per GPU (800 Gb/s on B300). Ask the provider for a private network between the servers",
        Key::NetPrivate => "{g} GPUs need {nodes} servers ({per_node} per server): tensor parallel stays inside a server and pipeline stages pass only activations between servers, but they still need a private network; confirm its bandwidth with the provider",
        Key::NetFabric => "{g} GPUs span {nodes} nodes inside one NVLink domain ({domain} GPUs): the nodes talk over NVLink; confirm the rental is the rack-scale system",
        Key::CostCompute => "compute",
        Key::CostStorage => "storage",
        Key::CostIp => "public IP",
        Key::CostNetwork => "egress",
        Key::CostOther => "other",
        Key::LineOnDemand => "on-demand instances",
        Key::LineSpot => "spot instances (with re-runs)",
        Key::LineSpUpfront => "savings-plan commitment, up front",
        Key::LineSpCommit => "savings-plan commitment, hourly",
        Key::LineSpOver => "usage above the commitment (on-demand)",
        Key::LineRiUpfront => "reserved instances, up front",
        Key::LineRiHourly => "reserved instances, every hour of the term",
        Key::LineBlock => "capacity block (paid up front)",
        Key::LineMonthly => "monthly servers (whole months)",
        Key::LineStorage => "block storage (charged while stopped)",
        Key::LineIp => "public IPv4 (charged in every state)",
        Key::LineEgress => "egress to the internet",
        Key::LinePort => "fixed-bandwidth port (traffic unmetered)",
        Key::LineItem => "other item",
        Key::LineBuffer => "debugging buffer",
        Key::LineContingency => "contingency",
        Key::OptionOnDemand => "On-Demand",
        Key::OptionSpot => "Spot",
        Key::OptionSavingsPlan => "Savings Plan",
        Key::OptionReserved => "Reserved",
        Key::OptionBlock => "Capacity Block",
        Key::OptionMonthly => "Monthly",
        Key::UnavailableNeedsOnDemand => "usage above the commitment bills at on-demand, which this offer lacks",
        Key::UnavailableBlockTooLong => "needs {hours} h, longer than the 182-day maximum block",
        Key::UnavailableBlockTooShort => "a {days}-day block (ended 30 min early) cannot hold {hours} h",
        Key::UnavailableSpotNeverFinishes => "interruptions come faster than checkpoints save work",
    }
}
