//! `gpuplan budget`: a project's budget by month, each workload's chosen
//! bill on one timeline plus the project's own lines, as text, JSON or Markdown.

use gpuplan_core::budget::{self, Budget};
use gpuplan_core::lang::Lang;
use gpuplan_core::plan::Plan;
use gpuplan_core::project::Project;

use crate::args::Flags;
use crate::error::CliError;
use crate::out;

enum Out {
    Text,
    Json,
    Markdown,
    /// The project's share link (version 2, or version 1 for one plain plan).
    Link,
}

pub fn run(argv: &[String]) -> Result<(), CliError> {
    let mut flags = Flags::parse(argv, &crate::market::SWITCHES)?;
    let out = match flags.value("format")?.as_deref() {
        None | Some("text") => Out::Text,
        Some("json") => Out::Json,
        Some("markdown") => Out::Markdown,
        Some("link") => Out::Link,
        Some(other) => {
            return Err(CliError(format!(
                "--format: unknown \"{other}\"; accepted: text, json, markdown, link"
            )))
        }
    };
    let lang = crate::args::lang(&mut flags)?;
    let project = project(&mut flags, lang)?;
    // Quick quotes name one plan's GPU: a project takes sheets (--offers) instead.
    let mut scratch = Plan::default();
    let offers = crate::market::read(&mut flags, &mut scratch)?.offers;
    flags.finish()?;
    let report = budget::evaluate(&project, &offers, lang).map_err(|e| CliError::fields(&e, lang))?;
    let b = &report.budget;
    match out {
        Out::Json => {
            out::json(b)?;
        }
        Out::Text => out::print(&table(b, lang, false)),
        Out::Markdown => out::print(&table(b, lang, true)),
        Out::Link => out::line(&format!("?{}", gpuplan_core::share::encode_project(&project, None, None))),
    }
    Ok(())
}

/// The project from `--plan FILE` (a project with workloads, or one plan),
/// `--url LINK` or `--example ID` (a gallery project or example plan).
fn project(flags: &mut Flags, lang: Lang) -> Result<Project, CliError> {
    let given = [flags.value("plan")?, flags.value("url")?, flags.value("example")?];
    match given {
        [Some(path), None, None] => read(&path),
        [None, Some(url), None] => {
            let link = gpuplan_core::share::decode_project(&url);
            for ignored in &link.ignored {
                eprintln!("notice: link part ignored: {}", ignored.describe(lang));
            }
            Ok(link.project)
        }
        [None, None, Some(id)] => example(&id),
        [None, None, None] => Err(CliError("budget: give --plan FILE, --url LINK or --example ID".into())),
        _ => Err(CliError("--plan, --url and --example: give one of them".into())),
    }
}

fn read(path: &str) -> Result<Project, CliError> {
    let text =
        if path == "-" { std::io::read_to_string(std::io::stdin()) } else { std::fs::read_to_string(path) }
            .map_err(|e| CliError(format!("--plan {path}: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CliError(format!("--plan {path}: not JSON: {e}")))?;
    let one_line =
        |e: serde_json::Error| CliError(format!("--plan {path}: {}", e.to_string().replace('\n', " ")));
    if value.get("workloads").is_some() {
        serde_json::from_value(value).map_err(one_line)
    } else {
        serde_json::from_value::<Plan>(value).map(Project::single).map_err(one_line)
    }
}

fn example(id: &str) -> Result<Project, CliError> {
    let project = gpuplan_core::examples::find_project(id).map(|p| p.project);
    let plan = || gpuplan_core::examples::find(id).map(|e| Project::single(e.plan));
    project.or_else(plan).ok_or_else(|| CliError(format!("--example: unknown \"{id}\"")))
}

/// Month by month: one column per workload and project line, then the month's total.
fn table(b: &Budget, lang: Lang, markdown: bool) -> String {
    let cur = b.currency.code();
    let mut head = vec![lang.pick("月份", "month").to_string()];
    head.extend(b.workloads.iter().map(|w| if w.name.is_empty() { "plan".into() } else { w.name.clone() }));
    head.extend(b.lines.iter().map(|l| l.name.clone()));
    head.push(format!("{} {cur}", lang.pick("合计", "total")));
    let mut rows = Vec::with_capacity(b.months + 1);
    for m in 0..b.months {
        let cell = |v: &[gpuplan_core::money::Money]| v.get(m).map_or_else(String::new, |x| x.text());
        let mut row = vec![(m + 1).to_string()];
        row.extend(b.workloads.iter().map(|w| cell(&w.by_month)));
        row.extend(b.lines.iter().map(|l| cell(&l.by_month)));
        row.push(cell(&b.by_month));
        rows.push(row);
    }
    let mut total = vec![lang.pick("合计", "total").to_string()];
    total.extend(b.workloads.iter().map(|w| w.total.text()));
    total.extend(b.lines.iter().map(|l| l.total.text()));
    total.push(b.total.text());
    rows.push(total);
    let mut out = String::new();
    for w in &b.workloads {
        let phase = format!("{:.1}-{:.1} h", w.start_h, w.end_h);
        let note = match (&w.carried_by, lang) {
            (Some(c), Lang::Zh) => format!("（{phase}；机器由 {c} 接手）"),
            (Some(c), Lang::En) => format!(" ({phase}; machines carried on by {c})"),
            (None, Lang::Zh) => format!("（{phase}）"),
            (None, Lang::En) => format!(" ({phase})"),
        };
        let bullet = if markdown { "- " } else { "" };
        out.push_str(&format!("{bullet}{}: {}{note}\n", w.name, w.selection));
    }
    out.push_str(&machines(b, lang, markdown));
    out.push('\n');
    if markdown {
        let line = |cells: &[String]| {
            format!("| {} |\n", cells.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | "))
        };
        out.push_str(&line(&head));
        out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
        for r in &rows {
            out.push_str(&line(r));
        }
    } else {
        let widths: Vec<usize> = (0..head.len())
            .map(|i| {
                rows.iter()
                    .chain([&head])
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for r in [&head].into_iter().chain(&rows) {
            let cells: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
    }
    out.push_str(&by_line(b, lang));
    out
}

/// What the project orders, each machine once, and the workloads on it.
fn machines(b: &Budget, lang: Lang, markdown: bool) -> String {
    let bullet = if markdown { "- " } else { "  " };
    let mut out = format!("{}\n", lang.pick("要订的机器（每台一次）：", "machines to order (each once):"));
    for m in &b.machines {
        out.push_str(&format!("{bullet}{} ← {}\n", m.selection, m.workloads.join(", ")));
    }
    out
}

/// The project's total by line.
fn by_line(b: &Budget, lang: Lang) -> String {
    let l = &b.by_line;
    let parts = [
        (lang.pick("GPU", "GPUs"), l.gpus),
        (lang.pick("存储", "storage"), l.storage),
        ("IP", l.ip),
        (lang.pick("流量", "egress"), l.egress),
        (lang.pick("自填项目", "own items"), l.items),
        (lang.pick("机动预算", "contingency"), l.contingency),
    ];
    let cells: Vec<String> = parts.iter().map(|(name, m)| format!("{name} {}", m.text())).collect();
    format!("\n{}: {}\n", lang.pick("按项目合计", "total by line"), cells.join(" · "))
}
