//! `gpuplan share`: the share link for a plan given by flags, `--plan` or `--url`.

use gpuplan_core::share;

use crate::args::{self, CliError, Flags};

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &args::PLAN_SWITCHES)?;
    let base = flags.value("base")?.unwrap_or_default();
    let lang = flags.value("lang")?.map(|l| gpuplan_core::lang::Lang::from_tag(&l));
    let plan = args::plan(&mut flags)?;
    flags.finish()?;
    let errs = plan.validate();
    if !errs.is_empty() {
        return Err(CliError::fields(&errs, lang.unwrap_or_default()));
    }
    println!("{base}?{}", share::encode(&plan, lang, None));
    Ok(())
}
