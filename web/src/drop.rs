//! Files dropped anywhere on the page, taken by the page's own code so that
//! a drop works before the panel that reads it has loaded: model files wait
//! in `state.dropped` for the model-file panel (`parts::model_file`), which
//! takes them once it is there; other files are the price sheet's. A file
//! dropped is never opened in the tab in place of the page (which would
//! lose the plan).

use leptos::ev;
use leptos::prelude::*;

use crate::adapters::files::{carries_files, from_event};
use crate::state::AppState;

/// The endings of a model's files: GGUF, safetensors and their index, a
/// Hugging Face config. Any other file dropped is read as a price sheet.
const MODEL_FILES: [&str; 4] = [".gguf", ".safetensors", ".safetensors.index.json", "config.json"];

/// Whether a file is a model's, by its name.
pub fn is_model_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    MODEL_FILES.iter().any(|end| name.ends_with(end))
}

/// Listens for the page's life: no drop of files opens them in the tab; one
/// that holds a model's hands them all (shards, index, config) to the
/// model-file panel.
pub fn listen(state: AppState) {
    _ = window_event_listener(ev::dragover, |e| {
        if carries_files(&e) {
            e.prevent_default();
        }
    });
    _ = window_event_listener(ev::drop, move |e| {
        if !carries_files(&e) {
            return;
        }
        e.prevent_default();
        let list = from_event(&e);
        if list.iter().any(|f| is_model_file(&f.name())) {
            state.dropped.set(list);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_files_are_told_from_price_sheets_by_name() {
        for model in ["config.json", "Llama-3.1-8B.GGUF", "model-00001-of-00004.safetensors"] {
            assert!(is_model_file(model), "{model}");
        }
        assert!(is_model_file("model.safetensors.index.json"));
        for sheet in ["offers.json", "vms.csv", "prices.JSON"] {
            assert!(!is_model_file(sheet), "{sheet}");
        }
    }
}
