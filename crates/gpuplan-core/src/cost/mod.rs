//! Purchase options and the whole bill.
//!
//! A [`Demand`] (what the plan needs per GPU type, from the fit and speed
//! models) and the user's [`CostInputs`] price every purchase option of every
//! [`Offer`](crate::offers::Offer) with [`compare`]: on-demand, spot, savings
//! plan, reserved, capacity block, monthly. Each option's bill is
//! TOTAL = compute + storage + IP + network + other, every line with its
//! derivation, rounded to the cent in the offer's currency and then converted.

mod bill;
mod compare;
mod egress;
mod inputs;
mod line;
mod options;
mod shared;
mod usage;

pub use bill::{build, Bill, BuildError};
pub use compare::{
    compare, BreakEven, CostReport, Loss, OptionCost, Point, Skip, Skipped, DETAILED_OPTIONS, SERIES_OPTIONS,
};
pub use egress::{estimate as estimate_egress, tiered as tiered_egress};
pub use inputs::{
    block_days_valid, CostInputs, Edit, Fx, Horizon, Item, PriceKey, Upfront, DEFAULT_CNY_PER_USD,
    DEFAULT_FX_DATE,
};
pub use line::{Accrual, Category, Draft, Fee, Line, LineKind};
pub use options::{
    break_even_hours, capacity_block, monthly, on_demand, price, reserved, savings_plan, spot_run, Compute,
    OptionKind, Unavailable,
};
pub use usage::{rerun, Billed, Demand, Need, Rerun, Usage, HOURS_PER_MONTH, HOURS_PER_YEAR};

#[cfg(test)]
mod tests;
