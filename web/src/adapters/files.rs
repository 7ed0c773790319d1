//! Files the user hands the page (picked or dropped): their names, sizes,
//! text, and the first bytes of each. Nothing is uploaded; a file is read
//! only after its size is checked, and a model file only as far as its
//! header (`Blob.slice`), so a 40 GB checkpoint costs what its header costs.

use gloo_file::futures::{read_as_bytes, read_as_text};
use gloo_file::{Blob, File};
use wasm_bindgen::JsCast;

/// The files of an `<input type=file>` change or a drop.
pub fn from_event(ev: &web_sys::Event) -> Vec<File> {
    let list = match ev.dyn_ref::<web_sys::DragEvent>() {
        Some(drag) => drag.data_transfer().and_then(|d| d.files()),
        None => {
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files())
        }
    };
    list.map(|l| gloo_file::FileList::from(l).to_vec()).unwrap_or_default()
}

/// Whether a drag carries files (not text or a link being dragged into a field).
pub fn carries_files(ev: &web_sys::Event) -> bool {
    let data = ev.dyn_ref::<web_sys::DragEvent>().and_then(|d| d.data_transfer());
    data.is_some_and(|d| d.types().includes(&"Files".into(), 0))
}

/// The whole of `file` as text (bytes that are not UTF-8 read as U+FFFD).
pub async fn text(file: &File) -> Result<String, String> {
    let blob: &Blob = file;
    read_as_text(blob).await.map_err(|e| e.to_string())
}

/// The first `n` bytes of `file` (fewer where it is shorter).
pub async fn read_start(file: &File, n: u64) -> Result<Vec<u8>, String> {
    let blob: &Blob = file;
    read_as_bytes(&blob.slice(0, n.min(file.size()))).await.map_err(|e| e.to_string())
}
