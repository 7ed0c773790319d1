//! A model from the user's own files: paste a config.json, or drop or pick
//! a config.json, GGUF or safetensors files (several at once: every shard,
//! an index, a config beside its weights). Only headers are read, in the
//! browser, by the core's readers in this part; the plan takes the shape and
//! exact bytes, and the share link carries those numbers, never the file. A
//! file that cannot be read leaves the plan as it was and says why next to
//! the panel. Files dropped anywhere on the page reach the panel through
//! `state.dropped.model` (`crate::drop`), also when they came before it loaded.

mod account;
mod saved;

use std::sync::Arc;

use gloo_file::File;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::model_files::files::{self, FileKind, Given, FIRST_READ};
use gpuplan_core::model_files::{FileError, Imported};
use leptos::prelude::*;

use crate::adapters::files::{from_event, read_start};
use crate::components::labelled::Labelled;
use crate::drop;
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

/// One import: the files' names and what the core read from them.
struct Read {
    from: String,
    model: Imported,
}

#[derive(Clone)]
enum Reading {
    Idle,
    Busy,
    Failed(String),
    Done(Arc<Read>),
}

/// A file's start, read slice by slice until the core has its header.
async fn header(file: &File, lang: Lang) -> Result<(FileKind, Vec<u8>), String> {
    let name = file.name();
    let fail = |e: FileError| format!("{name}: {}", e.message(lang));
    let mut bytes = read_start(file, FIRST_READ).await.map_err(|e| format!("{name}: {e}"))?;
    let kind = FileKind::detect(&name, &bytes).ok_or_else(|| fail(FileError::NotThisFormat))?;
    while let Some(n) = files::more_needed(kind, &bytes, file.size()).map_err(fail)? {
        bytes = read_start(file, n).await.map_err(|e| format!("{name}: {e}"))?;
    }
    Ok((kind, bytes))
}

async fn read_files(list: Vec<File>, lang: Lang) -> Result<Read, String> {
    let mut heads = Vec::with_capacity(list.len());
    for f in &list {
        heads.push(header(f, lang).await?);
    }
    let names: Vec<String> = list.iter().map(File::name).collect();
    let given: Vec<Given> = list
        .iter()
        .zip(&names)
        .zip(&heads)
        .map(|((f, name), (kind, bytes))| Given { name, kind: *kind, bytes, size: Some(f.size()) })
        .collect();
    let model = files::import(&given).map_err(|e| format!("{}: {}", names.join(", "), e.message(lang)))?;
    Ok(Read { from: names.join(", "), model })
}

fn read_paste(text: &str, lang: Lang) -> Result<Read, String> {
    let bytes = text.as_bytes();
    let from = t(lang, K::PastedText).to_string();
    let given = Given { name: "", kind: FileKind::json(bytes), bytes, size: Some(bytes.len() as u64) };
    files::import(&[given]).map(|model| Read { from, model }).map_err(|e| e.message(lang))
}

/// What an import gives: the plan takes the model, or the panel says why not.
fn land(state: AppState, reading: RwSignal<Reading>, r: Result<Read, String>) {
    match r {
        Ok(read) => {
            let mut plan = state.plan.get_untracked();
            plan.take_model(&read.model);
            state.load(plan);
            reading.set(Reading::Done(Arc::new(read)));
        }
        Err(msg) => reading.set(Reading::Failed(msg)),
    }
}

/// Reads the files it is handed. Only the latest import may land: files
/// given again while the first are still being read replace them.
fn reader(state: AppState, reading: RwSignal<Reading>) -> impl Fn(Vec<File>) + Copy + 'static {
    let latest = StoredValue::new(0u32);
    move |list: Vec<File>| {
        if list.is_empty() {
            return;
        }
        let n = latest.get_value().wrapping_add(1);
        latest.set_value(n);
        reading.set(Reading::Busy);
        leptos::task::spawn_local(async move {
            let r = read_files(list, state.lang).await;
            if latest.get_value() == n {
                land(state, reading, r);
            }
        });
    }
}

#[component]
pub fn ModelFile(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let reading = RwSignal::new(Reading::Idle);
    let take = reader(state, reading);
    // Files dropped on the page, before this panel loaded or since.
    drop::take_from(state.dropped.model, take);
    let open = Memo::new(move |_| !matches!(reading.get(), Reading::Idle));
    view! {
        <details class="advanced model-file" prop:open=move || open.get()>
            <summary>{t(lang, K::ModelFileTitle)}</summary>
            <p class="hint">{t(lang, K::ModelFileHint)}</p>
            <Labelled id="f-model-file" label=K::ModelFilePick lang>
                <input
                    id="f-model-file"
                    type="file"
                    multiple
                    accept=".json,.gguf,.safetensors"
                    data-testid="model-file"
                    on:change=move |e| take(from_event(&e))
                />
            </Labelled>
            <Paste state reading/>
            {move || outcome(reading.get(), lang)}
            <SavedModels state/>
        </details>
    }
}

/// A config.json pasted as text.
#[component]
fn Paste(state: AppState, reading: RwSignal<Reading>) -> impl IntoView {
    let lang = state.lang;
    let pasted = RwSignal::new(String::new());
    let read = move |_| land(state, reading, read_paste(&pasted.get_untracked(), lang));
    view! {
        <Labelled id="f-model-paste" label=K::ModelFilePaste lang>
            <textarea
                id="f-model-paste"
                rows="3"
                data-testid="model-paste"
                prop:value=move || pasted.get()
                on:input=move |e| pasted.set(event_target_value(&e))
            ></textarea>
            <button type="button" data-testid="model-paste-read" on:click=read>
                {t(lang, K::ModelFileRead)}
            </button>
        </Labelled>
    }
}

fn outcome(r: Reading, lang: Lang) -> AnyView {
    match r {
        Reading::Idle => ().into_any(),
        Reading::Busy => {
            view! { <p class="hint" role="status">{t(lang, K::ModelFileReading)}</p> }.into_any()
        }
        Reading::Failed(msg) => {
            view! { <p class="error" role="alert" data-testid="model-file-error">{msg}</p> }.into_any()
        }
        Reading::Done(read) => view! { <Account read lang/> }.into_any(),
    }
}

/// What was read: from which files, the shape and exact counts, what was
/// assumed, and every key read.
#[component]
fn Account(read: Arc<Read>, lang: Lang) -> impl IntoView {
    let rows = account::rows(&read.model, lang);
    let assumed = account::assumed(&read.model, lang);
    let assumed = (!assumed.is_empty()).then(|| {
        view! {
            <p class="hint">{t(lang, K::ModelFileAssumed)}</p>
            <ul class="hint">{assumed.into_iter().map(|a| view! { <li>{a}</li> }).collect_view()}</ul>
        }
    });
    let keys = account::read(&read.model);
    let ignored = read.model.ignored.len();
    let ignored =
        (ignored != 0).then(|| view! { <p class="hint">{t(lang, K::ModelFileIgnored)} " " {ignored}</p> });
    view! {
        <div class="model-account" role="status" data-testid="model-file-read">
            <p>{t(lang, K::ModelFileFrom)} " " <strong>{read.from.clone()}</strong></p>
            <table class="kv">
                <tbody>
                    {rows.into_iter().map(|(k, v)| view! { <tr><th scope="row">{k}</th><td>{v}</td></tr> }).collect_view()}
                </tbody>
            </table>
            {assumed}
            <details>
                <summary>{t(lang, K::ModelFileKeys)} " (" {keys.len()} ")"</summary>
                <ul class="hint">{keys.into_iter().map(|k| view! { <li>{k}</li> }).collect_view()}</ul>
                {ignored}
            </details>
        </div>
    }
}

/// The current shape saved under a name, and the saved ones to use again.
#[component]
fn SavedModels(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let list = RwSignal::new(saved::load());
    let name = RwSignal::new(String::new());
    let custom = Memo::new(move |_| state.plan.with(|p| p.model.custom().cloned()));
    let save = move |_| {
        let (Some(arch), n) = (custom.get_untracked(), name.get_untracked()) else { return };
        if saved::clean_name(&n).is_empty() {
            return;
        }
        list.update(|l| *l = saved::with(std::mem::take(l), &n, arch));
        list.with_untracked(|l| saved::store(l));
        name.set(String::new());
    };
    view! {
        <Labelled id="f-model-save" label=K::SaveModelAs lang>
            <input
                id="f-model-save"
                type="text"
                data-testid="model-save-name"
                prop:value=move || name.get()
                on:input=move |e| name.set(event_target_value(&e))
            />
            <button type="button" data-testid="model-save" prop:disabled=move || custom.with(Option::is_none) on:click=save>
                {t(lang, K::SaveModel)}
            </button>
        </Labelled>
        <ul class="saved-models" data-testid="saved-models">
            {move || saved_list(state, list)}
        </ul>
    }
}

/// The saved models: each one's button puts it in the plan, its × forgets it.
fn saved_list(state: AppState, list: RwSignal<Vec<saved::Saved>>) -> AnyView {
    let lang = state.lang;
    let use_saved = move |i: usize| {
        let Some(arch) = list.with_untracked(|l| l.get(i).map(|s| s.arch.clone())) else { return };
        let mut plan = state.plan.get_untracked();
        plan.model = ModelSpec::Custom { arch };
        state.load(plan);
    };
    let forget = move |i: usize| {
        list.update(|l| {
            if i < l.len() {
                l.remove(i);
            }
        });
        list.with_untracked(|l| saved::store(l));
    };
    list.get()
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            view! {
                <li>
                    <button type="button" on:click=move |_| use_saved(i)>{s.name}</button>
                    <button type="button" aria-label=t(lang, K::ForgetModel) on:click=move |_| forget(i)>
                        "×"
                    </button>
                </li>
            }
        })
        .collect_view()
        .into_any()
}
