//! The page's components, one folder per area.

pub mod block;
pub mod header;
pub mod inputs;
pub mod legacy;
pub mod results;
pub mod share;
