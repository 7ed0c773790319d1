//! How llama.cpp spreads one model over several GPUs (`--split-mode`).
//! `layer`, its default, gives each GPU a run of whole layers (and their KV
//! cache): the GPUs work in turn on one sequence, so generation is no faster
//! than on one GPU with the whole model, and each hand-over adds a step.
//! `row` splits each weight matrix by rows over the GPUs, which then work
//! at once on every matrix and gather the result; upstream calls it
//! deprecated. The fit's pipeline layouts are layer splits, its
//! tensor-parallel layouts row splits.

use serde::Serialize;

use crate::lang::Lang;
use crate::plan::{Engine, Parallel, Plan, Task};
use crate::text::{self, Key};

/// llama.cpp's `--split-mode` for a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlamaSplit {
    /// One GPU.
    None,
    /// Whole layers per GPU, run in turn (pipeline stages).
    Layer,
    /// Every matrix split by rows (tensor parallel).
    Row,
}

impl LlamaSplit {
    /// The split a llama.cpp plan runs at `p`; None for other engines and training.
    pub fn of(plan: &Plan, p: &Parallel) -> Option<LlamaSplit> {
        if plan.task != Task::Infer || plan.inference.engine != Engine::LlamaCpp {
            return None;
        }
        Some(if p.tp > 1 {
            LlamaSplit::Row
        } else if p.pp > 1 {
            LlamaSplit::Layer
        } else {
            LlamaSplit::None
        })
    }

    /// The flag and what it does, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        let key = match self {
            LlamaSplit::None => Key::LlamaSplitNone,
            LlamaSplit::Layer => Key::LlamaSplitLayer,
            LlamaSplit::Row => Key::LlamaSplitRow,
        };
        text::get(key, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_layer_splits_and_tensor_groups_row_splits() {
        let mut plan = Plan::default();
        let layout = |tp, pp| Parallel { gpus: tp * pp, tp, pp, ..Parallel::default() };
        assert_eq!(LlamaSplit::of(&plan, &layout(1, 2)), None, "vLLM has no split mode");
        plan.inference.engine = Engine::LlamaCpp;
        assert_eq!(LlamaSplit::of(&plan, &layout(1, 1)), Some(LlamaSplit::None));
        assert_eq!(LlamaSplit::of(&plan, &layout(1, 3)), Some(LlamaSplit::Layer));
        assert_eq!(LlamaSplit::of(&plan, &layout(2, 1)), Some(LlamaSplit::Row));
        assert!(
            LlamaSplit::Layer.label(Lang::En).contains("layer")
                || LlamaSplit::Layer.label(Lang::Zh).contains("layer")
        );
    }
}
