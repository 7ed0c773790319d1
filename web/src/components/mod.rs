//! The page's components, one folder per area.

pub mod block;
pub mod checklist;
pub mod compare;
pub mod cost;
pub mod fit;
pub mod header;
pub mod inputs;
pub mod legacy;
pub mod results;
pub mod share;
pub mod table;
