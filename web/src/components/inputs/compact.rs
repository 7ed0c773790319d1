//! The embedded widget's few inputs: task, model, context and concurrency
//! (or the batch, for training), and the GPU. A field the host locks
//! (`lock=`) shows its value as text, not a control.

use gpuplan_core::model::{presets, ModelSpec};
use gpuplan_core::plan::{Plan, Task};
use leptos::prelude::*;

use super::field::{field, read, whole, write, Segmented, Spec};
use super::model::listed;
use super::{gpu_label, GpuSelect, GPU, TASK};
use crate::components::labelled::Labelled;
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

const CONTEXT: Spec = Spec::Num(whole(K::Context, "inference.context").unit(K::UnitTokens));
const CONCURRENCY: Spec = Spec::Num(whole(K::Concurrency, "inference.concurrency").unit(K::UnitSeqs));
const BATCH: Spec = Spec::Num(whole(K::Batch, "training.batch").unit(K::UnitSeqs));
const MODEL: &str = "model";

/// A locked field's value as the reader sees it.
pub fn locked_text(plan: &Plan, path: &str, lang: Lang) -> String {
    match path {
        GPU => plan.hardware.chosen().map(gpu_label).unwrap_or_else(|| read(plan, path)),
        MODEL => match &plan.model {
            ModelSpec::Preset { id } => presets::find(id).map_or_else(|| id.clone(), |p| p.name.to_string()),
            _ => t(lang, K::CustomModel).to_string(),
        },
        "task" => TASK
            .opts
            .iter()
            .find(|o| o.value == read(plan, path))
            .map_or_else(String::new, |o| o.label(lang).into()),
        _ => read(plan, path),
    }
}

#[component]
pub fn CompactInputs(state: AppState, locked: Vec<&'static str>) -> impl IntoView {
    let lang = state.lang;
    let locked = StoredValue::new(locked);
    let open = move |path: &str| !locked.with_value(|l| l.contains(&path));
    // A locked field: its label and the value the host set.
    let fixed = move |label: K, path: &'static str| {
        view! {
            <div class="field locked">
                <span class="label">{t(lang, label)}</span>
                <strong data-testid=format!("locked-{path}")>{move || state.plan.with(|p| locked_text(p, path, lang))}</strong>
            </div>
        }
    };
    let number = move |s: Spec, label: K| {
        if open(s.path()) {
            field(state, s)
        } else {
            fixed(label, s.path()).into_any()
        }
    };
    let task = Memo::new(move |_| state.plan.with(|p| p.task));
    let work = move || match task.get() {
        Task::Infer => {
            view! { {number(CONTEXT, K::Context)}{number(CONCURRENCY, K::Concurrency)} }.into_any()
        }
        Task::Train => number(BATCH, K::Batch),
    };
    view! {
        <div class="compact-inputs">
            {if open("task") {
                view! { <Segmented state spec=TASK read=|p| read(p, "task") pick=|p, v| write(p, "task", v)/> }.into_any()
            } else {
                fixed(K::Task, "task").into_any()
            }}
            <div class="grid">
                {if open(MODEL) { view! { <ModelPick state/> }.into_any() } else { fixed(K::ModelPreset, MODEL).into_any() }}
                {work}
                {if open(GPU) { view! { <GpuSelect state/> }.into_any() } else { fixed(K::Gpu, GPU).into_any() }}
            </div>
        </div>
    }
}

/// The presets in one list; a model that is not a preset (from the link)
/// stays the selected first entry.
#[component]
fn ModelPick(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let current = Memo::new(move |_| match state.plan.with(|p| p.model.clone()) {
        ModelSpec::Preset { id } => id,
        _ => String::new(),
    });
    let options = listed("", "").into_iter().map(move |(id, name)| {
        view! { <option value=id prop:selected=move || current.with(|c| c == id)>{name}</option> }
    });
    view! {
        <Labelled id="f-model-id" label=K::ModelPreset lang>
            <select
                id="f-model-id"
                data-testid="model-select"
                on:change=move |ev| state.plan.update(|p| p.model = ModelSpec::Preset { id: event_target_value(&ev) })
            >
                <Show when=move || current.with(String::is_empty)>
                    <option value="" selected>{t(lang, K::CustomModel)}</option>
                </Show>
                {options.collect_view()}
            </select>
        </Labelled>
    }
}
