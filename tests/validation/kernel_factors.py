#!/usr/bin/env python3
"""Derive gpuplan's serving shares per GPU, engine and release from measured kernels.

Source: NVIDIA aiconfigurator's measured GEMM timings (PyPI `aiconfigurator`,
Apache-2.0; the tables ship in its `aiconfigurator-core` wheel under
`aiconfigurator_core/systems/data/<system>/gemm/<engine>/<release>/gemm_perf.parquet`,
latency in ms per GEMM of m tokens × n outputs × k inputs).

For each (GPU, engine, release) it measures, in the terms of gpuplan's step
model (`crates/gpuplan-core/src/serving/step.rs`),

    time = weight bytes ÷ (bandwidth × η_bw) + 2·m·n·k ÷ (peak × η_c) + t0 per GEMM,

- t0, the fixed time of one GEMM: the median of the tiny ones;
- η_bw, the bandwidth share: weight bytes ÷ (time − t0) at decode (≤ 16
  tokens) over the GEMMs larger than any L2 cache;
- η_c, the compute share: a 70B-class layer's FLOPs ÷ (time − weight read −
  t0) at prefill chunks (2048-8192 tokens).

Shares are of the *catalog's* peaks, as the step model uses them. FP8 (per-
tensor scaled) GEMMs give η_c for FP8.

Not run by CI: it needs the pip package. Run it by hand and commit the CSV:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator==0.12.0
    /tmp/aic/bin/python tests/validation/kernel_factors.py > tests/validation/data/kernel-factors.csv
"""

import glob
import importlib.metadata as md
import math
import os
import sys

import numpy as np
import pandas as pd

import aiconfigurator_core
from packaging.version import Version

# aiconfigurator system → gpuplan catalog id and the catalog's peaks
# (bandwidth TB/s, dense BF16 TFLOPS, dense FP8 TFLOPS; from hardware/gpus.rs).
# The RTX PRO 6000 tables are of the Server Edition, the catalog's part is
# the same GB202 chip with the same memory.
CATALOG = {
    "a100_sxm": ("a100-80-sxm", 2.039, 312.0, None),
    "h100_sxm": ("h100-sxm", 3.35, 989.0, 1979.0),
    "h200_sxm": ("h200-sxm", 4.8, 989.0, 1979.0),
    "b200_sxm": ("b200", 8.0, 2250.0, 4500.0),
    "b300_sxm": ("b300", 8.0, 2250.0, 4500.0),
    "gb200": ("gb200", 8.0, 2500.0, 5000.0),
    "gb300": ("gb300", 8.0, 2500.0, 5000.0),
    "l40s": ("l40s", 0.864, 362.0, 733.0),
    "rtx_pro_6000_server": ("rtx-pro-6000", 1.792, 503.8, 1007.6),
}

# The layer whose GEMMs are timed, (n, k) per GEMM, on the tables' grid: a
# 70B-class layer (hidden 8192, GQA 64/8 heads of 128: QKV 10240 wide; MLP
# 16384 wide, Llama 3.1 70B's 28672 is off the grid). Each of its matrices
# (134-268 MB in 16 bits) outgrows every listed GPU's L2 cache: the tables
# time each GEMM repeatedly, so a matrix that fits in L2 (an 8B model's 4096
# × 4096, 34 MB, on an H100's 50 MB) reads faster than the memory serves a
# real decode step, which streams all layers' weights.
LAYER = [(10240, 8192), (8192, 8192), (16384, 8192), (16384, 8192), (8192, 16384)]

# Tokens per step: decode batches up to DECODE_MAX, prefill chunks from
# PREFILL_MIN (vLLM's 2048 to SGLang's and TensorRT-LLM's 8192).
TOKENS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
DECODE_MAX = 16
PREFILL_MIN = 2048

ENGINES = {"vllm": "vllm", "sglang": "sglang", "trtllm": "trtllm"}


def kernel(table, dtype):
    """The table's GEMMs of one dtype, one kernel per (m, n, k): where a table
    holds several, the first it lists (the engine's default for the dtype)."""
    t = table[table.gemm_dtype == dtype]
    if t.empty:
        return None
    t = t[t.kernel_source == t.kernel_source.iloc[0]]
    return t.groupby(["m", "n", "k"]).latency.median() * 1e-3


def fixed_s(lat):
    """One GEMM's fixed time: the median of the tiny ones (n·k ≤ 64 Ki
    elements, ≤ 16 tokens), whose data moves in well under a microsecond."""
    tiny = [v for (m, n, k), v in lat.items() if m <= DECODE_MAX and n * k <= 65536]
    return float(np.median(tiny))


def bandwidth_share(lat, t0, width, bw_tbs):
    """Achieved share of the catalog's bandwidth reading weights at decode
    (≤ 16 tokens), over the GEMMs larger than any L2 (≥ 128 Mi elements,
    n and k ≤ 16384), net of the fixed time."""
    shares = [
        width * n * k / ((v - t0) * bw_tbs * 1e12)
        for (m, n, k), v in lat.items()
        if m <= DECODE_MAX and n * k >= 2**27 and max(n, k) <= 16384 and v > t0
    ]
    return float(np.median(shares))


def step_s(n_k, m, width, bw_tbs, tflops, eta_bw, eta_c, t0):
    """The step model's time for the GEMMs `n_k` at m tokens."""
    bytes_ = sum(width * n * k for n, k in n_k)
    flops = sum(2.0 * m * n * k for n, k in n_k)
    return bytes_ / (bw_tbs * 1e12 * eta_bw) + flops / (tflops * 1e12 * eta_c) + len(n_k) * t0


def shares(lat, width, bw_tbs, tflops):
    """(bandwidth share, compute share, fixed s per GEMM, rms log error of the
    step model over the layer at every token count), or None."""
    t0 = fixed_s(lat)
    eta_bw = bandwidth_share(lat, t0, width, bw_tbs)
    computed = []
    errors = []
    for m in TOKENS:
        keys = [(m, n, k) for n, k in LAYER]
        if not all(key in lat.index for key in keys):
            return None
        measured = sum(lat[key] for key in keys)
        if m >= PREFILL_MIN:
            rest = measured - step_s(LAYER, m, width, bw_tbs, math.inf, eta_bw, 1.0, t0)
            computed.append(sum(2.0 * m * n * k for n, k in LAYER) / (rest * tflops * 1e12))
    eta_c = float(np.median(computed))
    for m in TOKENS:
        measured = sum(lat[(m, n, k)] for n, k in LAYER)
        errors.append(math.log(step_s(LAYER, m, width, bw_tbs, tflops, eta_bw, eta_c, t0) / measured))
    return eta_bw, eta_c, t0, math.sqrt(np.mean(np.square(errors)))


def main():
    root = os.path.join(os.path.dirname(aiconfigurator_core.__file__), "systems")
    version = md.version("aiconfigurator")
    core = md.version("aiconfigurator-core")
    print(f"# Serving shares derived from measured kernels: aiconfigurator {version} (aiconfigurator-core {core}, Apache-2.0),")
    print("#   https://pypi.org/project/aiconfigurator/ , tables systems/data/<system>/gemm/<engine>/<release>/gemm_perf.parquet.")
    print("# Derived by tests/validation/kernel_factors.py (docs/serving.md), in the step model's terms: time = weight bytes ÷ (bandwidth")
    print("#   × bandwidth_share) + FLOPs ÷ (peak × compute_share) + gemm_fixed_us per GEMM. gemm_fixed_us = the median time of the tiny GEMMs;")
    print("#   bandwidth_share from the GEMMs larger than any L2 at 1-16 tokens; compute_share from a 70B-class layer's GEMMs (hidden 8192)")
    print("#   at 2048-8192 tokens, net of their weight read. Shares are of the catalog's peaks (columns bandwidth_tbs, bf16_tflops, fp8_tflops);")
    print("#   fp8 = per-tensor scaled FP8 GEMMs, empty where the table has none. step_rms = the rms log error of the step model with these")
    print("#   shares over that layer at 1-8192 tokens (the mid range, where real GEMMs overlap reading and computing, is what it misses).")
    print("#   current = 1 on the newest release of a GPU's engine.")
    print("gpu,system,engine,release,kernel,bandwidth_tbs,bf16_tflops,fp8_tflops,bandwidth_share,compute_share,compute_fp8_share,gemm_fixed_us,step_rms,current")
    rows = []
    for path in sorted(glob.glob(os.path.join(root, "data", "*", "gemm", "*", "*", "gemm_perf.parquet"))):
        parts = path.split(os.sep)
        system, engine, release = parts[-5], parts[-3], parts[-2]
        if system not in CATALOG or engine not in ENGINES:
            continue
        gpu, bw, bf16, fp8 = CATALOG[system]
        table = pd.read_parquet(path)
        lat = kernel(table, "bfloat16")
        got = shares(lat, 2.0, bw, bf16) if lat is not None else None
        if got is None:
            continue
        eta_bw, eta_c, t0, rms = got
        name = table[table.gemm_dtype == "bfloat16"].kernel_source.iloc[0]
        lat8 = kernel(table, "fp8") if fp8 else None
        got8 = shares(lat8, 1.0, bw, fp8) if lat8 is not None else None
        fp8_share = f"{got8[1]:.3f}" if got8 else ""
        line = (
            f"{gpu},{system},{engine},{release},{name.replace(',', ' ')},{bw},{bf16},{fp8 or ''},"
            f"{eta_bw:.3f},{eta_c:.3f},{fp8_share},{t0 * 1e6:.2f},{rms:.3f}"
        )
        rows.append((gpu, engine, Version(release), line))
    for gpu, engine, release, line in rows:
        newest = max(r[2] for r in rows if r[0] == gpu and r[1] == engine)
        print(f"{line},{int(release == newest)}")

if __name__ == "__main__":
    sys.exit(main())
