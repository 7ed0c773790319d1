//! Today's date from the browser: the core has no clock, and a price's age
//! is counted to this day.

/// Today as YYYY-MM-DD (UTC).
pub fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.get(..10).unwrap_or_default().to_string()
}
