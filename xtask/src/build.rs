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

/// What the page (or the compact widget, the same main module) fetches
/// before its first result in either language, gzip-compressed; the parts
/// split off it load on demand (docs/performance.md).
const GZIP_BUDGET: u64 = 480_000;
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
    precompress(&dist)?;
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

/// Builds the page for one language into its own folder of dist/,
/// `page-<lang>-<hash>/`, and returns the loader's path to its main module
/// (`page-<lang>-<hash>/gpuplan-web`). The folder holds the main module (JS
/// glue and wasm), the split link JS and every part split off it; its name
/// hashes them all, so files of two builds never mix (docs/architecture.md).
fn page_bundle(lang: &str, dist: &Path) -> Result<String> {
    // Linked with its relocations: the splitter moves code between modules.
    let mut build = sh::cargo(&["rustc", "--release", "--target", "wasm32-unknown-unknown"]);
    build.args(["-p", "gpuplan-web", "--bin", "gpuplan-web", "--features", lang]);
    build.args(["--", "-C", "link-arg=--emit-relocs"]);
    build.env("PATH", sh::tool_path());
    sh::step(&format!("page ({lang}): cargo rustc -p gpuplan-web --features {lang}"), build)?;
    let out = target_dir().join(format!("page-{lang}"));
    let what = format!("page ({lang})");
    let parts = split(&target_dir().join("wasm32-unknown-unknown/release/gpuplan-web.wasm"), &out, &what)?;
    bindgen(&out.join(SPLIT_MAIN), PAGE_STEM, &out, &what, &["--keep-lld-exports", "--no-demangle"])?;
    std::fs::remove_file(out.join(SPLIT_MAIN)).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut modules = parts;
    modules.push(out.join(format!("{PAGE_STEM}_bg.wasm")));
    wasm_opt_all(&modules, &what)?;
    let mut hash = Sha256::new();
    for file in files(&out) {
        hash.update(std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    let digest: String = hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    let folder = format!("page-{lang}-{digest}");
    copy_dir(&out, &dist.join(&folder))?;
    Ok(format!("{folder}/{PAGE_STEM}"))
}

/// The page's main module's name in its folder: `gpuplan-web.js` and
/// `gpuplan-web_bg.wasm`.
const PAGE_STEM: &str = "gpuplan-web";
/// The splitter's main module, before wasm-bindgen.
const SPLIT_MAIN: &str = "main.wasm";
/// The link JS the split main module imports its parts' loaders from.
const SPLIT_LINK: &str = "./__wasm_split.js";

/// Splits rustc's output at its `#[wasm_split]` functions into `out` (made
/// anew), as cargo-leptos does: one `split_<part>.wasm` per part, a
/// `chunk_<n>.wasm` for code only some parts share, the link JS and the main
/// module still to be bound. Returns the split-off files.
fn split(wasm: &Path, out: &Path, what: &str) -> Result<Vec<PathBuf>> {
    println!("\n== {what}: wasm-split");
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
    let main = out.join(SPLIT_MAIN);
    let main_module = format!("./{PAGE_STEM}.js");
    let mut options = wasm_split_cli_support::Options::new(&bytes);
    options.output_dir = out;
    options.main_out_path = &main;
    options.link_name = SPLIT_LINK;
    options.main_module = &main_module;
    let split =
        wasm_split_cli_support::transform(options).map_err(|e| format!("{what}: wasm-split: {e:#}"))?;
    Ok(split.split_modules)
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

/// wasm-bindgen (ES module) of `wasm` into `out` as `<stem>.js` and `<stem>_bg.wasm`.
fn bindgen(wasm: &Path, stem: &str, out: &Path, what: &str, extra: &[&str]) -> Result {
    let mut bindgen = Command::new("wasm-bindgen");
    bindgen.env("PATH", sh::tool_path()).arg("--target").arg("web").arg("--no-typescript").args(extra);
    bindgen.arg("--out-name").arg(stem).arg("--out-dir").arg(out).arg(wasm);
    sh::step(&format!("{what}: wasm-bindgen"), bindgen)
}

/// wasm-opt -Oz of one module, in place.
fn wasm_opt(module: &Path, what: &str) -> Result {
    let mut opt = Command::new("wasm-opt");
    opt.env("PATH", sh::tool_path()).arg("-Oz").args(WASM_OPT_FEATURES).args(WASM_OPT_STRIP);
    opt.arg(module).arg("-o").arg(module);
    let name = module.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    sh::run(opt).map_err(|e| format!("{what}: wasm-opt -Oz {name}: {e}"))
}

/// wasm-opt -Oz of every module, in place: a split page is dozens of small modules.
fn wasm_opt_all(modules: &[PathBuf], what: &str) -> Result {
    println!("\n== {what}: wasm-opt -Oz, {} modules", modules.len());
    let start = std::time::Instant::now();
    let done = in_parallel(modules, |module| wasm_opt(module, what));
    println!("== {what}: wasm-opt -Oz: {:.0} s", start.elapsed().as_secs_f64());
    done
}

/// Runs `work` on every item, as many at a time as the machine has cores;
/// the first failure, if any.
fn in_parallel<T: Sync>(items: &[T], work: impl Fn(&T) -> Result + Sync) -> Result {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(item) = items.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    if let Err(e) = work(item) {
                        failures.lock().map(|mut f| f.push(e)).ok();
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap_or_default().into_iter().next().map_or(Ok(()), Err)
}

/// The JavaScript API (crates/gpuplan-js) as its own small module in
/// dist/api/, so pages that want only numbers never load the UI.
fn js_api() -> Result {
    let mut build =
        sh::cargo(&["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "gpuplan-js"]);
    build.env("PATH", sh::tool_path());
    sh::step("JS API: cargo build -p gpuplan-js", build)?;
    let api = sh::root().join("dist/api");
    let wasm = target_dir().join("wasm32-unknown-unknown/release/gpuplan_js.wasm");
    bindgen(&wasm, "gpuplan", &api, "JS API", &[])?;
    wasm_opt_all(&[api.join("gpuplan_bg.wasm")], "JS API")?;
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

/// What a dist/ file is to the page in one language.
#[derive(PartialEq)]
enum Load {
    /// Fetched before the first result.
    First,
    /// A part split off the page, fetched once it is used.
    Lazy,
    /// Not fetched by this page: the JS API, the examples, the market data
    /// (fetched after the first result), the other language's bundle, a
    /// precompressed copy.
    Apart,
}

fn load_of(name: &str, lang: &str) -> Load {
    let other_page = name.starts_with("page-") && !name.starts_with(&format!("page-{lang}-"));
    let apart = ["api/", "examples/", "market/"].iter().any(|dir| name.starts_with(dir));
    if apart || other_page || is_precompressed(name) {
        return Load::Apart;
    }
    let file = name.rsplit('/').next().unwrap_or(name);
    let lazy = name.starts_with("page-") && (file.starts_with("split_") || file.starts_with("chunk_"));
    if lazy {
        Load::Lazy
    } else {
        Load::First
    }
}

fn is_precompressed(name: &str) -> bool {
    name.ends_with(".gz") || name.ends_with(".br")
}

/// The files a host serves compressed when the browser asks: text and wasm.
const COMPRESSED: &[&str] = &["html", "js", "mjs", "css", "json", "wasm", "svg", "csv", "md", "ts", "txt"];

/// Writes `<file>.gz` (gzip -9) and `<file>.br` (brotli q11) beside every
/// text and wasm file of dist/, as nginx's `gzip_static` and
/// `brotli_static` or a static host serve them (docs/hosting/nginx.conf).
fn precompress(dist: &Path) -> Result {
    let text_or_wasm =
        |p: &PathBuf| COMPRESSED.contains(&p.extension().and_then(|e| e.to_str()).unwrap_or_default());
    let list: Vec<PathBuf> = files(dist).into_iter().filter(text_or_wasm).collect();
    in_parallel(&list, |path| {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (suffix, packed) in [("gz", gzip(&bytes)), ("br", brotli(&bytes))] {
            let to = PathBuf::from(format!("{}.{suffix}", path.display()));
            std::fs::write(&to, packed).map_err(|e| format!("{}: {e}", to.display()))?;
        }
        Ok(())
    })
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

#[derive(Clone, Copy, Default)]
struct Sizes {
    raw: u64,
    gzip: u64,
    brotli: u64,
}

impl std::ops::Add for Sizes {
    type Output = Sizes;
    fn add(self, b: Sizes) -> Sizes {
        Sizes { raw: self.raw + b.raw, gzip: self.gzip + b.gzip, brotli: self.brotli + b.brotli }
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).and_then(|()| gz.finish()).unwrap_or_default()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut br = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut br, &params).map(|_| br).unwrap_or_default()
}

/// A file's sizes: raw, and as its precompressed copies beside it (or
/// compressed here where there are none).
fn sizes_of(path: &Path) -> Result<Sizes> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let copy = |suffix: &str| std::fs::metadata(format!("{}.{suffix}", path.display())).map(|m| m.len()).ok();
    Ok(Sizes {
        raw: bytes.len() as u64,
        gzip: copy("gz").unwrap_or_else(|| gzip(&bytes).len() as u64),
        brotli: copy("br").unwrap_or_else(|| brotli(&bytes).len() as u64),
    })
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

/// What the page in one language fetches: before its first result, and its
/// lazy parts.
struct PageSizes {
    lang: &'static str,
    first: Sizes,
    lazy: Sizes,
}

/// Per-file and total sizes of dist/ (raw, gzip -9, brotli q11), each file
/// marked `lazy` where a page loads it on demand; returns per language the
/// first download and the lazy parts.
fn table() -> Result<Vec<PageSizes>> {
    let dist = sh::root().join("dist");
    let list: Vec<PathBuf> =
        files(&dist).into_iter().filter(|p| !is_precompressed(&p.display().to_string())).collect();
    if list.is_empty() {
        return Err("dist/ is empty: run `cargo xtask build` first".into());
    }
    let mut pages: Vec<PageSizes> = LANGS
        .iter()
        .map(|&lang| PageSizes { lang, first: Sizes::default(), lazy: Sizes::default() })
        .collect();
    let mut total = Sizes::default();
    println!("\n{:<52} {:>10} {:>10} {:>10}", "dist/ file", "raw", "gzip", "brotli");
    for path in list {
        let s = sizes_of(&path)?;
        let name = path.strip_prefix(&dist).unwrap_or(&path).display().to_string();
        let mut mark = "";
        for page in pages.iter_mut() {
            match load_of(&name, page.lang) {
                Load::First => page.first = page.first + s,
                Load::Lazy => (page.lazy, mark) = (page.lazy + s, " lazy"),
                Load::Apart => {}
            }
        }
        println!("{:<52} {:>10} {:>10} {:>10}", format!("{name}{mark}"), s.raw, s.gzip, s.brotli);
        total = total + s;
    }
    println!("{:<52} {:>10} {:>10} {:>10}", "total", total.raw, total.gzip, total.brotli);
    for page in &pages {
        for (what, s) in [("first download", page.first), ("lazy parts", page.lazy)] {
            let what = format!("{what} ({})", page.lang);
            println!("{what:<52} {:>10} {:>10} {:>10}", s.raw, s.gzip, s.brotli);
        }
    }
    Ok(pages)
}

pub fn sizes() -> Result {
    table().map(|_| ())
}

pub fn check_budget() -> Result {
    for page in table()? {
        let first = page.first.gzip;
        if first > GZIP_BUDGET {
            return Err(format!(
                "the page in {} fetches {first} bytes gzip before its first result, over the \
                 {GZIP_BUDGET}-byte budget",
                page.lang
            ));
        }
        let over_aim = if first > GZIP_AIM { ", over the aim" } else { "" };
        println!(
            "size budget ({}): first download {first} of {GZIP_BUDGET} bytes gzip (aim {GZIP_AIM}{over_aim}); \
             lazy parts {} bytes gzip",
            page.lang, page.lazy.gzip
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
