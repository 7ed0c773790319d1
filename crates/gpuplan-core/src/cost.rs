//! Purchase options and the whole bill. (Filled in by the cost work.)

use serde::{Deserialize, Serialize};

use crate::error::FieldError;

/// The user's cost settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostInputs {}

impl CostInputs {
    pub(crate) fn validate(&self, _errs: &mut [FieldError]) {}
}
