//! Installs only what is missing, each tool pinned, from the package
//! registries alone (crates.io, npm, Debian). Nothing downloads a binary.

use std::path::Path;
use std::process::Command;

use crate::sh::{self, Result};

const TRUNK: &str = "0.21.14";
/// Must equal the `wasm-bindgen = "=..."` pin in web/Cargo.toml.
const WASM_BINDGEN: &str = "0.2.130";
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The wasm32 target, trunk, wasm-bindgen-cli and npm's binaryen.
pub fn ensure_build_tools() -> Result {
    let targets = sh::output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !targets.lines().any(|t| t.trim() == WASM_TARGET) {
        sh::step("install wasm32 target", rustup_add_target())?;
    }
    ensure_cargo_tool("trunk", TRUNK, &["--locked", "trunk", "--version", TRUNK])?;
    // Not --locked: its lock file names a crate version the registry here lacks.
    ensure_cargo_tool("wasm-bindgen", WASM_BINDGEN, &["wasm-bindgen-cli", "--version", WASM_BINDGEN])?;
    ensure_npm("web")
}

/// Debian's Chromium and the e2e suite's npm packages.
pub fn ensure_browser_tools() -> Result {
    if !Path::new("/usr/bin/chromium").exists() {
        let mut update = Command::new("apt-get");
        update.arg("update");
        sh::step("apt-get update", update)?;
        let mut install = Command::new("apt-get");
        install.args(["install", "-y", "--no-install-recommends", "chromium", "chromium-driver"]);
        install.env("DEBIAN_FRONTEND", "noninteractive");
        sh::step("install chromium", install)?;
    }
    ensure_npm("tests/e2e")
}

fn rustup_add_target() -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["target", "add", WASM_TARGET]);
    cmd
}

/// `cargo install` a binary unless the pinned version is already on PATH.
fn ensure_cargo_tool(bin: &str, version: &str, install_args: &[&str]) -> Result {
    let exe = sh::cargo_bin().join(bin);
    let found = sh::output(&exe.display().to_string(), &["--version"])
        .or_else(|| sh::output(bin, &["--version"]))
        .unwrap_or_default();
    // An empty version pin accepts whatever version is installed.
    let pinned = |w: &str| w.trim_start_matches('v') == version;
    if (version.is_empty() && !found.is_empty()) || found.split_whitespace().any(pinned) {
        return Ok(());
    }
    let mut cmd = sh::cargo(&["install"]);
    cmd.args(install_args);
    // Thin LTO and parallel codegen: the install takes half the time on 2 cores.
    cmd.env("CARGO_PROFILE_RELEASE_LTO", "false").env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
    sh::step(&format!("install {bin} {version} (from source, takes minutes)"), cmd)
}

/// `npm ci` in a folder whose node_modules is missing or older than its lock file.
fn ensure_npm(dir: &str) -> Result {
    let root = sh::root().join(dir);
    let stamp = root.join("node_modules/.package-lock.json");
    let lock = root.join("package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if matches!((modified(&stamp), modified(&lock)), (Some(s), Some(l)) if s >= l) {
        return Ok(());
    }
    let mut cmd = Command::new("npm");
    cmd.args(["ci", "--no-audit", "--no-fund", "--prefix", dir]);
    sh::step(&format!("npm ci in {dir}"), cmd)
}

/// The browser suite against dist/, with node's own test runner.
pub fn e2e() -> Command {
    let mut cmd = Command::new("node");
    cmd.args(["--test", "--test-concurrency=1", "tests/e2e/"]);
    cmd.env("PATH", sh::tool_path());
    cmd
}

/// Bounded libFuzzer runs of the share-link decoder, the plan path, the model-file readers and
/// the price-sheet importers and the benchmark-output readers
/// (cargo-fuzz needs nightly; without it the step says so and is skipped).
pub fn fuzz(seconds: u32) -> Result {
    if sh::output("cargo", &["+nightly", "--version"]).is_none() {
        println!("\n== fuzz: skipped, no nightly toolchain on this machine");
        return Ok(());
    }
    ensure_cargo_tool("cargo-fuzz", "", &["--locked", "cargo-fuzz"])?;
    for target in ["share_decode", "plan_estimate", "model_files", "market_import", "measured_read"] {
        let corpus = format!("fuzz/corpus/{target}");
        std::fs::create_dir_all(sh::root().join(&corpus)).map_err(|e| format!("{corpus}: {e}"))?;
        let mut cmd = Command::new("cargo");
        cmd.args(["+nightly", "fuzz", "run", "--fuzz-dir", "fuzz", target, &corpus]);
        cmd.arg(format!("fuzz/seeds/{target}"));
        cmd.args(["--", &format!("-max_total_time={seconds}"), "-max_len=4096"]);
        cmd.env("PATH", sh::tool_path());
        sh::step(&format!("fuzz {target} for {seconds} s"), cmd)?;
    }
    Ok(())
}
