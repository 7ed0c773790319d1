//! A part of the page that loads on demand (`crate::parts`). Nothing shows
//! until the first result has painted; then the part's module is fetched,
//! a quiet line holding its place. A part that cannot be fetched says so,
//! with a retry, and costs only itself: the rest of the page, the address
//! bar and the saved plan go on as they were (docs/robustness.md).

use std::future::Future;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use crate::i18n::{t, K};
use crate::state::AppState;

/// What a part's loader gives: its view, or why its module did not load.
pub type Part = Result<AnyView, SplitLoaderError>;

/// Mounts the part `load` gives. `eager` parts are fetched at once, without
/// waiting for the first result (a project link opens into its project);
/// `id` names the part for tests (`data-part`).
#[component]
pub fn LazyPart<F, Fut>(
    state: AppState,
    load: F,
    id: &'static str,
    #[prop(optional)] eager: bool,
) -> impl IntoView
where
    F: Fn(AppState) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Part> + Send + 'static,
{
    let lang = state.lang;
    // Bumped by the retry button: the part is asked for again, and the
    // loader, which keeps only successes, fetches its files anew.
    let attempt = RwSignal::new(0u32);
    let part = move || {
        attempt.track();
        (eager || state.painted.get()).then(|| {
            Suspend::new(async move { load(state).await.unwrap_or_else(|_| failed(lang, id, attempt)) })
        })
    };
    let waiting = move || view! { <p class="hint part-wait" data-part=id>{t(lang, K::PartLoading)}</p> };
    view! { <Suspense fallback=waiting>{part}</Suspense> }
}

fn failed(lang: crate::i18n::Lang, id: &'static str, attempt: RwSignal<u32>) -> AnyView {
    let retry = move |_| attempt.update(|n| *n = n.wrapping_add(1));
    view! {
        <div class="notice part-failed" role="alert" data-part-failed=id>
            <p>{t(lang, K::PartFailed)}</p>
            <button type="button" on:click=retry>{t(lang, K::PartRetry)}</button>
        </div>
    }
    .into_any()
}
