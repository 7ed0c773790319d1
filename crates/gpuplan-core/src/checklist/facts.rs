//! The checklist's input: plain facts about one plan and its results, filled
//! by the caller from the plan, the memory estimate, the fit and the bill.
//! Nothing here computes memory or money; the rules only read these numbers.

use serde::Serialize;

use crate::cost::OptionKind;
use crate::error::{FieldError, Limit};
use crate::hardware::{Gpu, GpuClass, LinkKind, Stack};
use crate::model::WeightFormat;
pub use crate::plan::CudaVersion;
use crate::plan::{Engine, Method, Precision, Shard, Task};
use crate::serving::Expected;

/// Everything the checklist rules read. Sizes are bytes; "GB" in texts is 10^9 bytes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Facts {
    pub task: Task,
    /// Model name as the user sees it.
    pub model_name: String,
    /// Total parameters (not billions).
    pub params: f64,
    /// Whole-model weight bytes at the plan's format (about the size on disk).
    pub weights_bytes: u64,
    /// Inference: weight format, tokens per sequence, sequences at once.
    pub weights: WeightFormat,
    pub context: u64,
    pub concurrency: u64,
    /// Training: method, precision, micro-batch per GPU, sequence length.
    pub method: Method,
    pub precision: Precision,
    pub batch: u64,
    pub seq: u64,
    /// Peak bytes on the busiest GPU (the memory engine's answer).
    pub per_gpu_bytes: u64,
    /// Share of each card's memory kept free, percent.
    pub headroom_pct: f64,
    /// The chosen part; None while no GPU is chosen.
    pub gpu: Option<Gpu>,
    /// GPUs in the whole plan, over all servers.
    pub gpu_count: u32,
    pub tensor_parallel: u32,
    pub pipeline_parallel: u32,
    pub shard: Shard,
    /// Servers the GPUs are spread over.
    pub nodes: u32,
    /// Bytes of one resumable training checkpoint (weights + optimizer state,
    /// whole model); None when unknown or not training.
    pub checkpoint_bytes: Option<u64>,
    /// The purchase option the user chose (or the cheapest); None if not priced.
    pub option: Option<OptionKind>,
    /// Estimated egress per month, GB; 0 when not estimated.
    pub egress_gb_month: f64,
    /// Egress included per month by the chosen offer, GB; None when unknown.
    pub egress_included_gb: Option<f64>,
    /// Rented or hosted by someone else (as opposed to hardware the user owns).
    pub rented: bool,
    /// CUDA toolkit the user's software is built for; None when not stated.
    pub cuda: Option<CudaVersion>,
    /// Runs for days or serves around the clock.
    pub long_run: bool,
    /// Hours the chosen option bills: a run's length, or a service's horizon.
    pub rental_hours: Option<f64>,
    /// Training data to copy onto the server, bytes; None when not training.
    pub dataset_bytes: Option<u64>,
    /// The server's network port, Gbps; None when the offer names none.
    pub network_gbps: Option<f64>,
    /// Serving: the engine and the request the benchmark sends.
    pub engine: Engine,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// The model's Hugging Face repository, when the plan names a preset.
    pub model_repo: Option<String>,
    /// The serving model's expected figures for one replica at the plan's
    /// load (the serving engine's answer); None when it has none.
    pub serving_expected: Option<Expected>,
    /// Training: expected tokens per second per GPU (from the run's hours).
    pub train_tok_s_per_gpu: Option<f64>,
    pub grad_accum: u32,
}

impl Default for Facts {
    fn default() -> Self {
        Self {
            task: Task::Infer,
            model_name: String::new(),
            params: 0.0,
            weights_bytes: 0,
            weights: WeightFormat::Bf16,
            context: 8192,
            concurrency: 1,
            method: Method::Full,
            precision: Precision::Mixed,
            batch: 1,
            seq: 4096,
            per_gpu_bytes: 0,
            headroom_pct: 10.0,
            gpu: None,
            gpu_count: 1,
            tensor_parallel: 1,
            pipeline_parallel: 1,
            shard: Shard::None,
            nodes: 1,
            checkpoint_bytes: None,
            option: None,
            egress_gb_month: 0.0,
            egress_included_gb: None,
            rented: true,
            cuda: None,
            long_run: false,
            rental_hours: None,
            dataset_bytes: None,
            network_gbps: None,
            engine: Engine::Vllm,
            prompt_tokens: 1024,
            output_tokens: 256,
            model_repo: None,
            serving_expected: None,
            train_tok_s_per_gpu: None,
            grad_accum: 1,
        }
    }
}

impl Facts {
    /// Every invalid field, named by the plan path it comes from.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errs = Vec::new();
        Limit::real(0.0, 1.0e15).check_f64("model.params", self.params, &mut errs);
        Limit::real(0.0, 90.0).check_f64("hardware.headroom_pct", self.headroom_pct, &mut errs);
        Limit::int(1, 100_000).check_u64("parallel.gpus", u64::from(self.gpu_count), &mut errs);
        Limit::int(1, 1024).check_u64("parallel.tp", u64::from(self.tensor_parallel), &mut errs);
        Limit::int(1, 1024).check_u64("parallel.pp", u64::from(self.pipeline_parallel), &mut errs);
        Limit::int(1, 100_000).check_u64("checklist.nodes", u64::from(self.nodes), &mut errs);
        Limit::real(0.0, 1.0e12).check_f64("cost.egress_gb", self.egress_gb_month, &mut errs);
        if let Some(gb) = self.egress_included_gb {
            Limit::real(0.0, 1.0e12).check_f64("cost.egress_included_gb", gb, &mut errs);
        }
        if let Some(gbps) = self.network_gbps {
            Limit::real(0.001, 10_000.0).check_f64("checklist.network_gbps", gbps, &mut errs);
        }
        if let Some(gpu) = &self.gpu {
            gpu.validate("hardware.custom", &mut errs);
        }
        errs
    }

    /// The training checkpoint size, when the plan trains and it is known.
    pub(crate) fn checkpoint(&self) -> Option<u64> {
        self.checkpoint_bytes.filter(|_| self.task == Task::Train)
    }

    pub(crate) fn multi_gpu(&self) -> bool {
        self.gpu_count > 1
    }

    /// GPUs in one server (the last server may hold fewer).
    pub(crate) fn gpus_per_node(&self) -> u32 {
        self.gpu_count.div_ceil(self.nodes.max(1))
    }

    /// The GPUs exchange heavy traffic every layer or step: tensor or pipeline
    /// parallel, or training that syncs full gradients or gathers shards.
    /// Independent replicas and data-parallel LoRA (adapter gradients only) do not.
    pub(crate) fn gpus_talk(&self) -> bool {
        let sharded = matches!(self.shard, Shard::Zero3 | Shard::Fsdp);
        let full_grads = self.task == Task::Train && (self.method == Method::Full || sharded);
        self.multi_gpu() && (self.tensor_parallel > 1 || self.pipeline_parallel > 1 || full_grads)
    }

    pub(crate) fn class(&self) -> Option<GpuClass> {
        self.gpu.as_ref().map(|g| g.class)
    }

    pub(crate) fn stack(&self) -> Stack {
        self.gpu.as_ref().map_or(Stack::Cuda, |g| g.stack)
    }

    pub(crate) fn link(&self) -> Option<LinkKind> {
        self.gpu.as_ref().map(|g| g.link)
    }

    /// The plan stores or computes in FP8.
    pub(crate) fn needs_fp8(&self) -> bool {
        self.task == Task::Infer && self.weights == WeightFormat::Fp8
    }

    /// The plan's weights are MXFP4.
    pub(crate) fn needs_fp4(&self) -> bool {
        self.task == Task::Infer && self.weights == WeightFormat::Mxfp4
    }

    /// The plan's weights (and activations) are NVFP4.
    pub(crate) fn needs_nvfp4(&self) -> bool {
        self.task == Task::Infer && self.weights == WeightFormat::Nvfp4
    }

    /// The plan computes in BF16: BF16 weights, or training in mixed or pure BF16.
    pub(crate) fn needs_bf16(&self) -> bool {
        match self.task {
            Task::Infer => self.weights == WeightFormat::Bf16,
            Task::Train => self.precision != Precision::Fp32,
        }
    }
}
