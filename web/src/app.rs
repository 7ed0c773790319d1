//! The page: one project, read from the link (or the saved one), its
//! workloads above the inputs, and the blocks that show what the core makes
//! of the workload being edited and, with several, of the whole project.
//! The answer comes first: the examples follow the two columns.

use gpuplan_core::lang::Lang;
use gpuplan_core::present::Unit;
use leptos::prelude::*;

use crate::adapters::address;
use crate::components::compact::Compact;
use crate::components::header::Header;
use crate::components::inputs::Inputs;
use crate::components::lazy::LazyPart;
use crate::components::results::Results;
use crate::components::share::LinkNotice;
use crate::drop;
use crate::link;
use crate::parts;
use crate::prefs;
use crate::sheet;
use crate::state::AppState;

#[component]
pub fn App() -> impl IntoView {
    let mut start = link::start();
    let embed = start.link.embed;
    // The page's bundle speaks one language, which the loader in index.html
    // chose (the link's, the saved one, the browser's).
    let lang = gpuplan_core::lang::ONLY.or(start.link.lang).unwrap_or_default();
    // A link's unit that is not a known code reads as the default.
    let unit = match start.link.unit.as_deref() {
        Some(code) => Unit::from_code(code).unwrap_or_default(),
        None => prefs::initial_unit(),
    };
    // A link's project shows as given; a bare visit reopens the saved one. An
    // embedded page is the host's: it shows the link's (first) plan, and
    // neither reads nor writes the saved project.
    let project = match (embed, start.shared) {
        (true, _) => gpuplan_core::project::Project::single(start.link.plan.clone()),
        (false, true) => std::mem::take(&mut start.project),
        (false, false) => prefs::saved_project(),
    };
    let state = AppState::new(project, lang, unit);
    if !embed {
        prefs::keep_project(state.project.current);
        state.imported.set(prefs::saved_sheet());
    }
    address::set_document_lang(lang.pick("zh-CN", "en"));
    sheet::load(state, start.link.host.clone());
    if !embed {
        drop::listen(state);
        let query = link::keep_in_address_bar(state, None, start.link.host);
        // A project (a v2 link, or a saved one) opens with its workloads bar,
        // not after the first result: its part is fetched at once.
        let project = state.project.current.with_untracked(|p| p.workloads.len() > 1);
        return view! {
            <Header state/>
            <LinkNotice state ignored=start.link.ignored/>
            <main id="app" class="layout">
                // The workloads above the inputs that edit the picked one; on
                // a phone the results still come first (style.css).
                <div class="editor">
                    <LazyPart state load=parts::workloads id="workloads" eager=project/>
                    <Inputs state/>
                </div>
                <Results state/>
            </main>
            <LazyPart state load=parts::gallery id="gallery"/>
            <LazyPart state load=move |state| parts::share(state, query) id="share"/>
        }
        .into_any();
    }
    // The host's own choices that could not be used go to its console: the
    // reader of the widget did not write them.
    let options = start.link.embed_options.clone();
    start.link.ignored.retain(|i| {
        let host_key = matches!(i.key.as_str(), "show" | "lock" | "theme" | "accent");
        if host_key {
            leptos::logging::warn!("gpuplan embed: {}", i.describe(Lang::En));
        }
        !host_key
    });
    address::set_theme(options.theme.code(), options.accent.as_deref());
    link::report_to_host(state);
    link::keep_in_address_bar(state, Some(options.clone()), start.link.host);
    view! {
        <LinkNotice state ignored=start.link.ignored/>
        <Compact state options/>
    }
    .into_any()
}
