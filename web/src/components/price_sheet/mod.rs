//! The user's own price sheet: a SkyPilot-schema CSV or gpuplan's offers
//! JSON, picked or dropped anywhere on the page, read in this browser (by
//! the core, in the reader worker) and never uploaded. Its offers are priced
//! beside the others and kept on this device; its items join the plan.
//! The user's own offers and the sheet's export as JSON or CSV.

mod model;

use std::sync::Arc;

use gloo_file::File;
use gpuplan_core::market::Import;
use gpuplan_core::plan::Plan;
use gpuplan_core::share;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::adapters::files::{self, from_event};
use crate::adapters::{download, reader};
use crate::components::labelled::Labelled;
use crate::drop;
use crate::i18n::{t, Lang, K};
use crate::prefs;
use crate::state::AppState;

#[derive(Clone)]
enum Reading {
    Idle,
    Busy(String),
    Done(Arc<Vec<String>>),
    Failed(String),
}

/// The first file's text, read by the core in the worker.
async fn read(file: File, lang: Lang) -> Result<(String, Import), String> {
    let name = file.name();
    if let Some(why) = model::refused(&name, file.size(), lang) {
        return Err(why);
    }
    let fail = |why: String| t(lang, K::SheetFailed).replace("{file}", &name).replace("{why}", &why);
    let text = files::text(&file).await.map_err(fail)?;
    let read = reader::read::<Import>("importOffers", &[JsValue::from(text), JsValue::UNDEFINED]).await;
    read.map(|import| (name.clone(), import)).map_err(fail)
}

/// Takes what a file held: its offers replace the last sheet's, its items
/// join the plan's.
fn land(state: AppState, import: Import) {
    if !import.items.is_empty() {
        let mut plan = state.plan.get_untracked();
        plan.cost.items.extend(import.items);
        state.load(plan);
    }
    if !import.offers.is_empty() {
        prefs::save_sheet(&import.offers);
        state.imported.set(import.offers);
    }
}

#[component]
pub fn PriceSheet(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let reading = RwSignal::new(Reading::Idle);
    // Only the latest file lands: one dropped while another is being read replaces it.
    let latest = StoredValue::new(0u32);
    let take = move |list: Vec<File>| {
        let Some(file) = list.into_iter().next() else { return };
        let n = latest.get_value().wrapping_add(1);
        latest.set_value(n);
        reading.set(Reading::Busy(model::reading(&file.name(), file.size(), lang)));
        leptos::task::spawn_local(async move {
            let outcome = read(file, lang).await;
            if latest.get_value() != n {
                return;
            }
            match outcome {
                Ok((name, import)) => {
                    reading.set(Reading::Done(Arc::new(model::summary(&import, &name, lang))));
                    land(state, import);
                }
                Err(why) => reading.set(Reading::Failed(why)),
            }
        });
    };
    // A file dropped anywhere on the page that is not a model's, before this
    // panel loaded or since (`crate::drop`).
    drop::take_from(state.dropped.sheet, take);
    let open =
        Memo::new(move |_| !matches!(reading.get(), Reading::Idle) || state.imported.with(|i| !i.is_empty()));
    view! {
        <details class="advanced price-sheet" prop:open=move || open.get()>
            <summary>{t(lang, K::SheetTitle)}</summary>
            <p class="hint">{t(lang, K::SheetHint)}</p>
            <Labelled id="f-price-sheet" label=K::SheetPick lang>
                <input
                    id="f-price-sheet"
                    type="file"
                    accept=".csv,.json,text/csv,application/json"
                    data-testid="price-sheet"
                    on:change=move |e| take(from_event(&e))
                />
            </Labelled>
            <Status reading/>
            <Kept state/>
            <Export state/>
        </details>
    }
}

/// What the last file gave, or why it gave nothing.
#[component]
fn Status(reading: RwSignal<Reading>) -> impl IntoView {
    move || match reading.get() {
        Reading::Idle => ().into_any(),
        Reading::Busy(text) => {
            view! { <p class="hint busy" role="status" data-testid="sheet-busy">{text}</p> }.into_any()
        }
        Reading::Failed(why) => {
            view! { <p class="field-error" role="alert" data-testid="sheet-error">{why}</p> }.into_any()
        }
        Reading::Done(lines) => view! {
            <ul class="notices" role="status" data-testid="sheet-notices">
                {lines.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}
            </ul>
        }
        .into_any(),
    }
}

/// How many of the sheet's offers are priced, and a way to drop them.
#[component]
fn Kept(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let count = Memo::new(move |_| state.imported.with(Vec::len));
    let clear = move |_| {
        prefs::save_sheet(&[]);
        state.imported.set(Vec::new());
    };
    move || {
        (count.get() > 0).then(|| {
            view! {
                <p class="hint" data-testid="sheet-kept">
                    {t(lang, K::SheetKept).replace("{n}", &count.get().to_string())}
                    " "
                    <button type="button" class="link" data-testid="sheet-clear" on:click=clear>
                        {t(lang, K::SheetClear)}
                    </button>
                </p>
            }
        })
    }
}

/// The plan's own offers and items, and the sheet's offers, as a file,
/// written by the JS API in the reader worker.
#[component]
fn Export(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let left_out = RwSignal::new(0usize);
    let failed = RwSignal::new(None::<String>);
    // What goes to the writer: a plan holding only the offers and items, as
    // its share link.
    let link = move || {
        let mut plan = Plan::default();
        state.plan.with_untracked(|p| {
            plan.cost.items = p.cost.items.clone();
            plan.cost.offers = p.cost.offers.clone();
        });
        state.imported.with_untracked(|i| plan.cost.offers.extend(i.iter().cloned()));
        JsValue::from(share::encode(&plan, None, None))
    };
    let json = move |_| {
        let link = link();
        leptos::task::spawn_local(async move {
            match reader::read::<String>("exportOffers", &[link]).await {
                Ok(text) => download::save_as("gpuplan-offers.json", "application/json", &text),
                Err(why) => failed.set(Some(why)),
            }
        });
    };
    let csv = move |_| {
        let link = link();
        leptos::task::spawn_local(async move {
            match reader::read::<Csv>("exportOffersCsv", &[link]).await {
                Ok(Csv { csv, left_out: n }) => {
                    left_out.set(n);
                    download::save_as("gpuplan-offers.csv", "text/csv", &csv);
                }
                Err(why) => failed.set(Some(why)),
            }
        });
    };
    view! {
        <div class="actions">
            <button type="button" data-testid="export-json" on:click=json>{t(lang, K::SheetExportJson)}</button>
            <button type="button" data-testid="export-csv" on:click=csv>{t(lang, K::SheetExportCsv)}</button>
        </div>
        {move || (left_out.get() > 0).then(|| view! {
            <p class="hint" data-testid="csv-left-out">{t(lang, K::SheetCsvLeftOut).replace("{n}", &left_out.get().to_string())}</p>
        })}
        {move || failed.get().map(|why| view! { <p class="field-error" role="alert">{why}</p> })}
    }
}

/// The CSV writer's answer.
#[derive(serde::Deserialize)]
struct Csv {
    csv: String,
    left_out: usize,
}
