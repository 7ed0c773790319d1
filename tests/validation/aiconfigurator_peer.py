#!/usr/bin/env python3
"""aiconfigurator's estimates of the serving calibration rows it covers, as a peer column.

For each row of data/serving-public.csv whose engine (vLLM, SGLang,
TensorRT-LLM), GPU (a system with measured tables) and model (a config
aiconfigurator reads) it supports, this runs `aiconfigurator cli estimate`
with the row's workload and prints the figure in the row's unit. Its own
default release of each engine's tables is used (the one it estimates with).

Not run by CI: it needs the pip package. Run it by hand and commit the CSV:

    /tmp/aic/bin/python tests/validation/aiconfigurator_peer.py > tests/validation/data/serving-aiconfigurator.csv
"""

import csv
import importlib.metadata as md
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# gpuplan GPU id → aiconfigurator system. The A100 40GB rows run on the 80GB
# system's tables (the same chip; a single-request row fits either).
SYSTEMS = {"h100-sxm": "h100_sxm", "a100-80-sxm": "a100_sxm", "a100-40-sxm": "a100_sxm", "l40s": "l40s"}

# The shapes of data/serving-public.csv's header, as config.json (the HF
# configs of the same models); Qwen3-8B and Llama 3.1 8B by their HF ids,
# which aiconfigurator ships.
LLAMA2 = {
    "llama-2-7b": (4096, 11008, 32, 32, 32),
    "llama-2-13b": (5120, 13824, 40, 40, 40),
    "llama-2-70b": (8192, 28672, 64, 8, 80),
}
HF = {"qwen3-8b": "Qwen/Qwen3-8B", "llama-3.1-8b": "meta-llama/Meta-Llama-3.1-8B"}
ENGINES = {"vllm", "sglang", "trtllm"}


def model_path(model, tmp):
    if model in HF:
        return HF[model]
    if model not in LLAMA2:
        return None
    hidden, inter, heads, kv, layers = LLAMA2[model]
    path = os.path.join(tmp, model)
    os.makedirs(path, exist_ok=True)
    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": hidden,
        "intermediate_size": inter,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "num_hidden_layers": layers,
        "head_dim": hidden // heads,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
        "torch_dtype": "float16",
        "tie_word_embeddings": False,
    }
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config, f)
    return path


def estimate(row, path):
    """The estimate's printed figures, by label."""
    kind = row["kind"]
    fp8 = row["weights"] == "fp8"
    output = "1" if kind == "ttft" else row["output"]
    args = [
        "aiconfigurator", "cli", "estimate",
        "--model-path", path,
        "--system", SYSTEMS[row["gpu"]],
        "--backend", row["engine"],
        "--isl", row["prompt"],
        "--osl", str(max(int(output), 2)),
        "--batch-size", row["batch"],
        "--tp-size", row["tp"],
        "--estimate-mode", "static" if kind in ("static", "ttft") else "agg",
        "--gemm-quant-mode", "fp8" if fp8 else "bfloat16",
        "--kvcache-quant-mode", "fp8" if row["kv_dtype"] == "fp8" else "bfloat16",
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=600).stdout
    figures = {}
    for label, value in re.findall(r"^\s+([A-Za-z/ ]+):\s+([\d,.]+)", out, re.M):
        figures[label.strip()] = float(value.replace(",", ""))
    backend = re.search(r"Backend:\s+\S+ \(([^)]+)\)", out)
    return figures, backend.group(1) if backend else ""


def value(row, figures):
    """The figure in the row's unit."""
    kind = row["kind"]
    if kind == "ttft":
        return figures.get("TTFT")
    if kind == "seq":
        return figures.get("tokens/s/user")
    per_gpu = row["per"] == "gpu"
    return figures.get("tokens/s/gpu" if per_gpu else "tokens/s")


def main():
    version = md.version("aiconfigurator")
    with open(os.path.join(HERE, "data", "serving-public.csv")) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    print(f"# aiconfigurator {version} (`aiconfigurator cli estimate`, its default table release per engine) on the rows of")
    print("#   serving-public.csv it covers: engines vllm/sglang/trtllm, systems h100_sxm/a100_sxm/l40s, models with a config it reads.")
    print("#   static and ttft rows: --estimate-mode static (ttft: osl 2, its TTFT); closed and seq rows: agg at batch = clients")
    print("#   (closed: tokens/s, seq: tokens/s/user). Estimates, not measurements; written by tests/validation/aiconfigurator_peer.py.")
    print("case,estimate,unit,release")
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            if row["engine"] not in ENGINES or row["gpu"] not in SYSTEMS:
                continue
            path = model_path(row["model"], tmp)
            if path is None:
                continue
            figures, release = estimate(row, path)
            v = value(row, figures)
            if v is None:
                print(f"# {row['case']}: no estimate", file=sys.stderr)
                continue
            print(f"{row['case']},{v:.1f},{row['unit']},{row['engine']} {release}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
