//! The release bundle. The page is built once per language, each bundle
//! carrying only its own text: Trunk builds the HTML, CSS and static files
//! (index.html's rust link tells it to skip the wasm, which Trunk can build
//! for one language only), and xtask builds each language's bundle with
//! cargo, wasm-bindgen and wasm-opt, writing their hashed names into
//! index.html's loader. Then a Content Security Policy with the loader's
//! hash, the JS API module, the size table.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::sh::{self, Result};

/// Everything the page loads in either language, gzip-compressed: room for a
/// Leptos page and the parts still to come (docs/performance.md).
const GZIP_BUDGET: u64 = 500_000;
/// What the page aims to stay under; above it the build says so.
const GZIP_AIM: u64 = 400_000;

/// The page's languages, each a cargo feature of gpuplan-web.
const LANGS: [&str; 2] = ["zh", "en"];

pub fn release() -> Result {
    let mut cmd = Command::new("trunk");
    cmd.args(["build", "--release", "--offline"]).env("PATH", sh::tool_path());
    sh::step("trunk build --release --offline", cmd)?;
    let dist = sh::root().join("dist");
    let index = dist.join("index.html");
    let mut html = read(&index)?;
    for lang in LANGS {
        let name = page_bundle(lang, &dist)?;
        let slot = format!("BUNDLE_{lang}");
        if !html.contains(&slot) {
            return Err(format!("index.html has no {slot} for the loader to fill"));
        }
        html = html.replace(&slot, &name);
    }
    std::fs::write(&index, add_csp(&html)?).map_err(|e| format!("{}: {e}", index.display()))?;
    js_api()?;
    market_data(&dist)?;
    sizes()
}

/// The shipped market in dist/market/: its data files, for a JS API caller,
/// and the offers they hold as one JSON file, which the page fetches after
/// the first result and reads without carrying the CSV reader (docs/market.md).
fn market_data(dist: &Path) -> Result {
    let from = sh::root().join("crates/gpuplan-core/data/market");
    let to = dist.join("market");
    std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
    for name in ["cloud-offers.csv", "cn-offers.json", "README.md"] {
        let (src, dst) = (from.join(name), to.join(name));
        std::fs::copy(&src, &dst).map_err(|e| format!("{} -> {}: {e}", src.display(), dst.display()))?;
    }
    let (csv, cn) = (read(&from.join("cloud-offers.csv"))?, read(&from.join("cn-offers.json"))?);
    let market = gpuplan_core::market::shipped(&csv, &cn);
    if let Some(first) = market.notices.first() {
        return Err(format!("the shipped market does not read cleanly: {}", first.text()));
    }
    let json = serde_json::to_string(&market.offers).map_err(|e| format!("market offers: {e}"))?;
    let path = to.join("offers.json");
    std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Builds the page for one language into dist/ as `gpuplan-web-<lang>-<hash>`
/// (.js and _bg.wasm) and returns that name.
fn page_bundle(lang: &str, dist: &Path) -> Result<String> {
    let mut build = sh::cargo(&["build", "--release", "--target", "wasm32-unknown-unknown"]);
    build.args(["-p", "gpuplan-web", "--bin", "gpuplan-web", "--features", lang]);
    build.env("PATH", sh::tool_path());
    sh::step(&format!("page ({lang}): cargo build -p gpuplan-web --features {lang}"), build)?;
    let out = target_dir().join(format!("page-{lang}"));
    let stem = format!("gpuplan-web-{lang}");
    bindgen_and_opt("gpuplan-web.wasm", &stem, &out, &format!("page ({lang})"))?;
    let (js, wasm) = (out.join(format!("{stem}.js")), out.join(format!("{stem}_bg.wasm")));
    let mut hash = Sha256::new();
    for file in [&js, &wasm] {
        hash.update(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    let digest: String = hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    let name = format!("{stem}-{digest}");
    for (from, suffix) in [(&js, ".js"), (&wasm, "_bg.wasm")] {
        let to = dist.join(format!("{name}{suffix}"));
        std::fs::copy(from, &to).map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))?;
    }
    // The JS the page's own adapters import (`#[wasm_bindgen(module)]`),
    // which wasm-bindgen writes beside the bundle.
    copy_dir(&out.join("snippets"), &dist.join("snippets"))?;
    Ok(name)
}

/// Copies the folder `from` into `to`, files and subfolders; nothing when
/// `from` does not exist.
fn copy_dir(from: &Path, to: &Path) -> Result {
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in entries.flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("{} -> {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| sh::root().join("target"))
}

/// wasm-bindgen (ES module) and wasm-opt -Oz of a wasm32 release artifact,
/// into `out` as `<stem>.js` and `<stem>_bg.wasm`.
fn bindgen_and_opt(artifact: &str, stem: &str, out: &Path, what: &str) -> Result {
    let wasm = target_dir().join("wasm32-unknown-unknown/release").join(artifact);
    let mut bindgen = Command::new("wasm-bindgen");
    bindgen.env("PATH", sh::tool_path()).arg("--target").arg("web").arg("--no-typescript");
    bindgen.arg("--out-name").arg(stem).arg("--out-dir").arg(out).arg(&wasm);
    sh::step(&format!("{what}: wasm-bindgen"), bindgen)?;
    let module = out.join(format!("{stem}_bg.wasm"));
    let mut opt = Command::new("wasm-opt");
    opt.env("PATH", sh::tool_path()).arg("-Oz").args(WASM_OPT_FEATURES).args(WASM_OPT_STRIP);
    opt.arg(&module).arg("-o").arg(&module);
    sh::step(&format!("{what}: wasm-opt -Oz"), opt)
}

/// The JavaScript API (crates/gpuplan-js) as its own small module in
/// dist/api/, so pages that want only numbers never load the UI.
fn js_api() -> Result {
    let mut build =
        sh::cargo(&["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "gpuplan-js"]);
    build.env("PATH", sh::tool_path());
    sh::step("JS API: cargo build -p gpuplan-js", build)?;
    let api = sh::root().join("dist/api");
    bindgen_and_opt("gpuplan_js.wasm", "gpuplan", &api, "JS API")?;
    api_package(&api)
}

/// Where the JS API's package files live: its declarations, Node entry and README.
const API_PACKAGE: &str = "crates/gpuplan-js/package";

/// Makes dist/api an npm package: the committed declarations, Node entry
/// and README, and a package.json carrying the workspace's version.
fn api_package(api: &Path) -> Result {
    copy_dir(&sh::root().join(API_PACKAGE), api)?;
    let manifest = api.join("package.json");
    std::fs::write(&manifest, package_json(env!("CARGO_PKG_VERSION")))
        .map_err(|e| format!("{}: {e}", manifest.display()))
}

/// The package manifest: an ES module whose Node entry loads the wasm from
/// disk, the browser's fetches it next to the module. Written out by hand:
/// the order of the export conditions decides which entry a resolver takes.
fn package_json(version: &str) -> String {
    let quoted = |s: &str| serde_json::Value::from(s).to_string();
    format!(
        r#"{{
  "name": "gpuplan",
  "version": {version},
  "description": "gpuplan's GPU memory, fit and cost numbers for JavaScript, without the UI (WebAssembly)",
  "license": {license},
  "type": "module",
  "main": "./gpuplan.js",
  "types": "./gpuplan.d.ts",
  "exports": {{
    ".": {{
      "types": "./gpuplan.d.ts",
      "node": "./node.js",
      "default": "./gpuplan.js"
    }},
    "./gpuplan_bg.wasm": "./gpuplan_bg.wasm",
    "./package.json": "./package.json"
  }},
  "files": ["gpuplan.js", "gpuplan_bg.wasm", "gpuplan.d.ts", "node.js", "README.md"],
  "sideEffects": false
}}
"#,
        version = quoted(version),
        license = quoted(env!("CARGO_PKG_LICENSE")),
    )
}

/// The features current rustc output uses: binaryen must be told of them.
/// The only place the wasm-opt flags are written.
const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// The custom sections no browser reads.
const WASM_OPT_STRIP: &[&str] = &["--strip-producers", "--strip-target-features"];

/// Whether the page in `lang` loads this dist/ file: not the JS API, the
/// examples, the market data (fetched after the first result), or the other
/// language's bundle.
fn page_loads(name: &str, lang: &str) -> bool {
    let other_bundle = name.starts_with("gpuplan-web-") && !name.starts_with(&format!("gpuplan-web-{lang}-"));
    let apart = ["api/", "examples/", "market/"].iter().any(|dir| name.starts_with(dir));
    !(apart || other_bundle)
}

/// Inserts the CSP meta tag. The loader is one inline module script, so
/// its sha256 goes into script-src instead of 'unsafe-inline'.
fn add_csp(html: &str) -> Result<String> {
    if html.contains("Content-Security-Policy") {
        return Ok(html.to_string());
    }
    let hashes: Vec<String> = inline_scripts(html)
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
    Ok(format!("{}{meta}{}", &html[..at], &html[at..]))
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
/// the sum over what the page loads, per language.
fn table() -> Result<Vec<(&'static str, Sizes)>> {
    let dist = sh::root().join("dist");
    let list = files(&dist);
    if list.is_empty() {
        return Err("dist/ is empty: run `cargo xtask build` first".into());
    }
    let zero = || Sizes { raw: 0, gzip: 0, brotli: 0 };
    let mut pages: Vec<(&str, Sizes)> = LANGS.iter().map(|&l| (l, zero())).collect();
    let mut total = zero();
    println!("\n{:<44} {:>10} {:>10} {:>10}", "dist/ file", "raw", "gzip", "brotli");
    for path in list {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let s = compress(&bytes);
        let name = path.strip_prefix(&dist).unwrap_or(&path).display().to_string();
        println!("{name:<44} {:>10} {:>10} {:>10}", s.raw, s.gzip, s.brotli);
        for (lang, page) in pages.iter_mut() {
            if page_loads(&name, lang) {
                *page = add(page, &s);
            }
        }
        total = add(&total, &s);
    }
    println!("{:<44} {:>10} {:>10} {:>10}", "total", total.raw, total.gzip, total.brotli);
    for (lang, page) in &pages {
        let what = format!("what the page loads ({lang})");
        println!("{what:<44} {:>10} {:>10} {:>10}", page.raw, page.gzip, page.brotli);
    }
    Ok(pages)
}

fn add(a: &Sizes, b: &Sizes) -> Sizes {
    Sizes { raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }
}

pub fn sizes() -> Result {
    table().map(|_| ())
}

pub fn check_budget() -> Result {
    for (lang, page) in table()? {
        if page.gzip > GZIP_BUDGET {
            return Err(format!(
                "the page in {lang} loads {} bytes gzip, over the {GZIP_BUDGET}-byte budget",
                page.gzip
            ));
        }
        let over_aim = if page.gzip > GZIP_AIM { ", over the aim" } else { "" };
        println!(
            "size budget ({lang}): {} of {GZIP_BUDGET} bytes gzip (aim {GZIP_AIM}{over_aim})",
            page.gzip
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_manifest_is_json_with_types_first_and_the_node_entry_before_the_default() {
        let text = package_json("1.2.3");
        let manifest: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(manifest["version"], "1.2.3");
        assert_eq!(manifest["type"], "module");
        let exports = text.split_once("\"exports\"").map(|(_, e)| e).unwrap_or_default();
        let at = |k: &str| exports.find(&format!("\"{k}\": \"./")).expect(k);
        assert!(at("types") < at("node") && at("node") < at("default"), "{text}");
    }
}
