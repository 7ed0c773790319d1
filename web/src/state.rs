//! The page's reactive state: one plan signal in, the core's report out.
//! An edit shows its headline (peak memory, the plan's GPU) in the frame of
//! the keystroke; the whole report follows once that frame is painted, once
//! for any number of edits made before then: typing never waits for the
//! fit search, the bills and the checklist.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use gpuplan_core::error::FieldError;
use gpuplan_core::market_view::{self, Query, View};
use gpuplan_core::offers::Offer;
use gpuplan_core::plan::Plan;
use gpuplan_core::project::Project;
use leptos::prelude::*;

use crate::components::inputs::Typed;
use crate::drop::Dropped;
use crate::i18n::{Lang, K};
use crate::project::ProjectState;
use gpuplan_core::present::Unit;

/// What the core returns for a plan.
pub use gpuplan_core::report::{Headline, Report};

type Outcome<T> = Memo<Result<Arc<T>, Vec<FieldError>>>;

/// The page's state, handed to every component as its `state` prop: all
/// fields are arena handles, so it is `Copy`, and a component says in its
/// signature what it reads.
#[derive(Clone, Copy)]
pub struct AppState {
    pub plan: RwSignal<Plan>,
    /// The plan the report describes: `plan`, once the edit's frame is painted.
    pub settled: RwSignal<Plan>,
    /// Fixed for the page's life: switching reloads it in the other
    /// language's bundle (`link::reopen_in`).
    pub lang: Lang,
    pub unit: RwSignal<Unit>,
    /// Bumped when a whole plan is loaded, so inputs drop their typed text.
    pub loaded: RwSignal<u32>,
    /// What was last typed into each text field, by element id, with its
    /// typo: a field that a task or model kind switch takes away shows it
    /// again when it comes back, while it still stands for the value.
    pub typed: StoredValue<HashMap<String, (Typed, Option<K>)>>,
    /// The offers the page lists: the defaults, plus a host's price sheet.
    pub listed: RwSignal<Vec<Offer>>,
    /// Offers from a price sheet the user opened: kept on this device, not
    /// in the link (a provider's whole catalog would not fit in one).
    pub imported: RwSignal<Vec<Offer>>,
    /// Every offer priced: the listed ones, then the imported ones.
    pub offers: Memo<Vec<Offer>>,
    /// The last valid headline: stays on screen while an input is invalid.
    pub head_shown: Memo<Option<Arc<Headline>>>,
    /// The core's answer for the settled plan.
    pub outcome: Outcome<Report>,
    /// The last valid report: stays on screen while an input is invalid.
    pub shown: Memo<Option<Arc<Report>>>,
    /// The shipped market, once fetched (after the first result).
    pub market: RwSignal<Option<Arc<Vec<Offer>>>>,
    /// The market's filters, currency and today's date.
    pub market_query: RwSignal<Query>,
    /// The market priced for the settled plan: None until it is fetched;
    /// the last valid view while an input is invalid.
    pub market_view: Memo<Option<Arc<View>>>,
    /// True once the first result has painted: the parts of the page that
    /// load on demand wait for it, so their files never delay the answer.
    pub painted: ReadSignal<bool>,
    /// Every problem with the plan: the fields it fails validation on, else
    /// what the whole report refused (a host's offers, say). Compared, so an
    /// edit that leaves them as they were (none, mostly) wakes no field.
    problems: Memo<Vec<FieldError>>,
    /// The workloads; the inputs edit the active one's plan (`plan`).
    pub project: ProjectState,
    /// Files dropped on the page that their panel has not taken yet.
    pub dropped: Dropped,
}

impl AppState {
    /// The page on `project`, its first workload in the inputs.
    pub fn new(project: Project, lang: Lang, unit: Unit) -> AppState {
        let plan = project.workloads.first().map(|w| w.plan.clone()).unwrap_or_default();
        let settled = RwSignal::new(plan.clone());
        let plan = RwSignal::new(plan);
        follow(plan, settled);
        let listed = RwSignal::new(gpuplan_core::offers::defaults_in(lang));
        let imported = RwSignal::new(Vec::new());
        let offers = Memo::new(move |_| {
            listed.with(|l| imported.with(|i| l.iter().chain(i).cloned().collect::<Vec<Offer>>()))
        });
        let head = shared(move || plan.with(gpuplan_core::report::headline));
        let outcome = shared(move || {
            offers.with(|o| settled.with(|p| gpuplan_core::report::evaluate_with(p, o, lang)))
        });
        let market = RwSignal::new(None::<Arc<Vec<Offer>>>);
        let market_query = RwSignal::new(Query::default());
        let market_outcome = shared(move || {
            let Some(shipped) = market.get() else { return Ok(None) };
            let all: Vec<Offer> = offers.with(|o| o.iter().chain(shipped.iter()).cloned().collect());
            settled
                .with(|p| market_query.with(|q| market_view::view(p, &all, q, lang)))
                .map(|v| Some(Arc::new(v)))
        });
        let market_view = Memo::new_with_compare(
            move |prev: Option<&Option<Arc<View>>>| match market_outcome.with(|o| o.as_ref().ok().cloned()) {
                Some(v) => v.as_ref().clone(),
                None => prev.cloned().flatten(),
            },
            |_, _| true,
        );
        let shown = last_valid(outcome);
        let problems = Memo::new(move |_| match head.with(|h| h.as_ref().err().cloned()) {
            Some(errs) => errs,
            None => outcome.with(|o| o.as_ref().err().cloned()).unwrap_or_default(),
        });
        AppState {
            plan,
            settled,
            lang,
            listed,
            imported,
            offers,
            unit: RwSignal::new(unit),
            loaded: RwSignal::new(0),
            typed: StoredValue::new(HashMap::new()),
            head_shown: last_valid(head),
            outcome,
            shown,
            painted: painted_after(shown),
            market,
            market_query,
            market_view,
            problems,
            project: ProjectState::new(project, settled, offers, lang),
            dropped: Dropped::new(),
        }
    }

    /// Replaces the whole plan (an example, a pinned plan).
    pub fn load(self, plan: Plan) {
        self.plan.set(plan);
        self.loaded.update(|n| *n = n.wrapping_add(1));
    }

    /// Changes the project's list; `change` returns the workload to edit
    /// next, or why the change is refused (said next to the list, the
    /// project left as it was).
    pub fn change_project(self, change: impl FnOnce(&mut Project, usize) -> Result<usize, FieldError>) {
        let mut project = self.project.live(self.plan);
        match change(&mut project, self.project.active.get_untracked()) {
            Ok(next) => {
                self.project.refused.set(None);
                let plan = project.workloads.get(next).map(|w| w.plan.clone());
                self.project.store(project, next);
                // Another workload in the inputs: settled at once, so that
                // no frame prices one workload's plan as another's.
                if let Some(plan) = plan.filter(|p| self.plan.with_untracked(|now| now != p)) {
                    self.settled.set(plan.clone());
                    self.load(plan);
                }
            }
            Err(e) => self.project.refused.set(Some(e)),
        }
    }

    /// Opens a whole project, its first workload in the inputs.
    pub fn load_project(self, project: Project) {
        self.change_project(move |p, _| {
            *p = project;
            Ok(0)
        });
    }

    /// Every problem with the plan, or None when it has none.
    pub fn errors<T>(self, read: impl FnOnce(Option<&Vec<FieldError>>) -> T) -> T {
        self.problems.with(|errs| read(Some(errs).filter(|e| !e.is_empty())))
    }
}

/// A memo of a core answer, shared, never compared: a new plan is a new
/// answer, and comparing or cloning whole reports cost time on every edit
/// and code in the bundle.
fn shared<T: Send + Sync + 'static>(
    answer: impl Fn() -> Result<T, Vec<FieldError>> + Send + Sync + 'static,
) -> Outcome<T> {
    Memo::new_with_compare(move |_| answer().map(Arc::new), |_, _| true)
}

/// The last valid answer of `outcome`; changes only when a new one arrives.
fn last_valid<T: Send + Sync + 'static>(outcome: Outcome<T>) -> Memo<Option<Arc<T>>> {
    Memo::new_with_compare(
        move |prev: Option<&Option<Arc<T>>>| match outcome.with(|o| o.as_ref().ok().cloned()) {
            Some(r) => Some(r),
            None => prev.cloned().flatten(),
        },
        |old, new| !matches!((old, new), (Some(Some(a)), Some(Some(b))) if Arc::ptr_eq(a, b)),
    )
}

/// Copies `plan` into `settled` after the next painted frame, once for any
/// number of edits before then. A timer also covers a hidden page, where
/// animation frames never come; whichever of the two comes first flushes.
fn follow(plan: RwSignal<Plan>, settled: RwSignal<Plan>) {
    // The number of the pending flush; 0 when none is pending.
    let pending = StoredValue::new(0u32);
    let issued = StoredValue::new(0u32);
    // A plan already settled (a workload switched to) is not priced again.
    let flush = move |n: u32| {
        if pending.get_value() == n {
            pending.set_value(0);
            let next = plan.get_untracked();
            if settled.with_untracked(|s| s != &next) {
                settled.set(next);
            }
        }
    };
    Effect::new_sync(move |seen: Option<()>| {
        plan.track();
        if seen.is_none() || pending.get_value() != 0 {
            return;
        }
        let n = issued.get_value().wrapping_add(1).max(1);
        issued.set_value(n);
        pending.set_value(n);
        request_animation_frame(move || set_timeout(move || flush(n), Duration::ZERO));
        set_timeout(move || flush(n), Duration::from_millis(100));
    });
}

/// A signal that turns true in the frame after the first report is on
/// screen, and stays true.
fn painted_after(shown: Memo<Option<Arc<Report>>>) -> ReadSignal<bool> {
    let (painted, set_painted) = signal(false);
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) || !shown.with(Option::is_some) {
            return false;
        }
        request_animation_frame(move || set_timeout(move || set_painted.set(true), Duration::ZERO));
        true
    });
    painted
}

/// A core message without its leading "field.path: ".
pub fn bare(e: &FieldError, lang: Lang) -> String {
    let msg = e.message(lang);
    match msg.strip_prefix(&e.field).and_then(|m| m.strip_prefix(": ")) {
        Some(rest) => rest.to_string(),
        None => msg,
    }
}

#[cfg(test)]
mod tests {
    /// A part of the page (`crate::parts`) is
    /// handed the state alone, which may cross into code loaded later.
    #[test]
    fn the_state_can_be_handed_to_a_part() {
        fn owned_and_send<T: Copy + Send + Sync + 'static>() {}
        owned_and_send::<super::AppState>();
    }
}
