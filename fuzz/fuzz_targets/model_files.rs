//! Any bytes as a model file (GGUF, safetensors, config.json, an index): a
//! model or an error, never a panic, and an imported GGUF's shape always
//! passes the plan's validation or is refused by it, never crashes it.
#![no_main]
use gpuplan_core::model::ModelSpec;
use gpuplan_core::model_files;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let imported = [
        model_files::import_gguf(data).ok(),
        model_files::import_safetensors(data, Some(data.len() as u64)).ok(),
        std::str::from_utf8(data).ok().and_then(|t| model_files::config::import(t).ok()),
        std::str::from_utf8(data).ok().and_then(|t| model_files::import_safetensors_index(t).ok()),
    ];
    for m in imported.into_iter().flatten() {
        let plan = gpuplan_core::plan::Plan { model: ModelSpec::Custom { arch: m.arch }, ..Default::default() };
        let _ = gpuplan_core::report::evaluate(&plan, gpuplan_core::lang::Lang::En);
    }
});
