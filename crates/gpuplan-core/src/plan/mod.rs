//! The plan: everything a user describes, as plain serialisable types.
//!
//! A plan is built by the page, the CLI or a share link, validated once with
//! [`Plan::validate`], and then handed to the engines. Every field has a
//! default, so a partial plan file or link fills the rest sensibly.

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit};
use crate::model::{ModelSpec, WeightFormat};

pub mod fields;
pub use fields::{field, fields, Field};

/// Training or inference: decides which memory formula and which speed model apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    #[default]
    Infer,
    Train,
}

/// Element type of the KV cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvDtype {
    Fp32,
    #[default]
    Bf16,
    Fp8,
    Int8,
    Int4,
}

/// Serving engine: changes what "peak" means and how fast steps run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// vLLM: pre-allocates a KV pool up to `gpu_mem_util` of the card.
    #[default]
    Vllm,
    /// SGLang: a KV pool up to `mem_fraction_static` (here `gpu_mem_util`).
    Sglang,
    /// TensorRT-LLM: a KV pool of `free_gpu_memory_fraction` of what the
    /// weights leave (here `gpu_mem_util` of the card).
    Trtllm,
    /// Hugging Face Transformers: allocates as it goes; peak = what is used.
    Transformers,
    /// llama.cpp: KV for the full context up front plus a compute buffer.
    LlamaCpp,
}

impl Engine {
    pub const ALL: [Engine; 5] =
        [Engine::Vllm, Engine::Sglang, Engine::Trtllm, Engine::LlamaCpp, Engine::Transformers];

    /// Whether the engine reserves a paged KV pool at start.
    pub fn pools(self) -> bool {
        matches!(self, Engine::Vllm | Engine::Sglang | Engine::Trtllm)
    }
}

/// The engine release a plan gets unless it names one.
pub const CURRENT_RELEASE: &str = "current";

/// The llama.cpp builds before PR 8075 (merged 2024-06-24), which made the
/// int8 MMQ kernels the default for quantised prompt passes
/// (`serving::llama_quant`); "current" is every build since.
pub const LLAMA_CPP_PRE_MMQ: &str = "pre-2024-06";

/// The builds a llama.cpp plan can name besides the current ones.
pub const LLAMA_CPP_BUILDS: &[&str] = &[LLAMA_CPP_PRE_MMQ];

/// Inference workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inference {
    pub weights: WeightFormat,
    pub kv_dtype: KvDtype,
    /// Tokens per sequence (prompt + output) the cache must hold.
    pub context: u64,
    /// Sequences served at the same time.
    pub concurrency: u64,
    pub engine: Engine,
    /// vLLM `gpu_memory_utilization` (0-1].
    pub gpu_mem_util: f64,
    /// Typical request: prompt tokens and generated tokens, for speed and QPS.
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// Requests per second the service must sustain (0 = no target).
    pub target_qps: f64,
    /// Bytes returned per request, for the egress estimate (seed 001).
    pub response_kb: f64,
    /// Median time-to-first-token target, ms (0 = no target).
    pub ttft_ms: f64,
    /// Median time-per-output-token target, ms (0 = no target).
    pub tpot_ms: f64,
    /// Share of prompt tokens the prefix cache already holds (0-0.99).
    pub prefix_hit: f64,
    /// Throughputs the user measured on one GPU: they replace the model's.
    pub measured: Vec<Measured>,
    /// The engine release the serving factors are for: "current" (the
    /// newest the kernel tables hold) or an older one they hold.
    pub engine_release: String,
}

/// Output tokens/s the user measured on one GPU of a type, at the plan's
/// workload (for example with the engine's serving benchmark).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub gpu: String,
    pub tok_s: f64,
}

impl Default for Inference {
    fn default() -> Self {
        Self {
            weights: WeightFormat::Bf16,
            kv_dtype: KvDtype::Bf16,
            context: 8192,
            concurrency: 1,
            engine: Engine::Vllm,
            gpu_mem_util: 0.9,
            prompt_tokens: 1024,
            output_tokens: 256,
            target_qps: 0.0,
            response_kb: 4.0,
            ttft_ms: 0.0,
            tpot_ms: 0.0,
            prefix_hit: 0.0,
            engine_release: CURRENT_RELEASE.into(),
            measured: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    #[default]
    Full,
    Lora,
    Qlora,
}

/// Which linear layers LoRA adapts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoraTargets {
    /// q and v projections (the original LoRA paper).
    Qv,
    /// q, k, v, o.
    Attention,
    /// every linear layer in attention and MLP (QLoRA paper, PEFT "all-linear").
    #[default]
    AllLinear,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// bf16 compute, fp32 master weights and optimizer states (ZeRO paper: 16 B/param).
    #[default]
    Mixed,
    /// weights, grads and optimizer states all bf16 (torchtune default: 8 B/param).
    PureBf16,
    Fp32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    #[default]
    Adamw,
    Adamw8bit,
    PagedAdamw8bit,
    Sgd,
    Adafactor,
    Lion,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GradCkpt {
    #[default]
    None,
    Selective,
    Full,
}

/// How the loss over the vocabulary is computed: decides how much of the
/// logits lives at once (docs/training.md, "Logits and loss").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// Hugging Face Trainer (transformers `ForCausalLMLoss`): the full
    /// logits, an fp32 upcast of them and the fp32 log-softmax kept for
    /// backward. The default, and what v1 links without `cce` meant.
    #[default]
    #[serde(alias = "0", alias = "false")]
    HfTrainer,
    /// torchtune `CEWithChunkedOutputLoss`: the output projection in 8
    /// chunks, each upcast to fp32 on its own. v1 links wrote it `cce=1`.
    #[serde(alias = "1", alias = "true")]
    Chunked,
    /// Fused linear cross-entropy (Liger, Unsloth, Apple CCE): the logits
    /// of one chunk of tokens at a time, never the full tensor.
    Fused,
}

/// A loss by name, or the `true`/`false` of plan files that had the
/// `chunked_ce` switch (true: torchtune's chunked loss).
fn loss_or_flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Loss, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NameOrFlag {
        Name(Loss),
        Flag(bool),
    }
    Ok(match NameOrFlag::deserialize(d)? {
        NameOrFlag::Name(loss) => loss,
        NameOrFlag::Flag(true) => Loss::Chunked,
        NameOrFlag::Flag(false) => Loss::HfTrainer,
    })
}

/// Training workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Training {
    pub method: Method,
    pub lora_rank: u32,
    pub lora_targets: LoraTargets,
    /// Format of the frozen base for LoRA / QLoRA (`None`: bf16 for LoRA,
    /// NF4 for QLoRA). Full fine-tuning keeps it `None`.
    pub base_weights: Option<WeightFormat>,
    pub precision: Precision,
    pub optimizer: Optimizer,
    /// Optimizer step fused into backward: no full gradient buffer.
    pub opt_in_bwd: bool,
    /// Micro-batches whose gradients add up before each optimizer step.
    /// Above 1 the gradient buffer stays resident through the next forward.
    pub grad_accum: u32,
    /// Micro-batch per GPU (sequences).
    pub batch: u64,
    /// Sequence length (tokens).
    pub seq: u64,
    pub grad_ckpt: GradCkpt,
    pub act_offload: bool,
    /// Plan files written before the loss options named this `chunked_ce`.
    #[serde(alias = "chunked_ce", deserialize_with = "loss_or_flag")]
    pub loss: Loss,
    pub flash_attn: bool,
    /// Tokens in the training set, and passes over it, for the run time.
    pub dataset_tokens: f64,
    pub epochs: f64,
    /// Model FLOPs utilisation for the run time (0-1]; None: the measured
    /// default for the GPU class and method (`training_mfu`).
    pub mfu: Option<f64>,
}

impl Default for Training {
    fn default() -> Self {
        Self {
            method: Method::Full,
            lora_rank: 16,
            lora_targets: LoraTargets::AllLinear,
            base_weights: None,
            precision: Precision::Mixed,
            optimizer: Optimizer::Adamw,
            opt_in_bwd: false,
            grad_accum: 1,
            batch: 1,
            seq: 4096,
            grad_ckpt: GradCkpt::None,
            act_offload: false,
            loss: Loss::HfTrainer,
            flash_attn: true,
            dataset_tokens: 1.0e9,
            epochs: 1.0,
            mfu: None,
        }
    }
}

/// Data-parallel sharding of training state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shard {
    #[default]
    None,
    Zero1,
    Zero2,
    Zero3,
    Fsdp,
}

/// How the work is spread over GPUs. `gpus` = tp × pp × data-parallel replicas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parallel {
    pub gpus: u32,
    pub tp: u32,
    pub pp: u32,
    pub shard: Shard,
}

impl Default for Parallel {
    fn default() -> Self {
        Self { gpus: 1, tp: 1, pp: 1, shard: Shard::None }
    }
}

impl Parallel {
    /// Data-parallel degree implied by gpus / (tp × pp), at least 1.
    pub fn dp(&self) -> u32 {
        let model_parallel = self.tp.max(1).saturating_mul(self.pp.max(1));
        (self.gpus / model_parallel).max(1)
    }
}

/// The hardware the user is looking at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HardwareChoice {
    /// Catalog id of the chosen GPU, or "custom".
    pub gpu: String,
    /// Share of nominal memory kept free, percent. The default, 10, covers
    /// allocator fragmentation and the estimate's error only: the estimate
    /// counts the KV cache, activations and runtime itself, which seed 001's
    /// 30-50 % over weights alone stands in for. With vLLM the larger of this
    /// and 1 − gpu_memory_utilization is kept, never both.
    pub headroom_pct: f64,
    /// GPUs in one server, for the multi-node answer.
    pub gpus_per_node: u32,
    /// A GPU the user describes when it is not in the catalog.
    pub custom: Option<crate::hardware::Gpu>,
    /// Let the cheapest option that meets the plan pick the GPU (the
    /// report is then made on that GPU); false: `gpu` as named.
    pub cheapest: bool,
}

impl Default for HardwareChoice {
    fn default() -> Self {
        Self { gpu: "h100-sxm".into(), headroom_pct: 10.0, gpus_per_node: 8, custom: None, cheapest: false }
    }
}

/// A CUDA toolkit version such as 12.8: the one the user's software is
/// built for, which sets the driver floor the checklist asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CudaVersion {
    pub major: u32,
    pub minor: u32,
}

impl CudaVersion {
    /// "12.8", "12.8.1" or "13" (minor 0); None for anything else.
    pub fn parse(s: &str) -> Option<CudaVersion> {
        let mut parts = s.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(m) => m.parse().ok()?,
            None => 0,
        };
        if let Some(patch) = parts.next() {
            patch.parse::<u32>().ok()?;
        }
        if parts.next().is_some() {
            return None;
        }
        Some(CudaVersion { major, minor })
    }
}

/// The plan: the single input of every engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Plan {
    pub task: Task,
    pub model: ModelSpec,
    pub inference: Inference,
    pub training: Training,
    pub parallel: Parallel,
    pub hardware: HardwareChoice,
    pub cost: crate::cost::CostInputs,
    /// The CUDA the software is built for; None when not stated.
    pub cuda: Option<CudaVersion>,
    /// Ids of ticked checklist items.
    pub ticks: Vec<String>,
    /// What a benchmark or training run on the rented machine measured, as
    /// read from its output (`crate::readback` plans again from it).
    pub bench: Option<crate::measured::Reading>,
}

impl Default for Plan {
    fn default() -> Self {
        Self {
            task: Task::Infer,
            model: ModelSpec::default(),
            inference: Inference::default(),
            training: Training::default(),
            parallel: Parallel::default(),
            hardware: HardwareChoice::default(),
            cost: crate::cost::CostInputs::default(),
            cuda: None,
            ticks: Vec::new(),
            bench: None,
        }
    }
}

impl Plan {
    /// The plan's model becomes one read from files: its shape, and for
    /// inference the checkpoint's own format, so its exact bytes count.
    pub fn take_model(&mut self, m: &crate::model_files::Imported) {
        self.model = ModelSpec::Custom { arch: m.arch.clone() };
        if let (Task::Infer, Some(f)) = (self.task, m.format) {
            self.inference.weights = f;
        }
    }

    /// Every invalid field, each named by its dotted path. Empty means valid.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errs = Vec::new();
        self.model.validate(&mut errs);
        self.inference.validate(&mut errs);
        self.training.validate(&mut errs);
        self.parallel.validate(&self.model, &mut errs);
        self.hardware.validate(&mut errs);
        self.cost.validate(&mut errs);
        if self.task == Task::Train {
            self.training.validate_against(&self.model, &mut errs);
        }
        errs
    }
}

impl Inference {
    fn validate(&self, errs: &mut Vec<FieldError>) {
        Limit::int(1, 10_000_000).check_u64("inference.context", self.context, errs);
        Limit::int(1, 100_000).check_u64("inference.concurrency", self.concurrency, errs);
        Limit::real(0.05, 1.0).check_f64("inference.gpu_mem_util", self.gpu_mem_util, errs);
        Limit::int(1, 10_000_000).check_u64("inference.prompt_tokens", self.prompt_tokens, errs);
        Limit::int(1, 10_000_000).check_u64("inference.output_tokens", self.output_tokens, errs);
        Limit::real(0.0, 1.0e7).check_f64("inference.target_qps", self.target_qps, errs);
        Limit::real(0.0, 1.0e7).check_f64("inference.response_kb", self.response_kb, errs);
        Limit::real(0.0, 1.0e7).check_f64("inference.ttft_ms", self.ttft_ms, errs);
        Limit::real(0.0, 1.0e7).check_f64("inference.tpot_ms", self.tpot_ms, errs);
        Limit::real(0.0, 0.99).check_f64("inference.prefix_hit", self.prefix_hit, errs);
        for m in &self.measured {
            Limit::real(1.0e-3, 1.0e9).check_f64("inference.measured", m.tok_s, errs);
        }
        let release = self.engine_release.as_str();
        let known = crate::hardware::kernels::KERNEL_SHARES.iter().any(|r| r.release == release)
            || LLAMA_CPP_BUILDS.contains(&release);
        if release != CURRENT_RELEASE && !known {
            errs.push(FieldError::new(
                "inference.engine_release",
                crate::error::Problem::Unknown { id: release.into() },
            ));
        }
    }
}

impl Training {
    fn validate(&self, errs: &mut Vec<FieldError>) {
        if self.lora_rank == 0 && self.method != Method::Full {
            errs.push(FieldError::new(
                "training.lora_rank",
                crate::error::Problem::Inconsistent { rule: "lora_rank_zero" },
            ));
        } else {
            Limit::int(1, 4096).check_u64("training.lora_rank", u64::from(self.lora_rank), errs);
        }
        Limit::int(1, 100_000).check_u64("training.batch", self.batch, errs);
        Limit::int(1, 100_000).check_u64("training.grad_accum", u64::from(self.grad_accum), errs);
        Limit::int(1, 10_000_000).check_u64("training.seq", self.seq, errs);
        Limit::real(1.0, 1.0e16).check_f64("training.dataset_tokens", self.dataset_tokens, errs);
        Limit::real(0.01, 1000.0).check_f64("training.epochs", self.epochs, errs);
        if let Some(mfu) = self.mfu {
            Limit::real(0.01, 1.0).check_f64("training.mfu", mfu, errs);
        }
    }
}

impl Training {
    /// Rules between the method and the model.
    fn validate_against(&self, model: &ModelSpec, errs: &mut Vec<FieldError>) {
        let rule = |field: &str, rule: &'static str| {
            FieldError::new(field, crate::error::Problem::Inconsistent { rule })
        };
        if self.method != Method::Full && matches!(model, ModelSpec::Generic { .. }) {
            errs.push(rule("training.method", "lora_needs_transformer"));
        }
        if let Some(conflict) = self.base_weights.and_then(|w| self.weights_conflict(w)) {
            errs.push(rule("training.base_weights", conflict));
        }
        // torchtune's full fine-tune recipes refuse it ("Gradient accumulation
        // is not supported with optimizer in bwd"): the step runs as each
        // gradient is made, so none is left to add to.
        if self.opt_in_bwd && self.grad_accum > 1 {
            errs.push(rule("training.grad_accum", "opt_in_bwd_no_accumulation"));
        }
    }

    /// The weights format a full fine-tune computes in, by precision recipe.
    pub fn recipe_weights(&self) -> WeightFormat {
        match self.precision {
            Precision::Fp32 => WeightFormat::Fp32,
            Precision::Mixed | Precision::PureBf16 => WeightFormat::Bf16,
        }
    }

    /// Why a named weights format contradicts the method, if it does. A
    /// full fine-tune updates every weight, so they live in the recipe's
    /// format: naming that format agrees; a quantised one cannot be trained.
    fn weights_conflict(&self, w: WeightFormat) -> Option<&'static str> {
        if self.method != Method::Full || w == self.recipe_weights() {
            None
        } else if w.bits() < 16.0 {
            Some("quantized_full_finetune")
        } else {
            Some("weights_disagree_precision")
        }
    }
}

impl Parallel {
    fn validate(&self, model: &ModelSpec, errs: &mut Vec<FieldError>) {
        Limit::int(1, 100_000).check_u64("parallel.gpus", u64::from(self.gpus), errs);
        Limit::int(1, 1024).check_u64("parallel.tp", u64::from(self.tp), errs);
        Limit::int(1, 1024).check_u64("parallel.pp", u64::from(self.pp), errs);
        let model_parallel = u64::from(self.tp).saturating_mul(u64::from(self.pp));
        if self.gpus > 0 && model_parallel > u64::from(self.gpus) {
            errs.push(FieldError::new(
                "parallel.gpus",
                crate::error::Problem::TooFewGpus { needed: model_parallel },
            ));
        }
        model.validate_parallel(self.tp, self.pp, errs);
    }
}

impl HardwareChoice {
    /// The GPU the plan chose: its own GPU when `gpu` names it (by its id or
    /// the alias "custom"), else the catalog's. Every engine asks here, so
    /// the memory estimate, the fit table, the headline and the checklist
    /// agree on one card.
    pub fn chosen(&self) -> Option<&crate::hardware::Gpu> {
        let mine = self.custom.as_ref().filter(|g| self.gpu == "custom" || g.id == self.gpu);
        mine.or_else(|| crate::hardware::find(&self.gpu))
    }

    fn validate(&self, errs: &mut Vec<FieldError>) {
        Limit::real(0.0, 90.0).check_f64("hardware.headroom_pct", self.headroom_pct, errs);
        Limit::int(1, 1024).check_u64("hardware.gpus_per_node", u64::from(self.gpus_per_node), errs);
        if let Some(gpu) = &self.custom {
            gpu.validate("hardware.custom", errs);
        }
        // The catalog's GPUs, the plan's own, or "custom" (which names
        // nothing until the plan has its own GPU).
        if self.chosen().is_none() && self.gpu != "custom" {
            errs.push(FieldError::new(
                "hardware.gpu",
                crate::error::Problem::Unknown { id: self.gpu.clone() },
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;
    use crate::lang::Lang;

    #[test]
    fn the_engine_release_is_current_or_one_the_kernel_tables_hold() {
        let mut p = Plan::default();
        assert_eq!(p.inference.engine_release, CURRENT_RELEASE);
        p.inference.engine_release = "0.5.6.post2".into();
        assert!(p.validate().is_empty());
        p.inference.engine_release = "9.9".into();
        let errs = p.validate();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "inference.engine_release");
        assert_eq!(errs[0].problem, Problem::Unknown { id: "9.9".into() });
    }

    #[test]
    fn a_link_carries_the_release_and_an_old_one_means_current() {
        let mut p = Plan::default();
        assert!(!crate::share::encode(&p, None, None).contains("rel="), "the default stays out of links");
        p.inference.engine_release = "0.5.6.post2".into();
        let link = crate::share::encode(&p, None, None);
        assert_eq!(crate::share::decode(&link).plan.inference.engine_release, "0.5.6.post2");
        assert_eq!(crate::share::decode("v=1&ctx=4096").plan.inference.engine_release, CURRENT_RELEASE);
    }

    fn full(precision: Precision, weights: WeightFormat) -> Plan {
        let mut p = Plan { task: Task::Train, ..Plan::default() };
        p.training.precision = precision;
        p.training.base_weights = Some(weights);
        p
    }

    #[test]
    fn plan_files_with_the_old_chunked_ce_switch_still_read() {
        let read = |json: &str| serde_json::from_str::<Training>(json).map(|t| t.loss).ok();
        assert_eq!(read(r#"{"chunked_ce": true}"#), Some(Loss::Chunked));
        assert_eq!(read(r#"{"chunked_ce": false}"#), Some(Loss::HfTrainer));
        assert_eq!(read(r#"{"loss": "fused"}"#), Some(Loss::Fused));
        assert_eq!(read(r#"{"loss": "sometimes"}"#), None);
    }

    #[test]
    fn a_full_finetune_may_name_the_format_it_trains_in() {
        assert_eq!(full(Precision::PureBf16, WeightFormat::Bf16).validate(), vec![]);
        assert_eq!(full(Precision::Mixed, WeightFormat::Bf16).validate(), vec![]);
        assert_eq!(full(Precision::Fp32, WeightFormat::Fp32).validate(), vec![]);
    }

    #[test]
    fn contradictions_name_the_conflict_once() {
        let nf4 = full(Precision::PureBf16, WeightFormat::Nf4).validate();
        assert_eq!(nf4.len(), 1);
        assert_eq!(nf4[0].field, "training.base_weights");
        assert_eq!(nf4[0].problem, Problem::Inconsistent { rule: "quantized_full_finetune" });
        assert!(nf4[0].message(Lang::En).contains("QLoRA"), "{}", nf4[0].message(Lang::En));
        let fp32 = full(Precision::PureBf16, WeightFormat::Fp32).validate();
        assert_eq!(fp32[0].problem, Problem::Inconsistent { rule: "weights_disagree_precision" });
        let mut p = Plan { task: Task::Train, ..Plan::default() };
        p.training.opt_in_bwd = true;
        p.training.grad_accum = 8;
        let errs = p.validate();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].problem, Problem::Inconsistent { rule: "opt_in_bwd_no_accumulation" });
        p.training.method = Method::Lora;
        p.training.opt_in_bwd = false;
        p.training.lora_rank = 0;
        let zero = p.validate();
        assert_eq!(zero.len(), 1);
        assert_eq!(
            (zero[0].field.as_str(), &zero[0].problem),
            ("training.lora_rank", &Problem::Inconsistent { rule: "lora_rank_zero" })
        );
        if Lang::En.carried() {
            assert!(zero[0].message(Lang::En).contains("no adapter"), "{}", zero[0].message(Lang::En));
        }
    }
}
