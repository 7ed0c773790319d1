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
    /// Where gpuplan's answer differs from the seed's, and why.
    note: Option<(&'static str, &'static str)>,
    pub plan: Plan,
}

impl Example {
    pub fn title(&self, lang: Lang) -> &'static str {
        lang.pick(self.title.0, self.title.1)
    }

    pub fn summary(&self, lang: Lang) -> &'static str {
        lang.pick(self.summary.0, self.summary.1)
    }

    pub fn note(&self, lang: Lang) -> Option<&'static str> {
        self.note.map(|n| lang.pick(n.0, n.1))
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
    let ex = |id, title, summary, source, plan| Example { id, title, summary, source, note: None, plan };
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
        Example {
            note: Some(both(
                "种子 002 说单张 4090 用 vLLM 能扛 10~20 QPS，但没有给出请求长度。按本计划每次 1,024 个提示 token、256 个输出 token，一张 RTX 4090 的 KV 池（约 7.8 万 token）同时只能容纳 60 个这样的请求，稳态约 3.0 次/秒，10 QPS 需要 4 张卡。种子的数字对应短对话：提示 256、输出 128 token 时，模型给出每卡约 10 次/秒（但每个输出 token 约 84 ms）；公开的 vLLM 实测（RTX 4090、Mistral-7B、48 路并发、平均约 100 个输出 token）为 11.9 次/秒。",
                "Seed 002 says one RTX 4090 serves 10-20 QPS with vLLM but gives no request lengths. At this plan's 1,024 prompt and 256 output tokens, the card's KV pool (about 78k tokens) holds 60 such requests at once: about 3.0 req/s at steady state, so 10 QPS takes 4 cards. The seed's figure fits short exchanges: at 256 prompt and 128 output tokens the model gives about 10 req/s per card (at about 84 ms per output token); a public vLLM run (RTX 4090, Mistral-7B, 48 concurrent, about 100 output tokens) measured 11.9 req/s.",
            )),
            ..ex(
                "law-saas-serve",
                both("律所 SaaS：在线 API", "Law-firm SaaS: online API"),
                both(
                    "7B FP16，上下文 2048，目标 10 QPS，RTX 4090，包月一年",
                    "7B FP16, context 2048, 10 QPS target, RTX 4090, a year",
                ),
                "seed 002",
                law_serve(),
            )
        },
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

    /// The law-firm note quotes these figures: the model must still give them.
    #[test]
    fn law_firm_note_matches_the_serving_model() {
        let law = find("law-saas-serve").expect("example");
        assert!(law.note(Lang::En).is_some_and(|n| n.contains("4 cards")));
        let count = |plan: &Plan| {
            let fit = crate::fit::fit(plan, &crate::fit::FitOptions::default()).expect("fits");
            let row = fit.rows.into_iter().find(|r| r.gpu_id == "rtx-4090").expect("row");
            row.speed.and_then(|s| s.gpus_for_target).expect("count")
        };
        let long = count(&law.plan);
        assert_eq!((long.gpus, long.concurrency), (4, Some(60.0)));
        assert!((long.replica_rps - 3.0).abs() < 0.05, "{}", long.replica_rps);
        let mut short = law.plan.clone();
        (short.inference.prompt_tokens, short.inference.output_tokens) = (256, 128);
        let short = count(&short);
        assert_eq!(short.gpus, 1);
        assert!((short.replica_rps - 10.2).abs() < 0.3, "{}", short.replica_rps);
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
