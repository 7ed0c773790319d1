//! Measured peak GPU memory from public sources (data/validation-public.csv,
//! copied from the project's shared reference so CI needs nothing outside
//! the repository), parsed into rows. The comparison with gpuplan's
//! estimates is the integration test in `tests/measured.rs`.

use gpuplan_core::model::Arch;

pub mod serving_plan;
pub mod stats;

/// An MHA (kv_heads = heads) SwiGLU shape with untied embeddings:
/// (layers, hidden, heads, intermediate, vocab, max context).
pub fn mha(
    (layers, hidden, heads, intermediate, vocab, max_context): (u32, u32, u32, u32, u32, u64),
) -> Arch {
    Arch {
        params: None,
        layers,
        hidden,
        heads,
        kv_heads: heads,
        head_dim: None,
        intermediate,
        vocab,
        tied_embeddings: false,
        max_context,
        ..Arch::default()
    }
}

/// Qwen (v1) shapes from their config.json, SwiGLU with the per-matrix
/// width (ffn_hidden_size / 2).
pub fn qwen_v1(model: &str) -> Option<Arch> {
    let shape = match model {
        m if m.starts_with("Qwen-7B") => (32, 4096, 32, 11008, 151_936, 8192),
        m if m.starts_with("Qwen-14B") => (40, 5120, 40, 13696, 152_064, 8192),
        m if m.starts_with("Qwen-72B") => (80, 8192, 64, 24576, 152_064, 8192),
        _ => return None,
    };
    Some(mha(shape))
}

/// The measured data, as shipped.
pub const DATA: &str = include_str!("../data/validation-public.csv");

/// One measured case, fields as in the CSV header.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub case: String,
    pub model: String,
    pub task: String,
    pub method: String,
    pub weights: String,
    pub batch: String,
    pub seq: String,
    pub grad_ckpt: String,
    pub optimizer: String,
    pub gpus: String,
    pub gpu: String,
    pub measured: f64,
    pub unit: String,
    pub metric: String,
    pub source: String,
}

impl Row {
    /// The measurement in bytes, from its stated unit.
    pub fn measured_bytes(&self) -> Result<f64, String> {
        let scale = match self.unit.as_str() {
            "GB" => 1e9,
            "GiB" => f64::from(1u32 << 30),
            "MiB" => f64::from(1u32 << 20),
            other => return Err(format!("{}: unknown unit {other}", self.case)),
        };
        Ok(self.measured * scale)
    }
}

/// Rows of the CSV, skipping `#` comments and the header. Fields hold no commas.
pub fn rows(csv: &str) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let lines = csv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for line in lines.skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let [case, model, task, method, weights, batch, seq, grad_ckpt, optimizer, gpus, gpu, measured, unit, metric, source] =
            f.as_slice()
        else {
            return Err(format!("expected 15 fields: {line}"));
        };
        let s = |x: &str| x.trim().to_string();
        out.push(Row {
            case: s(case),
            model: s(model),
            task: s(task),
            method: s(method),
            weights: s(weights),
            batch: s(batch),
            seq: s(seq),
            grad_ckpt: s(grad_ckpt),
            optimizer: s(optimizer),
            gpus: s(gpus),
            gpu: s(gpu),
            measured: measured.trim().parse().map_err(|e| format!("{case}: measured: {e}"))?,
            unit: s(unit),
            metric: s(metric),
            source: s(source),
        });
    }
    Ok(out)
}

/// Measured serving speed (data/serving-public.csv).
pub const SERVING: &str = include_str!("../data/serving-public.csv");

/// One measured serving run, fields as in the CSV header.
#[derive(Clone, Debug, PartialEq)]
pub struct ServingRow {
    pub case: String,
    /// The publication and hardware table the row belongs to.
    pub source: String,
    pub engine: String,
    pub model: String,
    pub weights: String,
    pub kv_dtype: String,
    pub gpu: String,
    pub tp: u32,
    pub kind: String,
    pub batch: u64,
    pub prompt: u64,
    pub output: u64,
    pub measured: f64,
    pub unit: String,
    pub per: String,
    pub date: String,
    pub url: String,
}

/// Rows of the serving CSV, skipping `#` comments and the header.
pub fn serving_rows(csv: &str) -> Result<Vec<ServingRow>, String> {
    let lines = csv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [case, source, engine, model, weights, kv_dtype, gpu, tp, kind, batch, prompt, output, measured, unit, per, date, url] =
                f.as_slice()
            else {
                return Err(format!("expected 17 fields: {line}"));
            };
            let num = |what: &str, v: &str| v.parse::<f64>().map_err(|e| format!("{case}: {what}: {e}"));
            let int = |what: &str, v: &str| v.parse::<u64>().map_err(|e| format!("{case}: {what}: {e}"));
            Ok(ServingRow {
                case: case.to_string(),
                source: source.to_string(),
                engine: engine.to_string(),
                model: model.to_string(),
                weights: weights.to_string(),
                kv_dtype: kv_dtype.to_string(),
                gpu: gpu.to_string(),
                tp: u32::try_from(int("tp", tp)?).map_err(|e| format!("{case}: tp: {e}"))?,
                kind: kind.to_string(),
                batch: int("batch", batch)?,
                prompt: int("prompt", prompt)?,
                output: int("output", output)?,
                measured: num("measured", measured)?,
                unit: unit.to_string(),
                per: per.to_string(),
                date: date.to_string(),
                url: url.to_string(),
            })
        })
        .collect()
}

/// Measured training throughput (data/training-speed-public.csv).
pub const TRAINING_SPEED: &str = include_str!("../data/training-speed-public.csv");

/// One measured training run, fields as in the CSV header.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedRow {
    pub case: String,
    /// "fit" rows set the default utilisation; "check" rows test it.
    pub split: String,
    pub framework: String,
    pub model: String,
    pub method: String,
    pub base: String,
    pub rank: String,
    pub targets: String,
    pub grad_ckpt: String,
    pub batch: u64,
    pub grad_accum: u64,
    pub seq: u64,
    pub gpu: String,
    pub gpus: u64,
    pub rate: f64,
    pub unit: String,
    pub source: String,
    pub date: String,
}

impl SpeedRow {
    /// Tokens per second per GPU, from the stated rate and unit.
    pub fn tokens_per_s_per_gpu(&self) -> Result<f64, String> {
        let gpus = self.gpus as f64;
        match self.unit.as_str() {
            "tok/s/gpu" => Ok(self.rate),
            "tok/s" => Ok(self.rate / gpus),
            // Each GPU runs grad_accum micro-batches of batch × seq per step.
            "s/step" => Ok((self.batch * self.grad_accum * self.seq) as f64 / self.rate),
            other => Err(format!("{}: unknown unit {other}", self.case)),
        }
    }
}

/// Rows of the training-speed CSV, skipping `#` comments and the header.
pub fn speed_rows(csv: &str) -> Result<Vec<SpeedRow>, String> {
    let lines = csv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [case, split, framework, model, method, base, rank, targets, grad_ckpt, batch, grad_accum, seq, gpu, gpus, rate, unit, source, date] =
                f.as_slice()
            else {
                return Err(format!("expected 18 fields: {line}"));
            };
            let int = |what: &str, v: &str| v.parse::<u64>().map_err(|e| format!("{case}: {what}: {e}"));
            Ok(SpeedRow {
                case: case.to_string(),
                split: split.to_string(),
                framework: framework.to_string(),
                model: model.to_string(),
                method: method.to_string(),
                base: base.to_string(),
                rank: rank.to_string(),
                targets: targets.to_string(),
                grad_ckpt: grad_ckpt.to_string(),
                batch: int("batch", batch)?,
                grad_accum: int("grad_accum", grad_accum)?,
                seq: int("seq", seq)?,
                gpu: gpu.to_string(),
                gpus: int("gpus", gpus)?,
                rate: rate.parse().map_err(|e| format!("{case}: rate: {e}"))?,
                unit: unit.to_string(),
                source: source.to_string(),
                date: date.to_string(),
            })
        })
        .collect()
}

/// vLLM's logged memory beyond the KV cache (data/vllm-memory-public.csv).
pub const VLLM_MEMORY: &str = include_str!("../data/vllm-memory-public.csv");

/// One vLLM startup log, fields as in the CSV header.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryRow {
    pub case: String,
    pub source: String,
    /// The model family, held out together.
    pub group: String,
    pub model: String,
    pub vllm: String,
    /// The sampler generation of the profile: "0.17+" or "pre-0.17".
    pub regime: String,
    pub gpu: String,
    pub tp: u32,
    pub weights: String,
    pub tokens: f64,
    pub seqs: f64,
    pub basis: String,
    pub activation_gib: f64,
    /// `None` where the log is not a release's.
    pub non_torch_gib: Option<f64>,
    /// The CUDA graph pool, where logged.
    pub graphs_gib: Option<f64>,
    pub date: String,
    pub url: String,
}

/// Rows of the vLLM memory CSV, skipping `#` comments and the header.
pub fn memory_rows(csv: &str) -> Result<Vec<MemoryRow>, String> {
    let lines = csv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [case, source, group, model, vllm, regime, gpu, tp, weights, tokens, seqs, basis, activation, non_torch, graphs, date, url] =
                f.as_slice()
            else {
                return Err(format!("expected 17 fields: {line}"));
            };
            let num = |what: &str, v: &str| v.parse::<f64>().map_err(|e| format!("{case}: {what}: {e}"));
            let optional = |what: &str, v: &str| if v.is_empty() { Ok(None) } else { num(what, v).map(Some) };
            Ok(MemoryRow {
                case: case.to_string(),
                source: source.to_string(),
                group: group.to_string(),
                model: model.to_string(),
                vllm: vllm.to_string(),
                regime: regime.to_string(),
                gpu: gpu.to_string(),
                tp: tp.parse().map_err(|e| format!("{case}: tp: {e}"))?,
                weights: weights.to_string(),
                tokens: num("tokens", tokens)?,
                seqs: num("seqs", seqs)?,
                basis: basis.to_string(),
                activation_gib: num("activation_gib", activation)?,
                non_torch_gib: optional("non_torch_gib", non_torch)?,
                graphs_gib: optional("graphs_gib", graphs)?,
                date: date.to_string(),
                url: url.to_string(),
            })
        })
        .collect()
}

/// Training runs reporting both PyTorch's allocated peak and nvidia-smi
/// (data/training-reserved-public.csv).
pub const TRAINING_RESERVED: &str = include_str!("../data/training-reserved-public.csv");

/// One run of the reserved/allocated table, fields as in the CSV header.
#[derive(Clone, Debug, PartialEq)]
pub struct ReservedRow {
    pub case: String,
    /// "fit" (the ratios are this source's medians) or "held_out".
    pub role: String,
    /// "packed" or "varying".
    pub data: String,
    pub gpus: u32,
    pub method: String,
    pub model: String,
    pub allocated_gib: f64,
    pub smi_gib: f64,
    pub source: String,
}

/// Rows of the reserved CSV, skipping `#` comments and the header.
pub fn reserved_rows(csv: &str) -> Result<Vec<ReservedRow>, String> {
    let lines = csv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [case, role, data, gpus, method, model, _batch, _framework, allocated, smi, source] =
                f.as_slice()
            else {
                return Err(format!("expected 11 fields: {line}"));
            };
            let num = |what: &str, v: &str| v.parse::<f64>().map_err(|e| format!("{case}: {what}: {e}"));
            Ok(ReservedRow {
                case: case.to_string(),
                role: role.to_string(),
                data: data.to_string(),
                gpus: gpus.parse().map_err(|e| format!("{case}: gpus: {e}"))?,
                method: method.to_string(),
                model: model.to_string(),
                allocated_gib: num("allocated_gib", allocated)?,
                smi_gib: num("smi_gib", smi)?,
                source: source.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_data_parses() {
        let rows = rows(DATA).unwrap();
        assert_eq!(rows.len(), 31);
        assert!(rows.iter().all(|r| r.measured_bytes().is_ok()));
        assert_eq!(rows[0].case, "qwen7b-lora-256");
    }

    #[test]
    fn shipped_serving_data_parses_with_a_source_and_date_per_row() {
        let rows = serving_rows(SERVING).unwrap();
        assert!(rows.len() >= 25, "{}", rows.len());
        assert!(rows.iter().all(|r| !r.source.is_empty() && !r.date.is_empty() && !r.url.is_empty()));
    }

    #[test]
    fn shipped_vllm_memory_data_parses_with_a_source_per_row() {
        let rows = memory_rows(VLLM_MEMORY).unwrap();
        assert!(rows.len() >= 15, "{}", rows.len());
        assert!(rows.iter().all(|r| !r.url.is_empty() && !r.date.is_empty() && r.activation_gib > 0.0));
        assert!(rows.iter().all(|r| r.regime == "0.17+" || r.regime == "pre-0.17"));
    }

    #[test]
    fn shipped_training_speed_data_parses_with_a_source_and_date_per_row() {
        let rows = speed_rows(TRAINING_SPEED).unwrap();
        assert!(rows.len() >= 50, "{}", rows.len());
        assert!(rows.iter().all(|r| !r.source.is_empty() && !r.date.is_empty()));
        assert!(rows.iter().all(|r| r.split == "fit" || r.split == "check"));
        assert!(rows.iter().all(|r| r.tokens_per_s_per_gpu().is_ok_and(|t| t > 0.0)));
    }
}
