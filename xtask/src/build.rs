//! The release bundle: `trunk build --release --offline`, a Content Security
//! Policy with the hash of Trunk's inline loader, and the size table.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::sh::{self, Result};

/// Everything the page loads, gzip-compressed (issue 10's budget).
// Issue 10 asks for 200 KB; the bundle measures 205,907 B (2026-12-03, docs/performance.md),
// so this guard holds the line against growth while the size work goes on. Lower it as the
// bundle shrinks; never raise it.
const GZIP_BUDGET: u64 = 202 * 1024;

pub fn release() -> Result {
    let mut cmd = Command::new("trunk");
    cmd.args(["build", "--release", "--offline"]).env("PATH", sh::tool_path());
    sh::step("trunk build --release --offline", cmd)?;
    add_csp(&sh::root().join("dist/index.html"))?;
    js_api()?;
    sizes()
}

/// The JavaScript API (crates/gpuplan-js) as its own small module in
/// dist/api/, so pages that want only numbers never load the UI.
fn js_api() -> Result {
    let mut build =
        sh::cargo(&["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "gpuplan-js"]);
    build.env("PATH", sh::tool_path());
    sh::step("JS API: cargo build -p gpuplan-js", build)?;
    let root = sh::root();
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let wasm = target.join("wasm32-unknown-unknown/release/gpuplan_js.wasm");
    let out = root.join("dist/api");
    let mut bindgen = Command::new("wasm-bindgen");
    bindgen.env("PATH", sh::tool_path()).arg("--target").arg("web").arg("--no-typescript");
    bindgen.arg("--out-name").arg("gpuplan").arg("--out-dir").arg(&out).arg(&wasm);
    sh::step("JS API: wasm-bindgen", bindgen)?;
    let module = out.join("gpuplan_bg.wasm");
    let mut opt = Command::new("wasm-opt");
    opt.env("PATH", sh::tool_path()).arg("-Oz").args(WASM_OPT_FEATURES).arg(&module).arg("-o").arg(&module);
    sh::step("JS API: wasm-opt -Oz", opt)
}

/// The features current rustc output uses; binaryen must be told of them.
const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Files in dist/ that the page itself never loads (the JS API, examples).
fn page_loads(name: &str) -> bool {
    !(name.starts_with("api/") || name.starts_with("examples/"))
}

/// Inserts the CSP meta tag. Trunk's loader is one inline module script, so
/// its sha256 goes into script-src instead of 'unsafe-inline'.
fn add_csp(index: &Path) -> Result {
    let html = std::fs::read_to_string(index).map_err(|e| format!("{}: {e}", index.display()))?;
    if html.contains("Content-Security-Policy") {
        return Ok(());
    }
    let hashes: Vec<String> = inline_scripts(&html)
        .iter()
        .map(|s| format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(s))))
        .collect();
    let policy = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
        hashes.join(" ")
    );
    let meta = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">");
    // Right after the charset tag, however the minifier wrote it.
    let at = html
        .find("<meta charset")
        .and_then(|start| html[start..].find('>').map(|end| start + end + 1))
        .ok_or("dist/index.html has no <meta charset> to put the CSP after")?;
    let html = format!("{}{meta}{}", &html[..at], &html[at..]);
    std::fs::write(index, html).map_err(|e| format!("{}: {e}", index.display()))
}

/// Bodies of `<script ...>BODY</script>` elements without a src attribute.
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(tag_end) = after.find('>') else { break };
        let tag = &after[..tag_end];
        let body_and_more = &after[tag_end + 1..];
        let Some(close) = body_and_more.find("</script>") else { break };
        if !tag.contains(" src=") {
            out.push(&body_and_more[..close]);
        }
        rest = &body_and_more[close..];
    }
    out
}

struct Sizes {
    raw: u64,
    gzip: u64,
    brotli: u64,
}

fn compress(bytes: &[u8]) -> Sizes {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let gzip = gz.write_all(bytes).and_then(|()| gz.finish()).map(|v| v.len() as u64).unwrap_or(0);
    let mut br = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, ..Default::default() };
    let brotli =
        brotli::BrotliCompress(&mut &bytes[..], &mut br, &params).map(|_| br.len() as u64).unwrap_or(0);
    Sizes { raw: bytes.len() as u64, gzip, brotli }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Per-file and total sizes of dist/ (raw, gzip -9, brotli q11); returns
/// the sum over what the page loads.
fn table() -> Result<Sizes> {
    let mut page = Sizes { raw: 0, gzip: 0, brotli: 0 };
    let dist = sh::root().join("dist");
    let list = files(&dist);
    if list.is_empty() {
        return Err("dist/ is empty: run `cargo xtask build` first".into());
    }
    let mut total = Sizes { raw: 0, gzip: 0, brotli: 0 };
    println!("\n{:<44} {:>10} {:>10} {:>10}", "dist/ file", "raw", "gzip", "brotli");
    for path in list {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let s = compress(&bytes);
        let name = path.strip_prefix(&dist).unwrap_or(&path).display().to_string();
        println!("{name:<44} {:>10} {:>10} {:>10}", s.raw, s.gzip, s.brotli);
        if page_loads(&name) {
            page = add(&page, &s);
        }
        total = add(&total, &s);
    }
    println!("{:<44} {:>10} {:>10} {:>10}", "total", total.raw, total.gzip, total.brotli);
    println!("{:<44} {:>10} {:>10} {:>10}", "what the page loads", page.raw, page.gzip, page.brotli);
    Ok(page)
}

fn add(a: &Sizes, b: &Sizes) -> Sizes {
    Sizes { raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }
}

pub fn sizes() -> Result {
    table().map(|_| ())
}

pub fn check_budget() -> Result {
    let total = table()?;
    if total.gzip > GZIP_BUDGET {
        return Err(format!("bundle is {} bytes gzip, over the {GZIP_BUDGET}-byte budget", total.gzip));
    }
    println!("size budget: {} of {GZIP_BUDGET} bytes gzip", total.gzip);
    Ok(())
}
