//! `gpuplan cost`: every purchase option's whole bill, cheapest first.

use gpuplan_core::cost::CostReport;
use gpuplan_core::lang::Lang;
use gpuplan_core::report;

use crate::args::{self, CliError, Flags, Format};

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &args::PLAN_SWITCHES)?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    let plan = args::plan(&mut flags)?;
    flags.finish()?;
    let report = report::evaluate(&plan, lang).map_err(|e| CliError::fields(&e, lang))?;
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(&report.cost).map_err(|e| CliError(e.to_string()))?;
            println!("{text}");
        }
        Format::Text => print!("{}", text(&report.cost, lang)),
    }
    Ok(())
}

fn text(cost: &CostReport, lang: Lang) -> String {
    let cur = cost.currency.code();
    let mut out = format!(
        "{:<4} {:<46} {:>13} {:>13} {:>10} {:>9} {:>10} {:>11}\n",
        "#",
        lang.pick("方案", "option"),
        format!("total {cur}"),
        lang.pick("算力", "compute"),
        lang.pick("存储", "storage"),
        "IP",
        lang.pick("流量", "network"),
        lang.pick("其他", "other"),
    );
    for o in &cost.options {
        let mark = if Some(&o.id) == cost.best.as_ref() { "*" } else { " " };
        out.push_str(&format!(
            "{:<4} {:<46} {:>13.2} {:>13.2} {:>10.2} {:>9.2} {:>10.2} {:>11.2}\n",
            format!("{}{mark}", o.rank),
            o.label(lang),
            o.total.units(),
            o.compute.units(),
            o.storage.units(),
            o.ip.units(),
            o.network.units(),
            o.other.units(),
        ));
        if let Some(loss) = &o.loss {
            out.push_str(&format!("     {}\n", loss.text(lang, cost.currency)));
        }
    }
    for s in &cost.skipped {
        out.push_str(&format!("  -  {}: {}\n", s.name, s.skip.text(lang)));
    }
    out
}
