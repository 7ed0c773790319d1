//! The fit table: every catalog GPU, how many the plan needs, how it splits,
//! memory use, speed and flags, filtered by class and software stack.

use gpuplan_core::figure::Figure;
use gpuplan_core::fit::{GpuFit, Severity};
use gpuplan_core::hardware::{self, GpuClass, Stack};
use gpuplan_core::names;
use gpuplan_core::plan::Task;
use gpuplan_core::present::{self, Unit};
use leptos::prelude::*;

use crate::components::block::Block;
use crate::components::labelled::Labelled;
use crate::components::table::{Col, DataTable, Part, Row};
use crate::i18n::{t, Lang, K};
use crate::options::{Opt, CLASS_FILTER, STACK_FILTER};
use crate::state::AppState;

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
fn count_cell(r: &GpuFit, fits: u32, lang: Lang) -> Vec<Part> {
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

fn cols(lang: Lang, task: Task) -> Vec<Col> {
    let col = |k: K, sortable: bool, num: bool| Col { label: t(lang, k), sortable, num };
    let speed_label = if task == Task::Train { K::RunTime } else { K::Throughput };
    vec![
        col(K::Gpu, false, false),
        col(K::GpuCount, true, true),
        col(K::Layout, false, false),
        col(K::PerGpuUse, true, true),
        col(speed_label, true, true),
        col(K::Flags, true, false),
    ]
}

#[component]
pub fn FitTable(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let filter = RwSignal::new(Filter::default());
    let task = Memo::new(move |_| state.settled.with(|p| p.task));
    let rows = Memo::new(move |_| {
        let (unit, task) = (state.unit.get(), task.get());
        filter.with(|f| {
            state.shown.with(|r| {
                let Some(r) = r else { return Vec::new() };
                let kept =
                    r.fit.rows.iter().filter(|g| f.keeps(g.class, stack_of(&g.gpu_id), g.best.is_some()));
                kept.map(|g| row(g, task, lang, unit)).collect()
            })
        })
    });
    let class = move |v: String| filter.update(|f| f.class = v);
    let stack = move |v: String| filter.update(|f| f.stack = v);
    let fits_only = move |ev| filter.update(|f| f.fits_only = event_target_checked(&ev));
    view! {
        <Block id="fit-h" title=t(lang, K::FitTitle)>
            <p class="hint">{t(lang, K::FitHint)}</p>
            <div class="filters">
                <FilterSelect lang id="f-fit-class" label=K::GpuClass opts=CLASS_FILTER set=class/>
                <FilterSelect lang id="f-fit-stack" label=K::Stack opts=STACK_FILTER set=stack/>
                <div class="field check">
                    <input type="checkbox" id="f-fit-only" on:change=fits_only/>
                    <label for="f-fit-only">{t(lang, K::FitsOnly)}</label>
                </div>
            </div>
            <Show when=move || state.shown.with(Option::is_some)>
                <DataTable testid="fit-table" caption=t(lang, K::FitTitle) cols=Signal::derive(move || cols(lang, task.get())) rows/>
            </Show>
        </Block>
    }
}

/// A labelled select of the table's filter; "" (the first option) keeps all.
#[component]
fn FilterSelect(
    lang: Lang,
    id: &'static str,
    label: K,
    opts: &'static [Opt],
    set: impl Fn(String) + Send + Sync + 'static,
) -> impl IntoView {
    let options =
        opts.iter().map(|o| view! { <option value=o.value>{o.label(lang)}</option> }).collect_view();
    view! {
        <Labelled id label lang>
            <select id=id on:change=move |ev| set(event_target_value(&ev))>{options}</select>
        </Labelled>
    }
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
        let width = cols(Lang::En, Task::Infer).len();
        for g in &r.fit.rows {
            let row = row(g, Task::Infer, Lang::En, Unit::Gb);
            assert_eq!(row.cells.len(), width);
            assert_eq!(row.keys.len(), width);
        }
        let h100 = r.fit.rows.iter().find(|g| g.gpu_id == "h100-sxm").unwrap();
        assert_eq!(row(h100, Task::Infer, Lang::En, Unit::Gb).cells[1][0].0, "1");
    }

    #[test]
    fn the_speed_column_names_the_task() {
        assert_eq!(cols(Lang::En, Task::Train)[4].label, t(Lang::En, K::RunTime));
        assert_eq!(cols(Lang::En, Task::Infer)[4].label, t(Lang::En, K::Throughput));
    }
}
