//! `gpuplan checklist`: the pre-order checklist and acceptance guide for a
//! plan, as Markdown (or JSON), ticks from the plan or link plus `--tick`.

use gpuplan_core::checklist;
use gpuplan_core::report;

use crate::args::{self, By, Flags, Format};
use crate::error::CliError;
use crate::out;

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let switches: Vec<&str> =
        args::plan_switches().chain(crate::market::SWITCHES).chain(["own-hardware"]).collect();
    let mut flags = Flags::parse(argv, &switches)?;
    let format = args::format(&mut flags)?;
    let lang = args::lang(&mut flags)?;
    let own_hardware = flags.switch("own-hardware")?;
    let extra_ticks = flags.value("tick")?.unwrap_or_default();
    let mut plan = args::plan(&mut flags)?;
    crate::fit::hardware(&mut flags, &mut plan)?;
    args::write_flags(&mut flags, &mut plan, By::Checklist, |_| true)?;
    let offers = crate::market::read(&mut flags, &mut plan)?.offers;
    let measured = crate::measured::file(&mut flags)?;
    let given = flags.finish()?;
    let back = match &measured {
        Some(m) => Some(crate::measured::apply(m, &mut plan, &offers, lang)?),
        None => None,
    };
    let r = report::evaluate_with(&plan, &offers, lang).map_err(|e| given.error(&e, lang))?;
    let mut facts = checklist::facts(&plan, &r.memory, r.selection.as_ref(), &offers)
        .map_err(|e| given.error(&e, lang))?;
    facts.rented = !own_hardware;
    let mut ticks = plan.ticks.clone();
    ticks.extend(extra_ticks.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string));
    let list = checklist::build(&facts, lang, &ticks).map_err(|e| given.error(&e, lang))?;
    match format {
        Format::Json => {
            let value = match &back {
                Some(b) => serde_json::json!({ "checklist": list, "readback": b }),
                None => serde_json::to_value(&list).map_err(|e| CliError(e.to_string()))?,
            };
            out::json(&value)?;
        }
        Format::Text => {
            if let Some(b) = &back {
                out::print(&crate::measured::text(b, lang));
                out::line("");
            }
            out::print(&checklist::to_markdown(&list));
        }
    }
    Ok(())
}
