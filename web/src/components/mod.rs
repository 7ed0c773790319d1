//! The page's components, one folder per area.

pub mod block;
pub mod budget;
pub mod chart;
pub mod checklist;
pub mod compact;
pub mod compare;
pub mod cost;
pub mod fit;
pub mod header;
pub mod headline;
pub mod inputs;
pub mod labelled;
pub mod lazy;
pub mod market;
pub mod measured;
pub mod memory_chart;
pub mod model_file;
pub mod offers;
pub mod price_sheet;
pub mod results;
pub mod serving;
pub mod share;
pub mod table;
pub mod workloads;
