//! The image encoder of a multimodal model (Llama 4, Gemma 3, Mistral Small
//! 3.x): a ViT beside the language model, whose weights load with it.

/// A ViT tower's shape, as its `vision_config` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisionTower {
    pub layers: u32,
    pub hidden: u32,
    pub intermediate: u32,
    pub patch: u32,
}

impl VisionTower {
    /// Weights: per layer 4·h² (attention) + 2·h·i (MLP), plus the patch
    /// embedding (3·p²·h). Norms, biases and position tables are left out
    /// (about 1 % of the tower, under 0.05 % of the models here).
    pub fn params(&self) -> f64 {
        let (l, h, i, p) = (
            f64::from(self.layers),
            f64::from(self.hidden),
            f64::from(self.intermediate),
            f64::from(self.patch),
        );
        l * (4.0 * h * h + 2.0 * h * i) + 3.0 * p * p * h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siglip_so400m_is_about_400m() {
        // Gemma 3's SigLIP encoder: 27 layers, 1152 wide, MLP 4304, 14-pixel patches.
        let t = VisionTower { layers: 27, hidden: 1152, intermediate: 4304, patch: 14 };
        assert_eq!(t.params(), 27.0 * (4.0 * 1152.0 * 1152.0 + 2.0 * 1152.0 * 4304.0) + 3.0 * 196.0 * 1152.0);
        assert!((t.params() / 1e9 - 0.412).abs() < 0.001, "{}", t.params());
    }
}
