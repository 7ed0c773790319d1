//! The inputs column: one section per part of the plan, built as plain data
//! and patched into the page (`dom::form`); each control's events find its
//! field by path and set the plan.

use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::names;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::{hardware, presets};
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{checked, form, h, value, El, Ev};
use crate::fields::{labelled, option, parse, Check, Choice, Form, Num, Spec, Typed};
use crate::fmt;
use crate::i18n::{t, K};
use crate::options as o;
use crate::state::App;

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

/// Fields laid out in a grid.
fn grid(fields: Vec<El>) -> El {
    h("div").c("grid").ks(fields)
}

/// Checkboxes in a row.
fn checks(fields: Vec<El>) -> El {
    h("div").c("checks").ks(fields)
}

/// A titled part of the column.
fn section(f: &Form, legend: K, body: Vec<El>) -> El {
    h("fieldset").c("section").k(h("legend").t(t(f.lang, legend))).ks(body)
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

/// The whole column. What the user typed stays until a plan is loaded.
pub fn inputs(app: App) -> Option<Element> {
    let typed: RwSignal<Typed> = RwSignal::new(Vec::new());
    let query = RwSignal::new(String::new());
    // The fields the column shows now, for the events to find by path.
    let specs = StoredValue::new(Vec::<Spec>::new());
    Effect::new_sync(move |_| {
        app.loaded.track();
        typed.set(Vec::new());
        query.set(String::new());
    });
    let build = move || {
        let lang = app.lang.get();
        let q = query.get();
        app.errors(|errs| {
            app.plan.with(|plan| {
                typed.with(|typed| {
                    let mut f = Form::new(lang, plan, typed, errs.map_or(&[][..], Vec::as_slice));
                    let el = column(&mut f, &q);
                    specs.set_value(f.specs);
                    Some(el)
                })
            })
        })
    };
    let on = move |ev: Ev, act: &str, arg: &str, el: &Element| {
        let spec = || specs.with_value(|s| s.iter().find(|s| s.path() == arg).copied());
        match (ev, act, spec()) {
            (Ev::Input, "num", Some(Spec::Num(n))) => {
                let text = value(el);
                if let Ok(v) = parse(&text, n.int, n.optional) {
                    app.plan.update(|p| (n.set)(p, v));
                }
                let now = app.plan.with_untracked(|p| (n.get)(p));
                typed.update(|list| {
                    list.retain(|(p, ..)| *p != n.path);
                    list.push((n.path, text, now));
                });
            }
            (Ev::Change, "choice", Some(Spec::Choice(c))) => app.plan.update(|p| (c.set)(p, &value(el))),
            (Ev::Change, "check", Some(Spec::Check(c))) => {
                let on = checked(el);
                app.plan.update(|p| (c.set)(p, on));
            }
            (Ev::Input, "search", _) => query.set(value(el)),
            (Ev::Change, "preset", _) => app.plan.update(|p| p.model = ModelSpec::Preset { id: value(el) }),
            (Ev::Change, "gpu", _) => app.plan.update(|p| p.hardware.gpu = value(el)),
            (Ev::Click, "shape", _) => app.plan.update(|p| set_kind(p, "custom")),
            _ => {}
        }
    };
    form("inputs-host", build, on)
}

fn column(f: &mut Form, query: &str) -> El {
    let task = f.radios(choice!(K::Task, "task", o::TASK, task));
    let work = match f.plan.task {
        Task::Infer => inference(f),
        Task::Train => training(f),
    };
    h("section")
        .c("inputs")
        .a("aria-labelledby", "inputs-h")
        .k(h("h2").a("id", "inputs-h").t(t(f.lang, K::Inputs)))
        .k(task)
        .k(model(f, query))
        .k(work)
        .k(parallel(f))
        .k(hardware(f))
        .k(cost(f))
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

fn model(f: &mut Form, query: &str) -> El {
    let kind =
        Choice { label: K::ModelKind, path: "model", opts: o::MODEL_KIND, get: kind_of, set: set_kind };
    let kind = f.radios(kind);
    let body = match kind_of(f.plan) {
        "preset" => preset_picker(f, query),
        "custom" => vec![custom_shape(f)],
        _ => vec![generic_model(f)],
    };
    section(f, K::Model, vec![kind]).ks(body)
}

/// Case-insensitive match on name or id, every word of the query.
pub fn matches(query: &str, id: &str, name: &str) -> bool {
    let hay = format!("{} {}", id, name).to_ascii_lowercase();
    // Bytes: `str::contains(&str)` would bring std's two-way searcher into
    // the wasm for this one search box (issue 10).
    let has = |w: &str| hay.as_bytes().windows(w.len()).any(|x| x == w.as_bytes());
    query.to_ascii_lowercase().split_whitespace().all(has)
}

/// Search box, preset list (filtered by the search, the current preset
/// always kept) and the way to a custom shape.
fn preset_picker(f: &Form, query: &str) -> Vec<El> {
    let lang = f.lang;
    let current = match &f.plan.model {
        ModelSpec::Preset { id } => id.as_str(),
        _ => "",
    };
    let all = presets::all();
    let none = !all.iter().any(|p| matches(query, p.id, p.name));
    let search = h("input")
        .a("id", "f-model-search")
        .a("type", "search")
        .a("autocomplete", "off")
        .a("placeholder", t(lang, K::ModelSearchHint))
        .a("value", query)
        .a("data-act", "search");
    let search = labelled("f-model-search", t(lang, K::ModelSearch), search)
        .opt(none.then(|| h("p").c("hint").a("role", "status").t(t(lang, K::NoMatch))));
    let options = all
        .iter()
        .filter(|p| p.id == current || matches(query, p.id, p.name))
        .map(|p| option(p.id, p.name, p.id == current));
    let select = h("select")
        .a("id", "f-model-id")
        .a("data-testid", "model-select")
        .a("data-act", "preset")
        .ks(options);
    let advanced = h("details")
        .c("advanced")
        .k(h("summary").t(t(lang, K::Advanced)))
        .k(h("p").c("hint").t(t(lang, K::AdvancedHint)))
        .k(h("button").a("type", "button").a("data-act", "shape").t(t(lang, K::EditShape)));
    vec![search, labelled("f-model-id", t(lang, K::ModelPreset), select), advanced]
}

fn custom_shape(f: &mut Form) -> El {
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
        f.num(params),
        f.num(arch_num!(K::Layers, layers, u32)),
        f.num(arch_num!(K::Hidden, hidden, u32)),
        f.num(arch_num!(K::Heads, heads, u32)),
        f.num(arch_num!(K::KvHeads, kv_heads, u32)),
        f.num(head_dim),
        f.num(arch_num!(K::Intermediate, intermediate, u32)),
        f.num(arch_num!(K::Vocab, vocab, u32)),
        f.num(arch_num!(K::Experts, experts, u32)),
        f.num(arch_num!(K::ExpertsActive, experts_active, u32)),
        f.num(arch_num!(K::MaxContext, max_context, u64).unit(K::UnitTokens)),
        f.select(mlp),
        f.check(tied),
    ]);
    h("details").a("open", "").c("advanced").k(h("summary").t(t(f.lang, K::Advanced))).k(fields)
}

fn generic_model(f: &mut Form) -> El {
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
        f.num(generic_num!(K::GenericParams, params).unit(K::UnitParams)),
        f.num(generic_num!(K::ActivationGb, activation_gb).unit(K::UnitGb)),
        f.num(generic_num!(K::FlopsPerItem, flops_per_item)),
    ])
}

fn inference(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Weights, "inference.weights", o::WEIGHTS, inference.weights)),
        f.select(choice!(K::KvDtype, "inference.kv_dtype", o::KV_DTYPE, inference.kv_dtype)),
        f.num(
            num!(K::Context, "inference.context", u64, inference.context)
                .unit(K::UnitTokens)
                .hint(K::ContextHint),
        ),
        f.num(num!(K::Concurrency, "inference.concurrency", u64, inference.concurrency).unit(K::UnitSeqs)),
        f.select(choice!(K::Engine, "inference.engine", o::ENGINE, inference.engine)),
        f.num(
            num!(K::GpuMemUtil, "inference.gpu_mem_util", f64, inference.gpu_mem_util)
                .hint(K::GpuMemUtilHint),
        ),
        f.num(
            num!(K::PromptTokens, "inference.prompt_tokens", u64, inference.prompt_tokens)
                .unit(K::UnitTokens),
        ),
        f.num(
            num!(K::OutputTokens, "inference.output_tokens", u64, inference.output_tokens)
                .unit(K::UnitTokens),
        ),
        f.num(
            num!(K::TargetQps, "inference.target_qps", f64, inference.target_qps)
                .unit(K::UnitPerSec)
                .hint(K::TargetQpsHint),
        ),
        f.num(num!(K::ResponseKb, "inference.response_kb", f64, inference.response_kb).unit(K::UnitKb)),
    ]);
    section(f, K::InferSection, vec![fields])
}

fn training(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Method, "training.method", o::METHOD, training.method)),
        f.num(num!(K::LoraRank, "training.lora_rank", u32, training.lora_rank)),
        f.select(choice!(K::LoraTargets, "training.lora_targets", o::LORA_TARGETS, training.lora_targets)),
        f.select(choice!(K::Precision, "training.precision", o::PRECISION, training.precision)),
        f.select(choice!(K::Optimizer, "training.optimizer", o::OPTIMIZER, training.optimizer)),
        f.num(num!(K::Batch, "training.batch", u64, training.batch).unit(K::UnitSeqs)),
        f.num(num!(K::Seq, "training.seq", u64, training.seq).unit(K::UnitTokens)),
        f.select(choice!(K::GradCkpt, "training.grad_ckpt", o::GRAD_CKPT, training.grad_ckpt)),
        f.num(
            num!(K::DatasetTokens, "training.dataset_tokens", f64, training.dataset_tokens)
                .unit(K::UnitTokens),
        ),
        f.num(num!(K::Epochs, "training.epochs", f64, training.epochs)),
        f.num(num!(K::Mfu, "training.mfu", f64, training.mfu).hint(K::MfuHint)),
    ]);
    let boxes = checks(vec![
        f.check(check!(K::OptInBwd, "training.opt_in_bwd", training.opt_in_bwd)),
        f.check(check!(K::ActOffload, "training.act_offload", training.act_offload)),
        f.check(check!(K::ChunkedCe, "training.chunked_ce", training.chunked_ce)),
        f.check(check!(K::FlashAttn, "training.flash_attn", training.flash_attn)),
    ]);
    section(f, K::TrainSection, vec![fields, boxes])
}

fn parallel(f: &mut Form) -> El {
    let fields = grid(vec![
        f.num(num!(K::Gpus, "parallel.gpus", u32, parallel.gpus).unit(K::UnitGpus)),
        f.num(num!(K::Tp, "parallel.tp", u32, parallel.tp)),
        f.num(num!(K::Pp, "parallel.pp", u32, parallel.pp)),
        f.select(choice!(K::Shard, "parallel.shard", o::SHARD, parallel.shard)),
    ]);
    section(f, K::ParallelSection, vec![fields])
}

/// The GPU the results are measured against, from the catalog.
fn gpu_select(f: &Form) -> El {
    let current = f.plan.hardware.gpu.as_str();
    let options = hardware::catalog().iter().map(|g| {
        let label = format!("{} · {} GB", g.name, fmt::shortest(g.memory_gb));
        option(&g.id, &label, g.id == current)
    });
    let select =
        h("select").a("id", "f-hardware-gpu").a("data-testid", "gpu-select").a("data-act", "gpu").ks(options);
    labelled("f-hardware-gpu", t(f.lang, K::Gpu), select)
}

fn hardware(f: &mut Form) -> El {
    let fields = grid(vec![
        gpu_select(f),
        f.num(
            num!(K::Headroom, "hardware.headroom_pct", f64, hardware.headroom_pct)
                .unit(K::UnitPct)
                .hint(K::HeadroomHint),
        ),
        f.num(num!(K::GpusPerNode, "hardware.gpus_per_node", u32, hardware.gpus_per_node).unit(K::UnitGpus)),
    ]);
    section(f, K::HardwareSection, vec![fields])
}

fn cost(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Currency, "cost.currency", o::CURRENCY, cost.currency)),
        f.num(num!(K::Months, "cost.months", f64, cost.months).unit(K::UnitMonths)),
        f.num(num!(K::HoursPerDay, "cost.hours_per_day", f64, cost.hours_per_day).unit(K::UnitHours)),
        f.num(num!(K::StorageGb, "cost.storage_gb", f64, cost.storage_gb).unit(K::UnitGb)),
        f.num(num!(K::Ips, "cost.ips", u32, cost.ips)),
        f.num(num!(K::EgressGb, "cost.egress_gb", f64, cost.egress_gb).unit(K::UnitGb)),
        f.num(num!(K::DebugPct, "cost.debug_pct", f64, cost.debug_pct).unit(K::UnitPct).hint(K::DebugHint)),
        f.num(
            num!(K::ContingencyPct, "cost.contingency_pct", f64, cost.contingency_pct)
                .unit(K::UnitPct)
                .hint(K::ContingencyHint),
        ),
        f.num(num!(K::DeadlineH, "cost.deadline_h", f64, cost.deadline_h).unit(K::UnitHours)),
    ]);
    let egress = checks(vec![f.check(check!(K::EgressAuto, "cost.egress_auto", cost.egress_auto))]);
    let more = grid(vec![
        f.num(num!(K::CnyPerUsd, "cost.cny_per_usd", f64, cost.cny_per_usd)),
        f.num(num!(K::Starts, "cost.starts", u32, cost.starts)),
        f.num(num!(K::StoppedDays, "cost.stopped_days", f64, cost.stopped_days).unit(K::UnitDays)),
        f.num(num!(K::SpotPerDay, "cost.spot_per_day", f64, cost.spot_per_day)),
        f.num(num!(K::CkptMin, "cost.ckpt_min", f64, cost.ckpt_min).unit(K::UnitMin)),
        f.num(num!(K::RestartMin, "cost.restart_min", f64, cost.restart_min).unit(K::UnitMin)),
        f.num(num!(K::SpCommit, "cost.sp_commit", f64, cost.sp_commit)),
        f.select(choice!(K::SpUpfront, "cost.sp_upfront", o::UPFRONT, cost.sp_upfront)),
        f.num(num!(K::BlockDays, "cost.block_days", u32, cost.block_days).unit(K::UnitDays)),
    ]);
    let prorate = checks(vec![f.check(check!(K::Prorate, "cost.prorate", cost.prorate))]);
    let advanced = h("details").c("advanced").k(h("summary").t(t(f.lang, K::MoreCost))).k(more).k(prorate);
    section(f, K::CostSection, vec![fields, egress, advanced])
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
