//! What the workloads bar does to a project, in plain types: add,
//! duplicate, rename, reorder, remove, and where each workload sits; the
//! project's refusals as the bar says them. The inputs edit the active
//! workload's plan; the project holds the others'.

use gpuplan_core::error::{FieldError, Problem};
use gpuplan_core::plan::{Plan, Task};
use gpuplan_core::project::{Project, Workload, MAX_WORKLOADS};

use crate::i18n::{t, Lang, K};
use crate::project::model::renewed;

/// What a new workload starts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Training,
    Service,
    /// One card, one user, a working day a day: an interactive box.
    DevBox,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Training, Kind::Service, Kind::DevBox];

    /// The button that adds one.
    pub fn add_label(self) -> K {
        match self {
            Kind::Training => K::AddTraining,
            Kind::Service => K::AddService,
            Kind::DevBox => K::AddDevBox,
        }
    }

    fn name(self) -> K {
        match self {
            Kind::Training => K::NameTraining,
            Kind::Service => K::NameService,
            Kind::DevBox => K::NameDevBox,
        }
    }

    pub fn testid(self) -> &'static str {
        match self {
            Kind::Training => "wl-add-train",
            Kind::Service => "wl-add-serve",
            Kind::DevBox => "wl-add-dev",
        }
    }

    /// A plan of this kind on the model and GPU of `base` (the workload
    /// being edited): a fine-tune of the model the user is looking at, its
    /// service, or a box to try it on.
    fn plan(self, base: &Plan) -> Plan {
        let mut plan = Plan { model: base.model.clone(), hardware: base.hardware.clone(), ..Plan::default() };
        plan.cost.currency = base.cost.currency;
        plan.cost.cny_per_usd = base.cost.cny_per_usd;
        match self {
            Kind::Training => plan.task = Task::Train,
            Kind::Service => {}
            Kind::DevBox => {
                plan.inference.concurrency = 1;
                plan.cost.months = 1.0;
                plan.cost.hours_per_day = 8.0;
            }
        }
        plan
    }
}

/// Takes the model workload `i` shows as chosen (a link gave it none).
pub fn keep_model(p: &mut Project, i: usize) {
    if let Some(w) = p.workloads.get_mut(i) {
        *w = renewed(w, w.plan.clone());
    }
}

/// `base`, or `base 2`, `base 3`…: the first name no workload has.
fn free_name(p: &Project, base: &str) -> String {
    let taken = |n: &str| p.workloads.iter().any(|w| w.name == n);
    if !base.is_empty() && !taken(base) {
        return base.to_string();
    }
    (2..).map(|k| format!("{base} {k}")).find(|n| !taken(n)).unwrap_or_default()
}

/// The name an unnamed workload gets once it has company (names tell
/// workloads apart in the budget and in `reuse`).
fn name_unnamed(p: &mut Project, lang: Lang) {
    for i in 0..p.workloads.len() {
        if p.workloads[i].name.trim().is_empty() {
            let kind = if p.workloads[i].plan.task == Task::Train { Kind::Training } else { Kind::Service };
            let name = free_name(p, t(lang, kind.name()));
            p.workloads[i].name = name;
        }
    }
}

fn too_many() -> FieldError {
    FieldError::new("workloads", Problem::TooMany { max: MAX_WORKLOADS })
}

/// Adds a workload of `kind` on `base`'s model at the end; its index.
pub fn add(p: &mut Project, kind: Kind, base: &Plan, lang: Lang) -> Result<usize, FieldError> {
    if p.workloads.len() >= MAX_WORKLOADS {
        return Err(too_many());
    }
    name_unnamed(p, lang);
    let name = free_name(p, t(lang, kind.name()));
    p.workloads.push(Workload::new(name, kind.plan(base)));
    Ok(p.workloads.len() - 1)
}

/// Copies workload `i`, span and reuse included, just after it; its index.
pub fn duplicate(p: &mut Project, i: usize, lang: Lang) -> Result<usize, FieldError> {
    if p.workloads.len() >= MAX_WORKLOADS {
        return Err(too_many());
    }
    name_unnamed(p, lang);
    let Some(mut copy) = p.workloads.get(i).cloned() else { return Ok(i) };
    copy.name = free_name(p, &copy.name);
    p.workloads.insert(i + 1, copy);
    Ok(i + 1)
}

/// Renames workload `i`; a workload that carried on its machines follows
/// the new name.
pub fn rename(p: &mut Project, i: usize, name: &str) {
    let Some(old) = p.workloads.get(i).map(|w| w.name.clone()) else { return };
    for w in &mut p.workloads {
        if !old.is_empty() && w.reuse.as_deref() == Some(old.as_str()) {
            w.reuse = Some(name.to_string());
        }
    }
    if let Some(w) = p.workloads.get_mut(i) {
        w.name = name.to_string();
    }
}

/// Moves workload `i` one place up or down; its new index.
pub fn shift(p: &mut Project, i: usize, up: bool) -> usize {
    let to = if up { i.checked_sub(1) } else { Some(i + 1) };
    match to.filter(|&j| j < p.workloads.len() && i < p.workloads.len()) {
        Some(j) => {
            p.workloads.swap(i, j);
            j
        }
        None => i,
    }
}

/// The active index after workload `removed` is gone.
pub fn active_after_removal(active: usize, removed: usize) -> usize {
    if active > removed {
        active - 1
    } else {
        active
    }
}

/// The active index after workloads `i` and `j` swapped.
pub fn active_after_swap(active: usize, i: usize, j: usize) -> usize {
    if active == i {
        j
    } else if active == j {
        i
    } else {
        active
    }
}

/// A start month as typed: empty is "none" (at the start, or when the
/// reused workload ends); text that is no number is refused, with the
/// field named, rather than read as empty.
pub fn start_month(i: usize, text: &str) -> Result<Option<f64>, FieldError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<f64>()
        .ok()
        .filter(|m| m.is_finite())
        .map(Some)
        .ok_or_else(|| FieldError::new(format!("workloads[{i}].start_month"), Problem::NotANumber))
}

/// The project's problems the bar shows: the active plan's own fields are
/// shown by the inputs, except a model it was never given.
pub fn shown_errors(errs: &[FieldError], active: usize) -> Vec<FieldError> {
    let own = format!("workloads[{active}].plan.");
    let model = format!("{own}model");
    errs.iter().filter(|e| !e.field.starts_with(&own) || e.field == model).cloned().collect()
}

/// The workload a project error is about, by its path ("workloads[1].reuse").
pub fn workload_of(e: &FieldError) -> Option<usize> {
    e.field.strip_prefix("workloads[")?.split(']').next()?.parse().ok()
}

/// A project error as the workloads list shows it: the workload's name,
/// then the message with the field's path inside that workload.
pub fn message(e: &FieldError, p: &Project, lang: Lang) -> String {
    let text = e.message(lang);
    let Some(i) = workload_of(e) else { return text };
    let rest = text.strip_prefix(&format!("workloads[{i}]"));
    let local =
        rest.map_or(text.as_str(), |r| r.strip_prefix('.').or_else(|| r.strip_prefix(": ")).unwrap_or(r));
    match p.workloads.get(i).map(|w| w.name.as_str()).filter(|n| !n.is_empty()) {
        Some(name) => format!("{name} · {local}"),
        None => local.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::model::with_active;
    use gpuplan_core::examples;

    fn law() -> Project {
        examples::find_project("law-saas-project").map(|e| e.project).unwrap_or_default()
    }

    #[test]
    fn adding_names_every_workload_uniquely() {
        let mut p = Project::single(Plan::default());
        let base = p.workloads[0].plan.clone();
        assert_eq!(add(&mut p, Kind::Service, &base, Lang::En), Ok(1));
        assert_eq!(add(&mut p, Kind::Training, &base, Lang::En), Ok(2));
        let names: Vec<&str> = p.workloads.iter().map(|w| w.name.as_str()).collect();
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), 3, "{names:?}");
        assert!(names.iter().all(|n| !n.is_empty()));
        assert_eq!(p.workloads[2].plan.task, Task::Train);
        assert_eq!(p.workloads[2].plan.model, base.model, "on the model being edited");
        assert!(p.validate().is_empty(), "{:?}", p.validate());
    }
    #[test]
    fn the_seventeenth_workload_is_refused() {
        let mut p = Project::single(Plan::default());
        let base = Plan::default();
        for _ in 1..MAX_WORKLOADS {
            add(&mut p, Kind::DevBox, &base, Lang::En).expect("room");
        }
        let err = add(&mut p, Kind::DevBox, &base, Lang::En).expect_err("full");
        assert_eq!(err.problem, Problem::TooMany { max: MAX_WORKLOADS });
        assert_eq!(duplicate(&mut p, 0, Lang::En), Err(err));
        assert_eq!(p.workloads.len(), MAX_WORKLOADS);
    }
    #[test]
    fn a_rename_carries_the_reuse_along() {
        let mut p = law();
        rename(&mut p, 0, "fine-tune");
        assert_eq!(p.workloads[1].reuse.as_deref(), Some("fine-tune"));
        assert!(p.validate().is_empty());
    }
    #[test]
    fn duplicate_and_shift_keep_the_active_workload_in_view() {
        let mut p = law();
        assert_eq!(duplicate(&mut p, 0, Lang::En), Ok(1));
        assert_eq!(p.workloads[1].name, "train 2");
        assert_eq!(shift(&mut p, 1, true), 0);
        assert_eq!(p.workloads[0].name, "train 2");
        assert_eq!(shift(&mut p, 0, true), 0, "the first stays first");
        assert_eq!(shift(&mut p, 2, false), 2, "the last stays last");
        assert_eq!(active_after_swap(0, 0, 1), 1);
        assert_eq!(active_after_swap(2, 0, 1), 2);
        assert_eq!(active_after_removal(2, 0), 1);
        assert_eq!(active_after_removal(0, 1), 0);
    }
    #[test]
    fn the_bar_leaves_the_active_plans_fields_to_the_inputs() {
        let mut p = gpuplan_core::share::decode_project("v=2&wl=a,b&0.m=qwen2.5-7b").project;
        p.workloads[0].plan.inference.context = 0;
        let fields =
            |active| shown_errors(&p.validate(), active).into_iter().map(|e| e.field).collect::<Vec<_>>();
        assert_eq!(fields(1), ["workloads[0].plan.inference.context", "workloads[1].plan.model"]);
        assert_eq!(fields(0), ["workloads[1].plan.model"], "the inputs show the context");
    }

    #[test]
    fn start_months_read_or_are_refused() {
        assert_eq!(start_month(1, " "), Ok(None));
        assert_eq!(start_month(1, "2.5"), Ok(Some(2.5)));
        assert_eq!(start_month(1, "-1"), Ok(Some(-1.0)), "the core refuses it, with its range");
        let err = start_month(1, "soon").expect_err("no number");
        assert_eq!(err.field, "workloads[1].start_month");
    }
    #[test]
    fn a_linked_workload_without_a_model_waits_for_one() {
        let mut p = gpuplan_core::share::decode_project("v=2&wl=a,b&0.m=qwen2.5-7b").project;
        let shown = p.workloads[1].plan.clone();
        let fields = |p: &Project| p.validate().into_iter().map(|e| e.field).collect::<Vec<_>>();
        assert_eq!(fields(&with_active(&p, 1, &shown)), ["workloads[1].plan.model"]);
        let other = Plan { model: p.workloads[0].plan.model.clone(), ..shown };
        assert!(fields(&with_active(&p, 1, &other)).is_empty(), "a model picked in the inputs");
        keep_model(&mut p, 1);
        assert!(fields(&p).is_empty(), "the model shown, kept");
    }
    #[test]
    #[cfg(not(feature = "zh"))]
    fn messages_name_the_workload() {
        let mut p = law();
        p.workloads[1].start_month = Some(-1.0);
        let errs = p.validate();
        assert_eq!(workload_of(&errs[0]), Some(1));
        let text = message(&errs[0], &p, Lang::En);
        assert!(text.starts_with("serve · start_month: "), "{text}");
        let removed = p.clone().remove_workload(9).expect_err("no such");
        assert_eq!(workload_of(&removed), Some(9));
        assert!(!message(&removed, &p, Lang::En).starts_with("workloads[9]"));
        let mut one = Project::single(Plan::default());
        let last = one.remove_workload(0).expect_err("kept");
        assert!(message(&last, &one, Lang::En).starts_with("a project keeps at least one workload"));
    }
}
