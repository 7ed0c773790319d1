//! Every preset keeps its model's published `config.json` as a fixture
//! (`tests/fixtures/configs/<preset id>.json`, sources in the README there),
//! and importing that file must give the preset's shape field by field: the
//! presets and the importer check each other against the published facts.

#![allow(clippy::disallowed_methods, reason = "a native test reads its config.json fixtures")]

use std::path::PathBuf;

use gpuplan_core::model::presets::{all, find, Preset};
use gpuplan_core::model::Arch;
use gpuplan_core::model_files::{config, Imported};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/configs")
}

fn fixture(id: &str) -> PathBuf {
    dir().join(format!("{id}.json"))
}

/// The fields that differ between the preset and the import, as
/// `field: preset ≠ imported` lines.
fn differences(want: &Arch, got: &Arch) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |field: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{field}: preset {a} ≠ imported {b}"));
        }
    };
    macro_rules! field {
        ($name:ident) => {
            check(stringify!($name), format!("{:?}", want.$name), format!("{:?}", got.$name))
        };
    }
    field!(layers);
    field!(hidden);
    field!(heads);
    field!(kv_heads);
    check("head_dim", want.head_dim().to_string(), got.head_dim().to_string());
    field!(intermediate);
    field!(vocab);
    field!(tied_embeddings);
    field!(mlp);
    field!(experts);
    field!(experts_active);
    field!(shared_experts);
    field!(dense_layers);
    field!(dense_intermediate);
    field!(attention);
    field!(sliding);
    field!(max_context);
    // Vision encoders join the total on both sides; the rest is the shape above.
    check("total params", want.param_count().to_string(), got.param_count().to_string());
    out
}

fn import(p: &Preset) -> Result<Imported, String> {
    let path = fixture(p.id);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    config::import(&text).map_err(|e| format!("{}: {e:?}", p.id))
}

#[test]
fn every_preset_has_its_config_json() {
    let missing: Vec<_> = all().iter().filter(|p| !fixture(p.id).is_file()).map(|p| p.id).collect();
    assert!(missing.is_empty(), "presets without tests/fixtures/configs/<id>.json: {missing:?}");
}

#[test]
fn every_fixture_belongs_to_a_preset() {
    let strays: Vec<_> = std::fs::read_dir(dir())
        .unwrap_or_else(|e| panic!("{}: {e}", dir().display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".json").map(str::to_owned))
        .filter(|id| find(id).is_none())
        .collect();
    assert!(strays.is_empty(), "fixtures without a preset: {strays:?}");
}

#[test]
fn importing_each_fixture_gives_the_preset_shape() {
    let mut failures = Vec::new();
    for p in all() {
        match import(p) {
            Ok(imported) => {
                let diffs = differences(&p.arch(), &imported.arch);
                if !diffs.is_empty() {
                    failures.push(format!("{}:\n  {}", p.id, diffs.join("\n  ")));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Where the file states its checkpoint format (`quantization_config`, or a
/// 16-bit `torch_dtype`), it is the preset's native format.
#[test]
fn each_fixture_states_the_preset_native_format() {
    for p in all() {
        let format = import(p).unwrap_or_else(|e| panic!("{e}")).format;
        assert!(format.is_none_or(|f| f == p.native_weights), "{}: file {format:?}", p.id);
    }
}

/// Keys a published file leaves to its config class (Gemma 3's vocabulary,
/// head width and context) are said as assumed, never as read.
#[test]
fn class_defaults_are_said_as_assumed() {
    let preset = find("gemma-3-12b").expect("the Gemma 3 12B preset");
    let gemma = import(preset).unwrap_or_else(|e| panic!("{e}"));
    for key in ["vocab_size", "head_dim", "max_position_embeddings"] {
        assert!(gemma.assumed.iter().any(|a| a.key == key), "{key} not assumed");
        assert!(!gemma.read.iter().any(|r| r.key == key), "{key} said as read");
    }
}
