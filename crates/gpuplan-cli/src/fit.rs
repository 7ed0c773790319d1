//! `gpuplan fit`: every catalog GPU (and a custom one) with the count the
//! plan needs, per-GPU use, headroom, flags and speed, as text or JSON.

use gpuplan_core::fit::{self, FitOption, FitOptions, FitReport, GpuFit, Severity};
use gpuplan_core::hardware as gpu;
use gpuplan_core::hardware::Gpu;
use gpuplan_core::lang::Lang;
use gpuplan_core::plan::{Measured, Parallel, Plan, Task};
use gpuplan_core::present::{self, Unit};
use gpuplan_core::serving::llama_quant::{self, Mmq};
use gpuplan_core::serving::LlamaSplit;
use gpuplan_core::speed::SpeedSummary;

use crate::args::{self, By, Flags, Format};
use crate::error::CliError;
use crate::out;

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let switches: Vec<&str> = args::plan_switches().chain(["own-hardware"]).collect();
    let mut flags = Flags::parse(argv, &switches)?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    let hosted = !flags.switch("own-hardware")?;
    let mut plan = args::plan(&mut flags)?;
    hardware(&mut flags, &mut plan)?;
    let given = flags.finish()?;
    let opts = FitOptions { hosted, ..FitOptions::default() };
    let report = fit::fit(&plan, &opts).map_err(|e| given.error(&e, lang))?;
    match format {
        Format::Json => {
            let value = serde_json::json!({ "plan": plan, "fit": report });
            out::json(&value)?;
        }
        Format::Text => out::print(&text(&report, &plan, lang)),
    }
    Ok(())
}

/// The fit's own flags: headroom, server size, a custom GPU from a file,
/// and the run and service figures the speed section reads.
pub fn hardware(flags: &mut Flags, plan: &mut Plan) -> Result<(), CliError> {
    args::write_flags(flags, plan, By::Fit, |_| true)?;
    if let Some(path) = flags.value("custom-gpu")? {
        let gpu = read_gpu(&path)?;
        plan.hardware.gpu = gpu.id.to_string();
        plan.hardware.custom = Some(gpu);
    }
    for given in flags.values("measured-tok-s")? {
        plan.inference.measured.push(measured(&given)?);
    }
    Ok(())
}

/// `GPU_ID=TOKENS_PER_S`: a throughput the user measured on one GPU.
fn measured(given: &str) -> Result<Measured, CliError> {
    let bad = || {
        CliError(format!(
            "--measured-tok-s (inference.measured): expected GPU_ID=TOKENS_PER_S, got \"{given}\""
        ))
    };
    let (gpu, rate) = given.split_once('=').ok_or_else(bad)?;
    let tok_s: f64 = rate.trim().parse().map_err(|_| bad())?;
    if gpu::find(gpu.trim()).is_none() {
        return Err(CliError(format!(
            "--measured-tok-s (inference.measured): unknown GPU id \"{}\" (see gpuplan gpus)",
            gpu.trim()
        )));
    }
    Ok(Measured { gpu: gpu.trim().to_string(), tok_s })
}

fn read_gpu(path: &str) -> Result<Gpu, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError(format!("--custom-gpu {path}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| CliError(format!("--custom-gpu {path}: not a GPU: {e}")))
}

/// The number of GB, for columns whose head names the unit.
fn gb(bytes: u64) -> String {
    present::amount(Unit::Gb.of(bytes))
}

/// The report as text: one line per GPU, best first, then its flags.
fn text(r: &FitReport, plan: &Plan, lang: Lang) -> String {
    let mut out = format!(
        "{}: {} GB · {}\n",
        lang.pick("单卡峰值", "single-GPU peak"),
        gb(r.single_gpu_bytes),
        lang.pick(
            "数量 = 每卡分片都装得下的最少 GPU 数；下限 = ⌈峰值 ÷ 可用⌉；» = 计划选定的 GPU",
            "count = the fewest GPUs on which every GPU's share fits; lower bound = ⌈peak ÷ usable⌉; » = the plan's GPU",
        )
    );
    out.push_str(&format!(
        "{} {} {}  {} {} {} {}  {}\n",
        left("GPU", 24),
        right(lang.pick("数量", "count"), 5),
        right(lang.pick("下限", "lower"), 5),
        left(lang.pick("切分", "strategy"), 28),
        right(lang.pick("每卡/可用 GB", "per GPU/usable GB"), 17),
        right(lang.pick("余量", "headroom"), 8),
        right(lang.pick("节点", "nodes"), 5),
        lang.pick("速度", "speed"),
    ));
    for row in &r.rows {
        out.push_str(&line(row, lang));
        if let Some(split) = row.best.as_ref().filter(|b| b.gpus > 1).and_then(|b| llama_split(plan, b)) {
            out.push_str(&format!("    · {}\n", split.label(lang)));
        }
        // Under the plan's GPU only: the kernel is the same on the others.
        if let Some(m) = row.best.as_ref().filter(|_| row.chosen).and_then(|_| mmq(plan, &row.gpu_id)) {
            out.push_str(&format!("    · {}\n", m.label(lang)));
        }
        for f in &row.flags {
            let mark = match f.severity {
                Severity::Block => "✗",
                Severity::Warn => "!",
                Severity::Info => "·",
            };
            out.push_str(&format!("    {mark} {}\n", f.text(lang)));
        }
    }
    out
}

fn line(row: &GpuFit, lang: Lang) -> String {
    let name = if row.chosen { format!("» {}", row.gpu_name) } else { row.gpu_name.clone() };
    let lower = row.lower_bound.gpus;
    let name = left(&name, 24);
    match &row.best {
        Some(b) => format!(
            "{name} {:>5} {lower:>5}  {} {:>17} {:>8} {:>5}  {}\n",
            b.gpus,
            left(&strategy(b, lang), 28),
            format!("{}/{}", gb(b.per_gpu_bytes), gb(b.usable_bytes)),
            present::percent(b.headroom),
            b.nodes,
            row.speed.as_ref().map_or_else(String::new, |s| speed(s, lang)),
        ),
        None => format!(
            "{name} {:>5} {lower:>5}  {} {:>17}\n",
            "-",
            left(lang.pick("装不下", "does not fit"), 28),
            format!("-/{}", gb(row.usable.bytes)),
        ),
    }
}

/// llama.cpp's split mode for a layout (None for other engines).
fn llama_split(plan: &Plan, b: &FitOption) -> Option<LlamaSplit> {
    LlamaSplit::of(plan, &Parallel { gpus: b.gpus, tp: b.tp, pp: b.pp, shard: b.shard })
}

/// llama.cpp's MMQ kernel for the plan's GGUF weights on a catalog GPU.
fn mmq(plan: &Plan, gpu_id: &str) -> Option<Mmq> {
    if plan.task != Task::Infer {
        return None;
    }
    let i = &plan.inference;
    llama_quant::mmq(i.engine, i.weights, gpu::find(gpu_id)?, &i.engine_release)
}

fn strategy(b: &FitOption, lang: Lang) -> String {
    let label = b.strategy.label(lang);
    if b.tp > 1 || b.pp > 1 {
        format!("{label} (tp {}, pp {})", b.tp, b.pp)
    } else {
        label.to_string()
    }
}

fn speed(s: &SpeedSummary, lang: Lang) -> String {
    if let Some(t) = &s.training {
        let (lo, hi) = (&t.buffered_hours.0, &t.buffered_hours.1);
        return format!(
            "{} ({} {:.0}-{:.0} h)",
            present::figure(&t.hours),
            lang.pick("含调试余量", "with debugging buffer"),
            lo.value,
            hi.value
        );
    }
    if let Some(i) = &s.inference {
        let mut text = match &i.expected {
            Some(e) => format!(
                "≈ {:.0} ms TTFT, {:.1} ms TPOT, {:.0} token/s, {:.2} req/s (≤ {:.0} token/s/{})",
                e.ttft_ms.value,
                e.tpot_ms.value,
                e.decode_tps_total.value,
                e.requests_per_s.value,
                i.bound.decode_tps_per_sequence.value,
                lang.pick("序列", "seq"),
            ),
            None => format!(
                "≤ {:.0} token/s/{}, ≤ {:.2} req/s",
                i.bound.decode_tps_per_sequence.value,
                lang.pick("序列", "seq"),
                i.bound.requests_per_s.value
            ),
        };
        if let Some(g) = &s.gpus_for_target {
            text.push_str(&format!(
                ", {} {} {} GPU ({})",
                lang.pick("目标", "targets"),
                present::sign(g.basis),
                g.gpus,
                gpuplan_core::names::variant(&g.binds).unwrap_or("")
            ));
        }
        return text;
    }
    s.missing.map_or_else(String::new, |m| m.text(lang).to_string())
}

/// Columns a terminal gives the text: CJK and full-width forms take two.
fn width(text: &str) -> usize {
    text.chars()
        .map(|c| match u32::from(c) {
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF00..=0xFF60 => 2,
            _ => 1,
        })
        .sum()
}

/// `text` padded with spaces to `cols` terminal columns, left-aligned.
pub(crate) fn left(text: &str, cols: usize) -> String {
    format!("{text}{}", " ".repeat(cols.saturating_sub(width(text))))
}

/// `text` padded to `cols` terminal columns, right-aligned.
pub(crate) fn right(text: &str, cols: usize) -> String {
    format!("{}{text}", " ".repeat(cols.saturating_sub(width(text))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_counts_chinese_as_two_columns() {
        assert_eq!(left("单卡", 6), "单卡  ");
        assert_eq!(right("ab", 4), "  ab");
        assert_eq!(width("张量并行（tp 2）"), 16);
        assert_eq!(left("too long", 3), "too long");
    }
}
