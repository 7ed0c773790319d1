//! What an import read, as rows the panel shows: the shape the planner
//! will use, the exact counts from the file, and what was assumed.

use gpuplan_core::model::WeightFormat;
use gpuplan_core::model_files::Imported;
use gpuplan_core::{names, present};

use crate::i18n::{t, Lang, K};
use crate::options as o;

/// The model's name for its architecture, where the file states one.
fn architecture(m: &Imported) -> Option<&str> {
    let named = ["general.architecture", "model_type", "architectures"];
    m.read.iter().find(|i| named.contains(&i.key.as_str())).map(|i| i.value.as_str())
}

/// A weight format as the inputs' select names it.
pub fn format_label(f: WeightFormat, lang: Lang) -> String {
    let code = names::variant(&f).unwrap_or_default();
    o::WEIGHTS.iter().find(|w| w.value == code).map_or(code, |w| w.label(lang)).to_string()
}

/// (label, value) rows: architecture, shape, format, exact parameters and bytes.
pub fn rows(m: &Imported, lang: Lang) -> Vec<(&'static str, String)> {
    let a = &m.arch;
    let mut rows = Vec::new();
    if let Some(name) = architecture(m) {
        rows.push((t(lang, K::Architecture), name.to_string()));
    }
    for (k, v) in
        [(K::Layers, a.layers), (K::Hidden, a.hidden), (K::Heads, a.heads), (K::KvHeads, a.kv_heads)]
    {
        rows.push((t(lang, k), v.to_string()));
    }
    if a.experts > 0 {
        rows.push((t(lang, K::Experts), format!("{} / {}", a.experts, a.experts_active)));
    }
    rows.push((t(lang, K::Vocab), a.vocab.to_string()));
    if let Some(f) = m.format {
        rows.push((t(lang, K::StoredFormat), format_label(f, lang)));
    }
    let exact = a.params.is_some();
    let params = present::grouped(a.param_count());
    let params_key = if exact { K::ExactParams } else { K::ParamsFromShape };
    rows.push((t(lang, params_key), format!("{params} ({})", present::billions(a.param_count()))));
    if let Some(s) = a.stored {
        let bytes = format!("{} B ({})", present::grouped(s.bytes), present::size(s.bytes as u64));
        rows.push((t(lang, K::WeightBytes), bytes));
    }
    rows
}

/// Each assumed value with why: "head_dim = 128 (the format's default)".
pub fn assumed(m: &Imported, lang: Lang) -> Vec<String> {
    m.assumed.iter().map(|a| format!("{} = {} ({})", a.key, a.value, a.why.label(lang))).collect()
}

/// Every key the file gave, as "key = value".
pub fn read(m: &Imported) -> Vec<String> {
    m.read.iter().map(|i| format!("{} = {}", i.key, i.value)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::model_files::config;

    fn llama() -> Imported {
        let text = include_str!("../../../../crates/gpuplan-core/tests/fixtures/configs/llama-3.1-8b.json");
        config::import(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn rows_show_the_shape_and_the_parameters() {
        let rows = rows(&llama(), Lang::En);
        let get = |k: K| rows.iter().find(|(l, _)| *l == t(Lang::En, k)).map(|(_, v)| v.as_str());
        assert_eq!(get(K::Architecture), Some("llama"));
        assert_eq!(get(K::Layers), Some("32"));
        assert_eq!(get(K::KvHeads), Some("8"));
        assert_eq!(get(K::Experts), None, "a dense model has no experts row");
        assert!(get(K::ParamsFromShape).is_some_and(|v| v.ends_with("(8B)")), "{rows:?}");
    }

    #[test]
    fn formats_are_named_as_the_weights_select_names_them() {
        assert_eq!(format_label(WeightFormat::GgufQ4KM, Lang::En), "GGUF Q4_K_M");
        assert_eq!(format_label(WeightFormat::Bf16, Lang::Zh), "BF16 / FP16");
    }
}
