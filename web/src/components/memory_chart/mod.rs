//! Memory against context length (inference) or sequence length (training):
//! the core's series (`memory::by_length`), with the chosen GPU's limit and
//! the longest length that fits it.

use gpuplan_core::memory;
use gpuplan_core::plan::Task;
use gpuplan_core::present::{self, Unit};
use leptos::prelude::*;

use crate::components::block::Block;
use crate::components::chart::{tokens, Chart, LineChart, Series};
use crate::i18n::{t, Lang, K};
use crate::state::AppState;

#[component]
pub fn MemoryChart(state: AppState) -> impl IntoView {
    // Recomputed only for a valid plan, so the chart keeps the last good curve.
    let points = Memo::new(move |prev: Option<&Vec<(u64, u64)>>| {
        if state.outcome.with(|o| o.is_ok()) {
            state.settled.with(memory::by_length)
        } else {
            prev.cloned().unwrap_or_default()
        }
    });
    let task = move || state.settled.with(|p| p.task);
    let chart = move || {
        let chosen = state.shown.with(|r| {
            r.as_ref()
                .and_then(|r| r.fit.rows.iter().find(|g| g.chosen))
                .map(|g| (g.gpu_name.clone(), g.usable.bytes))
        });
        let longest = chosen
            .as_ref()
            .and_then(|(_, usable)| state.settled.with(|p| memory::max_context(p, *usable).ok().flatten()));
        let axes = Axes { task: task(), unit: state.unit.get(), lang: state.lang };
        memory_chart(&points.get(), axes, chosen, longest)
    };
    view! {
        <Block id="memchart-h" title=move || t(state.lang, title_key(task()))>
            <LineChart chart=chart/>
        </Block>
    }
}

/// What the axes are: length of context or sequence, in which unit and language.
#[derive(Clone, Copy)]
pub struct Axes {
    pub task: Task,
    pub unit: Unit,
    pub lang: Lang,
}

fn title_key(task: Task) -> K {
    match task {
        Task::Infer => K::MemVsContext,
        Task::Train => K::MemVsSeq,
    }
}

/// The chart of `points` (tokens, bytes), the chosen GPU's usable memory
/// as its limit (name, bytes), and the longest length that fits it marked
/// when it lies on the sweep.
pub fn memory_chart(
    points: &[(u64, u64)],
    axes: Axes,
    chosen: Option<(String, u64)>,
    longest: Option<u64>,
) -> Chart {
    let Axes { task, unit, lang } = axes;
    let x_key = if task == Task::Infer { K::Context } else { K::Seq };
    let limit = chosen.map(|(name, usable)| {
        let label = format!("{name} {}: {}", t(lang, K::UsableShort), present::bytes(usable, unit));
        (unit.of(usable), label)
    });
    let marks = longest
        .filter(|&n| n <= memory::SWEEP_MAX_TOKENS)
        .map(|n| (n as f64, format!("{} {}", t(lang, K::LongestFits), tokens(n as f64))))
        .into_iter()
        .collect();
    Chart {
        title: t(lang, title_key(task)).into(),
        x_label: format!("{} ({})", t(lang, x_key), t(lang, K::UnitTokens)),
        y_label: format!("{} ({})", t(lang, K::MemoryPerGpu), unit.symbol()),
        log_x: true,
        series: vec![Series {
            name: t(lang, K::Required).into(),
            class: "s0",
            points: points.iter().map(|&(n, b)| (n as f64, unit.of(b))).collect(),
        }],
        limit,
        marks,
        x_fmt: tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::plan::Plan;

    #[test]
    fn the_chart_draws_the_core_s_curve_against_the_chosen_gpu() {
        let plan = Plan::default();
        let points = memory::by_length(&plan);
        let axes = Axes { task: Task::Infer, unit: Unit::default(), lang: Lang::En };
        let usable = 80_000_000_000;
        let longest = memory::max_context(&plan, usable).ok().flatten();
        let c = memory_chart(&points, axes, Some(("H100".into(), usable)), longest);
        assert_eq!(c.series[0].points.len(), points.len());
        let limit = c.limit.expect("the GPU's limit");
        assert!(limit.1.starts_with("H100 ") && limit.0 > 0.0, "{}", limit.1);
        assert!(c.x_label.contains(t(Lang::En, K::Context)), "{}", c.x_label);
        let beyond = memory_chart(&points, axes, None, Some(memory::SWEEP_MAX_TOKENS + 1));
        assert!(beyond.marks.is_empty() && beyond.limit.is_none(), "a length past the sweep is not marked");
    }
}
