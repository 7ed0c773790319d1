//! gpuplan's page: a Leptos CSR app over gpuplan-core. Components read the
//! plan signal, call the core, and render; they never compute a figure.
mod chart;
mod checklist;
mod compare;
mod costs;
mod dom;
mod fields;
mod fittable;
mod fmt;
mod i18n;
mod inputs;
mod link;
mod memchart;
mod options;
mod prefs;
mod results;
mod sheet;
mod shell;
mod state;
mod table;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(shell::App);
}
