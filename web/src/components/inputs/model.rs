//! The model part of the column: the kind switch (preset, custom shape,
//! generic model), the preset search and picker, and each kind's fields.

use gpuplan_core::model::presets;
use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::plan::Plan;
use leptos::prelude::*;

use super::field::{check, grid, real, select, whole, Choice, Segmented, Spec};
use crate::components::labelled::Labelled;
use crate::components::lazy::LazyPart;
use crate::i18n::{t, K};
use crate::options as o;
use crate::parts;
use crate::state::AppState;

pub fn kind_of(p: &Plan) -> &'static str {
    match p.model {
        ModelSpec::Preset { .. } => "preset",
        ModelSpec::Custom { .. } => "custom",
        ModelSpec::Generic { .. } => "generic",
    }
}

/// Switching kind keeps what carries over: a preset's shape becomes the
/// custom shape's start; its parameter count the generic model's.
pub fn set_kind(p: &mut Plan, kind: &str) {
    let arch = p.model.arch().map(|a| a.into_owned());
    p.model = match (kind, arch) {
        ("preset", _) => ModelSpec::default(),
        ("custom", Some(arch)) => ModelSpec::Custom { arch },
        ("custom", None) => ModelSpec::Custom { arch: Arch::default() },
        (_, arch) => {
            let base = Generic::default();
            let params = arch.map_or(base.params, |a| a.param_count());
            ModelSpec::Generic { generic: Generic { params, ..base } }
        }
    };
}

/// Case-insensitive match on name or id, every word of the query.
pub fn matches(query: &str, id: &str, name: &str) -> bool {
    let hay = format!("{} {}", id, name).to_ascii_lowercase();
    // Bytes: `str::contains(&str)` would bring std's two-way searcher into
    // the wasm for this one search box.
    let has = |w: &str| hay.as_bytes().windows(w.len()).any(|x| x == w.as_bytes());
    query.to_ascii_lowercase().split_whitespace().all(has)
}

/// The presets the list offers for a search: those that match, and the
/// current one always, as (id, name).
pub fn listed(query: &str, current: &str) -> Vec<(&'static str, &'static str)> {
    let all = presets::all().iter();
    all.filter(|p| p.id == current || matches(query, p.id, p.name)).map(|p| (p.id, p.name)).collect()
}

/// Whether no preset at all matches the search.
pub fn none_match(query: &str) -> bool {
    !presets::all().iter().any(|p| matches(query, p.id, p.name))
}

/// The chosen preset's id ("" for another kind of model).
fn preset_id(p: &Plan) -> String {
    match &p.model {
        ModelSpec::Preset { id } => id.clone(),
        _ => String::new(),
    }
}

const KIND: Choice = Choice { label: K::ModelKind, path: "model", opts: o::MODEL_KIND };

pub const CUSTOM: &[Spec] = &[
    Spec::Num(real(K::Params, "model.arch.params").unit(K::UnitParams).hint(K::ParamsHint).optional()),
    Spec::Num(whole(K::Layers, "model.arch.layers")),
    Spec::Num(whole(K::Hidden, "model.arch.hidden")),
    Spec::Num(whole(K::Heads, "model.arch.heads")),
    Spec::Num(whole(K::KvHeads, "model.arch.kv_heads")),
    Spec::Num(whole(K::HeadDim, "model.arch.head_dim").hint(K::HeadDimHint).optional()),
    Spec::Num(whole(K::Intermediate, "model.arch.intermediate")),
    Spec::Num(whole(K::Vocab, "model.arch.vocab")),
    Spec::Num(whole(K::Experts, "model.arch.experts")),
    Spec::Num(whole(K::ExpertsActive, "model.arch.experts_active")),
    Spec::Num(whole(K::MaxContext, "model.arch.max_context").unit(K::UnitTokens)),
    select(K::MlpKind, "model.arch.mlp", o::MLP),
    check(K::TiedEmbeddings, "model.arch.tied_embeddings"),
];

pub const GENERIC: &[Spec] = &[
    Spec::Num(real(K::GenericParams, "model.generic.params").unit(K::UnitParams)),
    Spec::Num(real(K::ActivationGb, "model.generic.activation_gb").unit(K::UnitGb)),
    Spec::Num(real(K::FlopsPerItem, "model.generic.flops_per_item")),
];

/// The model section: the kind switch and the chosen kind's fields.
#[component]
pub fn ModelSection(state: AppState) -> impl IntoView {
    let kind = Memo::new(move |_| state.plan.with(kind_of));
    let body = move || match kind.get() {
        "preset" => view! { <PresetPicker state/> }.into_any(),
        "custom" => view! { <CustomShape state/> }.into_any(),
        _ => grid(state, GENERIC).into_any(),
    };
    view! {
        <fieldset class="section">
            <legend>{t(state.lang, K::Model)}</legend>
            <Segmented state spec=KIND read=|p| kind_of(p).to_string() pick=set_kind/>
            {body}
            <LazyPart state load=parts::model_file id="model-file"/>
        </fieldset>
    }
}

/// Search box, preset list (filtered by the search, the current preset
/// always kept) and the way to a custom shape.
#[component]
fn PresetPicker(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let query = RwSignal::new(String::new());
    // A loaded plan starts a fresh search.
    Effect::watch(move || state.loaded.get(), move |_, _, _| query.set(String::new()), false);
    let current = Memo::new(move |_| state.plan.with(preset_id));
    let shown = Memo::new(move |_| query.with(|q| current.with(|c| listed(q, c))));
    let none = Memo::new(move |_| query.with(|q| none_match(q)));
    let choose = move |ev| state.plan.update(|p| p.model = ModelSpec::Preset { id: event_target_value(&ev) });
    view! {
        <div class="field">
            <label for="f-model-search">{t(lang, K::ModelSearch)}</label>
            <div class="control">
                <input
                    id="f-model-search"
                    type="search"
                    autocomplete="off"
                    placeholder=t(lang, K::ModelSearchHint)
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev))
                />
            </div>
            <Show when=move || none.get()>
                <p class="hint" role="status">{t(lang, K::NoMatch)}</p>
            </Show>
        </div>
        <Labelled id="f-model-id" label=K::ModelPreset lang>
            <select id="f-model-id" data-testid="model-select" on:change=choose>
                <For each=move || shown.get() key=|(id, _)| *id let((id, name))>
                    <option value=id prop:selected=move || current.with(|c| c == id)>{name}</option>
                </For>
            </select>
        </Labelled>
        <details class="advanced">
            <summary>{t(lang, K::Advanced)}</summary>
            <p class="hint">{t(lang, K::AdvancedHint)}</p>
            <button type="button" on:click=move |_| state.plan.update(|p| set_kind(p, "custom"))>
                {t(lang, K::EditShape)}
            </button>
        </details>
    }
}

#[component]
fn CustomShape(state: AppState) -> impl IntoView {
    view! {
        <details open class="advanced">
            <summary>{t(state.lang, K::Advanced)}</summary>
            {grid(state, CUSTOM)}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_matches_every_word() {
        assert!(matches("llama 8b", "llama-3.1-8b", "Llama 3.1 8B"));
        assert!(matches("", "x", "y"));
        assert!(!matches("qwen", "llama-3.1-8b", "Llama 3.1 8B"));
    }

    #[test]
    fn the_list_keeps_the_current_preset() {
        assert_eq!(listed("", "").len(), presets::all().len());
        let list = listed("qwen", "llama-3.1-8b");
        assert!(list.len() > 1 && list.iter().any(|(id, _)| *id == "llama-3.1-8b"), "{list:?}");
        assert!(list.iter().all(|(id, name)| *id == "llama-3.1-8b" || matches("qwen", id, name)));
        assert_eq!(listed("no such model", "llama-3.1-8b").len(), 1);
        assert!(none_match("no such model"));
        assert!(!none_match("llama"));
    }

    #[test]
    fn kind_switch_carries_the_shape() {
        let mut p = Plan::default();
        set_kind(&mut p, "custom");
        let preset = presets::find("llama-3.1-8b").map(|p| p.arch());
        assert_eq!(p.model.arch().map(|a| a.into_owned()), preset);
        set_kind(&mut p, "generic");
        match &p.model {
            ModelSpec::Generic { generic } => assert_eq!(generic.params.round(), 8_030_261_248.0),
            other => panic!("not generic: {other:?}"),
        }
        set_kind(&mut p, "preset");
        assert_eq!(kind_of(&p), "preset");
    }
}
