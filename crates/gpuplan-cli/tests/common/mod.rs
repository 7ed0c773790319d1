//! Running the built `gpuplan` binary, for every CLI test file.
// Each test binary compiles this module and uses its own subset of it.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn gpuplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuplan")).args(args).env("LANG", "en_US.UTF-8").output().unwrap()
}

/// Standard output of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = gpuplan(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap()
}
