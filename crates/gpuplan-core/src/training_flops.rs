//! FLOPs per trained token, term by term (docs/training.md, "Time").
//!
//! A matrix of P weights costs 2·P FLOPs per token forward. Backward costs
//! 2·P again for the gradient with respect to its input (every layer needs
//! it, frozen or not, to reach the layers below) and 2·P for the gradient of
//! its weights, which only trainable weights need. So full fine-tuning is
//! 2 + 2 + 2 = 6·P (Kaplan et al. 2020) and LoRA is 4·P for the frozen base
//! plus 6·A for its A adapter weights (forward, input gradient, weight
//! gradient). Full activation recompute runs the forward once more.
//!
//! QLoRA also dequantises each 4-bit matrix to bf16 before every use
//! (forward, recompute, backward): a few operations per weight per
//! micro-batch, not per token, so it is left out of the FLOPs. Its cost is
//! memory traffic, timed apart (`speed::Dequant`).

use crate::derivation::n;

/// What one token trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// Weights each token multiplies (MoE: the active experts').
    pub params: f64,
    /// LoRA adapter weights each token multiplies (0 for full fine-tuning).
    pub adapters: f64,
    /// Weights whose gradient is computed: all of them for full
    /// fine-tuning, the adapters for LoRA and QLoRA.
    pub weight_grads: f64,
    /// Full activation recompute: one more forward.
    pub recompute: bool,
}

impl Work {
    /// Full fine-tuning: every weight gets a gradient.
    pub fn full(params: f64, recompute: bool) -> Self {
        Self { params, adapters: 0.0, weight_grads: params, recompute }
    }

    /// LoRA / QLoRA: a frozen base and trainable adapters.
    pub fn lora(params: f64, adapters: f64, recompute: bool) -> Self {
        Self { params, adapters, weight_grads: adapters, recompute }
    }

    /// FLOPs per token, with each term shown.
    pub fn per_token(&self) -> (f64, String) {
        let multiplied = self.params + self.adapters;
        let forward = 2.0 * multiplied;
        let input_grads = 2.0 * multiplied;
        let weight_grads = 2.0 * self.weight_grads;
        let recompute = if self.recompute { forward } else { 0.0 };
        let total = forward + input_grads + weight_grads + recompute;
        let weights = if self.adapters > 0.0 {
            format!("(P {} + A {})", n(self.params), n(self.adapters))
        } else {
            format!("P {}", n(self.params))
        };
        let recompute_txt = if self.recompute { format!(" + recompute 2·{weights}") } else { String::new() };
        let derivation = format!(
            "forward 2·{weights} + input gradients 2·{weights} + weight gradients 2 × {}{recompute_txt} = {} FLOP/token",
            n(self.weight_grads),
            n(total)
        );
        (total, derivation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_finetuning_is_6p_and_8p_with_recompute() {
        assert_eq!(Work::full(7e9, false).per_token().0, 6.0 * 7e9);
        assert_eq!(Work::full(7e9, true).per_token().0, 8.0 * 7e9);
    }

    #[test]
    fn lora_skips_the_frozen_weight_gradients() {
        // 4·P + 6·A; recompute adds 2·(P + A).
        let (p, a) = (7e9, 4e7);
        assert_eq!(Work::lora(p, a, false).per_token().0, 4.0 * p + 6.0 * a);
        let (with, d) = Work::lora(p, a, true).per_token();
        assert_eq!(with, 6.0 * p + 8.0 * a);
        assert!(d.contains("weight gradients 2 × 4.00e7") && d.contains("recompute"), "{d}");
    }
}
