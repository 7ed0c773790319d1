//! The CLI's one error type, below every command and reader, so that each
//! of them can return it without depending on another.

use gpuplan_core::error::FieldError;
use gpuplan_core::lang::Lang;

/// A usage error: one line for stderr; the process exits with status 2.
#[derive(Debug, PartialEq)]
pub struct CliError(pub String);

impl CliError {
    pub fn fields(errs: &[FieldError], lang: Lang) -> Self {
        match errs.first() {
            Some(e) => CliError(e.message(lang)),
            None => CliError(String::from("invalid plan")),
        }
    }
}
