//! Typed validation errors. Each names the field by its dotted plan path, so
//! the page can show the message next to that field.

use serde::Serialize;

use crate::lang::Lang;

/// What is wrong with a field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// Outside the accepted range (both ends inclusive).
    OutOfRange { min: f64, max: f64 },
    /// NaN or infinite.
    NotFinite,
    /// Not a number at all (text in a number field, from the page or a link).
    NotANumber,
    /// An id that names nothing in the catalog.
    Unknown { id: String },
    /// A value that contradicts another field; `rule` says which.
    Inconsistent { rule: &'static str },
    /// tp × pp needs more GPUs than the plan has.
    TooFewGpus { needed: u64 },
    /// Below what physics allows; `why` names the limit.
    BelowMinimum { min: f64, why: &'static str },
    /// Missing: the field must be given.
    Required,
    /// More entries than the limit.
    TooMany { max: usize },
    /// Longer text than the limit, in characters.
    TooLong { max: usize },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub problem: Problem,
}

impl FieldError {
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        Self { field: field.into(), problem }
    }

    /// One line naming the field and what is accepted.
    pub fn message(&self, lang: Lang) -> String {
        let what = match &self.problem {
            Problem::OutOfRange { min, max } => match lang.written() {
                Lang::Zh => format!("应在 {min} 到 {max} 之间"),
                Lang::En => format!("must be between {min} and {max}"),
            },
            Problem::NotFinite | Problem::NotANumber => {
                lang.pick("请输入一个有限的数字", "must be a finite number").to_string()
            }
            Problem::Unknown { id } => match lang.written() {
                Lang::Zh => format!("未知的 id “{id}”"),
                Lang::En => format!("unknown id \"{id}\""),
            },
            Problem::Inconsistent { rule } => rule_text(rule, lang).to_string(),
            Problem::BelowMinimum { min, why } => match lang.written() {
                Lang::Zh => format!("不能低于 {min}（{}）", minimum_text(why, lang)),
                Lang::En => format!("cannot be below {min} ({})", minimum_text(why, lang)),
            },
            Problem::Required => lang.pick("必须填写", "is required").to_string(),
            Problem::TooMany { max } => match lang.written() {
                Lang::Zh => format!("最多 {max} 项"),
                Lang::En => format!("holds at most {max} entries"),
            },
            Problem::TooLong { max } => match lang.written() {
                Lang::Zh => format!("最多 {max} 个字符"),
                Lang::En => format!("is at most {max} characters"),
            },
            Problem::TooFewGpus { needed } => match lang.written() {
                Lang::Zh => format!("张量并行 × 流水线并行需要至少 {needed} 张 GPU"),
                Lang::En => format!("tensor × pipeline parallel needs at least {needed} GPUs"),
            },
        };
        format!("{}: {what}", self.field)
    }
}

/// Why a value cannot go lower, in both languages.
fn minimum_text(why: &str, lang: Lang) -> &'static str {
    match why {
        "prefill_at_peak" => lang.pick(
            "所选 GPU 以峰值稠密算力计算整段提示词（2·P·提示词 token 数 FLOPs）所需的时间",
            "the time the chosen GPU needs for the prompt's 2·P·tokens FLOPs at its peak dense TFLOPS",
        ),
        _ => lang.pick("物理下限", "the physical minimum"),
    }
}

/// Texts for the cross-field rules, in both languages.
fn rule_text(rule: &str, lang: Lang) -> &'static str {
    match rule {
        "kv_heads_le_heads" => {
            lang.pick("KV 头数不能超过注意力头数", "KV heads cannot exceed attention heads")
        }
        "heads_divisible_by_kv_heads" => {
            lang.pick("注意力头数必须是 KV 头数的整数倍", "attention heads must be a multiple of KV heads")
        }
        "hidden_divisible_by_heads" => lang.pick(
            "未给出 head_dim 时，hidden 必须能被头数整除",
            "hidden must be divisible by heads when head_dim is not given",
        ),
        "experts_active_le_experts" => {
            lang.pick("激活专家数不能超过专家总数", "active experts cannot exceed total experts")
        }
        "tp_divides_heads" => lang
            .pick("张量并行度必须整除注意力头数", "tensor parallel degree must divide the attention heads"),
        "pp_le_layers" => {
            lang.pick("流水线级数不能超过层数", "pipeline stages cannot exceed the layer count")
        }
        "window_le_context" => lang.pick("滑动窗口需为正数", "the sliding window must be positive"),
        "lora_needs_transformer" => {
            lang.pick("LoRA/QLoRA 需要 Transformer 结构的模型", "LoRA/QLoRA needs a transformer model shape")
        }
        "quantized_full_finetune" => lang.pick(
            "全参数微调会更新每个权重，不能用量化的冻结格式（如 NF4）：请改用 QLoRA，或选 BF16 权重",
            "full fine-tuning updates every weight, so they cannot stay in a quantised format (NF4 and the like): choose QLoRA, or bf16 weights",
        ),
        "weights_disagree_precision" => lang.pick(
            "全参数微调的权重格式由精度方案决定：混合精度与纯 BF16 为 BF16，FP32 为 FP32",
            "a full fine-tune's weights follow its precision: bf16 for mixed and pure bf16, fp32 for fp32",
        ),
        "lora_rank_zero" => lang.pick(
            "LoRA 秩为 0 不添加任何适配器，没有可训练的参数：请选 1 以上（常用 8~64）",
            "a LoRA rank of 0 adds no adapter, so nothing would train: choose 1 or more (8-64 is usual)",
        ),
        "opt_in_bwd_no_accumulation" => lang.pick(
            "优化器步骤融合进反向传播时不能做梯度累积（torchtune 要求累积步数为 1）",
            "an optimizer step fused into backward leaves no gradient to accumulate: torchtune requires 1 accumulation step",
        ),
        "estimate_too_large" => {
            lang.pick("估算超过 1 EB，请减小这个值", "the estimate exceeds 1 EB; reduce this value")
        }
        "tiers_rise" => lang.pick(
            "流量阶梯的上限必须递增，只有最后一档可以不设上限",
            "tier bounds must rise; only the last tier may be unbounded",
        ),
        "block_days_step" => lang.pick(
            "容量块按 1 天递增至 14 天，之后按 7 天递增至 182 天",
            "capacity blocks come in 1-day steps to 14 days, then 7-day steps to 182",
        ),
        "spot_never_finishes" => lang.pick(
            "中断太频繁：每次中断损失的时间超过了两次中断之间的时间",
            "interruptions too frequent: each loses more time than runs between them",
        ),
        "names_unique" => lang.pick("同一项目里的工作负载名称不能重复", "workload names must be unique in a project"),
        "reuse_needs_a_service" => lang.pick(
            "只有在线服务可以接手之前工作负载的机器",
            "only a service can take over an earlier workload's machines",
        ),
        "reuse_needs_same_machines" => lang.pick(
            "接手的机器必须是同一款 GPU，且卡数不少于之前的工作负载",
            "the machines taken over must be the same GPU, at least as many as the earlier workload used",
        ),
        "overlaps_reused" => lang.pick(
            "与它接手机器的工作负载时间重叠：同一批卡不能同时跑两件事",
            "overlaps the workload whose machines it takes over: the same cards cannot run both at once",
        ),
        _ => lang.pick("与其他字段矛盾", "contradicts another field"),
    }
}

/// An accepted range, used by every section's `validate`.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    min: f64,
    max: f64,
}

impl Limit {
    pub const fn int(min: u64, max: u64) -> Self {
        Self { min: min as f64, max: max as f64 }
    }
    pub const fn real(min: f64, max: f64) -> Self {
        Self { min, max }
    }

    pub fn check_f64(self, field: &str, v: f64, errs: &mut Vec<FieldError>) {
        if !v.is_finite() {
            errs.push(FieldError::new(field, Problem::NotFinite));
        } else if v < self.min || v > self.max {
            errs.push(FieldError::new(field, Problem::OutOfRange { min: self.min, max: self.max }));
        }
    }

    pub fn check_u64(self, field: &str, v: u64, errs: &mut Vec<FieldError>) {
        self.check_f64(field, v as f64, errs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_errors_name_field_and_range() {
        let mut errs = Vec::new();
        Limit::int(1, 64).check_u64("parallel.tp", 0, &mut errs);
        Limit::real(0.0, 1.0).check_f64("inference.gpu_mem_util", f64::NAN, &mut errs);
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[1].problem, Problem::NotFinite);
        if Lang::En.carried() {
            assert_eq!(errs[0].message(Lang::En), "parallel.tp: must be between 1 and 64");
        }
        if Lang::Zh.carried() {
            assert!(errs[0].message(Lang::Zh).contains("1 到 64"));
        }
    }
}
