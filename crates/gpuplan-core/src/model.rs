//! Model descriptions: a preset id, a custom transformer shape, or a generic
//! model that is not a decoder transformer. Preset data lives in [`presets`].

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, Limit, Problem};

mod format;
mod params;
pub mod presets;
mod vision;
pub use format::WeightFormat;
pub use params::{Matrix, ParamCounts, Role};
pub use vision::VisionTower;

/// MLP block kind: decides the matrices per layer and the activation constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mlp {
    /// gate, up and down projections (Llama, Qwen, Mistral ...).
    #[default]
    Swiglu,
    /// up and down projections with GELU (GPT-2, BERT style).
    Gelu,
}

/// Attention kind. MHA / GQA / MQA are all `Standard`: they differ only in
/// `kv_heads` (= heads, < heads, = 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attention {
    #[default]
    Standard,
    /// Multi-head latent attention (DeepSeek-V2/V3): the cache holds the
    /// compressed latent plus the decoupled RoPE key.
    Mla { kv_lora_rank: u32, q_lora_rank: u32, rope_dim: u32, nope_dim: u32, v_head_dim: u32 },
}

/// Sliding-window attention on some layers. The layers repeat in groups of
/// `local` windowed layers followed by `global` full-attention layers:
/// Mistral 7B = (1, 0), Gemma 3 = (5, 1), gpt-oss = (1, 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlidingWindow {
    pub window: u32,
    pub local: u32,
    pub global: u32,
}

/// The file a custom shape was read from (shown beside the model, carried in links).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    Config,
    Gguf,
    Safetensors,
    SafetensorsIndex,
}

/// A checkpoint's exact size, read from its file: the weights' bytes in the
/// format it stores them in. The memory engine counts these bytes instead of
/// parameters × bits whenever the plan keeps that format.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    pub format: WeightFormat,
    pub bytes: f64,
}

/// A decoder-only transformer's shape, as in its `config.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Arch {
    /// Published total parameter count; derived from the shape when absent.
    pub params: Option<f64>,
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    pub kv_heads: u32,
    /// Per-head dimension; `hidden / heads` when absent.
    pub head_dim: Option<u32>,
    /// MLP width; per expert for MoE models.
    pub intermediate: u32,
    pub vocab: u32,
    pub tied_embeddings: bool,
    pub mlp: Mlp,
    /// Routed experts (0 = dense model) and experts active per token.
    pub experts: u32,
    pub experts_active: u32,
    /// Always-on shared experts per MoE layer (DeepSeek-V3: 1).
    pub shared_experts: u32,
    /// Leading layers that are dense in an MoE model, and their MLP width.
    pub dense_layers: u32,
    pub dense_intermediate: u32,
    pub attention: Attention,
    pub sliding: Option<SlidingWindow>,
    pub max_context: u64,
    /// Set when the model was read from a weights file (GGUF, safetensors).
    pub stored: Option<Stored>,
    /// Set when the shape was imported from a file rather than typed.
    pub origin: Option<Origin>,
}

impl Default for Arch {
    /// Llama 3.1 8B's shape: a sensible starting point for a custom model.
    fn default() -> Self {
        Self {
            params: None,
            layers: 32,
            hidden: 4096,
            heads: 32,
            kv_heads: 8,
            head_dim: Some(128),
            intermediate: 14336,
            vocab: 128256,
            tied_embeddings: false,
            mlp: Mlp::Swiglu,
            experts: 0,
            experts_active: 0,
            shared_experts: 0,
            dense_layers: 0,
            dense_intermediate: 0,
            attention: Attention::Standard,
            sliding: None,
            max_context: 131072,
            stored: None,
            origin: None,
        }
    }
}

impl Arch {
    /// head_dim from the config, or hidden / heads.
    pub fn head_dim(&self) -> u32 {
        self.head_dim.unwrap_or_else(|| self.hidden.checked_div(self.heads).unwrap_or(0))
    }

    pub fn is_moe(&self) -> bool {
        self.experts > 0
    }

    fn validate(&self, errs: &mut Vec<FieldError>) {
        let p = "model.arch";
        if let Some(params) = self.params {
            Limit::real(1.0, 1.0e14).check_f64(&format!("{p}.params"), params, errs);
        }
        Limit::int(1, 1000).check_u64(&format!("{p}.layers"), self.layers.into(), errs);
        Limit::int(1, 1_000_000).check_u64(&format!("{p}.hidden"), self.hidden.into(), errs);
        Limit::int(1, 10_000).check_u64(&format!("{p}.heads"), self.heads.into(), errs);
        Limit::int(1, 10_000).check_u64(&format!("{p}.kv_heads"), self.kv_heads.into(), errs);
        if let Some(d) = self.head_dim {
            Limit::int(1, 100_000).check_u64(&format!("{p}.head_dim"), d.into(), errs);
        }
        Limit::int(1, 10_000_000).check_u64(&format!("{p}.intermediate"), self.intermediate.into(), errs);
        Limit::int(1, 100_000_000).check_u64(&format!("{p}.vocab"), self.vocab.into(), errs);
        Limit::int(0, 100_000).check_u64(&format!("{p}.experts"), self.experts.into(), errs);
        Limit::int(1, 1_000_000_000).check_u64(&format!("{p}.max_context"), self.max_context, errs);
        let rule = |field: &str, rule: &'static str| {
            FieldError::new(format!("{p}.{field}"), Problem::Inconsistent { rule })
        };
        if self.kv_heads > self.heads {
            errs.push(rule("kv_heads", "kv_heads_le_heads"));
        } else if self.kv_heads > 0 && !self.heads.is_multiple_of(self.kv_heads) {
            errs.push(rule("kv_heads", "heads_divisible_by_kv_heads"));
        }
        if self.head_dim.is_none() && self.heads > 0 && !self.hidden.is_multiple_of(self.heads) {
            errs.push(rule("head_dim", "hidden_divisible_by_heads"));
        }
        if self.experts_active > self.experts {
            errs.push(rule("experts_active", "experts_active_le_experts"));
        }
        if self.is_moe() && self.experts_active == 0 {
            errs.push(FieldError::new(
                format!("{p}.experts_active"),
                Problem::OutOfRange { min: 1.0, max: f64::from(self.experts) },
            ));
        }
        if self.dense_layers > self.layers {
            errs.push(FieldError::new(
                format!("{p}.dense_layers"),
                Problem::OutOfRange { min: 0.0, max: f64::from(self.layers) },
            ));
        }
        if let Some(s) = self.stored {
            Limit::real(1.0, 1.0e15).check_f64(&format!("{p}.stored.bytes"), s.bytes, errs);
        }
        if let Some(w) = self.sliding {
            if w.window == 0 || w.local == 0 {
                errs.push(rule("sliding", "window_le_context"));
            }
        }
    }
}

/// A model that is not a decoder transformer (diffusion, vision, speech):
/// sized by its parameter count and a stated activation/workspace figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Generic {
    pub params: f64,
    /// Activations and workspace per GPU at the planned batch, GB (10^9 bytes),
    /// as measured or stated by the model's authors.
    pub activation_gb: f64,
    /// Forward FLOPs per processed item (image, second of audio ...), for speed; 0 = unknown.
    pub flops_per_item: f64,
}

impl Default for Generic {
    fn default() -> Self {
        Self { params: 2.6e9, activation_gb: 4.0, flops_per_item: 0.0 }
    }
}

/// Which model the plan sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelSpec {
    Preset { id: String },
    Custom { arch: Arch },
    Generic { generic: Generic },
}

impl Default for ModelSpec {
    fn default() -> Self {
        ModelSpec::Preset { id: "llama-3.1-8b".into() }
    }
}

impl ModelSpec {
    /// The custom shape, when the model is one.
    pub fn custom(&self) -> Option<&Arch> {
        match self {
            ModelSpec::Custom { arch } => Some(arch),
            _ => None,
        }
    }

    pub fn custom_mut(&mut self) -> Option<&mut Arch> {
        match self {
            ModelSpec::Custom { arch } => Some(arch),
            _ => None,
        }
    }

    /// The generic (non-transformer) description, when the model is one.
    pub fn generic(&self) -> Option<&Generic> {
        match self {
            ModelSpec::Generic { generic } => Some(generic),
            _ => None,
        }
    }

    pub fn generic_mut(&mut self) -> Option<&mut Generic> {
        match self {
            ModelSpec::Generic { generic } => Some(generic),
            _ => None,
        }
    }

    /// The transformer shape, when the model has one (presets and custom).
    pub fn arch(&self) -> Option<std::borrow::Cow<'_, Arch>> {
        match self {
            ModelSpec::Preset { id } => presets::find(id).map(|p| std::borrow::Cow::Owned(p.arch())),
            ModelSpec::Custom { arch } => Some(std::borrow::Cow::Borrowed(arch)),
            ModelSpec::Generic { .. } => None,
        }
    }

    pub(crate) fn validate(&self, errs: &mut Vec<FieldError>) {
        match self {
            ModelSpec::Preset { id } => {
                if presets::find(id).is_none() {
                    errs.push(FieldError::new("model.id", Problem::Unknown { id: id.clone() }));
                }
            }
            ModelSpec::Custom { arch } => arch.validate(errs),
            ModelSpec::Generic { generic } => {
                Limit::real(1.0, 1.0e14).check_f64("model.generic.params", generic.params, errs);
                Limit::real(0.0, 1.0e5).check_f64("model.generic.activation_gb", generic.activation_gb, errs);
                Limit::real(0.0, 1.0e20).check_f64(
                    "model.generic.flops_per_item",
                    generic.flops_per_item,
                    errs,
                );
            }
        }
    }

    /// Tensor and pipeline parallel must split the model evenly.
    pub(crate) fn validate_parallel(&self, tp: u32, pp: u32, errs: &mut Vec<FieldError>) {
        let Some(arch) = self.arch() else { return };
        if tp > 1 && (arch.heads == 0 || arch.heads % tp != 0) {
            errs.push(FieldError::new("parallel.tp", Problem::Inconsistent { rule: "tp_divides_heads" }));
        }
        if pp > arch.layers {
            errs.push(FieldError::new("parallel.pp", Problem::Inconsistent { rule: "pp_le_layers" }));
        }
    }
}
