//! Parameter counts from the shape: an inventory of weight matrices, from
//! which totals, active parameters, LoRA sizes and factored optimizer states
//! are all derived. Biases, attention sinks and rotary tables are left out
//! (under 0.1 % of any preset); norm weights are counted.

use super::{Arch, Attention, Mlp};

/// Where a matrix sits: decides its weight format, whether LoRA adapts it,
/// and whether it is active for every token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Embedding,
    LmHead,
    /// Query side of attention (q, or MLA's q_a / q_b).
    AttnQ,
    /// Key/value side (k, or MLA's kv_a).
    AttnK,
    /// Value (v, or MLA's kv_b that expands the latent into keys and values).
    AttnV,
    AttnO,
    /// MLP of a dense layer (or of a dense model).
    DenseMlp,
    /// One routed expert's MLP matrices (times the experts).
    Expert,
    SharedExpert,
    Router,
}

/// `count` matrices of `rows × cols` (input × output features).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix {
    pub role: Role,
    pub rows: f64,
    pub cols: f64,
    pub count: f64,
}

impl Matrix {
    pub fn params(&self) -> f64 {
        self.rows * self.cols * self.count
    }
}

/// A model's parameters by part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParamCounts {
    pub embedding: f64,
    pub lm_head: f64,
    pub attention: f64,
    pub dense_mlp: f64,
    pub experts: f64,
    pub shared_experts: f64,
    pub router: f64,
    pub norms: f64,
}

impl ParamCounts {
    pub fn total(&self) -> f64 {
        self.embedding
            + self.lm_head
            + self.attention
            + self.dense_mlp
            + self.experts
            + self.shared_experts
            + self.router
            + self.norms
    }
}

impl Arch {
    fn f(x: u32) -> f64 {
        f64::from(x)
    }

    /// Layers whose MLP is a mixture of experts.
    pub fn moe_layers(&self) -> u32 {
        if self.is_moe() {
            self.layers.saturating_sub(self.dense_layers)
        } else {
            0
        }
    }

    /// Layers with a plain MLP.
    pub fn dense_mlp_layers(&self) -> u32 {
        self.layers.saturating_sub(self.moe_layers())
    }

    /// MLP width of the dense layers (an MoE model's leading dense layers
    /// have their own width; `intermediate` is then per expert).
    pub fn dense_width(&self) -> u32 {
        if self.is_moe() && self.dense_intermediate > 0 {
            self.dense_intermediate
        } else {
            self.intermediate
        }
    }

    /// The attention matrices of one layer.
    pub fn attention_matrices(&self) -> Vec<Matrix> {
        let h = Self::f(self.hidden);
        let a = Self::f(self.heads);
        let m = |role, rows, cols| Matrix { role, rows, cols, count: 1.0 };
        match self.attention {
            Attention::Standard => {
                let d = Self::f(self.head_dim());
                let kv = Self::f(self.kv_heads) * d;
                vec![
                    m(Role::AttnQ, h, a * d),
                    m(Role::AttnK, h, kv),
                    m(Role::AttnV, h, kv),
                    m(Role::AttnO, a * d, h),
                ]
            }
            Attention::Mla { kv_lora_rank, q_lora_rank, rope_dim, nope_dim, v_head_dim } => {
                let (c, qr) = (Self::f(kv_lora_rank), Self::f(q_lora_rank));
                let (rope, nope, v) = (Self::f(rope_dim), Self::f(nope_dim), Self::f(v_head_dim));
                let mut out = if q_lora_rank > 0 {
                    vec![m(Role::AttnQ, h, qr), m(Role::AttnQ, qr, a * (nope + rope))]
                } else {
                    vec![m(Role::AttnQ, h, a * (nope + rope))]
                };
                out.extend([
                    m(Role::AttnK, h, c + rope),
                    m(Role::AttnV, c, a * (nope + v)),
                    m(Role::AttnO, a * v, h),
                ]);
                out
            }
        }
    }

    /// The matrices of one MLP of width `width`.
    fn mlp_matrices(&self, role: Role, width: u32, count: f64) -> Vec<Matrix> {
        let (h, i) = (Self::f(self.hidden), Self::f(width));
        let up = Matrix { role, rows: h, cols: i, count };
        let down = Matrix { role, rows: i, cols: h, count };
        match self.mlp {
            Mlp::Swiglu => vec![up, up, down],
            Mlp::Gelu => vec![up, down],
        }
    }

    /// The MLP matrices of one dense layer.
    pub fn dense_mlp_matrices(&self) -> Vec<Matrix> {
        self.mlp_matrices(Role::DenseMlp, self.dense_width(), 1.0)
    }

    /// The MLP matrices of one MoE layer: routed experts, shared experts, router.
    pub fn moe_matrices(&self) -> Vec<Matrix> {
        let mut out = self.mlp_matrices(Role::Expert, self.intermediate, Self::f(self.experts));
        if self.shared_experts > 0 {
            out.extend(self.mlp_matrices(
                Role::SharedExpert,
                self.intermediate,
                Self::f(self.shared_experts),
            ));
        }
        out.push(Matrix {
            role: Role::Router,
            rows: Self::f(self.hidden),
            cols: Self::f(self.experts),
            count: 1.0,
        });
        out
    }

    /// Norm weights of one layer: two RMSNorms, plus MLA's latent norms.
    pub fn layer_norm_params(&self) -> f64 {
        let extra = match self.attention {
            Attention::Mla { kv_lora_rank, q_lora_rank, .. } => Self::f(kv_lora_rank) + Self::f(q_lora_rank),
            Attention::Standard => 0.0,
        };
        2.0 * Self::f(self.hidden) + extra
    }

    /// Every weight matrix of the model, with counts over all layers.
    pub fn matrices(&self) -> Vec<Matrix> {
        let (v, h) = (Self::f(self.vocab), Self::f(self.hidden));
        let times = |ms: Vec<Matrix>, n: u32| {
            ms.into_iter().map(move |mx| Matrix { count: mx.count * f64::from(n), ..mx })
        };
        let mut out = vec![Matrix { role: Role::Embedding, rows: v, cols: h, count: 1.0 }];
        if !self.tied_embeddings {
            out.push(Matrix { role: Role::LmHead, rows: h, cols: v, count: 1.0 });
        }
        out.extend(times(self.attention_matrices(), self.layers));
        out.extend(times(self.dense_mlp_matrices(), self.dense_mlp_layers()));
        if self.is_moe() {
            out.extend(times(self.moe_matrices(), self.moe_layers()));
        }
        out
    }

    /// Parameters by part, from the shape alone.
    pub fn shape_counts(&self) -> ParamCounts {
        let mut c = ParamCounts {
            norms: self.layer_norm_params() * Self::f(self.layers) + Self::f(self.hidden),
            ..ParamCounts::default()
        };
        for mx in self.matrices() {
            let slot = match mx.role {
                Role::Embedding => &mut c.embedding,
                Role::LmHead => &mut c.lm_head,
                Role::AttnQ | Role::AttnK | Role::AttnV | Role::AttnO => &mut c.attention,
                Role::DenseMlp => &mut c.dense_mlp,
                Role::Expert => &mut c.experts,
                Role::SharedExpert => &mut c.shared_experts,
                Role::Router => &mut c.router,
            };
            *slot += mx.params();
        }
        c
    }

    /// Total parameters: the stated count where given, else from the shape.
    pub fn param_count(&self) -> f64 {
        self.params.unwrap_or_else(|| self.shape_counts().total())
    }

    /// Factor from the shape's count to the stated one (1 when not stated):
    /// every part is scaled by it, so a stated total keeps the shape's proportions.
    pub fn param_scale(&self) -> f64 {
        let shape = self.shape_counts().total();
        match self.params {
            Some(p) if shape > 0.0 && p.is_finite() => p / shape,
            _ => 1.0,
        }
    }

    /// Parameters used per token: all but the routed experts that are not chosen.
    pub fn active_params(&self) -> f64 {
        let c = self.shape_counts();
        let idle = if self.experts > 0 {
            c.experts * (1.0 - Self::f(self.experts_active) / Self::f(self.experts))
        } else {
            0.0
        };
        (c.total() - idle) * self.param_scale()
    }

    /// Parameters of one transformer block (the heaviest kind when the model
    /// mixes dense and MoE layers), e.g. the unit FSDP gathers at once.
    pub fn largest_layer_params(&self) -> f64 {
        let sum = |ms: Vec<Matrix>| ms.iter().map(Matrix::params).sum::<f64>();
        let attn = sum(self.attention_matrices()) + self.layer_norm_params();
        let dense = if self.dense_mlp_layers() > 0 { sum(self.dense_mlp_matrices()) } else { 0.0 };
        let moe = if self.moe_layers() > 0 { sum(self.moe_matrices()) } else { 0.0 };
        (attn + dense.max(moe)) * self.param_scale()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama_8b_shape_gives_published_total() {
        // meta-llama/Llama-3.1-8B: 8,030,261,248 parameters.
        let p = Arch::default().shape_counts().total();
        assert_eq!(p, 8_030_261_248.0);
    }

    #[test]
    fn stated_total_scales_every_part() {
        let arch = Arch { params: Some(2.0 * 8_030_261_248.0), ..Arch::default() };
        assert!((arch.param_scale() - 2.0).abs() < 1e-12);
        assert!((arch.active_params() - 2.0 * 8_030_261_248.0).abs() < 1.0);
    }

    #[test]
    fn gelu_mlp_has_two_matrices() {
        let arch = Arch { mlp: Mlp::Gelu, ..Arch::default() };
        assert_eq!(arch.dense_mlp_matrices().len(), 2);
        let diff = Arch::default().shape_counts().total() - arch.shape_counts().total();
        assert_eq!(diff, 32.0 * 4096.0 * 14336.0);
    }
}
