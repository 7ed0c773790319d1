//! Serving shares measured on kernels, per GPU, engine and engine release:
//! the share of the catalog's memory bandwidth and dense peak that the
//! engine's GEMMs reach, in the terms of the serving step model. Derived from
//! the measured kernel tables NVIDIA's aiconfigurator ships (PyPI
//! `aiconfigurator` 0.12.0, Apache-2.0) by `tests/validation/kernel_factors.py`;
//! the rows are its `tests/validation/data/kernel-factors.csv`, and a
//! validation test keeps the two equal. Measurements of kernels, not of
//! whole runs: the serving engine scales its end-to-end fit by them
//! (docs/serving.md, "Factors from measured kernels").

/// One GPU's engine release, as the kernel tables measured it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelShares {
    /// Catalog id.
    pub gpu: &'static str,
    /// "vllm", "sglang" or "trtllm".
    pub engine: &'static str,
    pub release: &'static str,
    /// Weight bytes read per second at decode (1-16 tokens), as a share of
    /// the catalog's bandwidth.
    pub bandwidth: f64,
    /// FLOPs per second of a 70B-class layer's 16-bit GEMMs at 2048-8192
    /// tokens, as a share of the catalog's dense 16-bit peak.
    pub compute: f64,
    /// The same for per-tensor FP8 GEMMs, of the FP8 peak; none where the
    /// tables have no FP8 GEMMs for the part.
    pub compute_fp8: Option<f64>,
    /// Fixed time of one GEMM (the tiny ones' median), seconds.
    pub gemm_fixed_s: f64,
    /// The newest release the tables hold for this GPU and engine.
    pub current: bool,
}

/// Where the rows come from, for derivations.
pub const SOURCE: &str = "aiconfigurator 0.12.0";

#[allow(clippy::too_many_arguments)]
const fn row(
    gpu: &'static str,
    engine: &'static str,
    release: &'static str,
    bandwidth: f64,
    compute: f64,
    compute_fp8: Option<f64>,
    gemm_fixed_s: f64,
    current: bool,
) -> KernelShares {
    KernelShares { gpu, engine, release, bandwidth, compute, compute_fp8, gemm_fixed_s, current }
}

/// Every measured (GPU, engine, release).
pub const KERNEL_SHARES: &[KernelShares] = &[
    row("a100-80-sxm", "sglang", "0.5.10", 0.748, 0.842, None, 3.41e-6, true),
    row("a100-80-sxm", "trtllm", "1.0.0", 0.810, 0.875, None, 3.29e-6, true),
    row("a100-80-sxm", "vllm", "0.14.0", 0.745, 0.972, None, 3.06e-6, true),
    row("b200", "sglang", "0.5.14", 0.789, 0.731, Some(0.562), 2.17e-6, true),
    row("b200", "trtllm", "1.3.0rc20", 0.747, 0.680, Some(0.616), 2.17e-6, true),
    row("b200", "vllm", "0.24.0", 0.794, 0.780, Some(0.592), 2.14e-6, true),
    row("b300", "sglang", "0.5.14", 0.782, 0.768, Some(0.644), 1.93e-6, true),
    row("b300", "trtllm", "1.3.0rc20", 0.738, 0.750, Some(0.639), 1.83e-6, true),
    row("b300", "vllm", "0.24.0", 0.785, 0.796, Some(0.606), 1.86e-6, true),
    row("gb200", "sglang", "0.5.14", 0.752, 0.710, Some(0.564), 2.17e-6, true),
    row("gb200", "trtllm", "1.3.0rc20", 0.720, 0.677, Some(0.555), 2.20e-6, true),
    row("gb200", "vllm", "0.24.0", 0.798, 0.695, Some(0.599), 2.18e-6, true),
    row("gb300", "sglang", "0.5.14", 0.746, 0.836, Some(0.648), 2.14e-6, true),
    row("gb300", "trtllm", "1.3.0rc20", 0.700, 0.819, Some(0.669), 2.18e-6, true),
    row("gb300", "vllm", "0.24.0", 0.747, 0.870, Some(0.634), 2.15e-6, true),
    row("h100-sxm", "sglang", "0.5.14", 0.876, 0.731, Some(0.647), 2.88e-6, true),
    row("h100-sxm", "sglang", "0.5.6.post2", 0.846, 0.784, Some(0.654), 2.99e-6, false),
    row("h100-sxm", "trtllm", "1.3.0rc20", 0.866, 0.822, Some(0.689), 2.78e-6, true),
    row("h100-sxm", "vllm", "0.24.0", 0.881, 0.803, Some(0.694), 2.73e-6, true),
    row("h200-sxm", "sglang", "0.5.14", 0.876, 0.741, Some(0.589), 2.90e-6, true),
    row("h200-sxm", "trtllm", "1.3.0rc20", 0.875, 0.817, Some(0.694), 2.78e-6, true),
    row("h200-sxm", "vllm", "0.24.0", 0.864, 0.761, Some(0.724), 2.71e-6, true),
    row("l40s", "sglang", "0.5.14", 0.788, 0.584, Some(0.448), 2.65e-6, true),
    row("l40s", "trtllm", "1.3.0rc20", 0.825, 0.606, Some(0.591), 2.25e-6, true),
    row("l40s", "vllm", "0.24.0", 0.767, 0.727, Some(0.565), 2.19e-6, true),
    row("rtx-pro-6000", "sglang", "0.5.14", 0.830, 0.844, Some(0.796), 2.15e-6, true),
    row("rtx-pro-6000", "trtllm", "1.3.0rc20", 0.829, 0.875, Some(0.784), 2.23e-6, true),
    row("rtx-pro-6000", "vllm", "0.24.0", 0.831, 0.857, Some(0.854), 2.16e-6, true),
];

/// The kernel shares of `engine` on `gpu` at `release`; the newest release
/// the tables hold when `release` is "current", empty or not among them.
pub fn kernel_shares(gpu: &str, engine: &str, release: &str) -> Option<&'static KernelShares> {
    let of = |r: &&KernelShares| r.gpu == gpu && r.engine == engine;
    KERNEL_SHARES
        .iter()
        .filter(of)
        .find(|r| r.release == release)
        .or_else(|| KERNEL_SHARES.iter().filter(of).find(|r| r.current))
}

/// The releases the tables hold for `engine`, on any GPU, newest first as
/// listed.
pub fn releases(engine: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in KERNEL_SHARES.iter().filter(|r| r.engine == engine) {
        if !out.contains(&r.release) {
            out.push(r.release);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_a_catalog_gpu_with_shares_in_range() {
        for r in KERNEL_SHARES {
            assert!(crate::hardware::find(r.gpu).is_some(), "{}", r.gpu);
            let shares = [Some(r.bandwidth), Some(r.compute), r.compute_fp8];
            assert!(shares.iter().flatten().all(|s| *s > 0.0 && *s <= 1.0), "{r:?}");
            assert!(r.gemm_fixed_s > 0.0 && r.gemm_fixed_s < 1e-4, "{r:?}");
        }
    }

    #[test]
    fn each_gpu_and_engine_has_one_current_release() {
        for r in KERNEL_SHARES {
            let current =
                KERNEL_SHARES.iter().filter(|s| s.gpu == r.gpu && s.engine == r.engine && s.current).count();
            assert_eq!(current, 1, "{} {}", r.gpu, r.engine);
        }
    }

    #[test]
    fn an_unknown_release_is_the_current_one() {
        let current = kernel_shares("b200", "vllm", "current").map(|r| r.release);
        assert_eq!(kernel_shares("b200", "vllm", "0.1").map(|r| r.release), current);
        assert_eq!(
            kernel_shares("h100-sxm", "sglang", "0.5.6.post2").map(|r| r.release),
            Some("0.5.6.post2")
        );
        assert!(kernel_shares("rtx-4090", "vllm", "").is_none());
    }
}
