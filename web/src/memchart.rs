//! Memory against context length (inference) or sequence length (training):
//! the core's series (`memory::by_length`), with the chosen GPU's limit.

use gpuplan_core::memory;
use gpuplan_core::plan::Task;
use leptos::prelude::*;
use web_sys::Element;

use crate::chart::{chart, tokens, Chart, Series};
use crate::dom::{block, host};
use crate::i18n::{t, K};
use crate::state::AppState;
use gpuplan_core::present;

pub fn mem_chart(app: AppState) -> Option<Element> {
    // Recomputed only for a valid plan, so the chart keeps the last good curve.
    let points = Memo::new(move |prev: Option<&Vec<(u64, u64)>>| {
        if app.outcome.with(|o| o.is_ok()) {
            app.settled.with(memory::by_length)
        } else {
            prev.cloned().unwrap_or_default()
        }
    });
    let body = move || {
        let lang = app.lang;
        let unit = app.unit.get();
        let task = app.settled.with_untracked(|p| p.task);
        let chosen = app.shown.with(|r| {
            r.as_ref()
                .and_then(|r| r.fit.rows.iter().find(|g| g.chosen))
                .map(|g| (g.gpu_name.clone(), g.usable.bytes))
        });
        let longest = chosen
            .as_ref()
            .and_then(|(_, usable)| app.settled.with(|p| memory::max_context(p, *usable).ok().flatten()));
        let pts: Vec<(f64, f64)> = points.get().into_iter().map(|(n, b)| (n as f64, unit.of(b))).collect();
        let (x_key, title_key) = match task {
            Task::Infer => (K::Context, K::MemVsContext),
            Task::Train => (K::Seq, K::MemVsSeq),
        };
        let limit = chosen.as_ref().map(|(name, usable)| {
            (
                unit.of(*usable),
                format!("{name} {}: {}", t(lang, K::UsableShort), present::bytes(*usable, unit)),
            )
        });
        let marks = longest
            .filter(|&n| n <= memory::SWEEP_MAX_TOKENS)
            .map(|n| (n as f64, format!("{} {}", t(lang, K::LongestFits), tokens(n as f64))))
            .into_iter()
            .collect();
        let chart = chart(&Chart {
            title: t(lang, title_key).into(),
            x_label: format!("{} ({})", t(lang, x_key), t(lang, K::UnitTokens)),
            y_label: format!("{} ({})", t(lang, K::MemoryPerGpu), unit.symbol()),
            log_x: true,
            series: vec![Series { name: t(lang, K::Required).into(), class: "s0", points: pts }],
            limit,
            marks,
            x_fmt: tokens,
        });
        Some(block("memchart-h", t(lang, title_key)).k(chart))
    };
    host("", body, |_, _| {})
}
