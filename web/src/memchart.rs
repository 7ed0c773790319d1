//! Memory against context length (inference) or sequence length (training),
//! each point from the core's memory engine, with the chosen GPU's limit.

use gpuplan_core::memory;
use gpuplan_core::plan::{Plan, Task};
use leptos::prelude::*;
use web_sys::Element;

use crate::chart::{chart, tokens, Chart, Series};
use crate::dom::{block, host};
use crate::i18n::{t, K};
use crate::state::App;
use gpuplan_core::present;

/// Longest length the chart spans.
const MAX_TOKENS: u64 = 1 << 20;

/// Powers of two from 512 up to the model's trained context (or the plan's
/// current length, if longer), with the current length itself.
pub fn lengths(current: u64, model_max: Option<u64>) -> Vec<u64> {
    let top = model_max.unwrap_or(131_072).max(current).clamp(1024, MAX_TOKENS);
    let mut v: Vec<u64> = (9..=20).map(|k| 1u64 << k).filter(|&n| n <= top).collect();
    if !v.contains(&current) && current <= MAX_TOKENS {
        v.insert(v.partition_point(|&n| n < current), current);
    }
    v
}

/// (tokens, bytes the workload needs per GPU) from the memory engine at each
/// length. For vLLM this is the need, not the pool it reserves.
pub fn sweep(plan: &Plan) -> Vec<(u64, u64)> {
    let current = match plan.task {
        Task::Infer => plan.inference.context,
        Task::Train => plan.training.seq,
    };
    let model_max = plan.model.arch().map(|a| a.max_context);
    lengths(current, model_max)
        .into_iter()
        .filter_map(|n| {
            let mut p = plan.clone();
            match p.task {
                Task::Infer => p.inference.context = n,
                Task::Train => p.training.seq = n,
            }
            memory::estimate(&p).ok().map(|m| (n, m.per_gpu_bytes))
        })
        .collect()
}

pub fn mem_chart(app: App) -> Option<Element> {
    // Recomputed only for a valid plan, so the chart keeps the last good curve.
    let points = Memo::new(move |prev: Option<&Vec<(u64, u64)>>| {
        if app.outcome.with(|o| o.is_ok()) {
            app.settled.with(sweep)
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
            .filter(|&n| n <= MAX_TOKENS)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_span_the_model_and_include_the_plan() {
        assert_eq!(lengths(8192, Some(8192)), vec![512, 1024, 2048, 4096, 8192]);
        assert_eq!(lengths(3000, Some(4096)), vec![512, 1024, 2048, 3000, 4096]);
        assert_eq!(lengths(100, Some(131_072)).first(), Some(&100));
        assert_eq!(lengths(10_000_000, None).last(), Some(&(1 << 20)));
    }

    #[test]
    fn memory_grows_with_context() {
        let s = sweep(&Plan::default());
        assert!(s.len() >= 8);
        assert!(s.windows(2).all(|w| w[0].1 <= w[1].1), "{s:?}");
        assert!(s.first().map(|f| f.1) < s.last().map(|l| l.1), "the KV cache grows: {s:?}");
    }
}
