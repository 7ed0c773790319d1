//! `gpuplan share`: the share link for a plan given by flags, `--plan` or
//! `--url`, or (`--format iframe|wiki|markdown`) the page's copy-paste snippets.

use gpuplan_core::lang::Lang;
use gpuplan_core::{report, share, snippets};

use crate::args::{self, Flags};
use crate::error::CliError;
use crate::out;

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &args::plan_switches().collect::<Vec<_>>())?;
    let base = flags.value("base")?.unwrap_or_default();
    let format = flags.value("format")?;
    let lang = flags.value("lang")?.map(|l| Lang::from_tag(&l));
    let mut plan = args::plan(&mut flags)?;
    crate::fit::hardware(&mut flags, &mut plan)?;
    let given = flags.finish()?;
    let errs = plan.validate();
    if !errs.is_empty() {
        return Err(given.error(&errs, lang.unwrap_or_default()));
    }
    let format = format.as_deref().unwrap_or("link");
    if matches!(format, "link" | "text") {
        out::line(&format!("{base}?{}", share::encode(&plan, lang, None)));
        return Ok(());
    }
    // The snippets are in words: without --lang, the environment's language.
    let lang = lang.unwrap_or_else(args::env_lang);
    let r = report::evaluate(&plan, lang).map_err(|e| given.error(&e, lang))?;
    let s = snippets::snippets(&plan, &r, lang, &base);
    match format {
        "iframe" => out::print(&s.iframe),
        "wiki" => out::print(&s.wiki),
        "markdown" => out::print(&s.markdown),
        other => {
            return Err(CliError(format!(
                "--format: unknown \"{other}\"; accepted: link, iframe, wiki, markdown"
            )))
        }
    }
    Ok(())
}
