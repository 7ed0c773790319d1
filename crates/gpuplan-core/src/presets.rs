//! Model presets: published architectures, each with its source. Shapes are
//! copied from each model's `config.json` (via ../shared/reference/models.csv);
//! parameter totals are derived from the shape and checked against the
//! published totals in the tests below.

use crate::model::{Arch, Attention, Mlp, SlidingWindow};
use crate::plan::WeightFormat;

/// A published model.
#[derive(Clone, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    /// Where the shape comes from.
    pub source: &'static str,
    /// Release month of the model (when the shape was published).
    pub date: &'static str,
    /// Published total parameters, billions; `None` where no total is published.
    pub published_b: Option<f64>,
    /// Format of the released checkpoint (gpt-oss: MXFP4 experts; DeepSeek-V3: fp8).
    pub native_weights: WeightFormat,
    /// Caveats shown beside the model.
    pub notes: &'static str,
    arch: Arch,
}

impl Preset {
    pub fn arch(&self) -> Arch {
        self.arch.clone()
    }

    /// Total parameters from the shape, billions.
    pub fn params_b(&self) -> f64 {
        self.arch.param_count() / 1e9
    }

    /// Parameters used per token, billions (all of them for dense models).
    pub fn active_b(&self) -> f64 {
        self.arch.active_params() / 1e9
    }

    pub fn is_moe(&self) -> bool {
        self.arch.is_moe()
    }

    pub fn max_context(&self) -> u64 {
        self.arch.max_context
    }
}

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// Every preset, in catalog order.
pub fn all() -> &'static [Preset] {
    PRESETS
}

/// A dense GQA decoder with a SwiGLU MLP.
#[allow(clippy::too_many_arguments)]
const fn dense(
    layers: u32,
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    head_dim: u32,
    intermediate: u32,
    vocab: u32,
    tied_embeddings: bool,
    max_context: u64,
) -> Arch {
    Arch {
        params: None,
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim: Some(head_dim),
        intermediate,
        vocab,
        tied_embeddings,
        mlp: Mlp::Swiglu,
        experts: 0,
        experts_active: 0,
        shared_experts: 0,
        dense_layers: 0,
        dense_intermediate: 0,
        attention: Attention::Standard,
        sliding: None,
        max_context,
        stored: None,
        origin: None,
    }
}

const fn moe(base: Arch, experts: u32, experts_active: u32) -> Arch {
    Arch { experts, experts_active, ..base }
}

const fn sliding(base: Arch, window: u32, local: u32, global: u32) -> Arch {
    Arch { sliding: Some(SlidingWindow { window, local, global }), ..base }
}

const fn preset(
    id: &'static str,
    name: &'static str,
    source: &'static str,
    date: &'static str,
    published_b: Option<f64>,
    arch: Arch,
) -> Preset {
    Preset { id, name, source, date, published_b, native_weights: WeightFormat::Bf16, notes: "", arch }
}

const DEEPSEEK_V3: Arch = Arch {
    dense_layers: 3,
    dense_intermediate: 18432,
    shared_experts: 1,
    attention: Attention::Mla {
        kv_lora_rank: 512,
        q_lora_rank: 1536,
        rope_dim: 64,
        nope_dim: 128,
        v_head_dim: 128,
    },
    ..moe(dense(61, 7168, 128, 128, 192, 2048, 129280, false, 163840), 256, 8)
};

static PRESETS: &[Preset] = &[
    preset(
        "llama-3.1-8b",
        "Llama 3.1 8B",
        "meta-llama/Llama-3.1-8B config.json; 8,030,261,248 params (model card)",
        "2024-07",
        Some(8.030),
        dense(32, 4096, 32, 8, 128, 14336, 128256, false, 131072),
    ),
    preset(
        "llama-3.1-70b",
        "Llama 3.1 70B",
        "meta-llama/Llama-3.1-70B config.json; 70,553,706,496 params",
        "2024-07",
        Some(70.554),
        dense(80, 8192, 64, 8, 128, 28672, 128256, false, 131072),
    ),
    preset(
        "llama-3.1-405b",
        "Llama 3.1 405B",
        "meta-llama/Llama-3.1-405B config.json; total derived from the config",
        "2024-07",
        Some(405.85),
        dense(126, 16384, 128, 8, 128, 53248, 128256, false, 131072),
    ),
    preset(
        "llama-3.2-1b",
        "Llama 3.2 1B",
        "meta-llama/Llama-3.2-1B config.json; 1,235,814,400 params",
        "2024-09",
        Some(1.236),
        dense(16, 2048, 32, 8, 64, 8192, 128256, true, 131072),
    ),
    preset(
        "llama-3.2-3b",
        "Llama 3.2 3B",
        "meta-llama/Llama-3.2-3B config.json; 3,212,749,824 params",
        "2024-09",
        Some(3.213),
        dense(28, 3072, 24, 8, 128, 8192, 128256, true, 131072),
    ),
    preset(
        "qwen2.5-7b",
        "Qwen2.5 7B",
        "Qwen/Qwen2.5-7B config.json; 7.61B params (model card)",
        "2024-09",
        Some(7.62),
        dense(28, 3584, 28, 4, 128, 18944, 152064, false, 131072),
    ),
    preset(
        "qwen2.5-14b",
        "Qwen2.5 14B",
        "Qwen/Qwen2.5-14B config.json; 14.7B params (model card)",
        "2024-09",
        Some(14.77),
        dense(48, 5120, 40, 8, 128, 13824, 152064, false, 131072),
    ),
    preset(
        "qwen2.5-32b",
        "Qwen2.5 32B",
        "Qwen/Qwen2.5-32B config.json; 32.5B params (model card)",
        "2024-09",
        Some(32.76),
        dense(64, 5120, 40, 8, 128, 27648, 152064, false, 131072),
    ),
    preset(
        "qwen2.5-72b",
        "Qwen2.5 72B",
        "Qwen/Qwen2.5-72B config.json; 72.7B params (model card)",
        "2024-09",
        Some(72.71),
        dense(80, 8192, 64, 8, 128, 29568, 152064, false, 32768),
    ),
    preset(
        "qwen3-8b",
        "Qwen3 8B",
        "Qwen/Qwen3-8B config.json; 8.2B params (model card)",
        "2025-04",
        Some(8.19),
        dense(36, 4096, 32, 8, 128, 12288, 151936, false, 40960),
    ),
    preset(
        "qwen3-14b",
        "Qwen3 14B",
        "Qwen/Qwen3-14B config.json; 14.8B params (model card)",
        "2025-04",
        Some(14.8),
        dense(40, 5120, 40, 8, 128, 17408, 151936, false, 40960),
    ),
    Preset {
        notes: "heads × head_dim (8192) ≠ hidden (5120)",
        ..preset(
            "qwen3-32b",
            "Qwen3 32B",
            "Qwen/Qwen3-32B config.json; 32.8B params (model card)",
            "2025-04",
            Some(32.76),
            dense(64, 5120, 64, 8, 128, 25600, 151936, false, 40960),
        )
    },
    Preset {
        notes: "MoE: intermediate is per expert (moe_intermediate_size 768)",
        ..preset(
            "qwen3-30b-a3b",
            "Qwen3 30B-A3B",
            "Qwen/Qwen3-30B-A3B config.json; 30.5B total, 3.3B active (model card)",
            "2025-04",
            Some(30.53),
            moe(dense(48, 2048, 32, 4, 128, 768, 151936, false, 40960), 128, 8),
        )
    },
    Preset {
        notes: "MoE: intermediate is per expert (moe_intermediate_size 1536)",
        ..preset(
            "qwen3-235b-a22b",
            "Qwen3 235B-A22B",
            "Qwen/Qwen3-235B-A22B config.json; 235B total, 22B active (model card)",
            "2025-04",
            Some(235.09),
            moe(dense(94, 4096, 64, 4, 128, 1536, 151936, false, 40960), 128, 8),
        )
    },
    Preset {
        notes: "sliding window 4096 on every layer",
        ..preset(
            "mistral-7b",
            "Mistral 7B v0.1",
            "mistralai/Mistral-7B-v0.1 config.json; 7.24B params",
            "2023-09",
            Some(7.24),
            sliding(dense(32, 4096, 32, 8, 128, 14336, 32000, false, 32768), 4096, 1, 0),
        )
    },
    Preset {
        notes: "MoE: intermediate is per expert",
        ..preset(
            "mixtral-8x7b",
            "Mixtral 8x7B",
            "mistralai/Mixtral-8x7B-v0.1 config.json; 46.7B total, 12.9B active (Mistral AI)",
            "2023-12",
            Some(46.70),
            moe(dense(32, 4096, 32, 8, 128, 14336, 32000, false, 32768), 8, 2),
        )
    },
    Preset {
        native_weights: WeightFormat::Fp8,
        notes: "MLA (kv_lora_rank 512, rope 64); first 3 layers dense (18432); 256 routed + 1 shared \
                expert; checkpoint in fp8 with 128×128 block scales; 671B excludes the 14B MTP module",
        ..preset(
            "deepseek-v3",
            "DeepSeek-V3 / R1",
            "deepseek-ai/DeepSeek-V3 config.json; 671B total, 37B active (technical report)",
            "2024-12",
            Some(671.0),
            DEEPSEEK_V3,
        )
    },
    Preset {
        notes: "total unverified: computed from the text model's shape (vision tower not counted); \
                gated-GELU MLP has SwiGLU's three matrices; 5 local (1024) : 1 global layers",
        ..preset(
            "gemma-3-12b",
            "Gemma 3 12B",
            "google/gemma-3-12b-pt config.json (text_config)",
            "2025-03",
            None,
            sliding(dense(48, 3840, 16, 8, 256, 15360, 262208, true, 131072), 1024, 5, 1),
        )
    },
    Preset {
        notes: "total unverified: computed from the text model's shape (vision tower not counted); \
                gated-GELU MLP has SwiGLU's three matrices; 5 local (1024) : 1 global layers",
        ..preset(
            "gemma-3-27b",
            "Gemma 3 27B",
            "google/gemma-3-27b-pt config.json (text_config)",
            "2025-03",
            None,
            sliding(dense(62, 5376, 32, 16, 128, 21504, 262208, true, 131072), 1024, 5, 1),
        )
    },
    preset(
        "phi-4",
        "Phi-4",
        "microsoft/phi-4 config.json; 14.7B params (model card)",
        "2024-12",
        Some(14.7),
        dense(40, 5120, 40, 10, 128, 17920, 100352, false, 16384),
    ),
    Preset {
        native_weights: WeightFormat::Mxfp4,
        notes: "MoE weights in MXFP4 in the checkpoint; sliding window 128 on every other layer",
        ..preset(
            "gpt-oss-20b",
            "gpt-oss 20B",
            "openai/gpt-oss-20b config.json; 20.9B total, 3.6B active without embeddings (model card)",
            "2025-08",
            Some(20.9),
            sliding(moe(dense(24, 2880, 64, 8, 64, 2880, 201088, false, 131072), 32, 4), 128, 1, 1),
        )
    },
    Preset {
        native_weights: WeightFormat::Mxfp4,
        notes: "MoE weights in MXFP4 in the checkpoint; sliding window 128 on every other layer",
        ..preset(
            "gpt-oss-120b",
            "gpt-oss 120B",
            "openai/gpt-oss-120b config.json; 116.8B total, 5.1B active without embeddings (model card)",
            "2025-08",
            Some(116.8),
            sliding(moe(dense(36, 2880, 64, 8, 64, 2880, 201088, false, 131072), 128, 4), 128, 1, 1),
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Shape-derived totals agree with published ones within 1 %.
    /// (Biases, attention sinks and gpt-oss's expert biases are not counted.)
    #[test]
    fn shape_totals_match_published_within_one_percent() {
        for p in all() {
            let Some(published) = p.published_b else { continue };
            let err = (p.params_b() - published).abs() / published;
            assert!(err < 0.01, "{}: shape {:.3}B vs published {published}B", p.id, p.params_b());
        }
    }

    /// Active parameters, where models.csv lists them (billions, counting
    /// both embedding matrices): Qwen3-30B-A3B 3.35, Mixtral 12.88,
    /// DeepSeek-V3 37.5, gpt-oss 4.2 / 5.7.
    #[test]
    fn moe_active_params_match_published_within_two_percent() {
        for (id, active) in [
            ("qwen3-30b-a3b", 3.35),
            ("qwen3-235b-a22b", 22.19),
            ("mixtral-8x7b", 12.88),
            ("deepseek-v3", 37.5),
            ("gpt-oss-20b", 4.2),
            ("gpt-oss-120b", 5.7),
        ] {
            let p = find(id).unwrap();
            let err = (p.active_b() - active).abs() / active;
            assert!(err < 0.02, "{id}: active {:.3}B vs {active}B", p.active_b());
            assert!(p.is_moe());
        }
    }

    #[test]
    fn exact_totals_where_published_to_the_parameter() {
        for (id, exact) in [
            ("llama-3.1-8b", 8_030_261_248.0),
            ("llama-3.1-70b", 70_553_706_496.0),
            ("llama-3.2-1b", 1_235_814_400.0),
            ("llama-3.2-3b", 3_212_749_824.0),
        ] {
            assert_eq!(find(id).unwrap().arch().param_count(), exact, "{id}");
        }
    }

    /// Gemma 3's totals are unverified: these are the text models' counts
    /// computed from the shape (11.77B and 27.01B), pinned so a change shows.
    #[test]
    fn gemma_3_totals_are_computed() {
        let g12 = find("gemma-3-12b").unwrap().params_b();
        let g27 = find("gemma-3-27b").unwrap().params_b();
        assert!((g12 - 11.766).abs() < 0.01, "{g12}");
        assert!((g27 - 27.009).abs() < 0.01, "{g27}");
    }

    #[test]
    fn qwen3_head_dim_is_not_hidden_over_heads() {
        let a = find("qwen3-32b").unwrap().arch();
        assert_eq!(a.head_dim(), 128);
        assert_ne!(a.hidden / a.heads, a.head_dim());
    }

    #[test]
    fn every_preset_is_a_valid_plan_model() {
        for p in all() {
            let mut errs = Vec::new();
            crate::model::ModelSpec::Custom { arch: p.arch() }.validate(&mut errs);
            assert!(errs.is_empty(), "{}: {errs:?}", p.id);
            assert!(!p.source.is_empty() && p.date.len() == 7);
        }
        let mut ids: Vec<_> = all().iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all().len());
    }
}
