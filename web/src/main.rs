//! gpuplan's page.
use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| view! { <main id="app"><h1>"gpuplan"</h1></main> });
}
