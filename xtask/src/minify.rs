//! Short import and export names in a page bundle (issue 10). wasm-bindgen
//! names each import `__wbg_<name>_<16 hex digits>` and writes every import
//! and export name twice, in the wasm and in its JS glue, where the random
//! digits do not compress. binaryen's `--minify-imports-and-exports-and-modules`
//! renames them in the wasm and prints the mapping; the glue is rewritten by it.

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

use crate::sh::{self, Result};

/// The module name binaryen 132 gives every import under this pass.
const MODULE: &str = "a";

#[derive(Deserialize)]
struct Mapping {
    /// (module, old name, new name)
    imports: Vec<(String, String, String)>,
    /// (old name, new name)
    exports: Vec<(String, String)>,
}

/// Renames `<stem>_bg.wasm`'s imports and exports in place and rewrites
/// `<stem>.js` to match; any name the glue does not hold as expected fails the build.
pub fn shorten(dist: &Path, stem: &str, features: &[&str]) -> Result {
    let wasm = dist.join(format!("{stem}_bg.wasm"));
    let glue = dist.join(format!("{stem}.js"));
    let mut opt = Command::new("wasm-opt");
    opt.env("PATH", sh::tool_path()).arg(&wasm).args(features);
    opt.arg("--minify-imports-and-exports-and-modules").arg("-o").arg(&wasm);
    println!("\n== {stem}: wasm-opt --minify-imports-and-exports-and-modules");
    let out = opt.output().map_err(|e| format!("cannot start wasm-opt: {e}"))?;
    if !out.status.success() {
        return Err(format!("wasm-opt failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let json = text.find('{').map(|at| &text[at..]).ok_or("wasm-opt printed no name mapping")?;
    let map: Mapping = serde_json::from_str(json).map_err(|e| format!("wasm-opt's name mapping: {e}"))?;
    let js = std::fs::read_to_string(&glue).map_err(|e| format!("{}: {e}", glue.display()))?;
    let js = rewrite(js, &map)?;
    std::fs::write(&glue, js).map_err(|e| format!("{}: {e}", glue.display()))
}

fn rewrite(mut js: String, map: &Mapping) -> Result<String> {
    for (module, old, new) in &map.imports {
        js = replace_once(
            &js,
            &format!("\n        {old}: function("),
            &format!("\n        {new}: function("),
        )?;
        let (from, to) = (format!("\"{module}\": import0"), format!("\"{MODULE}\": import0"));
        if js.contains(&from) {
            js = replace_once(&js, &from, &to)?;
        }
    }
    for (old, new) in &map.exports {
        js = replace_name(&js, &format!("wasm.{old}"), &format!("wasm.{new}"));
    }
    Ok(js)
}

fn replace_once(js: &str, from: &str, to: &str) -> Result<String> {
    match js.matches(from).count() {
        1 => Ok(js.replacen(from, to, 1)),
        n => Err(format!("the JS glue holds `{}` {n} times, not once", from.trim())),
    }
}

/// Every `from` not followed by more of a JavaScript name.
fn replace_name(js: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(js.len());
    let mut rest = js;
    while let Some(at) = rest.find(from) {
        let after = &rest[at + from.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        out.push_str(&rest[..at]);
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_exports_and_the_module_are_renamed_whole() {
        let js = "const import0 = {\n        __wbg_a_0123: function(x) {\n            wasm.__wbindgen_malloc(1);\n            wasm.__wbindgen_malloc_x(2);\n        },\n    };\n    return { \"./m_bg.js\": import0 };".to_string();
        let map = Mapping {
            imports: vec![("./m_bg.js".into(), "__wbg_a_0123".into(), "b".into())],
            exports: vec![("__wbindgen_malloc".into(), "c".into())],
        };
        let out = rewrite(js, &map).expect("rewritten");
        assert!(out.contains("\n        b: function(x)"), "{out}");
        assert!(out.contains("wasm.c(1)") && out.contains("wasm.__wbindgen_malloc_x(2)"), "{out}");
        assert!(out.contains("{ \"a\": import0 }"), "{out}");
    }

    #[test]
    fn an_import_the_glue_lacks_fails() {
        let map = Mapping { imports: vec![("m".into(), "__wbg_gone".into(), "b".into())], exports: vec![] };
        assert!(rewrite("const import0 = {};".into(), &map).is_err());
    }
}
