//! Hugging Face `config.json`: the shape fields of the transformers model
//! classes (`LlamaConfig`, `Qwen2MoeConfig`, `DeepseekV3Config`,
//! `Gemma3TextConfig`, `GptOssConfig`, `Llama4TextConfig` ...). Multimodal
//! configs keep the language model under `text_config`; the vision tower's
//! parameters are estimated from `vision_config` and added to the total.

use serde_json::{Map, Value};

use super::{Assumption, FileError, Imported};
use crate::model::WeightFormat;
use crate::model::{Arch, Attention, Mlp, Origin, SlidingWindow, VisionTower};

/// `model_type`s whose fields this reader knows; others are read from the
/// fields present, and the import says so.
const KNOWN_TYPES: &[&str] = &[
    "llama",
    "mistral",
    "qwen2",
    "qwen3",
    "qwen2_moe",
    "qwen3_moe",
    "mixtral",
    "deepseek_v2",
    "deepseek_v3",
    "kimi_k2",
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "gpt_oss",
    "llama4",
    "llama4_text",
    "phi3",
    "glm4_moe",
    "mistral3",
    "qwen2_5_vl",
    "qwen2_vl",
    "mllama",
];

/// Keys this reader uses; every other top-level key is listed as ignored.
const USED: &[&str] = &[
    "model_type",
    "architectures",
    "text_config",
    "vision_config",
    "quantization_config",
    "torch_dtype",
    "dtype",
    "num_hidden_layers",
    "hidden_size",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "intermediate_size",
    "vocab_size",
    "tie_word_embeddings",
    "hidden_act",
    "hidden_activation",
    "max_position_embeddings",
    "sliding_window",
    "sliding_window_pattern",
    "layer_types",
    "num_local_experts",
    "num_experts",
    "n_routed_experts",
    "num_experts_per_tok",
    "n_shared_experts",
    "shared_expert_intermediate_size",
    "moe_intermediate_size",
    "first_k_dense_replace",
    "intermediate_size_mlp",
    "interleave_moe_layer_step",
    "kv_lora_rank",
    "q_lora_rank",
    "qk_rope_head_dim",
    "qk_nope_head_dim",
    "v_head_dim",
    "use_sliding_window",
    "max_window_layers",
    "attention_chunk_size",
];

/// Reads a `config.json`.
pub fn import(text: &str) -> Result<Imported, FileError> {
    let root: Value = serde_json::from_str(text).map_err(|e| FileError::Malformed { what: e.to_string() })?;
    let Value::Object(top) = root else {
        return Err(FileError::Malformed { what: "not a JSON object".into() });
    };
    let mut out = Imported::new(Origin::Config);
    let text_cfg = match top.get("text_config") {
        Some(Value::Object(t)) => {
            out.note_read("text_config", "language model");
            t
        }
        _ => &top,
    };
    let model_type =
        text_cfg.get("model_type").or(top.get("model_type")).and_then(Value::as_str).unwrap_or("");
    if !KNOWN_TYPES.contains(&model_type) {
        out.assume("model_type", model_type, Assumption::UnknownType);
    } else {
        out.note_read("model_type", model_type);
    }
    let mut r = Fields { cfg: text_cfg, model_type, out: &mut out };
    let arch = r.arch(model_type)?;
    out.arch = arch;
    if let Some(Value::Object(vision)) = top.get("vision_config") {
        add_vision(&mut out, vision);
    }
    out.format = format(&top, &mut out);
    for key in top.keys().filter(|k| !USED.contains(&k.as_str())) {
        out.ignored.push(key.clone());
    }
    Ok(out)
}

struct Fields<'a, 'b> {
    cfg: &'a Map<String, Value>,
    model_type: &'a str,
    out: &'b mut Imported,
}

/// Values a config class supplies for keys its published files leave out:
/// transformers' `Gemma3TextConfig` defaults, which Gemma 3's files rely on.
fn class_default(model_type: &str, key: &str) -> Option<u64> {
    match (model_type, key) {
        ("gemma3" | "gemma3_text", "vocab_size") => Some(262_208),
        ("gemma3" | "gemma3_text", "head_dim") => Some(256),
        ("gemma3" | "gemma3_text", "max_position_embeddings") => Some(131_072),
        _ => None,
    }
}

impl Fields<'_, '_> {
    /// The key's number, else its class default (said as assumed).
    fn num(&mut self, key: &str) -> Option<u64> {
        if let Some(v) = self.cfg.get(key).and_then(Value::as_u64) {
            self.out.note_read(key, v);
            return Some(v);
        }
        let v = class_default(self.model_type, key)?;
        self.out.assume(key, v, Assumption::Default);
        Some(v)
    }

    fn has(&self, key: &str) -> bool {
        self.cfg.get(key).and_then(Value::as_u64).is_some() || class_default(self.model_type, key).is_some()
    }

    /// The first of `keys` present.
    fn any(&mut self, keys: &[&str]) -> Option<u64> {
        keys.iter().find_map(|k| self.num(k))
    }

    fn u32_or(&mut self, key: &str, default: u32, why: Assumption) -> u32 {
        match self.num(key).and_then(|v| u32::try_from(v).ok()) {
            Some(v) => v,
            None => {
                self.out.assume(key, default, why);
                default
            }
        }
    }

    fn arch(&mut self, model_type: &str) -> Result<Arch, FileError> {
        let required = ["num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size"];
        let missing: Vec<&'static str> = required.iter().copied().filter(|k| !self.has(k)).collect();
        if !missing.is_empty() {
            return Err(FileError::NotAModel { missing });
        }
        let int = |v: Option<u64>| v.and_then(|v| u32::try_from(v).ok()).unwrap_or(0);
        let layers = int(self.num("num_hidden_layers"));
        let hidden = int(self.num("hidden_size"));
        let heads = int(self.num("num_attention_heads"));
        let vocab = int(self.num("vocab_size"));
        let kv_heads = self.u32_or("num_key_value_heads", heads, Assumption::Default);
        let attention = self.attention();
        let head_dim = self.num("head_dim").and_then(|v| u32::try_from(v).ok()).or_else(|| {
            // MLA's query and key heads are qk_nope + qk_rope wide, whatever hidden / heads is.
            let Attention::Mla { rope_dim, nope_dim, .. } = attention else {
                self.out.assume("head_dim", hidden.checked_div(heads).unwrap_or(0), Assumption::Derived);
                return None;
            };
            let d = rope_dim.saturating_add(nope_dim);
            self.out.assume("head_dim", d, Assumption::Derived);
            Some(d)
        });
        let mut arch = Arch {
            params: None,
            layers,
            hidden,
            heads,
            kv_heads,
            head_dim,
            intermediate: 0,
            vocab,
            tied_embeddings: self.tied(model_type),
            mlp: self.mlp(model_type),
            experts: 0,
            experts_active: 0,
            shared_experts: 0,
            dense_layers: 0,
            dense_intermediate: 0,
            attention,
            sliding: None,
            max_context: self.num("max_position_embeddings").unwrap_or_else(|| {
                self.out.assume("max_position_embeddings", 4096, Assumption::Default);
                4096
            }),
            stored: None,
            origin: Some(Origin::Config),
        };
        self.mlp_widths(&mut arch)?;
        arch.sliding = self.sliding(model_type);
        if model_type.starts_with("llama4") {
            self.llama4(&mut arch);
        }
        Ok(arch)
    }

    /// transformers' `PretrainedConfig` ties embeddings unless told not to;
    /// the Llama family's classes default to untied.
    fn tied(&mut self, model_type: &str) -> bool {
        if let Some(b) = self.cfg.get("tie_word_embeddings").and_then(Value::as_bool) {
            self.out.note_read("tie_word_embeddings", b);
            return b;
        }
        let untied_default =
            ["llama", "mistral", "mixtral", "deepseek_v3", "deepseek_v2", "qwen2_moe", "llama4_text"];
        let tied = !untied_default.contains(&model_type);
        self.out.assume("tie_word_embeddings", tied, Assumption::Default);
        tied
    }

    /// Two-projection GELU MLPs (GPT-2 family); every other class here gates
    /// its MLP (SwiGLU, GeGLU: three projections of the same width).
    fn mlp(&mut self, model_type: &str) -> Mlp {
        let plain = ["gpt2", "gpt_neox", "gptj", "phi", "falcon", "opt", "bloom", "starcoder2"];
        if let Some(a) =
            self.cfg.get("hidden_act").or(self.cfg.get("hidden_activation")).and_then(Value::as_str)
        {
            self.out.note_read("hidden_act", a);
        }
        if plain.contains(&model_type) {
            Mlp::Gelu
        } else {
            Mlp::Swiglu
        }
    }

    fn attention(&mut self) -> Attention {
        let Some(kv_lora_rank) = self.num("kv_lora_rank") else { return Attention::Standard };
        let q_lora_rank = self.num("q_lora_rank").unwrap_or(0);
        let rope = self.num("qk_rope_head_dim").unwrap_or(0);
        let nope = self.num("qk_nope_head_dim").unwrap_or(0);
        let v = self.num("v_head_dim").unwrap_or(0);
        let c = |x: u64| u32::try_from(x).unwrap_or(0);
        Attention::Mla {
            kv_lora_rank: c(kv_lora_rank),
            q_lora_rank: c(q_lora_rank),
            rope_dim: c(rope),
            nope_dim: c(nope),
            v_head_dim: c(v),
        }
    }

    /// MLP widths, routed and shared experts, leading dense layers.
    fn mlp_widths(&mut self, a: &mut Arch) -> Result<(), FileError> {
        let c = |x: u64| u32::try_from(x).unwrap_or(0);
        let dense_width = self.any(&["intermediate_size_mlp", "intermediate_size"]).map(c);
        let experts = self.any(&["num_local_experts", "n_routed_experts", "num_experts"]).map(c).unwrap_or(0);
        if experts == 0 {
            a.intermediate =
                dense_width.ok_or(FileError::NotAModel { missing: vec!["intermediate_size"] })?;
            return Ok(());
        }
        a.experts = experts;
        a.experts_active = self.u32_or("num_experts_per_tok", 1, Assumption::Default);
        let expert_width = self.any(&["moe_intermediate_size"]).map(c);
        let plain_width = self.cfg.get("intermediate_size").and_then(Value::as_u64).map(c);
        a.intermediate = expert_width.or(plain_width).unwrap_or(0);
        a.shared_experts = self.num("n_shared_experts").map(c).unwrap_or(0);
        if let Some(w) = self.num("shared_expert_intermediate_size").map(c).filter(|w| *w > 0) {
            // Qwen-MoE: one shared expert of its own width, counted in routed-expert widths.
            a.shared_experts = w.checked_div(a.intermediate).unwrap_or(0).max(1);
            self.out.assume("n_shared_experts", a.shared_experts, Assumption::Simplified);
        }
        if let Some(k) = self.num("first_k_dense_replace").map(c) {
            a.dense_layers = k;
            a.dense_intermediate = plain_width.unwrap_or(0);
        }
        if let Some(step) = self.num("interleave_moe_layer_step").map(c).filter(|s| *s > 1) {
            // Llama 4 Maverick: every step-th layer is MoE, the others dense.
            a.dense_layers = a.layers - a.layers / step;
            a.dense_intermediate = dense_width.unwrap_or(0);
            self.out.assume("dense_layers", a.dense_layers, Assumption::Simplified);
        }
        if a.intermediate == 0 {
            return Err(FileError::NotAModel { missing: vec!["moe_intermediate_size"] });
        }
        Ok(())
    }

    /// Sliding-window attention as (local, global) groups.
    fn sliding(&mut self, model_type: &str) -> Option<SlidingWindow> {
        if self.cfg.get("use_sliding_window").and_then(Value::as_bool) == Some(false) {
            self.out.note_read("use_sliding_window", false);
            return None;
        }
        let window = u32::try_from(self.num("sliding_window")?).ok()?;
        if let Some(Value::Array(types)) = self.cfg.get("layer_types") {
            let local = types.iter().filter(|t| t.as_str() == Some("sliding_attention")).count() as u32;
            let global = (types.len() as u32).saturating_sub(local);
            self.out.note_read("layer_types", format!("{local} sliding + {global} full"));
            let g = gcd(local, global).max(1);
            return (local > 0).then_some(SlidingWindow { window, local: local / g, global: global / g });
        }
        if let Some(p) = self.num("sliding_window_pattern").and_then(|p| u32::try_from(p).ok()) {
            return (p > 1).then_some(SlidingWindow { window, local: p - 1, global: 1 });
        }
        let (local, global) = match model_type {
            "gemma2" => (1, 1),
            "gemma3" | "gemma3_text" => (5, 1),
            "gpt_oss" => (1, 1),
            _ => (1, 0),
        };
        self.out.assume("sliding layers", format!("{local} sliding : {global} full"), Assumption::Default);
        Some(SlidingWindow { window, local, global })
    }
}

impl Fields<'_, '_> {
    /// Llama 4: each MoE layer has one shared expert beside the routed ones,
    /// and three of every four layers attend within chunks of
    /// `attention_chunk_size` tokens (a window for the KV cache).
    fn llama4(&mut self, a: &mut Arch) {
        if a.is_moe() {
            a.shared_experts = 1;
            self.out.assume("shared expert", 1, Assumption::Default);
        }
        if let Some(chunk) = self.num("attention_chunk_size").and_then(|c| u32::try_from(c).ok()) {
            a.sliding = Some(SlidingWindow { window: chunk, local: 3, global: 1 });
            self.out.assume("chunked attention", "3 chunked : 1 global", Assumption::Simplified);
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The vision tower's weights, added to the language model's total.
fn add_vision(out: &mut Imported, v: &Map<String, Value>) {
    let get = |k: &str| v.get(k).and_then(Value::as_u64).and_then(|x| u32::try_from(x).ok());
    // Qwen2-VL names the encoder width `embed_dim`; its `hidden_size` is the
    // merger's output, the language model's width.
    let width = get("embed_dim").or(get("hidden_size"));
    let (Some(layers), Some(hidden)) = (get("num_hidden_layers").or(get("depth")), width) else {
        out.ignored.push("vision_config".into());
        return;
    };
    let tower = VisionTower {
        layers,
        hidden,
        intermediate: get("intermediate_size")
            .unwrap_or(hidden.saturating_mul(get("mlp_ratio").unwrap_or(4))),
        patch: get("patch_size").unwrap_or(14),
    };
    let vision = tower.params();
    let text = out.arch.param_count();
    out.arch.params = Some(text + vision);
    out.assume("vision_config params", format!("{:.2}B", vision / 1e9), Assumption::Derived);
}

/// An NVFP4 quantisation config: ModelOpt's `quant_algo: "NVFP4"` or
/// llm-compressor's `format: "nvfp4-pack-quantized"`.
fn is_nvfp4(q: &Map<String, Value>) -> bool {
    let says = |key: &str| {
        q.get(key).and_then(Value::as_str).is_some_and(|v| v.to_ascii_lowercase().starts_with("nvfp4"))
    };
    says("quant_algo") || says("format")
}

/// The checkpoint's format from `quantization_config`, else its dtype.
fn format(top: &Map<String, Value>, out: &mut Imported) -> Option<WeightFormat> {
    if let Some(Value::Object(q)) = top.get("quantization_config") {
        let method = q.get("quant_method").and_then(Value::as_str).unwrap_or("");
        let bits = q.get("bits").and_then(Value::as_u64);
        let f = match (method, bits) {
            ("gptq" | "awq", Some(8)) => Some(WeightFormat::GptqInt8),
            ("gptq" | "awq", _) => Some(WeightFormat::GptqInt4),
            ("fp8" | "fbgemm_fp8", _) => Some(WeightFormat::Fp8),
            ("mxfp4", _) => Some(WeightFormat::Mxfp4),
            // NVIDIA ModelOpt (`quant_algo`) and llm-compressor (`format`)
            // NVFP4 checkpoints.
            ("modelopt" | "compressed-tensors", _) if is_nvfp4(q) => Some(WeightFormat::Nvfp4),
            ("bitsandbytes", _) if q.get("load_in_8bit").and_then(Value::as_bool) == Some(true) => {
                Some(WeightFormat::Int8)
            }
            ("bitsandbytes", _) => Some(WeightFormat::Nf4),
            _ => None,
        };
        match f {
            Some(_) => out.note_read("quantization_config.quant_method", method),
            None => out.ignored.push(format!("quantization_config ({method})")),
        }
        if f.is_some() {
            return f;
        }
    }
    let dtype = top.get("torch_dtype").or(top.get("dtype")).and_then(Value::as_str)?;
    out.note_read("torch_dtype", dtype);
    match dtype {
        "float32" => Some(WeightFormat::Fp32),
        "bfloat16" | "float16" => Some(WeightFormat::Bf16),
        _ => None,
    }
}
