//! The core's top-level modules form layers: no module reaches, through the
//! `crate::` paths of its non-test code, back to itself. Types sit below the
//! data that uses them (the catalog below `hardware`, the presets below
//! `model`), and engines above both, so a module can be read, tested and moved
//! without the rest of the crate.

#![allow(clippy::disallowed_methods, reason = "a native test reads the crate's sources")]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Code without comments and without a trailing `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or_default();
    body.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The top-level modules named by `crate::name` paths and `use crate::{a, b::c}` groups.
fn references(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident =
        |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or_default();
            out.extend(inner.split(',').map(|part| ident(part.trim())).filter(|s| !s.is_empty()));
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// module → module it names → files that name it.
fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut g = Graph::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        let top = rel.split('/').next().unwrap_or_default().trim_end_matches(".rs").to_string();
        if top == "lib" || rel.ends_with("/tests.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).expect("source is UTF-8");
        for to in references(&code(&text)) {
            if to != top && to != "self" {
                g.entry(top.clone()).or_default().entry(to).or_default().insert(rel.clone());
            }
        }
    }
    g
}

/// A cycle through `start`, as module names with the files of each step.
fn cycle_from(g: &Graph, start: &str) -> Option<Vec<String>> {
    fn dfs(g: &Graph, at: &str, start: &str, path: &mut Vec<String>, seen: &mut BTreeSet<String>) -> bool {
        for (to, files) in g.get(at).into_iter().flatten() {
            let step = format!("{at} → {to} ({})", files.iter().cloned().collect::<Vec<_>>().join(", "));
            if to == start {
                path.push(step);
                return true;
            }
            if seen.insert(to.clone()) {
                path.push(step);
                if dfs(g, to, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = Vec::new();
    dfs(g, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn top_level_modules_form_no_cycle() {
    let g = graph();
    assert!(g.len() > 10, "the walk found the crate's modules: {:?}", g.keys());
    for module in g.keys() {
        if let Some(cycle) = cycle_from(&g, module) {
            panic!("import cycle through `{module}`:\n  {}", cycle.join("\n  "));
        }
    }
}

#[test]
fn the_check_finds_a_cycle_when_there_is_one() {
    let mut g = graph();
    g.entry("hardware".into()).or_default().insert("fit".into(), BTreeSet::from(["hardware.rs".to_string()]));
    assert!(cycle_from(&g, "hardware").is_some());
}

#[test]
fn references_read_paths_groups_and_skip_comments() {
    let text = "use crate::plan::{A, B};\nuse crate::{cost, model::Arch};\n// crate::fit\nfn f() { crate::memory::quiet(|| 1) }\n#[cfg(test)]\nmod tests { use crate::report; }";
    let want: BTreeSet<String> = ["plan", "cost", "model", "memory"].map(String::from).into();
    assert_eq!(references(&code(text)), want);
}
