//! Text helpers for the rules: a text in both languages and display names
//! for the plan's enums. Numbers are written by `crate::present`.

use crate::cost::OptionKind;
use crate::hardware::Stack;
use crate::lang::Lang;
use crate::model::WeightFormat;
use crate::plan::{Method, Precision, Shard};
use crate::text::Key;

pub(crate) use crate::lang::{bi, Bi};

/// A paragraph built sentence by sentence: Chinese sentences join directly,
/// English ones with a space.
#[derive(Default)]
pub(crate) struct Para {
    zh: String,
    en: String,
}

impl From<Bi> for Para {
    fn from(first: Bi) -> Para {
        Para { zh: first.zh, en: first.en }
    }
}

impl Para {
    pub fn push(&mut self, next: Bi) {
        self.zh.push_str(&next.zh);
        if !self.en.is_empty() {
            self.en.push(' ');
        }
        self.en.push_str(&next.en);
    }

    /// Continues the last sentence: no space in either language.
    pub fn append(&mut self, next: Bi) {
        self.zh.push_str(&next.zh);
        self.en.push_str(&next.en);
    }

    pub fn done(self) -> Bi {
        Bi { zh: self.zh, en: self.en }
    }
}

pub(crate) fn weights(w: WeightFormat) -> &'static str {
    match w {
        WeightFormat::Fp32 => "FP32",
        WeightFormat::Bf16 => "BF16",
        WeightFormat::Fp8 => "FP8",
        WeightFormat::Int8 => "INT8",
        WeightFormat::Nf4 => "NF4",
        WeightFormat::GptqInt4 => "GPTQ/AWQ INT4",
        WeightFormat::GptqInt8 => "GPTQ INT8",
        WeightFormat::Mxfp4 => "MXFP4",
        WeightFormat::Nvfp4 => "NVFP4",
        WeightFormat::GgufQ2K => "GGUF Q2_K",
        WeightFormat::GgufQ3KS => "GGUF Q3_K_S",
        WeightFormat::GgufQ3KL => "GGUF Q3_K_L",
        WeightFormat::GgufQ4KS => "GGUF Q4_K_S",
        WeightFormat::GgufQ4KM => "GGUF Q4_K_M",
        WeightFormat::GgufQ5KS => "GGUF Q5_K_S",
        WeightFormat::GgufQ5KM => "GGUF Q5_K_M",
        WeightFormat::GgufQ6K => "GGUF Q6_K",
        WeightFormat::GgufQ8_0 => "GGUF Q8_0",
        WeightFormat::GgufIq4Xs => "GGUF IQ4_XS",
        WeightFormat::GgufIq2Xxs => "GGUF IQ2_XXS",
    }
}

pub(crate) fn method(m: Method, lang: Lang) -> &'static str {
    match m {
        Method::Full => crate::text::get(Key::MethodFull, lang),
        Method::Lora => "LoRA",
        Method::Qlora => "QLoRA",
    }
}

pub(crate) fn precision(p: Precision, lang: Lang) -> &'static str {
    match p {
        Precision::Mixed => crate::text::get(Key::PrecisionMixed, lang),
        Precision::PureBf16 => crate::text::get(Key::PrecisionPureBf16, lang),
        Precision::Fp32 => "FP32",
    }
}

pub(crate) fn shard(s: Shard) -> &'static str {
    match s {
        Shard::None => "",
        Shard::Zero1 => "ZeRO-1",
        Shard::Zero2 => "ZeRO-2",
        Shard::Zero3 => "ZeRO-3",
        Shard::Fsdp => "FSDP",
    }
}

pub(crate) fn stack(s: Stack) -> &'static str {
    match s {
        Stack::Cuda => "CUDA",
        Stack::Rocm => "ROCm",
        Stack::Cann => "CANN",
    }
}

/// Long commitments: a term of a year or more bought before measuring.
pub(crate) fn is_commitment(o: OptionKind) -> bool {
    matches!(o, OptionKind::Reserved | OptionKind::SavingsPlan)
}
