//! gpuplan's page: a Leptos CSR app over gpuplan-core. Components read the
//! plan signal, call the core, and render; they never compute a figure.
mod adapters;
mod app;
mod components;
mod drop;
mod i18n;
mod link;
mod options;
mod parts;
mod prefs;
mod project;
mod sheet;
mod state;

/// Talc instead of dlmalloc: smaller and faster (docs/performance.md).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
