//! Example plans: the common workloads of seeds 002 and 004, each a complete
//! plan that opens as an editable starting point.

use crate::lang::Lang;
use crate::model::ModelSpec;
use crate::model::WeightFormat;
use crate::money::Currency;
use crate::plan::{
    Engine, GradCkpt, KvDtype, LoraTargets, Loss, Method, Optimizer, Plan, Precision, Shard, Task,
};

/// One example: an id for links and tests, a title and a one-line summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub id: &'static str,
    title: (&'static str, &'static str),
    summary: (&'static str, &'static str),
    /// The title of the article the workload comes from.
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
/// one RTX 4090 at the seed's 60 % utilisation, priced in yuan, set as it
/// runs on a 24 GB card: micro-batch 4 of 2048 tokens with every layer
/// recomputed, a fused loss (Unsloth, Liger) so that the 152k-entry logits
/// never exist whole, and 4 micro-batches per step.
fn law_train() -> Plan {
    let mut p = train("qwen2.5-7b", Method::Lora);
    p.training.batch = 4;
    p.training.seq = 2048;
    p.training.grad_ckpt = GradCkpt::Full;
    p.training.loss = Loss::Fused;
    p.training.grad_accum = 4;
    p.training.dataset_tokens = 1.0e9;
    p.training.mfu = Some(0.6);
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

/// The articles the examples come from, by title.
const BUDGET_GUIDE: &str = "GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南";
const SERVER_GUIDE: &str = "如何为 AI 选择 GPU 服务器";

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
            BUDGET_GUIDE,
            chat_7b(),
        ),
        ex(
            "serve-70b-fp8",
            both("70B FP8 推理服务", "70B served in FP8"),
            both(
                "Llama 3.1 70B，FP8 权重与 KV，TP=2，32 路并发，H100",
                "Llama 3.1 70B, FP8 weights and KV, TP=2, 32 concurrent, H100",
            ),
            SERVER_GUIDE,
            serve_70b_fp8(),
        ),
        ex(
            "lora-8b",
            both("8B LoRA 微调", "LoRA on 8B"),
            both(
                "Llama 3.1 8B，r=16 全部线性层，序列 2048，L40S",
                "Llama 3.1 8B, r=16 all linear, seq 2048, L40S",
            ),
            SERVER_GUIDE,
            lora_8b(),
        ),
        ex(
            "qlora-70b",
            both("70B QLoRA，单张 80 GB", "QLoRA on 70B, one 80 GB GPU"),
            both(
                "Llama 3.1 70B，4 位基座，分页 AdamW 8-bit，H100",
                "Llama 3.1 70B, 4-bit base, paged AdamW 8-bit, H100",
            ),
            SERVER_GUIDE,
            qlora_70b(),
        ),
        ex(
            "full-70b-8gpu",
            both("70B 全参数微调，8 卡", "Full fine-tune of 70B on 8 GPUs"),
            both("纯 BF16，FSDP，全部重计算，8 × H100", "Pure BF16, FSDP, full recomputation, 8 × H100"),
            SERVER_GUIDE,
            full_70b(),
        ),
        Example {
            note: Some(both(
                "预算指南《GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南》按 6·P·D = 6 × 70 亿 × 10 亿 = 4.2×10^19 FLOPs、单张 4090 利用率 60% 算出约 55 小时，按需 5 天（含 2 天调试）× 24 h × 10 元/h = 1,200 元。两处算术有误：按指南自己给的 4090 算力 165 TFLOPS，4.2×10^19 ÷ (165×10^12 × 0.6) = 118 小时而不是 55 小时（55 小时要 353 TFLOPS）；§7.1 的 8 亿 token 是 3.4×10^19 而不是 3.4×10^18 FLOPs。LoRA 不算冻结底座的权重梯度：每 token 4·P + 6·A，但 24 GB 放下 4×2048 的批次要逐层重计算，再加一次前向，共 6·P + 8·A；Qwen2.5 7B 的 P 是 76.2 亿、A 是 4,040 万，合计 4.60×10^19 FLOPs，在 165 TFLOPS × 60% 下约 129 小时；加 30~50% 调试约 168~194 小时，按 10 元/h 约 1,680~1,940 元。显存约 20 GB，一张卡放得下。",
                "The budget guide 'GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南' takes 6·P·D = 6 × 7e9 × 1e9 = 4.2e19 FLOPs on one 4090 at 60 % and writes about 55 h, then 5 days on demand (2 of them debugging) × 24 h × 10 CNY/h = 1,200 CNY. Two of its sums slip: at the guide's own 165 TFLOPS for the 4090, 4.2e19 ÷ (165e12 × 0.6) is 118 h, not 55 h (55 h needs 353 TFLOPS); and §7.1's 8e8 tokens make 3.4e19 FLOPs, not 3.4e18. LoRA computes no weight gradients for the frozen base: 4·P + 6·A per token, but fitting 4 × 2048 tokens in 24 GB needs every layer recomputed, one more forward: 6·P + 8·A. With Qwen2.5 7B's P = 7.62e9 and A = 40.4e6 that is 4.60e19 FLOPs, about 129 h at 165 TFLOPS × 60 %; with 30-50 % for debugging 168-194 h, about 1,680-1,940 CNY at 10 CNY/h. It peaks near 20 GB: one card.",
            )),
            ..ex(
                "law-saas-train",
                both("律所 SaaS：LoRA 微调", "Law-firm SaaS: LoRA fine-tune"),
                both(
                    "7B LoRA，10 亿 token，单张 RTX 4090：批次 4×2048、逐层重计算、融合损失，MFU 0.6，人民币计价",
                    "7B LoRA, 10^9 tokens, one RTX 4090: batch 4 × 2048, full recompute, fused loss, MFU 0.6, CNY",
                ),
                BUDGET_GUIDE,
                law_train(),
            )
        },
        Example {
            note: Some(both(
                "预算指南《GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南》说单张 4090 用 vLLM 能扛 10~20 QPS，但没有给出请求长度。按本计划每次 1,024 个提示 token、256 个输出 token，一张 RTX 4090 的 KV 池（约 7.1 万 token）同时只能容纳 54 个这样的请求，稳态约 4.1 次/秒，10 QPS 需要 3 张卡。指南的数字对应短对话：提示 256、输出 128 token 时，模型给出单卡 10 QPS 约 42 个请求同时在途、每个输出 token 约 33 ms，KV 池装满时每卡约 16.5 次/秒；公开的 vLLM 实测（RTX 4090、Mistral-7B、48 路并发、平均约 100 个输出 token）为 11.9 次/秒。",
                "The budget guide 'GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南' says one RTX 4090 serves 10-20 QPS with vLLM but gives no request lengths. At this plan's 1,024 prompt and 256 output tokens, the card's KV pool (about 71k tokens) holds 54 such requests at once: about 4.1 req/s at steady state, so 10 QPS takes 3 cards. The guide's figure fits short exchanges: at 256 prompt and 128 output tokens the model serves 10 QPS on one card with about 42 requests in flight at about 33 ms per output token, and about 16.5 req/s with the KV pool full; a public vLLM run (RTX 4090, Mistral-7B, 48 concurrent, about 100 output tokens) measured 11.9 req/s.",
            )),
            ..ex(
                "law-saas-serve",
                both("律所 SaaS：在线 API", "Law-firm SaaS: online API"),
                both(
                    "7B FP16，上下文 2048，目标 10 QPS，RTX 4090，包月一年",
                    "7B FP16, context 2048, 10 QPS target, RTX 4090, a year",
                ),
                BUDGET_GUIDE,
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
    #[cfg(not(feature = "zh"))]
    fn law_firm_note_matches_the_serving_model() {
        let law = find("law-saas-serve").expect("example");
        assert!(law.note(Lang::En).is_some_and(|n| n.contains("3 cards")
            && n.contains("54 such requests")
            && n.contains("42 requests")));
        let count = |plan: &Plan| {
            let fit = crate::fit::fit(plan, &crate::fit::FitOptions::default()).expect("fits");
            let row = fit.rows.into_iter().find(|r| r.gpu_id == "rtx-4090").expect("row");
            row.speed.and_then(|s| s.gpus_for_target).expect("count")
        };
        let long = count(&law.plan);
        assert_eq!((long.gpus, long.concurrency), (3, Some(54.0)));
        assert!((long.replica_rps - 4.1).abs() < 0.1, "{}", long.replica_rps);
        let mut short = law.plan.clone();
        (short.inference.prompt_tokens, short.inference.output_tokens) = (256, 128);
        let full = count(&short);
        assert_eq!(full.gpus, 1);
        assert!((full.replica_rps - 16.5).abs() < 0.5, "{}", full.replica_rps);
        let fit = crate::fit::fit(&short, &crate::fit::FitOptions::default()).expect("fits");
        let row = fit.rows.into_iter().find(|r| r.gpu_id == "rtx-4090").expect("row");
        let at_10 = row.speed.and_then(|s| s.inference).and_then(|i| i.expected).expect("expected");
        assert!((at_10.concurrency - 42.0).abs() < 1.0, "{}", at_10.concurrency);
        assert!((at_10.tpot_ms.value - 33.0).abs() < 1.0, "{}", at_10.tpot_ms.value);
    }

    /// The law-firm training note quotes these figures: one RTX 4090, about
    /// 20 GB, 4.60e19 FLOPs and 129 h at the seed's 60 %.
    #[test]
    #[cfg(not(feature = "zh"))]
    fn law_firm_training_fits_one_4090_and_takes_129_hours() {
        let law = find("law-saas-train").expect("example");
        assert!(law.note(Lang::En).is_some_and(|n| n.contains("129 h") && n.contains("4.60e19")));
        let fit = crate::fit::fit(&law.plan, &crate::fit::FitOptions::default()).expect("fits");
        let row = fit.rows.into_iter().find(|r| r.gpu_id == "rtx-4090").expect("row");
        assert_eq!(row.best.as_ref().map(|b| b.gpus), Some(1));
        let m = crate::memory::estimate(&law.plan).expect("valid");
        assert!((19.0e9..21.6e9).contains(&(m.per_gpu_bytes as f64)), "{}", m.per_gpu_bytes);
        let time = row.speed.and_then(|s| s.training).expect("time");
        assert!((time.flops.value / 4.60e19 - 1.0).abs() < 0.005, "{}", time.flops.value);
        assert!((time.hours.value - 129.0).abs() < 0.5, "{}", time.hours.value);
    }

    /// Each gallery project has its words, is found by its id, and prices.
    #[test]
    fn every_example_project_opens_and_prices() {
        for p in projects() {
            assert!(
                !p.title(Lang::Zh).is_empty()
                    && !p.summary(Lang::En).is_empty()
                    && !p.note(Lang::En).is_empty()
            );
            assert_eq!(find_project(p.id).map(|f| f.project), Some(p.project.clone()));
            assert!(find(p.id).is_none(), "{}: a project id is not a plan's", p.id);
            let r = crate::budget::evaluate(&p.project, &crate::offers::defaults(), Lang::En);
            assert!(r.is_ok(), "{}: {:?}", p.id, r.err());
        }
        assert!(find_project("nope").is_none());
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

/// An example project: several workloads in one budget.
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleProject {
    pub id: &'static str,
    title: (&'static str, &'static str),
    /// One line for the gallery's card.
    summary: (&'static str, &'static str),
    pub source: &'static str,
    /// Its figures against the seed's, and why they differ.
    note: (&'static str, &'static str),
    pub project: crate::project::Project,
}

impl ExampleProject {
    pub fn title(&self, lang: Lang) -> &'static str {
        lang.pick(self.title.0, self.title.1)
    }

    pub fn summary(&self, lang: Lang) -> &'static str {
        lang.pick(self.summary.0, self.summary.1)
    }

    pub fn note(&self, lang: Lang) -> &'static str {
        lang.pick(self.note.0, self.note.1)
    }
}

/// The example project with this id.
pub fn find_project(id: &str) -> Option<ExampleProject> {
    projects().into_iter().find(|p| p.id == id)
}

/// Seed 002 §7: the law firm's LoRA fine-tune, then its 10-QPS service on
/// the same rented cards, with storage and traffic at the seed's 300 CNY a month.
fn law_project() -> crate::project::Project {
    use crate::project::{Project, Workload};
    let serve = Workload { reuse: Some("train".into()), ..Workload::new("serve", law_serve()) };
    let storage = crate::cost::Item {
        name: "storage, gateway and traffic".into(),
        amount: 300.0,
        currency: Currency::Cny,
        monthly: true,
    };
    Project {
        workloads: vec![Workload::new("train", law_train()), serve],
        lines: vec![storage],
        currency: Currency::Cny,
        ..Project::default()
    }
}

/// Every example project, in gallery order.
pub fn projects() -> Vec<ExampleProject> {
    vec![ExampleProject {
        id: "law-saas-project",
        title: both("律所 SaaS：微调加在线服务，一份预算", "Law-firm SaaS: fine-tune and service in one budget"),
        summary: both(
            "7B LoRA 微调（单张 RTX 4090），再在同一批包月卡上做 10 QPS 在线服务一年，加每月 300 元存储和流量",
            "7B LoRA fine-tune on one RTX 4090, then a 10-QPS service for a year on the same monthly cards, plus 300 CNY a month of storage and traffic",
        ),
        source: BUDGET_GUIDE,
        note: both(
            "预算指南《GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南》第 7 节算第一个月约 1,680 + 2,000 + 300 ≈ 4,000 元：训练按需 7 天 × 24 h × 10 元/h = 1,680 元，一张 4090 包月约 2,000 元，存储和流量约 300 元。这里的价格都含 20% 机动预算（指南第 7.3 节建议 20~25%）：按需 12 元/h，包月 2,640 元。训练跑在服务包月的第一张卡上（指南第 7.2 节：训练完把同一张包月卡切到推理），只算它自己在这张卡上的 180.8 小时：2,640 元 ÷ 730 h × 180.8 h = 653.70 元；单独按需是 2,169.10 元。服务按每次 1,024 个提示 token、256 个输出 token 要 3 张卡扛 10 QPS（见律所在线 API 示例的说明），第一个月付 3 × 2,640 = 7,920 元，其中 653.70 元算训练的，服务 7,266.30 元；加 300 元，第一个月 8,220 元。第一张卡从训练开始租到服务结束，是一次租用：12 个月服务加训练的几天共 13 期；另外两张从服务开始算 12 期。第 13 期包月（2,640 元）比单独按需训练（2,169.10 元）多 470.90 元，所以对这个一年的服务，先按需训练、服务开始时再包月更省。若像指南那样一张卡扛 10 QPS（短请求），第一个月是 2,640 + 300 = 2,940 元；指南的 4,000 元多出来的是另付的训练费。",
            "The budget guide 'GPU租用预算怎么算？从显存、算力到租赁方案的全套测算指南', section 7, puts the first month at about 1,680 + 2,000 + 300 ≈ 4,000 CNY: training on demand for 7 days × 24 h × 10 CNY/h = 1,680, one RTX 4090 monthly at about 2,000, storage and traffic about 300. Prices here carry a 20 % contingency (the guide's section 7.3 advises 20-25 %): 12 CNY/h on demand, 2,640 CNY a month. The training runs on the first of the service's monthly cards (the guide's section 7.2: switch the same monthly card from training to serving) and is billed its own 180.8 h on it: 2,640 CNY ÷ 730 h × 180.8 h = 653.70 CNY; on demand alone it would cost 2,169.10. The service needs 3 cards for 10 QPS at 1,024 prompt and 256 output tokens (see the law-firm API example's note): the first month pays 3 × 2,640 = 7,920 CNY, of which 653.70 is the training's and 7,266.30 the service's; with the 300, 8,220 in the first month. The first card is one rental from the training's start to the service's end, 13 monthly payments for 12 months of service plus the training's days; the two others 12 from the service's start. That 13th payment (2,640) costs 470.90 more than the training on demand (2,169.10): for a one-year service, training on demand and renting the monthly cards when serving starts is cheaper. Were one card to carry 10 QPS as the guide assumes (short requests), the first month would be 2,640 + 300 = 2,940; the guide's 4,000 adds a training paid apart.",
        ),
        project: law_project(),
    }]
}
