//! `gpuplan estimate`: the report for a workload, as text or JSON.

use gpuplan_core::lang::Lang;
use gpuplan_core::memory::{Component, MemoryResult, PeakKind};
use gpuplan_core::model::ModelSpec;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::present::{bytes, Unit};
use gpuplan_core::report;
use gpuplan_core::selection::Selection;

use crate::args::{self, Flags, Format};
use crate::error::CliError;
use crate::out;

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &args::plan_switches().collect::<Vec<_>>())?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    let mut plan = args::plan(&mut flags)?;
    // A traffic target sets the sequences in flight the memory counts.
    args::write_flags(&mut flags, &mut plan, args::By::Fit, |p| p == "inference.target_qps")?;
    let measured = crate::measured::file(&mut flags)?;
    let given = flags.finish()?;
    let back = match &measured {
        Some(m) => {
            Some(crate::measured::apply(m, &mut plan, &gpuplan_core::offers::defaults_in(lang), lang)?)
        }
        None => None,
    };
    let report = report::evaluate(&plan, lang).map_err(|e| given.error(&e, lang))?;
    match format {
        Format::Json => {
            let mut value = serde_json::to_value(&report).map_err(|e| CliError(e.to_string()))?;
            if let Some(obj) = value.as_object_mut() {
                let plan = serde_json::to_value(&plan).map_err(|e| CliError(e.to_string()))?;
                obj.insert(String::from("plan"), plan);
                if let Some(b) = &back {
                    let b = serde_json::to_value(b).map_err(|e| CliError(e.to_string()))?;
                    obj.insert(String::from("readback"), b);
                }
            }
            out::json(&value)?;
        }
        Format::Text => {
            out::print(&text(&plan, &report.memory, lang));
            if let Some(line) = report.selection.as_ref().and_then(|s| longest(s, lang)) {
                out::print(&line);
            }
            if let Some(b) = &back {
                out::print(&crate::measured::text(b, lang));
            }
        }
    }
    Ok(())
}

/// The longest sequence (training) or context (serving) the selection's card holds.
fn longest(s: &Selection, lang: Lang) -> Option<String> {
    let l = s.longest.as_ref()?;
    let what = match l.of {
        "sequence" => lang.pick("能训练的最长序列", "longest sequence that trains"),
        _ => lang.pick("能服务的最长上下文", "longest context that serves"),
    };
    Some(format!(
        "{what} · {}: {} tokens ({} {}; {} {})\n",
        s.gpu_name,
        l.tokens,
        lang.pick("可用显存", "usable"),
        bytes(l.budget_bytes, Unit::Gb),
        lang.pick("模型训练上下文", "model trained to"),
        l.model_context
    ))
}

fn model_name(plan: &Plan) -> String {
    match &plan.model {
        ModelSpec::Preset { id } => {
            gpuplan_core::model::presets::find(id).map_or_else(|| id.clone(), |p| p.name.to_string())
        }
        ModelSpec::Custom { arch } => format!("custom {:.2}B", arch.param_count() / 1e9),
        ModelSpec::Generic { generic } => format!("generic {:.2}B", generic.params / 1e9),
    }
}

/// The report as text: the peak, then each component with its derivation and source.
fn text(plan: &Plan, m: &MemoryResult, lang: Lang) -> String {
    let task = match plan.task {
        Task::Infer => {
            format!("infer · {}", gpuplan_core::names::variant(&plan.inference.engine).unwrap_or(""))
        }
        Task::Train => {
            format!("train · {}", gpuplan_core::names::variant(&plan.training.method).unwrap_or(""))
        }
    };
    let p = &plan.parallel;
    let mut out =
        format!("{} · {task} · {} GPU (tp {}, pp {}, dp {})\n", model_name(plan), p.gpus, p.tp, p.pp, p.dp());
    let kind = match m.peak_kind {
        PeakKind::Allocated => lang.pick("按实际分配", "allocated"),
        PeakKind::Reserved => lang.pick("预留", "reserved"),
    };
    out.push_str(&format!(
        "{}: {} ({}), {kind}\n",
        lang.pick("每卡峰值", "peak per GPU"),
        bytes(m.per_gpu_bytes, Unit::Gb),
        bytes(m.per_gpu_bytes, Unit::Gib)
    ));
    if let Some(reserved) = m.reserved_bytes {
        out.push_str(&format!(
            "{}: {} ({})\n",
            lang.pick("vLLM 预留", "vLLM reserves"),
            bytes(reserved, Unit::Gb),
            m.reserved_derivation
        ));
    }
    if let Some(smi) = &m.nvidia_smi {
        out.push_str(&format!(
            "{}: {} / {} ({})\n",
            lang.pick("nvidia-smi（长度不一 / 打包）", "nvidia-smi (varying-length / packed batches)"),
            bytes(smi.varying_bytes, Unit::Gb),
            bytes(smi.packed_bytes, Unit::Gb),
            smi.derivation
        ));
    }
    let c = &m.components;
    let rows: [(&str, &Component); 6] = [
        ("weights", &c.weights),
        ("gradients", &c.gradients),
        ("optimizer", &c.optimizer),
        ("activations", &c.activations),
        ("kv_cache", &c.kv_cache),
        ("workspace", &c.workspace),
    ];
    for (name, comp) in rows.iter().filter(|(_, c)| c.bytes > 0) {
        out.push_str(&format!("  {name:<12}{:>12}  {}\n", bytes(comp.bytes, Unit::Gb), comp.derivation));
        out.push_str(&format!("  {:<24}  source: {}\n", "", comp.source));
    }
    for note in &m.notes {
        out.push_str(&format!("* {}\n", note.text(lang)));
    }
    out
}
