//! The page's access to the browser, each kind behind a few small functions,
//! so components and state never call the DOM APIs themselves.

pub mod address;
pub mod clock;
pub mod download;
pub mod fetch;
pub mod files;
pub mod focus;
pub mod host;
pub mod reader;
pub mod storage;
