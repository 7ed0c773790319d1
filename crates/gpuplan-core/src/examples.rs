//! Example plans: the common workloads of seeds 002 and 004, each a complete
//! plan that opens as an editable starting point.

use crate::cost::Currency;
use crate::lang::Lang;
use crate::model::ModelSpec;
use crate::plan::{
    Engine, GradCkpt, KvDtype, LoraTargets, Method, Optimizer, Plan, Precision, Shard, Task, WeightFormat,
};

/// One example: an id for links and tests, a title and a one-line summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub id: &'static str,
    title: (&'static str, &'static str),
    summary: (&'static str, &'static str),
    /// Which seed the workload comes from.
    pub source: &'static str,
    pub plan: Plan,
}

impl Example {
    pub fn title(&self, lang: Lang) -> &'static str {
        lang.pick(self.title.0, self.title.1)
    }

    pub fn summary(&self, lang: Lang) -> &'static str {
        lang.pick(self.summary.0, self.summary.1)
    }
}

fn preset(id: &str) -> ModelSpec {
    ModelSpec::Preset { id: id.into() }
}

fn on_gpu(mut plan: Plan, gpu: &str, gpus: u32) -> Plan {
    plan.hardware.gpu = gpu.into();
    plan.parallel.gpus = gpus;
    plan
}

fn chat_7b() -> Plan {
    let mut p = Plan { model: preset("qwen2.5-7b"), ..Plan::default() };
    p.inference.context = 4096;
    p.inference.concurrency = 8;
    p.inference.engine = Engine::Vllm;
    on_gpu(p, "rtx-4090", 1)
}

fn serve_70b_fp8() -> Plan {
    let mut p = Plan { model: preset("llama-3.1-70b"), ..Plan::default() };
    p.inference.weights = WeightFormat::Fp8;
    p.inference.kv_dtype = KvDtype::Fp8;
    p.inference.context = 8192;
    p.inference.concurrency = 32;
    p.inference.target_qps = 2.0;
    p.parallel.tp = 2;
    on_gpu(p, "h100-sxm", 2)
}

fn train(model: &str, method: Method) -> Plan {
    let mut p = Plan { task: Task::Train, model: preset(model), ..Plan::default() };
    p.training.method = method;
    p
}

fn lora_8b() -> Plan {
    let mut p = train("llama-3.1-8b", Method::Lora);
    p.training.lora_rank = 16;
    p.training.lora_targets = LoraTargets::AllLinear;
    p.training.batch = 4;
    p.training.seq = 2048;
    p.training.grad_ckpt = GradCkpt::Full;
    p.training.dataset_tokens = 1.0e8;
    p.training.epochs = 3.0;
    on_gpu(p, "l40s", 1)
}

/// Seed 004: "QLoRA on a 70B model fits one 80 GB GPU".
fn qlora_70b() -> Plan {
    let mut p = train("llama-3.1-70b", Method::Qlora);
    p.training.optimizer = Optimizer::PagedAdamw8bit;
    p.training.batch = 1;
    p.training.seq = 2048;
    p.training.grad_ckpt = GradCkpt::Full;
    p.training.dataset_tokens = 5.0e7;
    on_gpu(p, "h100-sxm", 1)
}

/// All-bf16 states sharded over 8 GPUs with full recomputation, as in
/// torchtune's 70B full fine-tune recipes.
fn full_70b() -> Plan {
    let mut p = train("llama-3.1-70b", Method::Full);
    p.training.precision = Precision::PureBf16;
    p.training.batch = 1;
    p.training.seq = 2048;
    p.training.grad_ckpt = GradCkpt::Full;
    p.training.dataset_tokens = 2.0e8;
    p.parallel.shard = Shard::Fsdp;
    on_gpu(p, "h100-sxm", 8)
}

/// Seed 002's law-firm assistant: LoRA on a 7B model over 10^9 tokens on
/// one RTX 4090 at 60 % utilisation, priced in yuan.
fn law_train() -> Plan {
    let mut p = train("qwen2.5-7b", Method::Lora);
    p.training.batch = 4;
    p.training.seq = 2048;
    p.training.grad_ckpt = GradCkpt::Full;
    p.training.dataset_tokens = 1.0e9;
    p.training.mfu = 0.6;
    p.cost.currency = Currency::Cny;
    on_gpu(p, "rtx-4090", 1)
}

/// Seed 002's law-firm assistant served: FP16 7B, context 2048, target 10 QPS.
fn law_serve() -> Plan {
    let mut p = Plan { model: preset("qwen2.5-7b"), ..Plan::default() };
    p.inference.context = 2048;
    p.inference.concurrency = 16;
    p.inference.target_qps = 10.0;
    p.cost.currency = Currency::Cny;
    p.cost.months = 12.0;
    on_gpu(p, "rtx-4090", 1)
}

/// A text in each language; a one-language build keeps only its own.
#[inline(always)]
fn both(zh: &'static str, en: &'static str) -> (&'static str, &'static str) {
    (Lang::Zh.kept(zh), Lang::En.kept(en))
}

/// Every example, in gallery order.
pub fn all() -> Vec<Example> {
    let ex = |id, title, summary, source, plan| Example { id, title, summary, source, plan };
    vec![
        ex(
            "chat-7b",
            both("7B 对话，单卡推理", "7B chat on one card"),
            both(
                "Qwen2.5 7B，BF16，vLLM，8 路并发，4K 上下文，RTX 4090",
                "Qwen2.5 7B, BF16, vLLM, 8 concurrent, 4K context, RTX 4090",
            ),
            "seed 002",
            chat_7b(),
        ),
        ex(
            "serve-70b-fp8",
            both("70B FP8 推理服务", "70B served in FP8"),
            both(
                "Llama 3.1 70B，FP8 权重与 KV，TP=2，32 路并发，H100",
                "Llama 3.1 70B, FP8 weights and KV, TP=2, 32 concurrent, H100",
            ),
            "seed 004",
            serve_70b_fp8(),
        ),
        ex(
            "lora-8b",
            both("8B LoRA 微调", "LoRA on 8B"),
            both(
                "Llama 3.1 8B，r=16 全部线性层，序列 2048，L40S",
                "Llama 3.1 8B, r=16 all linear, seq 2048, L40S",
            ),
            "seed 004",
            lora_8b(),
        ),
        ex(
            "qlora-70b",
            both("70B QLoRA，单张 80 GB", "QLoRA on 70B, one 80 GB GPU"),
            both(
                "Llama 3.1 70B，4 位基座，分页 AdamW 8-bit，H100",
                "Llama 3.1 70B, 4-bit base, paged AdamW 8-bit, H100",
            ),
            "seed 004",
            qlora_70b(),
        ),
        ex(
            "full-70b-8gpu",
            both("70B 全参数微调，8 卡", "Full fine-tune of 70B on 8 GPUs"),
            both("纯 BF16，FSDP，全部重计算，8 × H100", "Pure BF16, FSDP, full recomputation, 8 × H100"),
            "seed 004",
            full_70b(),
        ),
        ex(
            "law-saas-train",
            both("律所 SaaS：LoRA 微调", "Law-firm SaaS: LoRA fine-tune"),
            both(
                "7B，10 亿 token，RTX 4090，MFU 0.6，人民币计价",
                "7B, 10^9 tokens, RTX 4090, MFU 0.6, priced in CNY",
            ),
            "seed 002",
            law_train(),
        ),
        ex(
            "law-saas-serve",
            both("律所 SaaS：在线 API", "Law-firm SaaS: online API"),
            both(
                "7B FP16，上下文 2048，目标 10 QPS，RTX 4090，包月一年",
                "7B FP16, context 2048, 10 QPS target, RTX 4090, a year",
            ),
            "seed 002",
            law_serve(),
        ),
    ]
}

/// The example with this id.
pub fn find(id: &str) -> Option<Example> {
    all().into_iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_a_valid_plan() {
        for e in all() {
            assert_eq!(e.plan.validate(), vec![], "{}", e.id);
            assert!(!e.title(Lang::Zh).is_empty() && !e.summary(Lang::En).is_empty());
        }
    }

    #[test]
    fn ids_are_unique_and_found() {
        let all = all();
        for e in &all {
            assert_eq!(all.iter().filter(|o| o.id == e.id).count(), 1, "{}", e.id);
            assert_eq!(find(e.id).map(|f| f.plan), Some(e.plan.clone()));
        }
        assert_eq!(find("nope"), None);
    }

    #[test]
    fn every_example_gets_a_report() {
        for e in all() {
            let r = crate::report::evaluate(&e.plan, crate::lang::Lang::En);
            assert!(r.is_ok(), "{}: {:?}", e.id, r.err());
        }
    }

    #[test]
    fn qlora_70b_fits_one_80gb_card_as_seed_004_says() {
        let e = find("qlora-70b").map(|e| e.plan).unwrap_or_default();
        let m = crate::memory::estimate(&e).unwrap();
        assert!(m.per_gpu_bytes < 72_000_000_000, "{} B", m.per_gpu_bytes);
    }
}
