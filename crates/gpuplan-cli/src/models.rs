//! `gpuplan models`: the preset catalog.

use serde::Serialize;

use crate::args::{self, Flags, Format};
use crate::error::CliError;
use crate::out;

#[derive(Serialize)]
struct Row {
    id: &'static str,
    name: &'static str,
    params_b: f64,
    active_b: f64,
    moe: bool,
    max_context: u64,
    native_weights: &'static str,
    source: &'static str,
    notes: &'static str,
}

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &[])?;
    let format = args::format(&mut flags)?;
    flags.finish()?;
    let rows: Vec<Row> = gpuplan_core::model::presets::all()
        .iter()
        .map(|p| Row {
            id: p.id,
            name: p.name,
            params_b: p.params_b(),
            active_b: p.active_b(),
            moe: p.is_moe(),
            max_context: p.max_context(),
            native_weights: gpuplan_core::names::variant(&p.native_weights).unwrap_or(""),
            source: p.source,
            notes: p.notes,
        })
        .collect();
    match format {
        Format::Json => {
            out::json(&rows)?;
        }
        Format::Text => {
            out::line(&format!(
                "{:<18} {:<18} {:>9} {:>9} {:>8}  {:<6}",
                "id", "name", "params B", "active B", "context", "format"
            ));
            for r in &rows {
                out::line(&format!(
                    "{:<18} {:<18} {:>9.2} {:>9.2} {:>8}  {:<6}",
                    r.id, r.name, r.params_b, r.active_b, r.max_context, r.native_weights
                ));
            }
        }
    }
    Ok(())
}
