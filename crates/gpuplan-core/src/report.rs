//! The report: everything the page, the CLI and the JS API show for a plan,
//! from one call. Each section comes from its own engine.

use serde::Serialize;

use crate::error::FieldError;
use crate::memory::MemoryResult;
use crate::plan::Plan;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub memory: MemoryResult,
}

/// The whole answer for a plan, or every invalid field.
pub fn evaluate(plan: &Plan) -> Result<Report, Vec<FieldError>> {
    let memory = crate::memory::estimate(plan)?;
    Ok(Report { memory })
}
