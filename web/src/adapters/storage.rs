//! localStorage. It may be missing, full or throw (sandboxed iframes, privacy
//! modes): every access fails silently and the page works without it. Not
//! gloo-storage: its `raw()` panics where storage is refused, and a panic
//! ends the page (docs/architecture.md).

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The value under `key`, if storage is there and holds one.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `value` under `key`, or nothing where storage is refused.
pub fn save(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}
