//! The compact answer a host page shows beside its own prices: the memory
//! the plan needs, the GPUs it takes, the cheapest option that meets it, and
//! the link that opens the whole plan. It reads the report, so it can never
//! name another count or price than the full planner.

use serde::Serialize;

use crate::lang::Lang;
use crate::plan::Plan;
use crate::present::{bytes, Unit};
use crate::report::Report;
use crate::selection::{Basis, Purchase};
use crate::text::{self, Key};

/// What the plan takes on the selected GPU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gpus {
    pub id: String,
    pub name: String,
    /// Every GPU the workload runs on at once (tp × pp × replicas).
    pub count: u32,
    pub nodes: u32,
    /// The peak on the busiest GPU of that layout, and what the card offers the plan.
    pub per_gpu_bytes: u64,
    pub usable_bytes: u64,
    pub fits: bool,
}

/// The compact result of one plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The memory engine's peak per GPU for the plan's own layout
    /// (`parallel`); the selected layout's is under `gpus`.
    pub per_gpu_bytes: u64,
    /// None when the plan names no GPU.
    pub gpus: Option<Gpus>,
    /// The cheapest option on that GPU that meets the plan; None when no offer does.
    pub cheapest: Option<Purchase>,
    /// The share link's query (without '?'), which opens the whole plan.
    pub link: String,
    /// One line in the language asked for: memory, GPUs, option.
    pub text: String,
}

/// The summary of `report`, the answer for `plan`.
pub fn summarize(plan: &Plan, report: &Report, lang: Lang) -> Summary {
    let sel = report.selection.as_ref();
    let gpus = sel.map(|s| Gpus {
        id: s.gpu.clone(),
        name: s.gpu_name.clone(),
        count: s.gpus,
        nodes: s.nodes,
        per_gpu_bytes: s.per_gpu_bytes,
        usable_bytes: s.usable_bytes,
        fits: s.basis != Basis::DoesNotFit,
    });
    // The line quotes the selected layout's peak: the plan's own layout may
    // not fit, and the selection is what the host's visitor would order.
    let need = |b: u64| text::fill(Key::SummaryNeed, lang, &[("bytes", &bytes(b, Unit::Gb))]);
    let text = match sel {
        Some(s) => format!("{} · {}", need(s.per_gpu_bytes), s.describe(lang)),
        None => need(report.memory.per_gpu_bytes),
    };
    Summary {
        per_gpu_bytes: report.memory.per_gpu_bytes,
        gpus,
        cheapest: sel.and_then(|s| s.option.clone()),
        link: crate::share::encode(plan, Some(lang), None),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::evaluate;

    #[test]
    #[cfg(not(feature = "zh"))]
    fn the_summary_names_the_reports_count_and_price() {
        let plan = Plan::default();
        let report = evaluate(&plan, Lang::En).expect("valid");
        let s = summarize(&plan, &report, Lang::En);
        let sel = report.selection.as_ref().expect("the default plan names a GPU");
        let gpus = s.gpus.as_ref().expect("gpus");
        assert_eq!((gpus.count, gpus.id.as_str()), (sel.gpus, sel.gpu.as_str()));
        assert_eq!(s.cheapest.as_ref().map(|p| p.total), sel.option.as_ref().map(|p| p.total));
        assert_eq!(s.per_gpu_bytes, report.memory.per_gpu_bytes);
        assert!(s.text.contains("per GPU") && s.text.contains(&sel.gpu_name), "{}", s.text);
        assert!(s.text.starts_with(&bytes(sel.per_gpu_bytes, Unit::Gb)), "{}", s.text);
        assert_eq!(crate::share::decode(&s.link).plan, plan);
    }

    #[test]
    #[cfg(not(feature = "en"))]
    fn the_line_is_in_the_language_asked_for() {
        let plan = Plan::default();
        let report = evaluate(&plan, Lang::Zh).expect("valid");
        let s = summarize(&plan, &report, Lang::Zh);
        assert!(s.text.starts_with("每卡需"), "{}", s.text);
        assert!(s.link.contains("lang=zh"), "{}", s.link);
    }
}
