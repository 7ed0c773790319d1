//! The budget of a project: each workload's chosen bill (its
//! [`crate::selection::Selection`]'s purchase option) placed on one
//! timeline of 730-hour months, the project's own lines on top, summed by
//! month and in total. Rules in docs/project.md.

use serde::Serialize;

use crate::cost::{Accrual, Category, Line, LineKind, HOURS_PER_MONTH};
use crate::error::{FieldError, Problem};
use crate::lang::Lang;
use crate::money::{Currency, Money};
use crate::offers::Offer;
use crate::plan::Task;
use crate::project::{Project, Workload};
use crate::report::Report;

/// Longest timeline, in months (the plans' own limits keep well inside it).
const MAX_MONTHS: usize = 1200;

/// One workload on the timeline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadBudget {
    pub name: String,
    pub task: Task,
    /// What it orders, in words ([`crate::selection::Selection::describe`]).
    pub selection: String,
    /// The priced option's id; None when no offer on its GPU meets it (then nothing is billed).
    pub option: Option<String>,
    /// Hours from the project's start: when it runs.
    pub start_h: f64,
    pub end_h: f64,
    /// From when its machines are paid: earlier than `start_h` when it
    /// carries on the machines of the workload it reuses.
    pub billed_from_h: f64,
    pub reuses: Option<String>,
    /// The later workload that carries on its machines: its compute is paid there.
    pub carried_by: Option<String>,
    pub total: Money,
    pub by_month: Vec<Money>,
}

/// One project-level line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineBudget {
    pub name: String,
    pub monthly: bool,
    pub total: Money,
    pub by_month: Vec<Money>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Budget {
    pub currency: Currency,
    pub months: usize,
    pub workloads: Vec<WorkloadBudget>,
    pub lines: Vec<LineBudget>,
    /// Everything due in each month.
    pub by_month: Vec<Money>,
    pub total: Money,
}

/// Each workload's report and the project's budget: what a page shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProjectReport {
    pub reports: Vec<Report>,
    pub budget: Budget,
}

/// Where a workload sits, before its amounts.
struct Placed {
    report: Report,
    start_h: f64,
    end_h: f64,
    billed_from_h: f64,
    reuses: Option<usize>,
}

/// Every workload's report and the budget, or every invalid field (named by
/// its path in the project).
pub fn evaluate(project: &Project, offers: &[Offer], lang: Lang) -> Result<ProjectReport, Vec<FieldError>> {
    let errs = project.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut placed: Vec<Placed> = Vec::with_capacity(project.workloads.len());
    let mut errs = Vec::new();
    for (i, w) in project.workloads.iter().enumerate() {
        match place(i, w, project, &placed, offers, lang) {
            Ok(p) => placed.push(p),
            Err(e) => {
                errs.extend(e);
                return Err(errs);
            }
        }
    }
    let months = month_count(&placed);
    let carried: Vec<Option<usize>> =
        (0..placed.len()).map(|i| placed.iter().position(|p| p.reuses == Some(i))).collect();
    let workloads: Vec<WorkloadBudget> = placed
        .iter()
        .zip(&project.workloads)
        .zip(&carried)
        .map(|((p, w), by)| {
            let carried_by = by.and_then(|j| project.workloads.get(j)).map(|c| c.name.clone());
            workload_budget(p, w, project, carried_by, months, lang)
        })
        .collect();
    let lines: Vec<LineBudget> = project.lines.iter().map(|l| line_budget(l, project, months)).collect();
    let by_month: Vec<Money> = (0..months)
        .map(|m| {
            let cell = |v: &Vec<Money>| v.get(m).copied().unwrap_or(Money::ZERO);
            let w = workloads.iter().fold(Money::ZERO, |acc, x| acc.plus(cell(&x.by_month)));
            lines.iter().fold(w, |acc, x| acc.plus(cell(&x.by_month)))
        })
        .collect();
    let total = by_month.iter().fold(Money::ZERO, |a, b| a.plus(*b));
    let budget = Budget { currency: project.currency, months, workloads, lines, by_month, total };
    Ok(ProjectReport { reports: placed.into_iter().map(|p| p.report).collect(), budget })
}

/// A workload's report and its place on the timeline. A workload that
/// reuses an earlier one's machines is billed from that one's start: its
/// service horizon grows by the months the machines were already held.
fn place(
    i: usize,
    w: &Workload,
    project: &Project,
    before: &[Placed],
    offers: &[Offer],
    lang: Lang,
) -> Result<Placed, Vec<FieldError>> {
    let at = |field: &str| format!("workloads[{i}].{field}");
    let inconsistent = |field: &str, rule| vec![FieldError::new(at(field), Problem::Inconsistent { rule })];
    let donor = w.reuse.as_ref().and_then(|name| project.workloads.iter().position(|x| &x.name == name));
    let donor_placed = donor.and_then(|d| before.get(d));
    let start_h = match (w.start_month, donor_placed) {
        (Some(m), _) => m * HOURS_PER_MONTH,
        (None, Some(d)) => d.end_h,
        (None, None) => 0.0,
    };
    let mut plan = w.plan.clone();
    let billed_from_h = match donor_placed {
        Some(d) => {
            if plan.task != Task::Infer {
                return Err(inconsistent("reuse", "reuse_needs_a_service"));
            }
            if start_h < d.end_h - 1.0e-6 {
                return Err(inconsistent("start_month", "overlaps_reused"));
            }
            plan.cost.months += (start_h - d.start_h) / HOURS_PER_MONTH;
            d.start_h
        }
        None => start_h,
    };
    let prefix = |e: FieldError| FieldError { field: at(&format!("plan.{}", e.field)), ..e };
    let report = crate::report::evaluate_with(&plan, offers, lang)
        .map_err(|errs| errs.into_iter().map(prefix).collect::<Vec<_>>())?;
    if let (Some(d), Some(mine)) = (donor_placed, report.selection.as_ref()) {
        let theirs = d.report.selection.as_ref();
        if !theirs.is_some_and(|t| t.gpu == mine.gpu && t.gpus <= mine.gpus) {
            return Err(inconsistent("reuse", "reuse_needs_same_machines"));
        }
    }
    let horizon = report.selection.as_ref().and_then(|s| s.option.as_ref()).map_or(0.0, |o| o.horizon_hours);
    let end_h = billed_from_h + horizon;
    Ok(Placed { report, start_h, end_h, billed_from_h, reuses: donor })
}

fn month_count(placed: &[Placed]) -> usize {
    let end = placed.iter().map(|p| p.end_h).fold(0.0, f64::max);
    ((end / HOURS_PER_MONTH).ceil() as usize).clamp(1, MAX_MONTHS)
}

fn workload_budget(
    p: &Placed,
    w: &Workload,
    project: &Project,
    carried_by: Option<String>,
    months: usize,
    lang: Lang,
) -> WorkloadBudget {
    let s = p.report.selection.as_ref();
    let option =
        s.and_then(|s| s.option.as_ref()).and_then(|o| p.report.cost.options.iter().find(|x| x.id == o.id));
    // Carried on by a later workload: its machine time (run and debugging) is paid there.
    let machine = |l: &Line| l.category == Category::Compute || l.kind == LineKind::Buffer;
    let keep = |l: &Line| carried_by.is_none() || !machine(l);
    let factor = p.report.cost.currency.factor(project.currency, project.cny_per_usd);
    let by_month = option.map_or_else(
        || vec![Money::ZERO; months],
        |o| spread(&o.lines, &keep, p.billed_from_h, months, factor),
    );
    WorkloadBudget {
        name: w.name.clone(),
        task: w.plan.task,
        selection: s.map_or_else(String::new, |s| s.describe(lang)),
        option: option.map(|o| o.id.clone()),
        start_h: p.start_h,
        end_h: p.end_h,
        billed_from_h: p.billed_from_h,
        reuses: w.reuse.clone(),
        carried_by,
        total: by_month.iter().fold(Money::ZERO, |a, b| a.plus(*b)),
        by_month,
    }
}

/// A bill's kept lines by month of the project, starting at `offset_h`.
/// The contingency (proportional) follows the kept lines, in their share of the whole.
fn spread(
    lines: &[Line],
    keep: &dyn Fn(&Line) -> bool,
    offset_h: f64,
    months: usize,
    factor: f64,
) -> Vec<Money> {
    let proportional = |l: &&Line| l.accrual == Accrual::Proportional;
    let base_all: f64 = lines.iter().filter(|l| !proportional(l)).map(|l| l.amount.units()).sum();
    let kept: Vec<&Line> = lines.iter().filter(|l| !proportional(l) && keep(l)).collect();
    let kept_total: f64 = kept.iter().map(|l| l.amount.units()).sum();
    let prop: f64 = lines.iter().filter(proportional).filter(|l| keep(l)).map(|l| l.amount.units()).sum();
    let prop = if base_all > 0.0 { prop * kept_total / base_all } else { prop };
    let total = kept_total + prop;
    let paid = |t: f64| {
        let base: f64 = kept.iter().map(|l| l.amount.units() * l.accrual.share(t - offset_h)).sum();
        let share = if kept_total > 0.0 { base / kept_total } else { f64::from(u8::from(t >= offset_h)) };
        base + prop * share
    };
    cumulative_to_months(months, total * factor, |t| paid(t) * factor)
}

/// Amounts due in each month from a cumulative curve; the last month takes
/// what is left so that the months add up to the total exactly.
fn cumulative_to_months(months: usize, total: f64, paid: impl Fn(f64) -> f64) -> Vec<Money> {
    let cents = |x: f64| Money::round(x).unwrap_or(Money::ZERO);
    let total = cents(total);
    let mut out = Vec::with_capacity(months);
    let mut so_far = Money::ZERO;
    for m in 0..months {
        let due = if m + 1 == months {
            total
        } else {
            cents(paid((m as f64 + 1.0) * HOURS_PER_MONTH - 1.0e-6)).min(total)
        };
        out.push(due.minus(so_far));
        so_far = due;
    }
    out
}

/// A project line: once in the first month, or in every month of the timeline.
fn line_budget(item: &crate::cost::Item, project: &Project, months: usize) -> LineBudget {
    let amount = item.amount * item.currency.factor(project.currency, project.cny_per_usd);
    let each = Money::round(amount).unwrap_or(Money::ZERO);
    let by_month: Vec<Money> =
        (0..months).map(|m| if item.monthly || m == 0 { each } else { Money::ZERO }).collect();
    LineBudget {
        name: item.name.clone(),
        monthly: item.monthly,
        total: by_month.iter().fold(Money::ZERO, |a, b| a.plus(*b)),
        by_month,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;
    use crate::project::Workload;

    fn run(p: &Project) -> Result<ProjectReport, Vec<FieldError>> {
        evaluate(p, &crate::offers::defaults(), Lang::En)
    }

    fn fields(p: &Project) -> Vec<String> {
        run(p).err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    /// A one-workload project is today's plan: the same report, and a
    /// budget whose total is that plan's chosen bill.
    #[test]
    fn a_single_workload_project_is_the_plan() {
        for e in crate::examples::all() {
            let r = run(&Project::single(e.plan.clone())).expect("valid");
            let alone = crate::report::evaluate(&e.plan, Lang::En).expect("valid");
            assert_eq!(r.reports, vec![alone.clone()], "{}", e.id);
            let chosen = alone.selection.and_then(|s| s.option).expect("priced");
            assert_eq!(r.budget.total, chosen.total, "{}", e.id);
            let months = r.budget.by_month.iter().fold(Money::ZERO, |a, b| a.plus(*b));
            assert_eq!(months, r.budget.total, "{}: the months add up", e.id);
        }
    }

    /// Seed 002 §7: training on the first of the service's monthly cards is
    /// paid once, inside the service's subscription.
    #[test]
    fn the_law_firm_project_pays_its_card_once() {
        let ex = crate::examples::projects().remove(0);
        let r = run(&ex.project).expect("valid");
        let b = &r.budget;
        let (train, serve) = (&b.workloads[0], &b.workloads[1]);
        assert_eq!(train.carried_by.as_deref(), Some("serve"));
        assert_eq!(train.total, Money::ZERO, "its machine time is in the service's bill");
        assert_eq!((serve.billed_from_h, serve.start_h), (0.0, train.end_h));
        // 3 cards × 2,640 CNY a month, 12 months of service + the training's days: 13 payments.
        assert_eq!(serve.by_month.first().map(|m| m.text()).as_deref(), Some("7,920.00"));
        assert_eq!((b.months, serve.total.text().as_str()), (13, "102,960.00"));
        assert_eq!(b.by_month.first().map(|m| m.text()).as_deref(), Some("8,220.00"));
        let note = ex.note(Lang::En);
        for figure in ["2,169.10", "7,920", "8,220", "2,940"] {
            assert!(note.contains(figure), "{figure} in the note");
        }
        if Lang::En.carried() {
            assert!(note.contains("13 monthly payments"), "{note}");
        }
        // Without the reuse the training is billed on its own as well.
        let mut apart = ex.project.clone();
        apart.workloads[1].reuse = None;
        let apart = run(&apart).expect("valid").budget;
        assert_eq!(apart.workloads[0].total.text(), "2,169.10");
        assert!(apart.total.cents() < b.total.cents() + 217_000, "{}", apart.total.text());
    }

    #[test]
    fn bad_projects_name_their_fields() {
        assert_eq!(fields(&Project::default()), ["workloads"]);
        let no_model: Project =
            serde_json::from_str(r#"{"workloads": [{"name": "a", "plan": {"task": "train"}}]}"#)
                .expect("reads");
        assert_eq!(fields(&no_model), ["workloads[0].plan.model"]);
        let mut many = Project::single(Plan::default());
        many.workloads = (0..1000).map(|i| Workload::new(format!("w{i}"), Plan::default())).collect();
        let errs = run(&many).expect_err("refused");
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message(Lang::En).contains("16"), "{}", errs[0].message(Lang::En));
        let mut law = crate::examples::projects().remove(0).project;
        law.workloads[1].start_month = Some(0.1);
        assert_eq!(fields(&law), ["workloads[1].start_month"], "overlaps the training");
        law.workloads[1].start_month = Some(-1.0);
        assert_eq!(fields(&law), ["workloads[1].start_month"]);
        law.workloads[1].start_month = None;
        law.workloads[1].reuse = Some("nobody".into());
        assert_eq!(fields(&law), ["workloads[1].reuse"]);
        law.workloads[1].name = "train".into();
        law.workloads[1].reuse = None;
        assert_eq!(fields(&law), ["workloads[1].name"]);
    }
}
