//! The inputs column: one section per part of the plan, built as plain data
//! and patched into the page (`dom::form`); each control's events find its
//! field by path and set the plan.

use gpuplan_core::hardware;
use gpuplan_core::model::presets;
use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::plan::{Plan, Task};
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{checked, form, h, value, El, Ev};
use crate::fields::{
    labelled, option, parse, set, shown, write, Check, Choice, Form, Num, Spec, Typed, MEASURED,
};
use crate::i18n::{t, K};
use crate::options as o;
use crate::state::AppState;

/// A number field at `plan.<path>`: `f64` fields take any number, integer
/// fields whole numbers only.
macro_rules! num {
    ($label:expr, $path:expr, f64) => {
        Num { label: $label, path: $path, unit: None, hint: None, int: false, optional: false }
    };
    ($label:expr, $path:expr, int) => {
        Num { label: $label, path: $path, unit: None, hint: None, int: true, optional: false }
    };
}

/// A choice among an enum's serde names.
macro_rules! choice {
    ($label:expr, $path:literal, $opts:expr) => {
        Choice { label: $label, path: $path, opts: $opts }
    };
}

macro_rules! check {
    ($label:expr, $path:literal) => {
        Check { label: $label, path: $path }
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
pub fn inputs(app: AppState) -> Option<Element> {
    let typed: RwSignal<Typed> = RwSignal::new(Vec::new());
    // Bumped when a typed text does not read as a number, or did not before.
    let typos = RwSignal::new(0u32);
    let query = RwSignal::new(String::new());
    // The fields the column shows now, for the events to find by path.
    let specs = StoredValue::new(Vec::<Spec>::new());
    Effect::new_sync(move |_| {
        app.loaded.track();
        typed.set(Vec::new());
        query.set(String::new());
    });
    // A keystroke that leaves the column as it was (a number, which the field
    // shows as typed) redraws it once the plan has settled, after the
    // headline's frame (issue 10); a typo, a new error or a search at once.
    let build = move || {
        let lang = app.lang;
        let q = query.get();
        app.settled.track();
        typos.track();
        app.errors(|errs| {
            app.plan.with_untracked(|plan| {
                typed.with_untracked(|typed| {
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
                // Checked here for the field's message; the core reads the same text.
                let reads = parse(&text, n.int, n.optional).is_ok();
                if reads {
                    app.plan.update(|p| set(p, n.path, text.trim()));
                }
                let now = app.plan.with_untracked(|p| shown(p, n.path));
                let was_typo = typed.with_untracked(|list| {
                    list.iter().any(|(p, t, _)| *p == n.path && parse(t, n.int, n.optional).is_err())
                });
                if was_typo || !reads {
                    typos.update(|c| *c = c.wrapping_add(1));
                }
                typed.update(|list| {
                    list.retain(|(p, ..)| *p != n.path);
                    list.push((n.path, text, now));
                });
            }
            (Ev::Change, "choice", Some(Spec::Choice(c))) => {
                app.plan.update(|p| write(p, c.path, &value(el)))
            }
            (Ev::Change, "check", Some(Spec::Check(c))) => {
                let on = if checked(el) { "1" } else { "0" };
                app.plan.update(|p| write(p, c.path, on));
            }
            (Ev::Change, "kind", _) => app.plan.update(|p| set_kind(p, &value(el))),
            (Ev::Input, "search", _) => query.set(value(el)),
            (Ev::Change, "preset", _) => app.plan.update(|p| p.model = ModelSpec::Preset { id: value(el) }),
            (Ev::Change, "gpu", _) => app.plan.update(|p| write(p, "hardware.gpu", &value(el))),
            (Ev::Click, "shape", _) => app.plan.update(|p| set_kind(p, "custom")),
            _ => {}
        }
    };
    form("inputs-host", build, on)
}

fn column(f: &mut Form, query: &str) -> El {
    let task = f.radios(choice!(K::Task, "task", o::TASK));
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
    let kind = f.segmented(choice!(K::ModelKind, "model", o::MODEL_KIND), kind_of(f.plan), "kind");
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
        unit: Some(K::UnitParams),
        hint: Some(K::ParamsHint),
        optional: true,
        ..num!(K::Params, "model.arch.params", f64)
    };
    let head_dim =
        Num { hint: Some(K::HeadDimHint), optional: true, ..num!(K::HeadDim, "model.arch.head_dim", int) };
    let fields = grid(vec![
        f.num(params),
        f.num(num!(K::Layers, "model.arch.layers", int)),
        f.num(num!(K::Hidden, "model.arch.hidden", int)),
        f.num(num!(K::Heads, "model.arch.heads", int)),
        f.num(num!(K::KvHeads, "model.arch.kv_heads", int)),
        f.num(head_dim),
        f.num(num!(K::Intermediate, "model.arch.intermediate", int)),
        f.num(num!(K::Vocab, "model.arch.vocab", int)),
        f.num(num!(K::Experts, "model.arch.experts", int)),
        f.num(num!(K::ExpertsActive, "model.arch.experts_active", int)),
        f.num(num!(K::MaxContext, "model.arch.max_context", int).unit(K::UnitTokens)),
        f.select(choice!(K::MlpKind, "model.arch.mlp", o::MLP)),
        f.check(check!(K::TiedEmbeddings, "model.arch.tied_embeddings")),
    ]);
    h("details").a("open", "").c("advanced").k(h("summary").t(t(f.lang, K::Advanced))).k(fields)
}

fn generic_model(f: &mut Form) -> El {
    grid(vec![
        f.num(num!(K::GenericParams, "model.generic.params", f64).unit(K::UnitParams)),
        f.num(num!(K::ActivationGb, "model.generic.activation_gb", f64).unit(K::UnitGb)),
        f.num(num!(K::FlopsPerItem, "model.generic.flops_per_item", f64)),
    ])
}

fn inference(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Weights, "inference.weights", o::WEIGHTS)),
        f.select(choice!(K::KvDtype, "inference.kv_dtype", o::KV_DTYPE)),
        f.num(num!(K::Context, "inference.context", int).unit(K::UnitTokens).hint(K::ContextHint)),
        f.num(num!(K::Concurrency, "inference.concurrency", int).unit(K::UnitSeqs)),
        f.select(choice!(K::Engine, "inference.engine", o::ENGINE)),
        f.num(num!(K::GpuMemUtil, "inference.gpu_mem_util", f64).hint(K::GpuMemUtilHint)),
        f.num(num!(K::PromptTokens, "inference.prompt_tokens", int).unit(K::UnitTokens)),
        f.num(num!(K::OutputTokens, "inference.output_tokens", int).unit(K::UnitTokens)),
        f.num(num!(K::TargetQps, "inference.target_qps", f64).unit(K::UnitPerSec).hint(K::TargetQpsHint)),
        f.num(num!(K::TtftTarget, "inference.ttft_ms", f64).unit(K::UnitMs).hint(K::NoTargetHint)),
        f.num(num!(K::TpotTarget, "inference.tpot_ms", f64).unit(K::UnitMs).hint(K::NoTargetHint)),
        f.num(num!(K::PrefixHit, "inference.prefix_hit", f64).hint(K::PrefixHitHint)),
        f.num(Num {
            unit: Some(K::UnitTokS),
            hint: Some(K::MeasuredHint),
            optional: true,
            ..num!(K::Measured, MEASURED, f64)
        }),
        f.num(num!(K::ResponseKb, "inference.response_kb", f64).unit(K::UnitKb)),
    ]);
    section(f, K::InferSection, vec![fields])
}

fn training(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Method, "training.method", o::METHOD)),
        f.num(num!(K::LoraRank, "training.lora_rank", int)),
        f.select(choice!(K::LoraTargets, "training.lora_targets", o::LORA_TARGETS)),
        f.select(choice!(K::Precision, "training.precision", o::PRECISION)),
        f.select(choice!(K::Optimizer, "training.optimizer", o::OPTIMIZER)),
        f.num(num!(K::Batch, "training.batch", int).unit(K::UnitSeqs)),
        f.num(num!(K::Seq, "training.seq", int).unit(K::UnitTokens)),
        f.select(choice!(K::GradCkpt, "training.grad_ckpt", o::GRAD_CKPT)),
        f.num(num!(K::GradAccum, "training.grad_accum", int)),
        f.select(choice!(K::Loss, "training.loss", o::LOSS)),
        f.num(num!(K::DatasetTokens, "training.dataset_tokens", f64).unit(K::UnitTokens)),
        f.num(num!(K::Epochs, "training.epochs", f64)),
        f.num(Num { hint: Some(K::MfuHint), optional: true, ..num!(K::Mfu, "training.mfu", f64) }),
    ]);
    let boxes = checks(vec![
        f.check(check!(K::OptInBwd, "training.opt_in_bwd")),
        f.check(check!(K::ActOffload, "training.act_offload")),
        f.check(check!(K::FlashAttn, "training.flash_attn")),
    ]);
    section(f, K::TrainSection, vec![fields, boxes])
}

fn parallel(f: &mut Form) -> El {
    let fields = grid(vec![
        f.num(num!(K::Gpus, "parallel.gpus", int).unit(K::UnitGpus)),
        f.num(num!(K::Tp, "parallel.tp", int)),
        f.num(num!(K::Pp, "parallel.pp", int)),
        f.select(choice!(K::Shard, "parallel.shard", o::SHARD)),
    ]);
    section(f, K::ParallelSection, vec![fields])
}

/// The GPU the results are measured against, from the catalog.
fn gpu_select(f: &Form) -> El {
    let current = f.plan.hardware.gpu.as_str();
    let options = hardware::catalog().iter().map(|g| {
        let label = format!("{} · {} GB", g.name, g.memory_gb);
        option(&g.id, &label, g.id == current)
    });
    let select =
        h("select").a("id", "f-hardware-gpu").a("data-testid", "gpu-select").a("data-act", "gpu").ks(options);
    labelled("f-hardware-gpu", t(f.lang, K::Gpu), select)
}

fn hardware(f: &mut Form) -> El {
    let fields = grid(vec![
        gpu_select(f),
        f.num(num!(K::Headroom, "hardware.headroom_pct", f64).unit(K::UnitPct).hint(K::HeadroomHint)),
        f.num(num!(K::GpusPerNode, "hardware.gpus_per_node", int).unit(K::UnitGpus)),
        f.select(choice!(K::Cuda, "cuda", o::CUDA)),
    ]);
    section(f, K::HardwareSection, vec![fields])
}

fn cost(f: &mut Form) -> El {
    let fields = grid(vec![
        f.select(choice!(K::Currency, "cost.currency", o::CURRENCY)),
        f.num(num!(K::Months, "cost.months", f64).unit(K::UnitMonths)),
        f.num(num!(K::HoursPerDay, "cost.hours_per_day", f64).unit(K::UnitHours)),
        f.num(num!(K::StorageGb, "cost.storage_gb", f64).unit(K::UnitGb)),
        f.num(num!(K::Ips, "cost.ips", int)),
        f.num(num!(K::EgressGb, "cost.egress_gb", f64).unit(K::UnitGb)),
        f.num(num!(K::DebugPct, "cost.debug_pct", f64).unit(K::UnitPct).hint(K::DebugHint)),
        f.num(num!(K::ContingencyPct, "cost.contingency_pct", f64).unit(K::UnitPct).hint(K::ContingencyHint)),
        f.num(num!(K::DeadlineH, "cost.deadline_h", f64).unit(K::UnitHours)),
    ]);
    let egress = checks(vec![f.check(check!(K::EgressAuto, "cost.egress_auto"))]);
    let more = grid(vec![
        f.num(num!(K::CnyPerUsd, "cost.cny_per_usd", f64)),
        f.num(num!(K::Starts, "cost.starts", int)),
        f.num(num!(K::StoppedDays, "cost.stopped_days", f64).unit(K::UnitDays)),
        f.num(num!(K::SpotPerDay, "cost.spot_per_day", f64)),
        f.num(num!(K::CkptMin, "cost.ckpt_min", f64).unit(K::UnitMin)),
        f.num(num!(K::RestartMin, "cost.restart_min", f64).unit(K::UnitMin)),
        f.num(num!(K::SpCommit, "cost.sp_commit", f64)),
        f.select(choice!(K::SpUpfront, "cost.sp_upfront", o::UPFRONT)),
        f.num(num!(K::BlockDays, "cost.block_days", int).unit(K::UnitDays)),
    ]);
    let prorate = checks(vec![f.check(check!(K::Prorate, "cost.prorate"))]);
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

    /// Every control of every form of the column finds its field in the
    /// core's table, so none is a control that never changes the plan.
    #[test]
    fn every_control_has_a_core_field() {
        for task in [Task::Infer, Task::Train] {
            for kind in ["preset", "custom", "generic"] {
                let mut plan = Plan { task, ..Plan::default() };
                set_kind(&mut plan, kind);
                let typed = Vec::new();
                let mut form = Form::new(crate::i18n::Lang::En, &plan, &typed, &[]);
                column(&mut form, "");
                assert!(form.specs.len() > 20, "{kind}: {} controls", form.specs.len());
                for spec in &form.specs {
                    assert!(gpuplan_core::plan::field(spec.path()).is_some(), "{kind}: {}", spec.path());
                }
            }
        }
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
