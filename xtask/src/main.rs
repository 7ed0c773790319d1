//! gpuplan's task runner. The README's two commands are `cargo xtask serve`
//! and `cargo xtask test`; both install whatever is missing first.

mod build;
mod serve;
mod sh;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve|test|build|sizes>
  serve   build the release bundle and serve dist/ on http://127.0.0.1:8080
  test    fmt, clippy (native + wasm32), unit and integration tests,
          release build with size budget, browser end-to-end suite
  build   the release bundle only, with its size table
  sizes   the size table of an existing dist/
  bench   release bundle sizes, native core and big-sheet timings and browser timings
          (with GPUPLAN_BASELINE=<another dist/>, also A/B against it)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(),
        Some("test") => test(),
        Some("build") => tools::ensure_build_tools().and_then(|()| build::release()),
        Some("sizes") => build::sizes(),
        Some("bench") => bench(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench() -> sh::Result {
    tools::ensure_build_tools()?;
    tools::ensure_browser_tools()?;
    build::release()?;
    sh::step("core timings (native)", sh::cargo(&["bench", "-p", "gpuplan-core", "--bench", "report"]))?;
    // A synthetic SkyPilot sheet read and ranked; its limits are in docs/performance.md.
    sh::step("big price sheet (native)", sh::cargo(&["bench", "-p", "gpuplan-core", "--bench", "sheet"]))?;
    let mut perf = std::process::Command::new("node");
    perf.arg("tests/e2e/perf.mjs");
    sh::step("browser timings", perf)?;
    // Timings drift with the machine's load: a page is compared with another
    // only in one run, loads alternating (docs/performance.md).
    let Some(baseline) = std::env::var_os("GPUPLAN_BASELINE") else { return Ok(()) };
    for (rate, locale) in [("1", "zh-CN"), ("4", "zh-CN"), ("4", "en-US")] {
        let mut ab = std::process::Command::new("node");
        ab.arg("tests/e2e/ab.mjs").arg(&baseline).arg(sh::root().join("dist"));
        ab.env("RATE", rate).env("LOCALE", locale);
        sh::step(&format!("A/B against GPUPLAN_BASELINE, CPU x{rate}, {locale}"), ab)?;
    }
    Ok(())
}

/// Per fuzz target in the test command; longer runs are reported in docs/robustness.md.
const FUZZ_SECONDS: u32 = 30;

fn serve() -> sh::Result {
    tools::ensure_build_tools()?;
    build::release()?;
    serve::run("127.0.0.1:8080", &sh::root().join("dist"))
}

fn test() -> sh::Result {
    tools::ensure_build_tools()?;
    tools::ensure_browser_tools()?;
    let wasm = ["--target", "wasm32-unknown-unknown"];
    sh::step("cargo fmt --check", sh::cargo(&["fmt", "--all", "--check"]))?;
    sh::step(
        "clippy (native)",
        sh::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    )?;
    let mut wasm_clippy = vec!["clippy", "-p", "gpuplan-core", "-p", "gpuplan-web", "-p", "gpuplan-js"];
    wasm_clippy.extend(wasm);
    wasm_clippy.extend(["--", "-D", "warnings"]);
    sh::step("clippy (wasm32)", sh::cargo(&wasm_clippy))?;
    // The page ships one bundle per language: lint one of them and
    // check both write every text in their own language.
    let mut one_lang = vec!["clippy", "-p", "gpuplan-web", "--features", "en"];
    one_lang.extend(wasm);
    one_lang.extend(["--", "-D", "warnings"]);
    sh::step("clippy (wasm32, the English page)", sh::cargo(&one_lang))?;
    // The core's unit tests and the one-language check in each one-language
    // build: a unit test that reads a language's text says which build
    // carries it. The integration suites run once, in the two-language
    // build below; running them per language cost CI minutes for no product check.
    for lang in ["zh", "en"] {
        let args = ["test", "-p", "gpuplan-core", "--features", lang, "--lib", "--test", "one_language"];
        sh::step(&format!("one-language core ({lang})"), sh::cargo(&args))?;
    }
    // The page's crate too: its pure helpers (tables, charts, labels) have
    // native unit tests, which rotted unseen while it was left out.
    sh::step("cargo test", sh::cargo(&["test", "--workspace"]))?;
    build::release()?;
    build::check_budget()?;
    sh::step("browser end-to-end suite", tools::e2e())?;
    tools::fuzz(FUZZ_SECONDS)?;
    println!("xtask: all checks passed");
    Ok(())
}
