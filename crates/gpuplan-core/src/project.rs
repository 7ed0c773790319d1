//! A project: one or more workloads, each a single-workload [`Plan`] with a
//! name and a place on the timeline, plus project-level lines (storage,
//! support, your own items). [`crate::budget`] prices it by month.
//!
//! A workload's length is its plan's own: a training run lasts as long as
//! its bill (run plus debugging, to the deadline's check), a service the
//! months its plan sets. A workload may take over the machines of an
//! earlier one (`reuse`): the card rented for training carries on as the
//! serving machine, so it is paid once.

use serde::{Deserialize, Serialize};

use crate::cost::Item;
use crate::error::{FieldError, Limit, Problem};
use crate::model::ModelSpec;
use crate::money::Currency;
use crate::plan::Plan;

/// Most workloads one project holds: each is a whole report (about a
/// millisecond to a few), so a link cannot ask for unbounded work.
pub const MAX_WORKLOADS: usize = 16;

/// Most project-level lines.
pub const MAX_LINES: usize = 64;

/// Longest workload name, in characters.
pub const MAX_NAME_CHARS: usize = 60;

/// One workload of a project.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "WorkloadIn")]
pub struct Workload {
    /// Unique in the project; `reuse` names workloads by it.
    pub name: String,
    pub plan: Plan,
    /// Months from the project's start to this workload's start. None: at
    /// the start, or, with `reuse`, when the reused workload ends.
    pub start_month: Option<f64>,
    /// The earlier workload whose machines this one takes over.
    pub reuse: Option<String>,
    /// The plan as read named no model: refused, never filled in silently.
    /// Written out (and read back) so that a round trip through a page or
    /// JSON keeps the refusal rather than the default model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) no_model: bool,
}

impl Workload {
    pub fn new(name: impl Into<String>, plan: Plan) -> Workload {
        Workload { name: name.into(), plan, start_month: None, reuse: None, no_model: false }
    }
}

/// A workload as read: the plan's model kept apart, to tell a plan that
/// names none from one that names the default.
#[derive(Default, Deserialize)]
#[serde(default)]
struct WorkloadIn {
    name: String,
    plan: Option<PlanIn>,
    start_month: Option<f64>,
    reuse: Option<String>,
    no_model: bool,
}

#[derive(Deserialize)]
struct PlanIn {
    model: Option<ModelSpec>,
    #[serde(flatten)]
    rest: Plan,
}

impl From<WorkloadIn> for Workload {
    fn from(w: WorkloadIn) -> Workload {
        let (plan, model) = match w.plan {
            Some(p) => (p.rest, p.model),
            None => (Plan::default(), None),
        };
        let no_model = w.no_model || model.is_none();
        let plan = Plan { model: model.unwrap_or(plan.model), ..plan };
        Workload { name: w.name, plan, start_month: w.start_month, reuse: w.reuse, no_model }
    }
}

/// A project: its workloads, its own lines and the budget's currency.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Project {
    pub workloads: Vec<Workload>,
    /// Storage, support and the user's own items: once at the start, or
    /// every month of the project's timeline.
    pub lines: Vec<Item>,
    /// The budget's currency; each workload's bill is converted into it.
    pub currency: Currency,
    pub cny_per_usd: f64,
}

impl Default for Project {
    fn default() -> Self {
        let cost = crate::cost::CostInputs::default();
        Self {
            workloads: Vec::new(),
            lines: Vec::new(),
            currency: cost.currency,
            cny_per_usd: cost.cny_per_usd,
        }
    }
}

impl Project {
    /// A one-workload project: a plan as today, in its own currency.
    pub fn single(plan: Plan) -> Project {
        let (currency, cny_per_usd) = (plan.cost.currency, plan.cost.cny_per_usd);
        Project { workloads: vec![Workload::new("", plan)], lines: Vec::new(), currency, cny_per_usd }
    }

    /// Removes workload `i`, or says why not: a project keeps one workload.
    /// A later workload that named it in `reuse` keeps the name, so that
    /// the budget says it is unknown rather than dropping it unseen.
    pub fn remove_workload(&mut self, i: usize) -> Result<Workload, FieldError> {
        let n = self.workloads.len();
        if i >= n {
            let max = n.saturating_sub(1) as f64;
            return Err(FieldError::new(format!("workloads[{i}]"), Problem::OutOfRange { min: 0.0, max }));
        }
        if n == 1 {
            let rule = "keep_one_workload";
            return Err(FieldError::new(format!("workloads[{i}]"), Problem::Inconsistent { rule }));
        }
        Ok(self.workloads.remove(i))
    }

    /// Every invalid field, named by its path in the project
    /// ("workloads[1].plan.inference.context"). The timeline's rules that
    /// need the workloads' lengths are checked by the budget.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let n = self.workloads.len();
        if n == 0 {
            errs.push(FieldError::new("workloads", Problem::Required));
        }
        if n > MAX_WORKLOADS {
            errs.push(FieldError::new("workloads", Problem::TooMany { max: MAX_WORKLOADS }));
            return errs;
        }
        if self.lines.len() > MAX_LINES {
            errs.push(FieldError::new("lines", Problem::TooMany { max: MAX_LINES }));
        }
        for (i, line) in self.lines.iter().enumerate().take(MAX_LINES) {
            Limit::real(0.0, crate::money::MAX_UNITS).check_f64(
                &format!("lines[{i}].amount"),
                line.amount,
                &mut errs,
            );
        }
        Limit::real(0.01, 1000.0).check_f64("cny_per_usd", self.cny_per_usd, &mut errs);
        for (i, w) in self.workloads.iter().enumerate() {
            w.validate(i, &self.workloads, &mut errs);
        }
        errs
    }
}

impl Workload {
    fn validate(&self, i: usize, all: &[Workload], errs: &mut Vec<FieldError>) {
        let at = |field: &str| format!("workloads[{i}].{field}");
        let multi = all.len() > 1;
        if multi && self.name.trim().is_empty() {
            errs.push(FieldError::new(at("name"), Problem::Required));
        }
        if self.name.chars().count() > MAX_NAME_CHARS {
            errs.push(FieldError::new(at("name"), Problem::TooLong { max: MAX_NAME_CHARS }));
        }
        let earlier = all.get(..i).unwrap_or_default();
        if !self.name.is_empty() && earlier.iter().any(|w| w.name == self.name) {
            errs.push(FieldError::new(at("name"), Problem::Inconsistent { rule: "names_unique" }));
        }
        if self.no_model {
            errs.push(FieldError::new(at("plan.model"), Problem::Required));
        }
        if let Some(start) = self.start_month {
            Limit::real(0.0, 1200.0).check_f64(&at("start_month"), start, errs);
        }
        if let Some(donor) = &self.reuse {
            if !earlier.iter().any(|w| &w.name == donor) {
                errs.push(FieldError::new(at("reuse"), Problem::Unknown { id: donor.clone() }));
            }
        }
        errs.extend(
            self.plan
                .validate()
                .into_iter()
                .map(|e| FieldError { field: at(&format!("plan.{}", e.field)), ..e }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workload read without a model keeps saying so through JSON.
    #[test]
    fn no_model_survives_a_round_trip() {
        let link = crate::share::decode_project("v=2&wl=a,b&0.m=qwen2.5-7b");
        let json = serde_json::to_string(&link.project).expect("writes");
        let back: Project = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, link.project);
        let fields: Vec<String> = back.validate().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["workloads[1].plan.model"]);
    }

    #[test]
    fn the_last_workload_stays() {
        let mut p = crate::examples::projects().remove(0).project;
        assert_eq!(
            p.remove_workload(5).map(|w| w.name),
            Err(FieldError::new("workloads[5]", Problem::OutOfRange { min: 0.0, max: 1.0 }))
        );
        // The service named the training: its reuse is kept, and the budget names it.
        assert_eq!(p.remove_workload(0).map(|w| w.name).as_deref(), Ok("train"));
        assert_eq!(p.workloads[0].reuse.as_deref(), Some("train"));
        let fields: Vec<String> = p.validate().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["workloads[0].reuse"]);
        let err = p.remove_workload(0).expect_err("kept");
        assert_eq!(err.problem, Problem::Inconsistent { rule: "keep_one_workload" });
        assert_eq!(p.workloads.len(), 1);
        for lang in [crate::lang::Lang::Zh, crate::lang::Lang::En].into_iter().filter(|l| l.carried()) {
            assert!(err.message(lang).len() > "workloads[0]: ".len(), "{}", err.message(lang));
        }
    }
}
