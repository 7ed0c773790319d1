//! Running commands from the repository root, with clear failure messages.

use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Runs a prepared command in the root; Ok when it exits 0.
pub fn run(mut cmd: Command) -> Result {
    let shown = format!("{cmd:?}");
    let status = cmd.current_dir(root()).status().map_err(|e| format!("cannot start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed with {status}"))
    }
}

pub fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args);
    cmd
}

/// Prints a heading, runs the command, and names the step on failure.
pub fn step(name: &str, cmd: Command) -> Result {
    println!("\n== {name}");
    let start = std::time::Instant::now();
    let done = run(cmd).map_err(|e| format!("{name}: {e}"));
    // CI's time is budgeted: each step says what it cost.
    println!("== {name}: {:.0} s", start.elapsed().as_secs_f64());
    done
}

/// stdout of a command, or None when it cannot run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Where `cargo install` puts binaries.
pub fn cargo_bin() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo"));
    home.join("bin")
}

/// PATH with the project's npm tools and cargo's bin first, so Trunk finds the
/// pinned wasm-opt and wasm-bindgen and never downloads its own.
pub fn tool_path() -> String {
    let dirs = [root().join("web/node_modules/.bin"), cargo_bin()];
    let mut path: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    path.push(std::env::var("PATH").unwrap_or_default());
    path.join(":")
}
