//! A computed number that says what it is: a bound, an estimate, a
//! calibrated expected value or the user's own measurement, with its unit and
//! the formula it came from.

use serde::Serialize;

/// What kind of number a figure is: never a promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Physics limit: real runs are slower (or need more).
    UpperBound,
    /// The opposite side of a bound: real runs take longer (or need more GPUs).
    LowerBound,
    /// Rests on an assumed efficiency (MFU).
    Estimate,
    /// Expected value from efficiency factors fitted to measured runs.
    Calibrated,
    /// The user's own measurement.
    Measured,
}

/// One computed number with its unit, kind and derivation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure {
    pub value: f64,
    pub unit: &'static str,
    pub basis: Basis,
    pub derivation: String,
}
