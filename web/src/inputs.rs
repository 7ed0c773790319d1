//! The inputs column: one section per part of the plan.

use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::names;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::{hardware, presets};
use leptos::prelude::*;

use crate::fields::{check, num, radios, select, Check, Choice, Num};
use crate::fmt;
use crate::i18n::{t, Lang, K};
use crate::options as o;
use crate::state::use_app;

/// A number field bound to `plan.<path>`: `f64` fields take any number,
/// integer fields whole numbers only.
macro_rules! num {
    ($label:expr, $path:literal, f64, $($f:ident).+) => {
        Num { label: $label, path: $path, unit: None, hint: None, int: false, optional: false,
              get: |p| Some(p.$($f).+), set: |p, v| if let Some(v) = v { p.$($f).+ = v } }
    };
    ($label:expr, $path:literal, $t:ident, $($f:ident).+) => {
        Num { label: $label, path: $path, unit: None, hint: None, int: true, optional: false,
              get: |p| Some(p.$($f).+ as f64), set: |p, v| if let Some(v) = v { p.$($f).+ = v as $t } }
    };
}

/// A whole-number field of the custom model shape.
macro_rules! arch_num {
    ($label:expr, $field:ident, $t:ident) => {
        Num {
            label: $label,
            path: concat!("model.arch.", stringify!($field)),
            unit: None,
            hint: None,
            int: true,
            optional: false,
            get: |p| p.model.custom().map(|a| a.$field as f64),
            set: |p, v| {
                if let (Some(a), Some(v)) = (p.model.custom_mut(), v) {
                    a.$field = v as $t
                }
            },
        }
    };
}

/// A choice bound to an enum field, by the enum's serde names.
macro_rules! choice {
    ($label:expr, $path:literal, $opts:expr, $($f:ident).+) => {
        Choice { label: $label, path: $path, opts: $opts,
                 get: |p| names::variant(&p.$($f).+).unwrap_or(""),
                 set: |p, v| if let Some(x) = names::parse(v) { p.$($f).+ = x } }
    };
}

macro_rules! check {
    ($label:expr, $path:literal, $($f:ident).+) => {
        Check { label: $label, path: $path, get: |p| p.$($f).+, set: |p, v| p.$($f).+ = v }
    };
}

/// Fields laid out in a grid. The fields go in as a list of erased views,
/// so every grid shares one compiled shape instead of one per field tuple.
fn grid(fields: Vec<AnyView>) -> AnyView {
    view! { <div class="grid">{fields}</div> }.into_any()
}

/// Checkboxes in a row, as `grid` does for fields.
fn checks(fields: Vec<AnyView>) -> AnyView {
    view! { <div class="checks">{fields}</div> }.into_any()
}

/// A titled part of the column; like `grid`, one compiled shape for all.
fn section(lang: Lang, legend: K, body: Vec<AnyView>) -> AnyView {
    view! {
        <fieldset class="section">
            <legend>{t(lang, legend)}</legend>
            {body}
        </fieldset>
    }
    .into_any()
}

impl Num {
    fn unit(mut self, k: K) -> Self {
        self.unit = Some(k);
        self
    }
    fn hint(mut self, k: K) -> Self {
        self.hint = Some(k);
        self
    }
}

/// The whole column. Rebuilt when a plan is loaded so typed text resets.
#[component]
pub fn Inputs() -> impl IntoView {
    let app = use_app();
    let task = Memo::new(move |_| app.plan.with(|p| p.task));
    move || {
        app.loaded.track();
        let lang = app.lang.get();
        view! {
            <section class="inputs" aria-labelledby="inputs-h">
                <h2 id="inputs-h">{t(lang, K::Inputs)}</h2>
                {radios(lang, choice!(K::Task, "task", o::TASK, task))}
                <ModelSection lang/>
                {move || match task.get() {
                    Task::Infer => inference(lang),
                    Task::Train => training(lang),
                }}
                {parallel(lang)}
                {hardware(lang)}
                {cost(lang)}
            </section>
        }
    }
}

fn kind_of(p: &Plan) -> &'static str {
    match p.model {
        ModelSpec::Preset { .. } => "preset",
        ModelSpec::Custom { .. } => "custom",
        ModelSpec::Generic { .. } => "generic",
    }
}

/// Switching kind keeps what carries over: a preset's shape becomes the
/// custom shape's start; its parameter count the generic model's.
fn set_kind(p: &mut Plan, kind: &str) {
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

#[component]
fn ModelSection(lang: Lang) -> impl IntoView {
    let app = use_app();
    let kind = Memo::new(move |_| app.plan.with(kind_of));
    let kind_choice =
        Choice { label: K::ModelKind, path: "model", opts: o::MODEL_KIND, get: kind_of, set: set_kind };
    view! {
        <fieldset class="section">
            <legend>{t(lang, K::Model)}</legend>
            {radios(lang, kind_choice)}
            {move || match kind.get() {
                "preset" => view! { <PresetPicker lang/> }.into_any(),
                "custom" => custom_shape(lang).into_any(),
                _ => generic_model(lang),
            }}
        </fieldset>
    }
}

/// Case-insensitive match on name or id, every word of the query.
pub fn matches(query: &str, id: &str, name: &str) -> bool {
    let hay = format!("{} {}", id, name).to_ascii_lowercase();
    query.to_ascii_lowercase().split_whitespace().all(|w| hay.contains(w))
}

#[component]
fn PresetPicker(lang: Lang) -> impl IntoView {
    let app = use_app();
    let list: StoredValue<Vec<(&'static str, &'static str)>> =
        StoredValue::new(presets::all().iter().map(|p| (p.id, p.name)).collect());
    let query = RwSignal::new(String::new());
    let current = Memo::new(move |_| {
        app.plan.with(|p| match &p.model {
            ModelSpec::Preset { id } => id.clone(),
            _ => String::new(),
        })
    });
    let options = move || {
        let q = query.get();
        let cur = current.get();
        list.with_value(|l| {
            l.iter()
                .filter(|(id, name)| *id == cur || matches(&q, id, name))
                .map(|&(id, name)| view! { <option value=id prop:selected=id == cur>{name}</option> })
                .collect_view()
        })
    };
    let none = move || {
        let q = query.get();
        list.with_value(|l| !l.iter().any(|(id, name)| matches(&q, id, name)))
    };
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
            <Show when=none>
                <p class="hint" role="status">{t(lang, K::NoMatch)}</p>
            </Show>
        </div>
        <div class="field">
            <label for="f-model-id">{t(lang, K::ModelPreset)}</label>
            <div class="control">
                <select
                    id="f-model-id"
                    data-testid="model-select"
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        app.plan.update(|p| p.model = ModelSpec::Preset { id });
                    }
                >
                    {options}
                </select>
            </div>
        </div>
        <details class="advanced">
            <summary>{t(lang, K::Advanced)}</summary>
            <p class="hint">{t(lang, K::AdvancedHint)}</p>
            <button type="button" on:click=move |_| app.plan.update(|p| set_kind(p, "custom"))>
                {t(lang, K::EditShape)}
            </button>
        </details>
    }
}

fn custom_shape(lang: Lang) -> impl IntoView {
    let params = Num {
        label: K::Params,
        path: "model.arch.params",
        unit: Some(K::UnitParams),
        hint: Some(K::ParamsHint),
        int: false,
        optional: true,
        get: |p| p.model.custom().and_then(|a| a.params),
        set: |p, v| {
            if let Some(a) = p.model.custom_mut() {
                a.params = v;
            }
        },
    };
    let head_dim = Num {
        label: K::HeadDim,
        path: "model.arch.head_dim",
        unit: None,
        hint: Some(K::HeadDimHint),
        int: true,
        optional: true,
        get: |p| p.model.custom().and_then(|a| a.head_dim).map(f64::from),
        set: |p, v| {
            if let Some(a) = p.model.custom_mut() {
                a.head_dim = v.map(|v| v as u32);
            }
        },
    };
    let mlp = Choice {
        label: K::MlpKind,
        path: "model.arch.mlp",
        opts: o::MLP,
        get: |p| p.model.custom().and_then(|a| names::variant(&a.mlp)).unwrap_or(""),
        set: |p, v| {
            if let (Some(a), Some(m)) = (p.model.custom_mut(), names::parse(v)) {
                a.mlp = m;
            }
        },
    };
    let tied = Check {
        label: K::TiedEmbeddings,
        path: "model.arch.tied_embeddings",
        get: |p| p.model.custom().is_some_and(|a| a.tied_embeddings),
        set: |p, v| {
            if let Some(a) = p.model.custom_mut() {
                a.tied_embeddings = v;
            }
        },
    };
    let fields = grid(vec![
        num(lang, params),
        num(lang, arch_num!(K::Layers, layers, u32)),
        num(lang, arch_num!(K::Hidden, hidden, u32)),
        num(lang, arch_num!(K::Heads, heads, u32)),
        num(lang, arch_num!(K::KvHeads, kv_heads, u32)),
        num(lang, head_dim),
        num(lang, arch_num!(K::Intermediate, intermediate, u32)),
        num(lang, arch_num!(K::Vocab, vocab, u32)),
        num(lang, arch_num!(K::Experts, experts, u32)),
        num(lang, arch_num!(K::ExpertsActive, experts_active, u32)),
        num(lang, arch_num!(K::MaxContext, max_context, u64).unit(K::UnitTokens)),
        select(lang, mlp),
        check(lang, tied),
    ]);
    view! {
        <details class="advanced" open>
            <summary>{t(lang, K::Advanced)}</summary>
            {fields}
        </details>
    }
}

fn generic_model(lang: Lang) -> AnyView {
    macro_rules! generic_num {
        ($label:expr, $field:ident) => {
            Num {
                label: $label,
                path: concat!("model.generic.", stringify!($field)),
                unit: None,
                hint: None,
                int: false,
                optional: false,
                get: |p| match &p.model {
                    ModelSpec::Generic { generic } => Some(generic.$field),
                    _ => None,
                },
                set: |p, v| {
                    if let (Some(g), Some(v)) = (p.model.generic_mut(), v) {
                        g.$field = v;
                    }
                },
            }
        };
    }
    grid(vec![
        num(lang, generic_num!(K::GenericParams, params).unit(K::UnitParams)),
        num(lang, generic_num!(K::ActivationGb, activation_gb).unit(K::UnitGb)),
        num(lang, generic_num!(K::FlopsPerItem, flops_per_item)),
    ])
}

fn inference(lang: Lang) -> AnyView {
    let fields = grid(vec![
        select(lang, choice!(K::Weights, "inference.weights", o::WEIGHTS, inference.weights)),
        select(lang, choice!(K::KvDtype, "inference.kv_dtype", o::KV_DTYPE, inference.kv_dtype)),
        num(
            lang,
            num!(K::Context, "inference.context", u64, inference.context)
                .unit(K::UnitTokens)
                .hint(K::ContextHint),
        ),
        num(
            lang,
            num!(K::Concurrency, "inference.concurrency", u64, inference.concurrency).unit(K::UnitSeqs),
        ),
        select(lang, choice!(K::Engine, "inference.engine", o::ENGINE, inference.engine)),
        num(
            lang,
            num!(K::GpuMemUtil, "inference.gpu_mem_util", f64, inference.gpu_mem_util)
                .hint(K::GpuMemUtilHint),
        ),
        num(
            lang,
            num!(K::PromptTokens, "inference.prompt_tokens", u64, inference.prompt_tokens)
                .unit(K::UnitTokens),
        ),
        num(
            lang,
            num!(K::OutputTokens, "inference.output_tokens", u64, inference.output_tokens)
                .unit(K::UnitTokens),
        ),
        num(
            lang,
            num!(K::TargetQps, "inference.target_qps", f64, inference.target_qps)
                .unit(K::UnitPerSec)
                .hint(K::TargetQpsHint),
        ),
        num(lang, num!(K::ResponseKb, "inference.response_kb", f64, inference.response_kb).unit(K::UnitKb)),
    ]);
    section(lang, K::InferSection, vec![fields])
}

fn training(lang: Lang) -> AnyView {
    let fields = grid(vec![
        select(lang, choice!(K::Method, "training.method", o::METHOD, training.method)),
        num(lang, num!(K::LoraRank, "training.lora_rank", u32, training.lora_rank)),
        select(
            lang,
            choice!(K::LoraTargets, "training.lora_targets", o::LORA_TARGETS, training.lora_targets),
        ),
        select(lang, choice!(K::Precision, "training.precision", o::PRECISION, training.precision)),
        select(lang, choice!(K::Optimizer, "training.optimizer", o::OPTIMIZER, training.optimizer)),
        num(lang, num!(K::Batch, "training.batch", u64, training.batch).unit(K::UnitSeqs)),
        num(lang, num!(K::Seq, "training.seq", u64, training.seq).unit(K::UnitTokens)),
        select(lang, choice!(K::GradCkpt, "training.grad_ckpt", o::GRAD_CKPT, training.grad_ckpt)),
        num(
            lang,
            num!(K::DatasetTokens, "training.dataset_tokens", f64, training.dataset_tokens)
                .unit(K::UnitTokens),
        ),
        num(lang, num!(K::Epochs, "training.epochs", f64, training.epochs)),
        num(lang, num!(K::Mfu, "training.mfu", f64, training.mfu).hint(K::MfuHint)),
    ]);
    let boxes = checks(vec![
        check(lang, check!(K::OptInBwd, "training.opt_in_bwd", training.opt_in_bwd)),
        check(lang, check!(K::ActOffload, "training.act_offload", training.act_offload)),
        check(lang, check!(K::ChunkedCe, "training.chunked_ce", training.chunked_ce)),
        check(lang, check!(K::FlashAttn, "training.flash_attn", training.flash_attn)),
    ]);
    section(lang, K::TrainSection, vec![fields, boxes])
}

fn parallel(lang: Lang) -> AnyView {
    let fields = grid(vec![
        num(lang, num!(K::Gpus, "parallel.gpus", u32, parallel.gpus).unit(K::UnitGpus)),
        num(lang, num!(K::Tp, "parallel.tp", u32, parallel.tp)),
        num(lang, num!(K::Pp, "parallel.pp", u32, parallel.pp)),
        select(lang, choice!(K::Shard, "parallel.shard", o::SHARD, parallel.shard)),
    ]);
    section(lang, K::ParallelSection, vec![fields])
}

/// The GPU the results are measured against, from the catalog.
fn gpu_select(lang: Lang) -> AnyView {
    let app = use_app();
    let current = Memo::new(move |_| app.plan.with(|p| p.hardware.gpu.clone()));
    let options = hardware::catalog()
        .iter()
        .map(|g| {
            let id = g.id.as_ref();
            let label = format!("{} · {} GB", g.name, fmt::field(g.memory_gb));
            view! { <option value=id prop:selected=move || current.with(|c| c == id)>{label}</option> }
        })
        .collect_view();
    view! {
        <div class="field">
            <label for="f-hardware-gpu">{t(lang, K::Gpu)}</label>
            <div class="control">
                <select
                    id="f-hardware-gpu"
                    data-testid="gpu-select"
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        app.plan.update(|p| p.hardware.gpu = id);
                    }
                >
                    {options}
                </select>
            </div>
        </div>
    }
    .into_any()
}

fn hardware(lang: Lang) -> AnyView {
    let fields = grid(vec![
        gpu_select(lang),
        num(
            lang,
            num!(K::Headroom, "hardware.headroom_pct", f64, hardware.headroom_pct)
                .unit(K::UnitPct)
                .hint(K::HeadroomHint),
        ),
        num(
            lang,
            num!(K::GpusPerNode, "hardware.gpus_per_node", u32, hardware.gpus_per_node).unit(K::UnitGpus),
        ),
    ]);
    section(lang, K::HardwareSection, vec![fields])
}

fn cost(lang: Lang) -> AnyView {
    let fields = grid(vec![
        select(lang, choice!(K::Currency, "cost.currency", o::CURRENCY, cost.currency)),
        num(lang, num!(K::Months, "cost.months", f64, cost.months).unit(K::UnitMonths)),
        num(lang, num!(K::HoursPerDay, "cost.hours_per_day", f64, cost.hours_per_day).unit(K::UnitHours)),
        num(lang, num!(K::StorageGb, "cost.storage_gb", f64, cost.storage_gb).unit(K::UnitGb)),
        num(lang, num!(K::Ips, "cost.ips", u32, cost.ips)),
        num(lang, num!(K::EgressGb, "cost.egress_gb", f64, cost.egress_gb).unit(K::UnitGb)),
        num(
            lang,
            num!(K::DebugPct, "cost.debug_pct", f64, cost.debug_pct).unit(K::UnitPct).hint(K::DebugHint),
        ),
        num(
            lang,
            num!(K::ContingencyPct, "cost.contingency_pct", f64, cost.contingency_pct)
                .unit(K::UnitPct)
                .hint(K::ContingencyHint),
        ),
        num(lang, num!(K::DeadlineH, "cost.deadline_h", f64, cost.deadline_h).unit(K::UnitHours)),
    ]);
    let egress = checks(vec![check(lang, check!(K::EgressAuto, "cost.egress_auto", cost.egress_auto))]);
    let more = grid(vec![
        num(lang, num!(K::CnyPerUsd, "cost.cny_per_usd", f64, cost.cny_per_usd)),
        num(lang, num!(K::Starts, "cost.starts", u32, cost.starts)),
        num(lang, num!(K::StoppedDays, "cost.stopped_days", f64, cost.stopped_days).unit(K::UnitDays)),
        num(lang, num!(K::SpotPerDay, "cost.spot_per_day", f64, cost.spot_per_day)),
        num(lang, num!(K::CkptMin, "cost.ckpt_min", f64, cost.ckpt_min).unit(K::UnitMin)),
        num(lang, num!(K::RestartMin, "cost.restart_min", f64, cost.restart_min).unit(K::UnitMin)),
        num(lang, num!(K::SpCommit, "cost.sp_commit", f64, cost.sp_commit)),
        select(lang, choice!(K::SpUpfront, "cost.sp_upfront", o::UPFRONT, cost.sp_upfront)),
        num(lang, num!(K::BlockDays, "cost.block_days", u32, cost.block_days).unit(K::UnitDays)),
    ]);
    let prorate = checks(vec![check(lang, check!(K::Prorate, "cost.prorate", cost.prorate))]);
    let advanced = view! {
        <details class="advanced">
            <summary>{t(lang, K::MoreCost)}</summary>
            {more}
            {prorate}
        </details>
    }
    .into_any();
    section(lang, K::CostSection, vec![fields, egress, advanced])
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
