//! `gpuplan gpus`: the GPU catalog, each row with its source and date.

use gpuplan_core::hardware::{catalog, Gpu};
use gpuplan_core::lang::Lang;

use crate::args::{self, Flags, Format};
use crate::error::CliError;
use crate::fit::left;
use crate::out;

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &[])?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    flags.finish()?;
    match format {
        Format::Json => {
            out::json(catalog())?;
        }
        Format::Text => out::print(&text(lang)),
    }
    Ok(())
}

fn num(v: Option<f64>) -> String {
    v.map_or_else(|| String::from("-"), |x| format!("{x}"))
}

/// One line per GPU, then the notes of the rows marked `*` (disputed or
/// unverified values) and where every row comes from.
fn text(lang: Lang) -> String {
    let mut out = format!(
        "{:<16} {} {:>6} {} {:>6} {:>6} {:>6} {:>6} {:>7}  {} {:<4} {} {}\n",
        "id",
        left(lang.pick("名称", "name"), 24),
        "GB",
        left(lang.pick("显存", "memory"), 12),
        "TB/s",
        "BF16",
        "FP8",
        "FP4",
        "TDP W",
        left(lang.pick("互联", "link"), 26),
        "ECC",
        left(lang.pick("软件栈", "stack"), 5),
        "CC",
    );
    for g in catalog() {
        out.push_str(&row(g));
    }
    out.push_str(lang.pick(
        "TFLOPS 为稠密张量算力（非稀疏标称值）；T4、V100、P100 的 16 位一栏为 FP16；TDP 写作 350-400 的可在该范围内配置。注（* = 有冲突或未经核实的数值）：\n",
        "TFLOPS are dense tensor rates (never the sparse headline); for T4, V100 and P100 the 16-bit column is FP16; a TDP written 350-400 is configurable in that range. Notes (* = disputed or unverified values):\n",
    ));
    for g in catalog() {
        let notes = lang.pick(&g.notes_zh, &g.notes);
        if g.unverified {
            out.push_str(&format!("  {} * [{}]: {notes}\n", g.id, g.unverified_fields.join(", ")));
        } else if !notes.is_empty() {
            out.push_str(&format!("  {}: {notes}\n", g.id));
        }
    }
    out.push_str(lang.pick("来源（收集于", "Sources (collected "));
    out.push_str(catalog().first().map_or("", |g| g.date.as_ref()));
    out.push_str(lang.pick("）：\n", "):\n"));
    for g in catalog() {
        out.push_str(&format!("  {}: {}\n", g.id, g.source));
    }
    out
}

/// "700", or "350-400" where the vendor makes the power configurable.
fn tdp(g: &Gpu) -> String {
    match (g.tdp_min_w, g.tdp_w) {
        (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
        (_, hi) => num(hi),
    }
}

fn row(g: &Gpu) -> String {
    let name = if g.unverified { format!("{} *", g.name) } else { g.name.to_string() };
    let stack = gpuplan_core::names::variant(&g.stack).unwrap_or("");
    format!(
        "{:<16} {:<24} {:>6} {:<12} {:>6} {:>6} {:>6} {:>6} {:>7}  {:<26} {:<4} {:<5} {}\n",
        g.id,
        name,
        g.memory_gb,
        g.memory_type,
        num(g.bandwidth_tbs),
        num(g.bf16_tflops),
        num(g.fp8_tflops),
        num(g.fp4_tflops),
        tdp(g),
        g.link_name,
        if g.ecc { "yes" } else { "no" },
        stack,
        g.compute_capability,
    )
}
