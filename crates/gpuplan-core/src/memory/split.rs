//! One GPU's share of the model: tensor parallel splits every matrix, the
//! busiest pipeline stage holds ceil(L / pp) layers plus an end of the
//! model, and data-parallel sharding divides training state by N.

use crate::derivation::why;
use crate::model::{Arch, Matrix, Role};
use crate::plan::{Plan, Shard};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub tp: u32,
    pub pp: u32,
    pub dp: u32,
    pub shard: Shard,
}

impl Split {
    pub fn of(plan: &Plan) -> Self {
        let p = &plan.parallel;
        Split { tp: p.tp.max(1), pp: p.pp.max(1), dp: p.dp(), shard: p.shard }
    }

    pub fn tp_f(&self) -> f64 {
        f64::from(self.tp)
    }

    /// Data-parallel ranks that share the sharded training state (1 without sharding).
    pub fn state_ranks(&self) -> f64 {
        if self.shard == Shard::None {
            1.0
        } else {
            f64::from(self.dp)
        }
    }

    /// Layers on the busiest pipeline stage.
    pub fn stage_layers(&self, layers: u32) -> u32 {
        layers.div_ceil(self.pp).max(1).min(layers.max(1))
    }

    /// Share of all layers on the busiest stage.
    pub fn stage_fraction(&self, layers: u32) -> f64 {
        if layers == 0 {
            return 1.0;
        }
        f64::from(self.stage_layers(layers)) / f64::from(layers)
    }

    /// Notation for the cut, appended to derivations: "; L 8/32, ÷tp 2".
    pub fn note(&self, layers: u32) -> String {
        let mut s = String::new();
        if self.pp > 1 {
            s.push_str(&why!("; pp {}: L {}/{layers}", self.pp, self.stage_layers(layers)));
        }
        if self.tp > 1 {
            s.push_str(&why!("; ÷tp {}", self.tp));
        }
        s
    }
}

/// Parameters of one kind on the busiest GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    pub kind: GroupKind,
    pub params: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// Attention matrices and norms.
    Attention,
    /// Plain MLPs (dense layers).
    Mlp,
    /// Routed experts.
    Experts,
    /// Shared experts and routers.
    Shared,
    /// Input embeddings and lm_head.
    Embeddings,
}

impl GroupKind {
    pub fn label(self) -> &'static str {
        match self {
            GroupKind::Attention => "attn",
            GroupKind::Mlp => "mlp",
            GroupKind::Experts => "experts",
            GroupKind::Shared => "shared",
            GroupKind::Embeddings => "emb",
        }
    }
}

fn sum(ms: &[Matrix], pick: impl Fn(Role) -> bool) -> f64 {
    ms.iter().filter(|m| pick(m.role)).map(Matrix::params).sum()
}

/// The model's parameters on the busiest GPU, by kind (stated totals scale
/// every kind alike). The busiest stage takes MoE layers before dense ones.
pub fn groups(arch: &Arch, split: &Split) -> Vec<Group> {
    let n = split.stage_layers(arch.layers);
    let n_moe = n.min(arch.moe_layers());
    let n_dense = n.saturating_sub(n_moe);
    let per = |x: u32| f64::from(x);
    let attn = sum(&arch.attention_matrices(), |_| true) + arch.layer_norm_params();
    let dense = sum(&arch.dense_mlp_matrices(), |_| true);
    let (experts, shared) = if arch.is_moe() {
        let ms = arch.moe_matrices();
        (sum(&ms, |r| r == Role::Expert), sum(&ms, |r| r != Role::Expert))
    } else {
        (0.0, 0.0)
    };
    let counts = arch.shape_counts();
    let ends = if split.pp == 1 {
        counts.embedding + counts.lm_head + f64::from(arch.hidden)
    } else {
        counts.embedding.max(counts.lm_head)
    };
    let k = arch.param_scale() / split.tp_f();
    [
        (GroupKind::Attention, per(n) * attn),
        (GroupKind::Mlp, per(n_dense) * dense),
        (GroupKind::Experts, per(n_moe) * experts),
        (GroupKind::Shared, per(n_moe) * shared),
        (GroupKind::Embeddings, ends),
    ]
    .into_iter()
    .filter(|(_, p)| *p > 0.0)
    .map(|(kind, p)| Group { kind, params: p * k })
    .collect()
}

/// Total parameters on the busiest GPU.
pub fn params_on_gpu(arch: &Arch, split: &Split) -> f64 {
    groups(arch, split).iter().map(|g| g.params).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(tp: u32, pp: u32) -> Split {
        Split { tp, pp, dp: 1, shard: Shard::None }
    }

    #[test]
    fn single_gpu_holds_every_parameter() {
        let arch = Arch::default();
        assert_eq!(params_on_gpu(&arch, &split(1, 1)), 8_030_261_248.0);
    }

    #[test]
    fn tp_divides_and_pp_takes_a_stage() {
        let arch = Arch::default();
        let full = params_on_gpu(&arch, &split(1, 1));
        assert!((params_on_gpu(&arch, &split(2, 1)) - full / 2.0).abs() < 1.0);
        // pp 4: 8 of 32 layers plus one embedding matrix.
        let layer = 218_112_000.0;
        let emb = 128_256.0 * 4096.0;
        assert_eq!(params_on_gpu(&arch, &split(1, 4)), 8.0 * layer + emb);
        assert_eq!(split(1, 3).stage_layers(32), 11);
    }
}
