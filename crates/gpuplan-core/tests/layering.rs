//! Modules form layers: at every level of the module tree, no module reaches
//! back to itself through its siblings (the `crate::`, `super::` and `self::`
//! paths of non-test code). Types sit below the data that uses them (the
//! catalog below `hardware`, the presets below `model`), and engines above
//! both, so a module can be read, tested and moved without the rest. The
//! core and the CLI are both checked.

#![allow(clippy::disallowed_methods, reason = "a native test reads the crates' sources")]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module by its path from the crate root: `["checklist", "before"]`.
type Module = Vec<String>;
/// Under one parent: child module → sibling it names → files that name it.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Code without comments and without a trailing `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or_default();
    body.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

fn ident(s: &str) -> String {
    s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// `a::b::{c, d::e}` after a path's root: every path it names, as segments.
fn paths_after(rest: &str) -> Vec<Vec<String>> {
    let mut path = Vec::new();
    let mut at = rest;
    loop {
        if let Some(group) = at.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or_default();
            return inner
                .split(',')
                .map(|part| {
                    let mut p = path.clone();
                    p.extend(part.trim().split("::").map(ident).filter(|s| !s.is_empty()));
                    p
                })
                .collect();
        }
        let name = ident(at);
        if name.is_empty() {
            return vec![path];
        }
        at = &at[name.len()..];
        path.push(name);
        match at.strip_prefix("::") {
            Some(next) => at = next,
            None => return vec![path],
        }
    }
}

/// The module paths a file at `module` names through `crate::`, `super::` and `self::`.
fn references(module: &[String], code: &str) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    for root in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(root) {
            // Only a path's first segment: not the `super` of `super::super`.
            let before = i.checked_sub(1).map(|j| bytes[j]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let mut base: Module = match root {
                "crate::" => Vec::new(),
                "self::" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &code[i + root.len()..];
            while let Some(up) = rest.strip_prefix("super::") {
                base.pop();
                rest = up;
            }
            for tail in paths_after(rest) {
                let mut p = base.clone();
                p.extend(tail.into_iter().filter(|s| s != "self"));
                out.insert(p);
            }
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// Each non-test source file of the crate at `src`: its module, path and code.
fn sources(src: &Path) -> Vec<(Module, String, String)> {
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
        let mut module: Module = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if matches!(rel.as_str(), "lib.rs" | "main.rs") || module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        out.push((module, rel, code(&fs::read_to_string(&file).expect("source is UTF-8"))));
    }
    out
}

/// Parent module → its children's graph of sibling references.
fn graphs(src: &Path) -> BTreeMap<Module, Graph> {
    let files = sources(src);
    let modules: BTreeSet<Module> = files.iter().map(|(m, _, _)| m.clone()).collect();
    let mut out: BTreeMap<Module, Graph> = BTreeMap::new();
    for (module, rel, code) in &files {
        for to in references(module, code) {
            // The deepest module the path names, and where it parts from this file's.
            let Some(target) = (1..=to.len()).rev().map(|n| to[..n].to_vec()).find(|p| modules.contains(p))
            else {
                continue;
            };
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common >= module.len() || common >= target.len() {
                continue; // a module's own items, its parent's or its children's
            }
            let graph = out.entry(module[..common].to_vec()).or_default();
            let edges = graph.entry(module[common].clone()).or_default();
            edges.entry(target[common].clone()).or_default().insert(rel.clone());
        }
    }
    out
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

fn assert_no_cycle(src: &Path) {
    let graphs = graphs(src);
    let top = graphs.get(&Vec::new()).map_or(0, BTreeMap::len);
    assert!(top > 5, "the walk found the crate's modules under {}", src.display());
    for (parent, g) in &graphs {
        for module in g.keys() {
            if let Some(cycle) = cycle_from(g, module) {
                let at = if parent.is_empty() { "the crate root".to_string() } else { parent.join("::") };
                panic!("import cycle through `{module}` in {at}:\n  {}", cycle.join("\n  "));
            }
        }
    }
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src")
}

#[test]
fn the_cores_modules_form_no_cycle() {
    assert_no_cycle(&crate_src("gpuplan-core"));
}

#[test]
fn the_clis_modules_form_no_cycle() {
    assert_no_cycle(&crate_src("gpuplan-cli"));
}

#[test]
fn the_check_finds_a_cycle_when_there_is_one() {
    let mut g = graphs(&crate_src("gpuplan-core")).remove(&Vec::new()).expect("top level");
    g.entry("hardware".into()).or_default().insert("fit".into(), BTreeSet::from(["hardware.rs".to_string()]));
    assert!(cycle_from(&g, "hardware").is_some());
}

#[test]
fn references_read_paths_groups_super_and_skip_comments() {
    let text = "use crate::plan::{A, B};\nuse crate::{cost, model::Arch};\n// crate::fit\nfn f() { crate::memory::quiet(|| 1) }\nuse super::text::{self, bi};\nfn g() { super::super::report::x() }\n#[cfg(test)]\nmod tests { use crate::report; }";
    let module: Module = ["checklist", "before"].map(String::from).to_vec();
    let want: BTreeSet<Module> = [
        vec!["plan", "A"],
        vec!["plan", "B"],
        vec!["cost"],
        vec!["model", "Arch"],
        vec!["memory", "quiet"],
        vec!["checklist", "text"],
        vec!["checklist", "text", "bi"],
        vec!["report", "x"],
    ]
    .into_iter()
    .map(|p| p.into_iter().map(String::from).collect())
    .collect();
    assert_eq!(references(&module, &code(text)), want);
}
