//! The project on the page: its workloads, which one the inputs edit, and
//! the core's budget once there are two or more. The active workload's plan
//! lives in `AppState::plan`, so every input works on it unchanged; the
//! project holds the other workloads, and takes the active plan back when
//! the list changes.

pub mod model;

use std::sync::Arc;

use gpuplan_core::budget::{self, ProjectReport};
use gpuplan_core::error::FieldError;
use gpuplan_core::offers::Offer;
use gpuplan_core::plan::Plan;
use gpuplan_core::project::Project;
use leptos::prelude::*;

use crate::i18n::Lang;

type Answer = Result<Arc<ProjectReport>, Vec<FieldError>>;

#[derive(Clone, Copy)]
pub struct ProjectState {
    /// Every workload as last written back: the active one's plan may be
    /// older than the inputs'.
    stored: RwSignal<Project>,
    /// The workload the inputs edit.
    pub active: RwSignal<usize>,
    /// The project with the active workload's settled plan: what the
    /// budget prices, the link carries and the device keeps.
    pub current: Memo<Project>,
    /// The core's budget with two workloads or more; with one (the page is
    /// then the plan's), only the project's own problems, if any.
    pub outcome: Memo<Option<Answer>>,
    /// Why the last change to the list was refused (the last workload
    /// removed, one workload too many, a start month that is no number).
    pub refused: RwSignal<Option<FieldError>>,
}

impl ProjectState {
    pub fn new(
        project: Project,
        settled: RwSignal<Plan>,
        offers: Memo<Vec<Offer>>,
        lang: Lang,
    ) -> ProjectState {
        let stored = RwSignal::new(project);
        let active = RwSignal::new(0);
        let current =
            Memo::new(move |_| stored.with(|p| settled.with(|s| model::with_active(p, active.get(), s))));
        // Never compared: a new project is a new answer.
        let outcome = Memo::new_with_compare(
            move |_| {
                current.with(|p| {
                    if p.workloads.len() > 1 {
                        return Some(offers.with(|o| budget::evaluate(p, o, lang)).map(Arc::new));
                    }
                    // A link's one workload without a model, say: refused, never filled in.
                    let errs = p.validate();
                    (!errs.is_empty()).then_some(Err(errs))
                })
            },
            |_, _| true,
        );
        ProjectState { stored, active, current, outcome, refused: RwSignal::new(None) }
    }

    /// The project with the inputs' plan as it is now (not yet settled).
    pub fn live(self, plan: RwSignal<Plan>) -> Project {
        self.stored.with_untracked(|p| {
            plan.with_untracked(|s| model::with_active(p, self.active.get_untracked(), s))
        })
    }

    /// Replaces the stored project and the active index; the caller loads
    /// the active workload's plan when it changed.
    pub fn store(self, project: Project, active: usize) {
        self.stored.set(project);
        self.active.set(active);
    }
}
