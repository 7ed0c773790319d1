//! The budget of a project: each workload's chosen bill (its
//! [`crate::selection::Selection`]'s purchase option) placed on one
//! timeline of 730-hour months, the project's own lines on top, summed by
//! month and in total. Rules in docs/project.md.

use serde::Serialize;

use crate::cost::{Line, HOURS_PER_MONTH};
use crate::error::{FieldError, Problem};
use crate::lang::Lang;
use crate::money::{Currency, Money};
use crate::offers::Offer;
use crate::plan::Task;
use crate::project::{Project, Workload};
use crate::report::Report;

/// Longest timeline, in months (the plans' own limits keep well inside it).
const MAX_MONTHS: usize = 1200;

mod machines;
mod spread;

pub use machines::Machine;
pub use spread::ByLine;
use spread::{Piece, Take, Term};

/// One workload on the timeline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadBudget {
    pub name: String,
    pub task: Task,
    /// What it orders, in words ([`crate::selection::Selection::describe`]).
    pub selection: String,
    /// The priced option's id; None when no offer on its GPU meets it (then nothing is billed).
    pub option: Option<String>,
    /// Hours from the project's start: when it runs, to when its machines are let go.
    pub start_h: f64,
    pub end_h: f64,
    /// From when its machines are held: earlier than `start_h` when it
    /// carries on the machines of the workload it reuses.
    pub billed_from_h: f64,
    pub reuses: Option<String>,
    /// The later workload that carries on its machines.
    pub carried_by: Option<String>,
    pub total: Money,
    pub by_month: Vec<Money>,
    /// `total` and `by_month` split by line.
    pub by_line: ByLine,
    pub by_month_line: Vec<ByLine>,
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
    /// `total` and `by_month` split by line; the project's lines are items.
    pub by_line: ByLine,
    pub by_month_line: Vec<ByLine>,
    /// What the project orders, each machine once, with the workloads on it.
    pub machines: Vec<Machine>,
}

/// Each workload's report and the project's budget: what a page shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProjectReport {
    pub reports: Vec<Report>,
    pub budget: Budget,
}

impl ProjectReport {
    /// The project's checklist: each machine once, with the checklist of
    /// the workload whose selection it is (its GPU × count × layout × option).
    pub fn checklist(&self) -> Vec<(&Machine, &crate::checklist::Checklist)> {
        let of = |m: &Machine| self.reports.get(m.workload).map(|r| &r.checklist);
        self.budget.machines.iter().filter_map(|m| of(m).map(|c| (m, c))).collect()
    }
}

/// Where a workload sits, before its amounts.
struct Placed {
    /// The workload's own plan, as it would be alone: its selection is what it orders.
    report: Report,
    start_h: f64,
    end_h: f64,
    billed_from_h: f64,
    reuses: Option<usize>,
    /// With `reuses`: the machines it carries on, held from the reused workload's start.
    carried: Option<Carried>,
}

/// The reused machines: the selection's option priced from the reused
/// workload's start to this one's end, and the share of the instances they are.
struct Carried {
    lines: Vec<Line>,
    weight: f64,
    /// Hours paid per instance and held, over that whole time.
    paid_hours: f64,
    horizon_hours: f64,
    /// The reused workload's hours on them.
    donor_hours: f64,
}

/// Every workload's report and the budget, or every invalid field (named by
/// its path in the project).
pub fn evaluate(project: &Project, offers: &[Offer], lang: Lang) -> Result<ProjectReport, Vec<FieldError>> {
    let errs = project.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut placed: Vec<Placed> = Vec::with_capacity(project.workloads.len());
    for (i, w) in project.workloads.iter().enumerate() {
        placed.push(place(i, w, project, &placed, offers, lang)?);
    }
    let months = month_count(&placed);
    let carried: Vec<Option<usize>> =
        (0..placed.len()).map(|i| placed.iter().position(|p| p.reuses == Some(i))).collect();
    let workloads: Vec<WorkloadBudget> = placed
        .iter()
        .enumerate()
        .zip(&project.workloads)
        .map(|((i, p), w)| {
            let by = carried.get(i).copied().flatten();
            workload_budget(p, w, project, by.and_then(|j| placed.get(j)), by, months, lang)
        })
        .collect();
    let lines: Vec<LineBudget> = project.lines.iter().map(|l| line_budget(l, project, months)).collect();
    let by_month_line: Vec<ByLine> = (0..months)
        .map(|m| {
            let w = workloads
                .iter()
                .filter_map(|x| x.by_month_line.get(m))
                .fold(ByLine::default(), |a, b| a.plus(b));
            let items = lines.iter().filter_map(|x| x.by_month.get(m)).fold(w.items, |a, b| a.plus(*b));
            w.with(spread::Slot::Items, items)
        })
        .collect();
    let by_month: Vec<Money> = by_month_line.iter().map(ByLine::total).collect();
    let by_line = spread::sum(&by_month_line);
    let reuses: Vec<Option<usize>> = placed.iter().map(|p| p.reuses).collect();
    let reports: Vec<Report> = placed.into_iter().map(|p| p.report).collect();
    let names: Vec<String> = project.workloads.iter().map(|w| w.name.clone()).collect();
    let budget = Budget {
        currency: project.currency,
        months,
        workloads,
        lines,
        by_month,
        total: by_line.total(),
        by_line,
        by_month_line,
        machines: machines::machines(&reports, &names, &reuses, lang),
    };
    Ok(ProjectReport { reports, budget })
}

/// A workload's report and its place on the timeline. A workload that
/// reuses an earlier one's machines holds them from that one's start: they
/// are priced again on its own option over the longer time.
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
    let prefix = |e: FieldError| FieldError { field: at(&format!("plan.{}", e.field)), ..e };
    let evaluate = |plan: &crate::plan::Plan| {
        crate::report::evaluate_with(plan, offers, lang)
            .map_err(|errs| errs.into_iter().map(prefix).collect::<Vec<_>>())
    };
    let donor = w.reuse.as_ref().and_then(|name| project.workloads.iter().position(|x| &x.name == name));
    let donor_placed = donor.and_then(|d| before.get(d));
    let start_h = match (w.start_month, donor_placed) {
        (Some(m), _) => m * HOURS_PER_MONTH,
        (None, Some(d)) => d.end_h,
        (None, None) => 0.0,
    };
    let report = evaluate(&w.plan)?;
    let own =
        report.selection.as_ref().and_then(|s| s.option.as_ref()).map(|o| (o.id.clone(), o.horizon_hours));
    let end_h = start_h + own.as_ref().map_or(0.0, |o| o.1);
    let mut placed = Placed { report, start_h, end_h, billed_from_h: start_h, reuses: donor, carried: None };
    let Some(d) = donor_placed else {
        return Ok(placed);
    };
    reuse_rules(w, d, donor, &placed, before).map_err(|(field, rule)| inconsistent(field, rule))?;
    // Nothing on its GPU meets it: nothing billed, as for any workload.
    let Some((own_id, _)) = own else {
        return Ok(placed);
    };
    // The same option held from the donor's start: whole months and minimum terms count once.
    let mut longer = w.plan.clone();
    longer.cost.months += (start_h - d.start_h) / HOURS_PER_MONTH;
    let held = evaluate(&longer)?;
    let Some(option) = held.cost.options.into_iter().find(|o| o.id == own_id) else {
        return Err(inconsistent("reuse", "reuse_option_unavailable"));
    };
    // The option's instances, and how many of them hold the donor's GPUs.
    let (per_instance, instances) = (option.gpus_per_instance.max(1), option.instances.max(1));
    let theirs = d.report.selection.as_ref().map_or(0, |t| t.gpus);
    let taken = theirs.div_ceil(per_instance).min(instances);
    let carried = Carried {
        weight: f64::from(taken) / f64::from(instances),
        paid_hours: option.paid_hours,
        horizon_hours: option.horizon_hours,
        donor_hours: d.end_h - d.start_h,
        lines: option.lines,
    };
    placed.end_h = placed.end_h.max(d.start_h + carried.horizon_hours);
    placed.billed_from_h = d.start_h;
    placed.carried = Some(carried);
    Ok(placed)
}

/// Why a workload may not take over `d`'s machines, as (field, rule).
fn reuse_rules(
    w: &Workload,
    d: &Placed,
    donor: Option<usize>,
    me: &Placed,
    before: &[Placed],
) -> Result<(), (&'static str, &'static str)> {
    if w.plan.task != Task::Infer {
        return Err(("reuse", "reuse_needs_a_service"));
    }
    if d.reuses.is_some() {
        return Err(("reuse", "reuse_not_chained"));
    }
    if before.iter().any(|p| p.reuses == donor) {
        return Err(("reuse", "reused_once"));
    }
    if me.start_h < d.end_h - 1.0e-6 {
        return Err(("start_month", "overlaps_reused"));
    }
    let same = match (me.report.selection.as_ref(), d.report.selection.as_ref()) {
        (Some(mine), Some(theirs)) => theirs.gpu == mine.gpu && theirs.gpus <= mine.gpus,
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(("reuse", "reuse_needs_same_machines"))
    }
}

fn month_count(placed: &[Placed]) -> usize {
    let end = placed.iter().map(|p| p.end_h).fold(0.0, f64::max);
    ((end / HOURS_PER_MONTH).ceil() as usize).clamp(1, MAX_MONTHS)
}

/// A workload's amounts. Its own bill from its start; when it reuses
/// machines, its extra instances from its start and the carried ones from
/// the donor's, less the donor's hours on them; when a later workload
/// carries its machines on, its hours on them at that workload's option,
/// and its own bill's egress and items.
fn workload_budget(
    p: &Placed,
    w: &Workload,
    project: &Project,
    by: Option<&Placed>,
    by_index: Option<usize>,
    months: usize,
    lang: Lang,
) -> WorkloadBudget {
    let s = p.report.selection.as_ref();
    let id = s.and_then(|s| s.option.as_ref()).map(|o| o.id.as_str());
    let option = id.and_then(|id| p.report.cost.options.iter().find(|x| x.id == id));
    let factor = |r: &Report| r.cost.currency.factor(project.currency, project.cny_per_usd);
    let piece = |lines, take, weight, offset_h, factor| Piece { lines, take, weight, offset_h, factor };
    let carried_on = by.and_then(|b| b.carried.as_ref().map(|c| (b, c)));
    let mut terms = Vec::new();
    if let Some(o) = option {
        let f = factor(&p.report);
        match (&p.carried, carried_on) {
            (Some(c), _) => {
                terms.push(Term::Whole(piece(&o.lines, Take::Machines, 1.0 - c.weight, p.start_h, f)));
                terms.push(Term::Whole(piece(&o.lines, Take::Others, 1.0, p.start_h, f)));
            }
            (None, Some(_)) => terms.push(Term::Whole(piece(&o.lines, Take::Others, 1.0, p.start_h, f))),
            (None, None) => terms.push(Term::Whole(piece(&o.lines, Take::All, 1.0, p.start_h, f))),
        }
    }
    if let Some(c) = &p.carried {
        let carried = piece(&c.lines, Take::Machines, c.weight, p.billed_from_h, factor(&p.report));
        terms.push(Term::Rest(carried, c.donor_share()));
    }
    if let Some((b, c)) = carried_on {
        let carried = piece(&c.lines, Take::Machines, c.weight, b.billed_from_h, factor(&b.report));
        terms.push(Term::First(carried, c.donor_share()));
    }
    let by_month_line = spread::by_month(&terms, months);
    let by_line = spread::sum(&by_month_line);
    WorkloadBudget {
        name: w.name.clone(),
        task: w.plan.task,
        selection: s.map_or_else(String::new, |s| s.describe(lang)),
        option: option.map(|o| o.id.clone()),
        start_h: p.start_h,
        end_h: p.end_h,
        billed_from_h: p.billed_from_h,
        reuses: w.reuse.clone(),
        carried_by: by_index.and_then(|j| project.workloads.get(j)).map(|c| c.name.clone()),
        total: by_line.total(),
        by_month: by_month_line.iter().map(ByLine::total).collect(),
        by_line,
        by_month_line,
    }
}

impl Carried {
    /// The donor's part of the carried machines: its hours on them at the
    /// rate they are paid (a monthly card's month is 730 paid hours).
    fn donor_share(&self) -> f64 {
        let held = self.paid_hours.max(self.horizon_hours);
        if held > 0.0 {
            (self.donor_hours / held).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
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

    fn money(m: Option<&Money>) -> String {
        m.map(|m| m.text()).unwrap_or_default()
    }

    /// Seed 002 §7: the training runs on the first of the service's monthly
    /// cards. It is billed its own hours on that card; the service its
    /// extra cards from its own start; the card itself is rented once.
    #[test]
    fn the_law_firm_project_bills_each_workload_its_own_hours() {
        let ex = crate::examples::projects().remove(0);
        let r = run(&ex.project).expect("valid");
        let b = &r.budget;
        let (train, serve) = (&b.workloads[0], &b.workloads[1]);
        assert_eq!(train.carried_by.as_deref(), Some("serve"));
        assert_eq!((serve.billed_from_h, serve.start_h), (0.0, train.end_h));
        // Its 180.8 h on one card at 2,640 CNY for 730 paid hours.
        let hours = train.end_h - train.start_h;
        assert!((hours - 180.76).abs() < 0.01, "{hours}");
        assert_eq!(train.total.text(), "653.70");
        assert_eq!(train.total, Money::round(2640.0 * hours / 730.0).unwrap_or(Money::ZERO));
        // The month's three monthly payments, less the training's hours on the first card.
        assert_eq!(money(serve.by_month.first()), "7,266.30");
        assert_eq!(money(b.by_month.first()), "8,220.00");
        // The carried card is one rental of 13 whole months (one start, one
        // minimum); the two extra cards 12 months from the service's start.
        assert_eq!(train.total.plus(serve.total).text(), "97,680.00");
        assert_eq!((b.months, b.total.text().as_str()), (13, "101,580.00"));
        let note = ex.note(Lang::En);
        for figure in ["2,169.10", "653.70", "7,266.30", "8,220", "2,940"] {
            assert!(note.contains(figure), "{figure} in the note");
        }
        // Without the reuse the training is billed on its own: on demand, 2,169.10.
        let mut apart = ex.project.clone();
        apart.workloads[1].reuse = None;
        apart.workloads[1].start_month = Some(train.end_h / HOURS_PER_MONTH);
        let apart = run(&apart).expect("valid").budget;
        assert_eq!(apart.workloads[0].total.text(), "2,169.10");
        assert_eq!(
            apart.total.text(),
            "101,109.10",
            "the 13th payment costs more than the training on demand"
        );
    }

    /// Each workload's months and lines add up to its total, and the
    /// project's months to the sum of its workloads and lines.
    #[test]
    fn months_and_lines_add_up() {
        let ex = crate::examples::projects().remove(0);
        let b = run(&ex.project).expect("valid").budget;
        for w in &b.workloads {
            let by_line = spread::sum(&w.by_month_line);
            assert_eq!(by_line, w.by_line, "{}", w.name);
            assert_eq!(by_line.total(), w.total, "{}", w.name);
            let months: Vec<Money> = w.by_month_line.iter().map(ByLine::total).collect();
            assert_eq!(months, w.by_month, "{}", w.name);
        }
        for m in 0..b.months {
            let at = |v: &[Money]| v.get(m).copied().unwrap_or(Money::ZERO);
            let parts =
                b.workloads.iter().map(|w| at(&w.by_month)).chain(b.lines.iter().map(|l| at(&l.by_month)));
            assert_eq!(parts.fold(Money::ZERO, Money::plus), at(&b.by_month), "month {m}");
        }
        assert_eq!(b.by_line.total(), b.total);
        assert_eq!(b.by_line.items.text(), "3,900.00", "the project's storage and traffic line");
        assert_eq!(b.by_month_line.first().map(|m| m.gpus.text()).as_deref(), Some("6,600.00"));
    }

    /// The machines the project orders: each once, named as the bill names them.
    #[test]
    fn machines_match_the_bill() {
        let ex = crate::examples::projects().remove(0);
        let r = run(&ex.project).expect("valid");
        let b = &r.budget;
        assert_eq!(b.machines.len(), 1, "the training's card is the service's first");
        let m = &b.machines[0];
        assert_eq!(
            (m.workload, m.workloads.as_slice()),
            (1, ["train".to_string(), "serve".into()].as_slice())
        );
        for (i, w) in b.workloads.iter().enumerate() {
            let s = r.reports[i].selection.as_ref().expect("selection");
            let o = s.option.as_ref().expect("priced");
            assert_eq!(w.option.as_deref(), Some(o.id.as_str()), "{}: the bill is the selection's", w.name);
            assert!(r.reports[i].checklist.title.contains(&format!("{} × {}", s.gpus, s.gpu_name)));
        }
        let s = r.reports[m.workload].selection.as_ref().expect("selection");
        let o = s.option.as_ref().expect("priced");
        assert_eq!((m.gpus, m.instances, m.option.as_deref()), (s.gpus, o.instances, Some(o.id.as_str())));
        assert_eq!((m.gpus, m.instances), (3, 3));
        let list = r.checklist();
        assert_eq!(list.len(), 1);
        assert!(list[0].1.title.contains(&format!("{} × {}", m.gpus, m.gpu_name)), "{}", list[0].1.title);
        // Two plans on one configuration, neither reusing: one machine entry for both.
        let chat = crate::examples::find("chat-7b").map(|e| e.plan).unwrap_or_default();
        let mut two = Project::single(chat.clone());
        two.workloads = vec![Workload::new("a", chat.clone()), Workload::new("b", chat)];
        let b = run(&two).expect("valid").budget;
        assert_eq!(b.machines.len(), 1);
        assert_eq!(b.machines[0].workloads, ["a", "b"]);
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

    /// Each workload of the gallery project: its checklist (title, GPU
    /// count), its snippets (GPUs to order, the bill's option and total)
    /// and its budget name one configuration, the selection's.
    #[test]
    #[cfg(not(feature = "zh"))]
    fn every_workload_names_one_configuration() {
        let ex = crate::examples::projects().remove(0);
        let r = run(&ex.project).expect("valid");
        for ((w, report), budget) in ex.project.workloads.iter().zip(&r.reports).zip(&r.budget.workloads) {
            let s = report.selection.as_ref().expect("selection");
            let o = s.option.as_ref().expect("priced");
            assert_eq!(budget.option.as_deref(), Some(o.id.as_str()), "{}", w.name);
            assert_eq!(budget.selection, s.describe(Lang::En), "{}", w.name);
            let items = report.checklist.sections.iter().flat_map(|x| &x.items);
            let count = items.clone().find(|i| i.id == "gpu-count").expect("the count is stated");
            let said = if s.gpus == 1 { "Single-GPU plan".to_string() } else { format!("{} GPUs", s.gpus) };
            assert!(count.text.contains(&said), "{}: {}", w.name, count.text);
            let snip = crate::snippets::snippets(&w.plan, report, Lang::En, "https://example.org/");
            assert!(snip.markdown.contains(&format!("| GPUs to order | {} |", s.gpus)), "{}", w.name);
            let bill = report.cost.options.iter().find(|b| b.id == o.id).expect("in the bill");
            assert!(snip.markdown.contains(&bill.label(Lang::En)), "{}", w.name);
            assert!(snip.markdown.contains(&bill.total.text()), "{}", w.name);
            assert_eq!((bill.instances, s.gpus.div_ceil(bill.gpus_per_instance)), (o.instances, o.instances));
        }
    }

    /// Machines carried on once, from the workload that first rented them.
    #[test]
    fn reuse_is_single_and_unchained() {
        let law = crate::examples::projects().remove(0).project;
        let mut twice = law.clone();
        let again =
            Workload { reuse: Some("train".into()), ..Workload::new("again", law.workloads[1].plan.clone()) };
        twice.workloads.push(again);
        assert_eq!(fields(&twice), ["workloads[2].reuse"]);
        let errs = run(&twice).err().unwrap_or_default();
        assert!(errs.iter().all(|e| e.problem == Problem::Inconsistent { rule: "reused_once" }), "{errs:?}");
        let mut chain = law.clone();
        let next =
            Workload { reuse: Some("serve".into()), ..Workload::new("next", law.workloads[1].plan.clone()) };
        chain.workloads.push(next);
        assert_eq!(fields(&chain), ["workloads[2].reuse"]);
        for e in run(&twice).err().unwrap_or_default().iter().chain(&run(&chain).err().unwrap_or_default()) {
            assert!(!e.message(Lang::Zh).is_empty() && !e.message(Lang::En).is_empty());
        }
    }
}
