//! gpuplan-core: all arithmetic and all data of gpuplan, with no web
//! dependency. Data flows one way: a [`plan::Plan`] goes in, a report comes out.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

mod bisect;
pub mod budget;
pub mod checklist;
pub mod cost;
pub mod decode;
pub mod derivation;
pub mod error;
pub mod examples;
pub mod figure;
pub mod fit;
pub mod hardware;
pub mod in_flight;
pub mod lang;
pub mod market;
pub mod market_view;
pub mod measured;
pub mod memory;
pub mod model;
pub mod model_files;
pub mod money;
pub mod names;
pub mod offers;
mod percent;
pub mod placement;
pub mod plan;
pub mod present;
pub mod project;
pub mod readback;
pub mod report;
pub mod selection;
pub mod serving;
pub mod share;
pub mod sheet;
pub mod snippets;
pub mod speed;
pub mod summary;
pub mod tensor_path;
mod text;
pub mod training_flops;
pub mod training_mfu;
