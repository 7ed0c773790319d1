//! The page's link: the plan is read from the address bar at start, written
//! back (`history.replaceState`) once each change has settled, and in embed
//! mode reported with the page's height to the host.

use gpuplan_core::lang::Lang;
use gpuplan_core::share::{self, Embed, Link};
use leptos::prelude::*;

use crate::adapters::{address, host};
use crate::state::AppState;

/// What the address bar carried when the page opened.
pub struct Start {
    /// The plan, display choices, embed mode and host origin the link carried.
    pub link: Link,
    /// The query had plan keys (a share link, not a bare visit).
    pub shared: bool,
}

pub fn start() -> Start {
    let search = address::search();
    let display = |kv: &str| {
        let key = kv.split('=').next();
        matches!(
            key,
            Some("" | "v" | "lang" | "unit" | "embed" | "host" | "show" | "lock" | "theme" | "accent")
        )
    };
    Start { shared: !search.trim_start_matches('?').split('&').all(display), link: share::decode(&search) }
}

/// Reopens the page on the current plan in `lang`: each language is a bundle
/// of its own, which the loader in index.html picks by the link's `lang`.
pub fn reopen_in(state: AppState, lang: Lang) {
    let unit = state.unit.get_untracked().code();
    address::reopen(&state.plan.with_untracked(|p| share::encode(p, Some(lang), Some(unit))));
}

/// The settled plan's query, kept in the address bar; embedded, it keeps
/// the embed mode, the host's origin and the host's choices for the widget.
pub fn keep_in_address_bar(state: AppState, embed: Option<Embed>, host: Option<String>) -> Memo<String> {
    let query = Memo::new(move |_| {
        let q = state.settled.with(|p| share::encode(p, Some(state.lang), Some(state.unit.get().code())));
        let extra = match (&embed, &host) {
            (Some(e), Some(h)) => format!("&embed=1&host={h}{}", e.query()),
            (Some(e), None) => format!("&embed=1{}", e.query()),
            _ => String::new(),
        };
        format!("?{q}{extra}")
    });
    Effect::new(move |_| query.with(|q| address::replace_query(q)));
    query
}

/// Embed mode: tell the host page our height and plan whenever they change.
pub fn report_to_host(state: AppState) {
    Effect::new(move |_| {
        let peak = state.shown.with(|r| r.as_ref().map(|r| r.memory.per_gpu_bytes));
        let link = state.settled.with(|p| share::encode(p, None, None));
        // Measured once the DOM shows the new plan: on the next frame.
        request_animation_frame(move || host::post_plan(peak, &link));
    });
}
