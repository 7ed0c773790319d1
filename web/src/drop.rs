//! Files dropped anywhere on the page, taken by the page's own code so that
//! a drop works before the panel that reads it has loaded: model files wait
//! in `state.dropped.model` for the model-file panel (`parts::model_file`),
//! other files in `state.dropped.sheet` for the price sheet's, each taken
//! once its panel is there (`take_from`). A file
//! dropped is never opened in the tab in place of the page (which would
//! lose the plan).

use gloo_file::File;
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

/// Files dropped on the page that their panel has not taken yet: a model's
/// for the model-file panel, any other for the price sheet. Each panel is a
/// part that may load after the drop, so the files wait here.
#[derive(Clone, Copy)]
pub struct Dropped {
    pub model: RwSignal<Vec<File>, LocalStorage>,
    pub sheet: RwSignal<Vec<File>, LocalStorage>,
}

impl Dropped {
    pub fn new() -> Dropped {
        Dropped { model: RwSignal::new_local(Vec::new()), sheet: RwSignal::new_local(Vec::new()) }
    }
}

/// Hands the files waiting in `queue`, now and whenever more come, to `take`.
pub fn take_from(queue: RwSignal<Vec<File>, LocalStorage>, take: impl Fn(Vec<File>) + 'static) {
    Effect::new(move |_| {
        if queue.with(|d| !d.is_empty()) {
            take(queue.try_update_untracked(std::mem::take).unwrap_or_default());
        }
    });
}

/// Listens for the page's life: no drop of files opens them in the tab; one
/// that holds a model's goes whole (shards, index, config) to the model-file
/// panel, any other to the price sheet.
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
        let queue = if list.iter().any(|f| is_model_file(&f.name())) {
            state.dropped.model
        } else {
            state.dropped.sheet
        };
        queue.set(list);
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
