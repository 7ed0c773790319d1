//! The inputs column: one section per part of the plan, each field bound to
//! one plan path. An edit updates the fields that read it; the sections
//! themselves change only with the task or the model kind.

mod compact;
mod field;
mod model;

use gpuplan_core::hardware;
use gpuplan_core::plan::CURRENT_RELEASE;
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::serving;
use leptos::prelude::*;

use crate::components::labelled::Labelled;
use crate::i18n::{t, K};
use crate::options as o;
use crate::state::AppState;
use field::{check, checks, grid, read, real, select, whole, write, Choice, Segmented, Spec, MEASURED};
use model::ModelSection;

pub use compact::CompactInputs;
pub use field::{core_error, parse, TextInput, Typed};

/// Whether the engine reserves its memory as a fraction of the card
/// (vLLM's `gpu_memory_utilization` and its kin): only then does the plan's
/// `gpu_mem_util` mean anything.
pub fn reserves_by_fraction(plan: &Plan) -> bool {
    plan.inference.engine.pools()
}

const TASK: Choice = Choice { label: K::Task, path: "task", opts: o::TASK };

const INFERENCE: &[Spec] = &[
    select(K::Weights, "inference.weights", o::WEIGHTS),
    select(K::KvDtype, "inference.kv_dtype", o::KV_DTYPE),
    Spec::Num(whole(K::Context, "inference.context").unit(K::UnitTokens).hint(K::ContextHint)),
    Spec::Num(whole(K::Concurrency, "inference.concurrency").unit(K::UnitSeqs)),
    select(K::Engine, "inference.engine", o::ENGINE),
    Spec::Num(
        real(K::GpuMemUtil, "inference.gpu_mem_util").hint(K::GpuMemUtilHint).only_if(reserves_by_fraction),
    ),
    Spec::Num(whole(K::PromptTokens, "inference.prompt_tokens").unit(K::UnitTokens)),
    Spec::Num(whole(K::OutputTokens, "inference.output_tokens").unit(K::UnitTokens)),
    Spec::Num(real(K::TargetQps, "inference.target_qps").unit(K::UnitPerSec).hint(K::TargetQpsHint)),
    Spec::Num(real(K::TtftTarget, "inference.ttft_ms").unit(K::UnitMs).hint(K::NoTargetHint)),
    Spec::Num(real(K::TpotTarget, "inference.tpot_ms").unit(K::UnitMs).hint(K::NoTargetHint)),
    Spec::Num(real(K::PrefixHit, "inference.prefix_hit").hint(K::PrefixHitHint)),
    Spec::Num(real(K::Measured, MEASURED).unit(K::UnitTokS).hint(K::MeasuredHint).optional()),
    Spec::Num(real(K::ResponseKb, "inference.response_kb").unit(K::UnitKb)),
];

const TRAINING: &[Spec] = &[
    select(K::Method, "training.method", o::METHOD),
    Spec::Num(whole(K::LoraRank, "training.lora_rank")),
    select(K::LoraTargets, "training.lora_targets", o::LORA_TARGETS),
    select(K::Precision, "training.precision", o::PRECISION),
    select(K::Optimizer, "training.optimizer", o::OPTIMIZER),
    Spec::Num(whole(K::Batch, "training.batch").unit(K::UnitSeqs)),
    Spec::Num(whole(K::Seq, "training.seq").unit(K::UnitTokens)),
    select(K::GradCkpt, "training.grad_ckpt", o::GRAD_CKPT),
    Spec::Num(whole(K::GradAccum, "training.grad_accum")),
    select(K::Loss, "training.loss", o::LOSS),
    Spec::Num(real(K::DatasetTokens, "training.dataset_tokens").unit(K::UnitTokens)),
    Spec::Num(real(K::Epochs, "training.epochs")),
    Spec::Num(real(K::Mfu, "training.mfu").hint(K::MfuHint).optional()),
];

const TRAINING_CHECKS: &[Spec] = &[
    check(K::OptInBwd, "training.opt_in_bwd"),
    check(K::ActOffload, "training.act_offload"),
    check(K::FlashAttn, "training.flash_attn"),
];

const PARALLEL: &[Spec] = &[
    Spec::Num(whole(K::Gpus, "parallel.gpus").unit(K::UnitGpus)),
    Spec::Num(whole(K::Tp, "parallel.tp")),
    Spec::Num(whole(K::Pp, "parallel.pp")),
    select(K::Shard, "parallel.shard", o::SHARD),
];

const RELEASE: &str = "inference.engine_release";

/// The engine release whose measured kernels give the factors: offered
/// only for engines the kernel tables cover, with the releases they hold.
#[component]
fn EngineRelease(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let releases = Memo::new(move |_| state.plan.with(|p| serving::releases(p.inference.engine)));
    let current = Memo::new(move |_| state.plan.with(|p| read(p, RELEASE)));
    let option = move |value: &'static str, label: &'static str| {
        view! { <option value=value prop:selected=move || current.with(|c| c == value)>{label}</option> }
    };
    move || {
        let list = releases.get();
        (!list.is_empty()).then(|| {
            view! {
                <Labelled id="f-inference-engine_release" label=K::EngineRelease lang>
                    <select
                        id="f-inference-engine_release"
                        on:change=move |ev| state.plan.update(|p| write(p, RELEASE, &event_target_value(&ev)))
                    >
                        {option(CURRENT_RELEASE, t(lang, K::ReleaseCurrent))}
                        {list.into_iter().map(|r| option(r, r)).collect_view()}
                    </select>
                </Labelled>
            }
        })
    }
}

/// The GPU the results are measured against.
const GPU: &str = "hardware.gpu";

const HARDWARE: &[Spec] = &[
    Spec::Num(real(K::Headroom, "hardware.headroom_pct").unit(K::UnitPct).hint(K::HeadroomHint)),
    Spec::Num(whole(K::GpusPerNode, "hardware.gpus_per_node").unit(K::UnitGpus)),
    select(K::Cuda, "cuda", o::CUDA),
];

const COST: &[Spec] = &[
    select(K::Currency, "cost.currency", o::CURRENCY),
    Spec::Num(real(K::Months, "cost.months").unit(K::UnitMonths)),
    Spec::Num(real(K::HoursPerDay, "cost.hours_per_day").unit(K::UnitHours)),
    Spec::Num(real(K::StorageGb, "cost.storage_gb").unit(K::UnitGb)),
    Spec::Num(whole(K::Ips, "cost.ips")),
    Spec::Num(real(K::EgressGb, "cost.egress_gb").unit(K::UnitGb)),
    Spec::Num(real(K::DebugPct, "cost.debug_pct").unit(K::UnitPct).hint(K::DebugHint)),
    Spec::Num(real(K::ContingencyPct, "cost.contingency_pct").unit(K::UnitPct).hint(K::ContingencyHint)),
    Spec::Num(real(K::DeadlineH, "cost.deadline_h").unit(K::UnitHours)),
];

const COST_EGRESS: &[Spec] = &[check(K::EgressAuto, "cost.egress_auto")];

const COST_MORE: &[Spec] = &[
    Spec::Num(real(K::CnyPerUsd, "cost.cny_per_usd")),
    Spec::Num(whole(K::Starts, "cost.starts")),
    Spec::Num(real(K::StoppedDays, "cost.stopped_days").unit(K::UnitDays)),
    Spec::Num(real(K::SpotPerDay, "cost.spot_per_day")),
    Spec::Num(real(K::CkptMin, "cost.ckpt_min").unit(K::UnitMin)),
    Spec::Num(real(K::RestartMin, "cost.restart_min").unit(K::UnitMin)),
    Spec::Num(real(K::SpCommit, "cost.sp_commit")),
    select(K::SpUpfront, "cost.sp_upfront", o::UPFRONT),
    Spec::Num(whole(K::BlockDays, "cost.block_days").unit(K::UnitDays)),
];

const COST_PRORATE: &[Spec] = &[check(K::Prorate, "cost.prorate")];

/// The whole column.
#[component]
pub fn Inputs(state: AppState) -> impl IntoView {
    let task = Memo::new(move |_| state.plan.with(|p| p.task));
    let work = move || match task.get() {
        Task::Infer => view! {
            <Section state legend=K::InferSection>
                {grid(state, INFERENCE)}
                <EngineRelease state/>
            </Section>
        }
        .into_any(),
        Task::Train => view! {
            <Section state legend=K::TrainSection>
                {grid(state, TRAINING)}
                {checks(state, TRAINING_CHECKS)}
            </Section>
        }
        .into_any(),
    };
    view! {
        <section class="inputs" aria-labelledby="inputs-h">
            <h2 id="inputs-h">{t(state.lang, K::Inputs)}</h2>
            <Segmented state spec=TASK read=|p| read(p, "task") pick=|p, v| write(p, "task", v)/>
            <ModelSection state/>
            {work}
            <Section state legend=K::ParallelSection>{grid(state, PARALLEL)}</Section>
            <Section state legend=K::HardwareSection>
                <div class="grid">
                    <GpuSelect state/>
                    {HARDWARE.iter().map(|s| field::field(state, *s)).collect_view()}
                </div>
            </Section>
            <Section state legend=K::CostSection>
                {grid(state, COST)}
                {checks(state, COST_EGRESS)}
                <details class="advanced">
                    <summary>{t(state.lang, K::MoreCost)}</summary>
                    {grid(state, COST_MORE)}
                    {checks(state, COST_PRORATE)}
                </details>
            </Section>
        </section>
    }
}

/// A titled part of the column.
#[component]
fn Section(state: AppState, legend: K, children: Children) -> impl IntoView {
    view! {
        <fieldset class="section">
            <legend>{t(state.lang, legend)}</legend>
            {children()}
        </fieldset>
    }
}

/// A GPU as the list names it: its name and memory.
fn gpu_label(gpu: &hardware::Gpu) -> String {
    format!("{} · {} GB", gpu.name, gpu.memory_gb)
}

/// The GPU the results are measured against, from the catalog.
#[component]
fn GpuSelect(state: AppState) -> impl IntoView {
    let current = Memo::new(move |_| state.plan.with(|p| p.hardware.gpu.clone()));
    let options = hardware::catalog().iter().map(move |g| {
        let id: &'static str = &g.id;
        view! { <option value=id prop:selected=move || current.with(|c| c == id)>{gpu_label(g)}</option> }
    });
    view! {
        <Labelled id="f-hardware-gpu" label=K::Gpu lang=state.lang>
            <select
                id="f-hardware-gpu"
                data-testid="gpu-select"
                on:change=move |ev| state.plan.update(|p| write(p, GPU, &event_target_value(&ev)))
            >
                {options.collect_view()}
            </select>
        </Labelled>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use field::Num;
    use gpuplan_core::plan::{Engine, Inference};

    const TABLES: &[&[Spec]] = &[
        INFERENCE,
        TRAINING,
        TRAINING_CHECKS,
        PARALLEL,
        HARDWARE,
        COST,
        COST_EGRESS,
        COST_MORE,
        COST_PRORATE,
        model::CUSTOM,
        model::GENERIC,
    ];

    /// Every control of the column finds its field in the core's table, so
    /// none is a control that never changes the plan.
    #[test]
    fn every_control_has_a_core_field() {
        let specs: Vec<&Spec> = TABLES.iter().flat_map(|t| t.iter()).collect();
        assert!(specs.len() > 60, "{} controls", specs.len());
        let paths = specs.iter().map(|s| s.path()).chain([TASK.path, GPU, RELEASE]);
        for path in paths {
            assert!(gpuplan_core::plan::field(path).is_some(), "{path}");
        }
    }

    /// vLLM's `gpu_memory_utilization` shows for the engines that reserve
    /// memory by that fraction, not for Transformers or llama.cpp.
    #[test]
    fn the_memory_fraction_shows_for_pooling_engines_only() {
        let util = INFERENCE.iter().find(|s| s.path() == "inference.gpu_mem_util");
        let Some(Spec::Num(Num { only_if: Some(rule), .. })) = util else { panic!("no rule for the field") };
        for engine in Engine::ALL {
            let plan = Plan { inference: Inference { engine, ..Inference::default() }, ..Plan::default() };
            let pools = !matches!(engine, Engine::Transformers | Engine::LlamaCpp);
            assert_eq!(rule(&plan), pools, "{engine:?}");
            assert_eq!(reserves_by_fraction(&plan), pools, "{engine:?}");
        }
    }
}
