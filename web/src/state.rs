//! The page's reactive state: one plan signal in, the core's report out.

use std::sync::Arc;

use gpuplan_core::error::FieldError;
use gpuplan_core::offers::Offer;
use gpuplan_core::plan::Plan;
use leptos::prelude::*;

use crate::fmt::Unit;
use crate::i18n::Lang;

/// What the core returns for a plan.
pub use gpuplan_core::report::Report;

/// Shared by every component through context; all fields are arena handles.
#[derive(Clone, Copy)]
pub struct App {
    pub plan: RwSignal<Plan>,
    pub lang: RwSignal<Lang>,
    pub unit: RwSignal<Unit>,
    /// Bumped when a whole plan is loaded, so inputs drop their typed text.
    pub loaded: RwSignal<u32>,
    /// The offers priced: the defaults, plus a host's price sheet.
    pub offers: RwSignal<Vec<Offer>>,
    /// The core's answer for the current plan.
    pub outcome: Memo<Result<Arc<Report>, Vec<FieldError>>>,
    /// The last valid report: stays on screen while an input is invalid.
    pub shown: Memo<Option<Arc<Report>>>,
}

impl App {
    pub fn new(plan: Plan, lang: Lang, unit: Unit) -> App {
        let plan = RwSignal::new(plan);
        let lang = RwSignal::new(lang);
        let offers = RwSignal::new(gpuplan_core::offers::defaults());
        // Shared, never compared: a new plan is a new report, and comparing
        // or cloning whole reports cost time on every edit and code in the bundle.
        let outcome = Memo::new_with_compare(
            move |_| {
                let lang = lang.get();
                offers.with(|o| plan.with(|p| gpuplan_core::report::evaluate_with(p, o, lang).map(Arc::new)))
            },
            |_, _| true,
        );
        let shown = Memo::new_with_compare(
            move |prev: Option<&Option<Arc<Report>>>| match outcome.with(|o| o.as_ref().ok().cloned()) {
                Some(r) => Some(r),
                None => prev.cloned().flatten(),
            },
            |old, new| !matches!((old, new), (Some(Some(a)), Some(Some(b))) if Arc::ptr_eq(a, b)),
        );
        App { plan, lang, offers, unit: RwSignal::new(unit), loaded: RwSignal::new(0), outcome, shown }
    }

    /// Replaces the whole plan (an example, a pinned plan).
    pub fn load(self, plan: Plan) {
        self.plan.set(plan);
        self.loaded.update(|n| *n = n.wrapping_add(1));
    }

    /// The core's messages for the field at `path`, without the path prefix.
    pub fn field_error(self, lang: Lang, path: &str) -> Option<String> {
        self.outcome.with(|o| {
            let errs = o.as_ref().err()?;
            let msgs: Vec<String> = errs.iter().filter(|e| e.field == path).map(|e| bare(e, lang)).collect();
            (!msgs.is_empty()).then(|| msgs.join("; "))
        })
    }
}

/// A core message without its leading "field.path: ".
pub fn bare(e: &FieldError, lang: Lang) -> String {
    let msg = e.message(lang);
    match msg.strip_prefix(&e.field).and_then(|m| m.strip_prefix(": ")) {
        Some(rest) => rest.to_string(),
        None => msg,
    }
}

pub fn use_app() -> App {
    expect_context::<App>()
}
