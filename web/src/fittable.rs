//! The fit table: every catalog GPU, how many the plan needs, how it splits,
//! memory use, speed and flags, filtered by class and software stack.

use gpuplan_core::figure::Figure;
use gpuplan_core::fit::{GpuFit, Severity};
use gpuplan_core::hardware::{self, GpuClass, Stack};
use gpuplan_core::names;
use gpuplan_core::plan::Task;
use leptos::prelude::*;
use web_sys::Element;

use crate::dom::{block, checked, form, h, value, El, Ev};
use crate::fields::{labelled, option};
use crate::i18n::{t, Lang, K};
use crate::options::{Opt, CLASS_FILTER, STACK_FILTER};
use crate::state::AppState;
use crate::table::{next_sort, table, Col, Row, Sort};
use gpuplan_core::present::{self, Unit};

/// The speed figure the table shows: run hours for training, expected total
/// decode throughput for inference (the bound when there is no expected value).
fn speed(row: &GpuFit, task: Task) -> Option<Figure> {
    let s = row.speed.as_ref()?;
    match task {
        Task::Train => s.training.as_ref().map(|t| t.hours.clone()),
        Task::Infer => s.inference.as_ref().map(|i| i.decode_tps_total()),
    }
}

/// Filters: class and stack by serde name ("" = all), and fitting rows only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    pub class: String,
    pub stack: String,
    pub fits_only: bool,
}

impl Filter {
    pub fn keeps(&self, class: GpuClass, stack: Stack, fits: bool) -> bool {
        let is = |want: &str, name: Option<&str>| want.is_empty() || name == Some(want);
        is(&self.class, names::variant(&class))
            && is(&self.stack, names::variant(&stack))
            && (fits || !self.fits_only)
    }
}

fn stack_of(id: &str) -> Stack {
    hardware::find(id).map(|g| g.stack).unwrap_or_default()
}

fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::Info => "chip info",
        Severity::Warn => "chip warn",
        Severity::Block => "chip block",
    }
}

/// The count the bill prices, and the count that holds the memory when the two differ.
fn count_cell(r: &GpuFit, fits: u32, lang: Lang) -> Vec<(String, &'static str)> {
    let gpus = r.priced_gpus().unwrap_or(fits);
    let mut cell = vec![(gpus.to_string(), "")];
    if gpus != fits {
        cell.push((t(lang, K::MemoryHolds).replace("{}", &fits.to_string()), "hint"));
    }
    cell
}

fn row(r: &GpuFit, task: Task, lang: Lang, unit: Unit) -> Row {
    let mut name = vec![(r.gpu_name.clone(), "")];
    if r.chosen {
        name.push((t(lang, K::Chosen).into(), "chip chosen"));
    }
    let (count, layout, mem, used) = match &r.best {
        Some(b) => {
            let mut layout = b.strategy.label(lang).to_string();
            if b.nodes > 1 {
                layout = format!("{layout} · {} {}", b.nodes, t(lang, K::Servers));
            }
            let mem = format!(
                "{} / {}",
                present::bytes(b.per_gpu_bytes, unit),
                present::bytes(b.usable_bytes, unit)
            );
            (count_cell(r, b.gpus, lang), layout, mem, 1.0 - b.headroom)
        }
        None => (vec![("—".into(), "")], t(lang, K::NoFit).into(), String::new(), f64::NAN),
    };
    let fig = speed(r, task);
    let flags: Vec<_> =
        r.flags.iter().map(|f| (f.text(lang).to_string(), severity_class(f.severity))).collect();
    let warnings = r.flags.iter().filter(|f| f.severity > Severity::Info).count();
    Row {
        key: r.gpu_id.clone(),
        class: if r.best.is_some() { "" } else { "nofit" },
        cells: vec![
            name,
            count,
            vec![(layout, "")],
            vec![(mem, "")],
            vec![(fig.as_ref().map(present::figure).unwrap_or_else(|| "—".into()), "")],
            flags,
        ],
        keys: vec![
            f64::NAN,
            r.priced_gpus().map_or(f64::NAN, f64::from),
            f64::NAN,
            used,
            fig.map_or(f64::NAN, |f| if task == Task::Train { f.value } else { -f.value }),
            warnings as f64,
        ],
    }
}

fn filter_select(lang: Lang, id: &str, label: K, opts: &[Opt], current: &str) -> El {
    let options = opts.iter().map(|o| option(o.value, o.label(lang), o.value == current));
    labelled(id, t(lang, label), h("select").a("id", id).a("data-act", id).ks(options))
}

pub fn fit_table(app: AppState) -> Option<Element> {
    let sort: RwSignal<Sort> = RwSignal::new(None);
    let class = RwSignal::new(String::new());
    let stack = RwSignal::new(String::new());
    let fits_only = RwSignal::new(false);
    let body = move || {
        let lang = app.lang;
        let unit = app.unit.get();
        let filter = Filter { class: class.get(), stack: stack.get(), fits_only: fits_only.get() };
        let task = app.settled.with(|p| p.task);
        let table = app.shown.with(|r| {
            let fit = &r.as_ref()?.fit;
            let rows = fit
                .rows
                .iter()
                .filter(|g| filter.keeps(g.class, stack_of(&g.gpu_id), g.best.is_some()))
                .map(|g| row(g, task, lang, unit))
                .collect();
            let col = |k: K, sortable: bool, num: bool| Col { label: t(lang, k).into(), sortable, num };
            let speed_label = if task == Task::Train { K::RunTime } else { K::Throughput };
            let cols = vec![
                col(K::Gpu, false, false),
                col(K::GpuCount, true, true),
                col(K::Layout, false, false),
                col(K::PerGpuUse, true, true),
                col(speed_label, true, true),
                col(K::Flags, true, false),
            ];
            Some(table("fit-table", t(lang, K::FitTitle), cols, rows, sort.get(), None))
        });
        let only = h("input").a("type", "checkbox").a("id", "f-fit-only").a("data-act", "f-fit-only");
        let filters = h("div")
            .c("filters")
            .k(filter_select(lang, "f-fit-class", K::GpuClass, CLASS_FILTER, &filter.class))
            .k(filter_select(lang, "f-fit-stack", K::Stack, STACK_FILTER, &filter.stack))
            .k(h("div")
                .c("field check")
                .k(only.flag("checked", filter.fits_only))
                .k(h("label").a("for", "f-fit-only").t(t(lang, K::FitsOnly))));
        let section =
            block("fit-h", t(lang, K::FitTitle)).k(h("p").c("hint").t(t(lang, K::FitHint))).k(filters);
        Some(section.opt(table))
    };
    let on = move |ev: Ev, act: &str, arg: &str, el: &Element| match (ev, act) {
        (Ev::Click, "sort") => {
            if let Ok(col) = arg.parse() {
                sort.update(|s| *s = next_sort(*s, col));
            }
        }
        (Ev::Change, "f-fit-class") => class.set(value(el)),
        (Ev::Change, "f-fit-stack") => stack.set(value(el)),
        (Ev::Change, "f-fit-only") => fits_only.set(checked(el)),
        _ => {}
    };
    form("", body, on)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_by_class_stack_and_fit() {
        let all = Filter::default();
        assert!(all.keeps(GpuClass::Geforce, Stack::Rocm, false));
        let f = Filter { class: "datacenter".into(), stack: "cuda".into(), fits_only: true };
        assert!(f.keeps(GpuClass::Datacenter, Stack::Cuda, true));
        assert!(!f.keeps(GpuClass::Datacenter, Stack::Cuda, false));
        assert!(!f.keeps(GpuClass::Geforce, Stack::Cuda, true));
        assert!(!f.keeps(GpuClass::Datacenter, Stack::Rocm, true));
    }

    #[test]
    fn default_plan_rows_have_a_cell_per_column() {
        let r = gpuplan_core::report::evaluate(
            &gpuplan_core::plan::Plan::default(),
            gpuplan_core::lang::Lang::En,
        )
        .unwrap();
        for g in &r.fit.rows {
            let row = row(g, Task::Infer, Lang::En, Unit::Gb);
            assert_eq!(row.cells.len(), 6);
            assert_eq!(row.keys.len(), 6);
        }
        let h100 = r.fit.rows.iter().find(|g| g.gpu_id == "h100-sxm").unwrap();
        assert_eq!(row(h100, Task::Infer, Lang::En, Unit::Gb).cells[1][0].0, "1");
    }
}
