//! The parts of the page that load on demand, each a wasm module of its own
//! that `cargo xtask build` splits off the page (wasm-split, as cargo-leptos
//! does): what is below the first screen or behind a click. The first
//! download carries none of them; code that only a part calls goes with it.
//!
//! A part is a `#[wasm_split(<module>, …, fallible)]` function of owned,
//! `Send` arguments returning `Part`, mounted with
//! `<LazyPart state load=parts::<name> id="<name>"/>` (docs/architecture.md).
//! Natively (the tests) each is a plain function.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use crate::components::budget::BudgetBlock;
use crate::components::checklist::Checklist;
use crate::components::compare::{Compare, Gallery};
use crate::components::cost::CostBlock;
use crate::components::fit::FitTable;
use crate::components::lazy::Part;
use crate::components::market::MarketBlock;
use crate::components::measured::Measured;
use crate::components::model_file::ModelFile;
use crate::components::offers::OffersBlock;
use crate::components::price_sheet::PriceSheet;
use crate::components::share::SharePanel;
use crate::components::workloads::Workloads;
use crate::state::AppState;

// The workloads bar and the budget by month: one file, the project's.
#[wasm_split(project, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn workloads(state: AppState) -> Part {
    Ok(view! { <Workloads state/> }.into_any())
}

#[wasm_split(project, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn budget(state: AppState) -> Part {
    Ok(view! { <BudgetBlock state/> }.into_any())
}

#[wasm_split(fit, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn fit(state: AppState) -> Part {
    Ok(view! { <FitTable state/> }.into_any())
}

#[wasm_split(cost, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn cost(state: AppState) -> Part {
    Ok(view! { <CostBlock state/> }.into_any())
}

#[wasm_split(offers, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn offers(state: AppState) -> Part {
    Ok(view! { <OffersBlock state/> }.into_any())
}

#[wasm_split(price_sheet, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn price_sheet(state: AppState) -> Part {
    Ok(view! { <PriceSheet state/> }.into_any())
}

#[wasm_split(market, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn market(state: AppState) -> Part {
    Ok(view! { <MarketBlock state/> }.into_any())
}

#[wasm_split(checklist, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn checklist(state: AppState) -> Part {
    Ok(view! { <Checklist state/> }.into_any())
}

#[wasm_split(compare, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn compare(state: AppState) -> Part {
    Ok(view! { <Compare state/> }.into_any())
}

#[wasm_split(gallery, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn gallery(state: AppState) -> Part {
    Ok(view! { <Gallery state/> }.into_any())
}

#[wasm_split(share, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn share(state: AppState, query: Memo<String>) -> Part {
    Ok(view! { <SharePanel state query/> }.into_any())
}

#[wasm_split(model_file, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn model_file(state: AppState) -> Part {
    Ok(view! { <ModelFile state/> }.into_any())
}

#[wasm_split(readback, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn readback(state: AppState) -> Part {
    Ok(view! { <Measured state/> }.into_any())
}
