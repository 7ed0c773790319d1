//! The page's link: the project is read from the address bar at start,
//! written back (`history.replaceState`) once each change has settled, and
//! in embed mode reported with the page's height to the host. A one-workload
//! project is written as its plan's version 1 link; two workloads or more
//! as a version 2 link (`share::encode_project`).

use gpuplan_core::lang::Lang;
use gpuplan_core::project::Project;
use gpuplan_core::share::{self, Embed, Link};
use leptos::prelude::*;

use crate::adapters::{address, host};
use crate::state::AppState;

/// What the address bar carried when the page opened.
pub struct Start {
    /// The display choices, embed mode and host origin the link carried,
    /// the keys it could not use, and its (first workload's) plan.
    pub link: Link,
    /// Every workload the link carried: one for a version 1 link.
    pub project: Project,
    /// The query had plan keys (a share link, not a bare visit).
    pub shared: bool,
}

/// Whether a query is a version 2 link: it lists its workloads (`wl`).
fn lists_workloads(search: &str) -> bool {
    search.trim_start_matches('?').split('&').any(|kv| kv.split('=').next() == Some("wl"))
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
    let shared = !search.trim_start_matches('?').split('&').all(display);
    if !lists_workloads(&search) {
        let link = share::decode(&search);
        return Start { project: Project::single(link.plan.clone()), link, shared };
    }
    let read = share::decode_project(&search);
    let plan = read.project.workloads.first().map(|w| w.plan.clone()).unwrap_or_default();
    let link = Link {
        plan,
        lang: read.lang,
        unit: read.unit,
        embed: read.embed,
        host: read.host,
        embed_options: Embed::default(),
        ignored: read.ignored,
    };
    Start { link, project: read.project, shared }
}

/// Reopens the page on the current project in `lang`: each language is a
/// bundle of its own, which the loader in index.html picks by the link's `lang`.
pub fn reopen_in(state: AppState, lang: Lang) {
    let unit = state.unit.get_untracked().code();
    address::reopen(&share::encode_project(&state.project.live(state.plan), Some(lang), Some(unit)));
}

/// The settled project's query, kept in the address bar; embedded (one
/// plan, the widget's), it keeps the embed mode, the host's origin and the
/// host's choices for the widget.
pub fn keep_in_address_bar(state: AppState, embed: Option<Embed>, host: Option<String>) -> Memo<String> {
    let query = Memo::new(move |_| {
        let (lang, unit) = (Some(state.lang), Some(state.unit.get().code()));
        let q = match embed {
            Some(_) => state.settled.with(|p| share::encode(p, lang, unit)),
            None => state.project.current.with(|p| share::encode_project(p, lang, unit)),
        };
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
