//! Choices of each select: the enum's serde name (as the core and share links
//! spell it) and its label in both languages.

use crate::i18n::Lang;

pub struct Opt {
    pub value: &'static str,
    zh: &'static str,
    en: &'static str,
}

impl Opt {
    pub fn label(&self, lang: Lang) -> &'static str {
        lang.pick(self.zh, self.en)
    }
}

/// A technical name that reads the same in both languages.
const fn same(value: &'static str, label: &'static str) -> Opt {
    Opt { value, zh: label, en: label }
}

/// A label in each language; a one-language build keeps only its own.
const fn tr(value: &'static str, zh: &'static str, en: &'static str) -> Opt {
    Opt { value, zh: Lang::Zh.kept(zh), en: Lang::En.kept(en) }
}

pub const TASK: &[Opt] = &[tr("infer", "推理", "Inference"), tr("train", "训练", "Training")];

pub const WEIGHTS: &[Opt] = &[
    same("bf16", "BF16 / FP16"),
    same("fp32", "FP32"),
    same("fp8", "FP8"),
    same("int8", "INT8"),
    same("gptq_int8", "GPTQ INT8 (g128)"),
    same("gptq_int4", "GPTQ / AWQ INT4 (g128)"),
    same("nf4", "NF4 (bitsandbytes)"),
    same("mxfp4", "MXFP4"),
    same("nvfp4", "NVFP4 (Blackwell)"),
    same("gguf_q8_0", "GGUF Q8_0"),
    same("gguf_q6_k", "GGUF Q6_K"),
    same("gguf_q5_k_m", "GGUF Q5_K_M"),
    same("gguf_q5_k_s", "GGUF Q5_K_S"),
    same("gguf_q4_k_m", "GGUF Q4_K_M"),
    same("gguf_q4_k_s", "GGUF Q4_K_S"),
    same("gguf_iq4_xs", "GGUF IQ4_XS"),
    same("gguf_q3_k_l", "GGUF Q3_K_L"),
    same("gguf_q3_k_s", "GGUF Q3_K_S"),
    same("gguf_q2_k", "GGUF Q2_K"),
    same("gguf_iq2_xxs", "GGUF IQ2_XXS"),
];

pub const KV_DTYPE: &[Opt] = &[
    same("bf16", "BF16 / FP16"),
    same("fp32", "FP32"),
    same("fp8", "FP8"),
    same("int8", "INT8"),
    same("int4", "INT4"),
];

pub const ENGINE: &[Opt] = &[
    tr("vllm", "vLLM（预分配 KV 池）", "vLLM (pre-allocated KV pool)"),
    tr("sglang", "SGLang（预分配 KV 池）", "SGLang (pre-allocated KV pool)"),
    tr("trtllm", "TensorRT-LLM（预分配 KV 池）", "TensorRT-LLM (pre-allocated KV pool)"),
    tr("transformers", "Transformers（按需分配）", "Transformers (allocates as it goes)"),
    tr("llama_cpp", "llama.cpp（整段上下文预分配）", "llama.cpp (full context up front)"),
];

pub const METHOD: &[Opt] = &[
    tr("full", "全参数微调", "Full fine-tune"),
    same("lora", "LoRA"),
    tr("qlora", "QLoRA（4 位基座）", "QLoRA (4-bit base)"),
];

pub const LORA_TARGETS: &[Opt] = &[
    tr("all_linear", "全部线性层", "All linear layers"),
    tr("attention", "注意力 q k v o", "Attention q k v o"),
    same("qv", "q, v"),
];

pub const PRECISION: &[Opt] = &[
    tr("mixed", "混合精度（BF16 计算 + FP32 主权重）", "Mixed (BF16 compute, FP32 master weights)"),
    tr("pure_bf16", "纯 BF16", "Pure BF16"),
    same("fp32", "FP32"),
];

pub const OPTIMIZER: &[Opt] = &[
    same("adamw", "AdamW"),
    same("adamw8bit", "AdamW 8-bit"),
    same("paged_adamw8bit", "Paged AdamW 8-bit"),
    same("adafactor", "Adafactor"),
    same("lion", "Lion"),
    same("sgd", "SGD"),
];

pub const GRAD_CKPT: &[Opt] =
    &[tr("none", "不用", "None"), tr("selective", "选择性", "Selective"), tr("full", "全部层", "Full")];

pub const LOSS: &[Opt] = &[
    tr("hf_trainer", "HF Trainer（完整 logits，FP32 上转）", "HF Trainer (full logits, fp32 upcast)"),
    tr("chunked", "torchtune 分块交叉熵", "torchtune chunked cross-entropy"),
    tr("fused", "融合线性交叉熵（Liger、Unsloth）", "Fused linear cross-entropy (Liger, Unsloth)"),
];

pub const SHARD: &[Opt] = &[
    tr("none", "不分片", "None"),
    same("zero1", "ZeRO-1"),
    same("zero2", "ZeRO-2"),
    same("zero3", "ZeRO-3"),
    same("fsdp", "FSDP"),
];

pub const MLP: &[Opt] = &[same("swiglu", "SwiGLU"), same("gelu", "GELU")];

pub const MODEL_KIND: &[Opt] = &[
    tr("preset", "预设", "Preset"),
    tr("custom", "自定义结构", "Custom shape"),
    tr("generic", "通用（非 Transformer）", "Generic (non-transformer)"),
];

/// CUDA releases of the checklist's driver table; "" for not stated.
pub const CUDA: &[Opt] = &[
    tr("", "未说明", "not stated"),
    same("11.8", "11.8"),
    same("12.0", "12.0"),
    same("12.4", "12.4"),
    same("12.8", "12.8"),
    same("13.0", "13.0"),
    same("13.1", "13.1"),
    same("13.2", "13.2"),
];

pub const CURRENCY: &[Opt] =
    &[tr("USD", "美元 USD", "US dollar (USD)"), tr("CNY", "人民币 CNY", "Chinese yuan (CNY)")];

pub const UPFRONT: &[Opt] = &[
    tr("none", "不预付", "No upfront"),
    tr("partial", "预付一半", "Partial upfront"),
    tr("all", "全部预付", "All upfront"),
];

/// Fit-table filters: "" keeps everything.
pub const CLASS_FILTER: &[Opt] = &[
    tr("", "全部类别", "All classes"),
    tr("datacenter", "数据中心", "Data centre"),
    tr("workstation", "工作站", "Workstation"),
    tr("geforce", "GeForce 消费级", "GeForce (consumer)"),
];

pub const STACK_FILTER: &[Opt] =
    &[tr("", "全部软件栈", "All stacks"), same("cuda", "CUDA"), same("rocm", "ROCm"), same("cann", "CANN")];

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::model::Mlp;
    use gpuplan_core::model::WeightFormat;
    use gpuplan_core::names;
    use gpuplan_core::plan::*;

    /// Every option value must be a serde name of its enum, and every variant
    /// must be offered.
    fn covers<T>(opts: &[Opt], variants: &[T])
    where
        T: serde::Serialize + for<'de> serde::Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        for o in opts {
            assert!(names::parse::<T>(o.value).is_some(), "{} is no variant", o.value);
            assert!(!o.zh.is_empty() && !o.en.is_empty());
        }
        for v in variants {
            let name = names::variant(v).unwrap_or("?");
            assert!(opts.iter().any(|o| o.value == name), "{v:?} is not offered");
        }
    }

    #[test]
    fn options_match_the_plan_enums() {
        use WeightFormat::*;
        covers(
            WEIGHTS,
            &[
                Fp32, Bf16, Fp8, Int8, Nf4, GptqInt4, GptqInt8, Mxfp4, Nvfp4, GgufQ2K, GgufQ3KS, GgufQ3KL,
                GgufQ4KS, GgufQ4KM, GgufQ5KS, GgufQ5KM, GgufQ6K, GgufQ8_0, GgufIq4Xs, GgufIq2Xxs,
            ],
        );
        covers(TASK, &[Task::Infer, Task::Train]);
        covers(KV_DTYPE, &[KvDtype::Fp32, KvDtype::Bf16, KvDtype::Fp8, KvDtype::Int8, KvDtype::Int4]);
        covers(ENGINE, &Engine::ALL);
        covers(METHOD, &[Method::Full, Method::Lora, Method::Qlora]);
        covers(LORA_TARGETS, &[LoraTargets::Qv, LoraTargets::Attention, LoraTargets::AllLinear]);
        covers(PRECISION, &[Precision::Mixed, Precision::PureBf16, Precision::Fp32]);
        use Optimizer::*;
        covers(OPTIMIZER, &[Adamw, Adamw8bit, PagedAdamw8bit, Sgd, Adafactor, Lion]);
        covers(GRAD_CKPT, &[GradCkpt::None, GradCkpt::Selective, GradCkpt::Full]);
        covers(LOSS, &[Loss::HfTrainer, Loss::Chunked, Loss::Fused]);
        covers(SHARD, &[Shard::None, Shard::Zero1, Shard::Zero2, Shard::Zero3, Shard::Fsdp]);
        covers(MLP, &[Mlp::Swiglu, Mlp::Gelu]);
        use gpuplan_core::cost::Upfront;
        use gpuplan_core::money::Currency;
        covers(CURRENCY, &[Currency::Usd, Currency::Cny]);
        covers(UPFRONT, &[Upfront::None, Upfront::Partial, Upfront::All]);
        use gpuplan_core::hardware::{GpuClass, Stack};
        covers(&CLASS_FILTER[1..], &[GpuClass::Datacenter, GpuClass::Workstation, GpuClass::Geforce]);
        covers(&STACK_FILTER[1..], &[Stack::Cuda, Stack::Rocm, Stack::Cann]);
    }

    /// Every CUDA choice reads back through the plan's link field.
    #[test]
    fn cuda_choices_read_back_through_the_link_field() {
        let field = gpuplan_core::plan::field("cuda").expect("the cuda field");
        for o in CUDA {
            let mut plan = gpuplan_core::plan::Plan::default();
            assert!(field.write(&mut plan, o.value), "{}", o.value);
            assert_eq!(field.text(&plan).as_deref(), Some(o.value));
        }
    }
}
