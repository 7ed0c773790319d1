use proptest::prelude::*;

use super::*;
use crate::model::WeightFormat;

fn tensor(name: &str, dims: &[u64], ggml_type: u32) -> gguf::TensorInfo {
    gguf::TensorInfo { name: name.into(), dims: dims.to_vec(), ggml_type }
}

/// A two-layer Llama-shaped model: Q4_K matrices, Q6_K output and V, F32 norms.
fn tiny_llama() -> gguf::Header {
    let (h, ffn, vocab, layers) = (256u64, 512u64, 1000u64, 2u32);
    let mut metadata = std::collections::BTreeMap::new();
    metadata.insert("general.architecture".into(), gguf::Value::Text("llama".into()));
    for (k, v) in [
        ("general.file_type", 15),
        ("llama.block_count", layers.into()),
        ("llama.embedding_length", h),
        ("llama.feed_forward_length", ffn),
        ("llama.attention.head_count", 4),
        ("llama.attention.head_count_kv", 2),
        ("llama.context_length", 8192),
        ("llama.attention.key_length", 64),
    ] {
        metadata.insert(k.into(), gguf::Value::Int(v.into()));
    }
    metadata.insert("tokenizer.ggml.tokens".into(), gguf::Value::Array { len: vocab, numbers: vec![] });
    let mut tensors =
        vec![tensor("token_embd.weight", &[h, vocab], 12), tensor("output.weight", &[h, vocab], 14)];
    for l in 0..layers {
        for (n, dims, t) in [
            ("attn_q", vec![h, h], 12),
            ("attn_k", vec![h, 128], 12),
            ("attn_v", vec![h, 128], 14),
            ("attn_output", vec![h, h], 12),
            ("ffn_gate", vec![h, ffn], 12),
            ("ffn_up", vec![h, ffn], 12),
            ("ffn_down", vec![ffn, h], 14),
            ("attn_norm", vec![h], 0),
            ("ffn_norm", vec![h], 0),
        ] {
            tensors.push(tensor(&format!("blk.{l}.{n}.weight"), &dims, t));
        }
    }
    gguf::Header { version: 3, metadata, tensors, header_bytes: 0 }
}

fn tiny_llama_gguf() -> Vec<u8> {
    gguf::write(&tiny_llama())
}

/// A header with `tensors` and `keys` counts and nothing after them.
fn counts_only(tensors: u64, keys: u64) -> Vec<u8> {
    let mut b = b"GGUF".to_vec();
    b.extend(3u32.to_le_bytes());
    b.extend(tensors.to_le_bytes());
    b.extend(keys.to_le_bytes());
    b
}

#[test]
fn gguf_header_gives_shape_and_exact_bytes() {
    let m = import_gguf(&tiny_llama_gguf()).unwrap();
    let a = &m.arch;
    assert_eq!((a.layers, a.hidden, a.heads, a.kv_heads, a.head_dim), (2, 256, 4, 2, Some(64)));
    assert_eq!((a.intermediate, a.vocab, a.max_context, a.tied_embeddings), (512, 1000, 8192, false));
    assert_eq!(m.format, Some(WeightFormat::GgufQ4KM));
    // Q4_K: 144 B per 256 weights; Q6_K: 210 B per 256; F32: 4 B.
    let q4 = 256.0 * 1000.0 + 2.0 * (256.0 * 256.0 * 2.0 + 256.0 * 128.0 + 2.0 * 256.0 * 512.0);
    let q6 = 256.0 * 1000.0 + 2.0 * (256.0 * 128.0 + 512.0 * 256.0);
    let f32s = 2.0 * 2.0 * 256.0;
    let bytes = q4 / 256.0 * 144.0 + q6 / 256.0 * 210.0 + f32s * 4.0;
    assert_eq!(a.stored.map(|s| s.bytes), Some(bytes));
    assert_eq!(a.params, Some(q4 + q6 + f32s));
}

#[test]
fn gguf_exact_bytes_reach_the_memory_engine() {
    let m = import_gguf(&tiny_llama_gguf()).unwrap();
    let stored = m.arch.stored.unwrap().bytes;
    let mut plan = crate::plan::Plan {
        model: crate::model::ModelSpec::Custom { arch: m.arch.clone() },
        ..Default::default()
    };
    plan.inference.weights = WeightFormat::GgufQ4KM;
    let est = crate::memory::estimate(&plan).unwrap();
    assert!((est.components.weights.bytes as f64 - stored).abs() <= 1.0, "{}", est.components.weights.bytes);
    assert!(est.components.weights.derivation.contains("(file)"));
    // Another format than the file's: the formula, not the file.
    plan.inference.weights = WeightFormat::Bf16;
    let est = crate::memory::estimate(&plan).unwrap();
    assert!(!est.components.weights.derivation.contains("(file)"));
}

#[test]
fn every_truncation_of_a_gguf_asks_for_more_bytes() {
    let full = tiny_llama_gguf();
    for cut in 4..full.len() {
        match import_gguf(&full[..cut]) {
            Err(FileError::Truncated(t)) => assert!(t.need_at_least > cut as u64, "cut {cut}"),
            other => panic!("cut {cut}: {other:?}"),
        }
    }
}

#[test]
fn absurd_gguf_counts_are_refused_without_allocating() {
    assert!(matches!(import_gguf(&counts_only(1 << 63, 0)), Err(FileError::Absurd { .. })));
    // A plausible count the bytes cannot hold: truncated, found before reserving room.
    assert!(matches!(gguf::read(&counts_only(500_000, 0)), Err(FileError::Truncated(_))));
    // A string claiming 2^64 - 1 bytes.
    let mut b = counts_only(0, 1);
    b.extend(u64::MAX.to_le_bytes());
    assert!(matches!(gguf::read(&b), Err(FileError::Truncated(_))));
    assert_eq!(import_gguf(b"GGML\x03\0\0\0"), Err(FileError::NotThisFormat));
}

#[test]
#[allow(clippy::disallowed_methods, reason = "a native test times the reader")]
fn a_gguf_with_100_000_tensors_reads_quickly() {
    let mut h = tiny_llama();
    h.metadata.remove("llama.block_count");
    h.tensors = (0..100_000).map(|i| tensor(&format!("t{i}"), &[64, 64], 8)).collect();
    let bytes = gguf::write(&h);
    let started = std::time::Instant::now();
    assert_eq!(gguf::read(&bytes).unwrap().tensors.len(), 100_000);
    assert!(started.elapsed().as_secs_f64() < 2.0);
    assert!(matches!(import_gguf(&bytes), Err(FileError::NotAModel { .. })));
}

fn safetensors_file(header: &str) -> Vec<u8> {
    let mut b = (header.len() as u64).to_le_bytes().to_vec();
    b.extend(header.as_bytes());
    b
}

fn tiny_safetensors() -> Vec<u8> {
    let (h, v, i) = (256u64, 1000u64, 512u64);
    let mut entries = vec![];
    let mut off = 0u64;
    let mut add = |name: String, shape: Vec<u64>| {
        let n: u64 = shape.iter().product::<u64>() * 2;
        entries.push(format!(
            r#""{name}":{{"dtype":"BF16","shape":{shape:?},"data_offsets":[{off},{}]}}"#,
            off + n
        ));
        off += n;
    };
    add("model.embed_tokens.weight".into(), vec![v, h]);
    add("lm_head.weight".into(), vec![v, h]);
    for l in 0..3 {
        add(format!("model.layers.{l}.self_attn.q_proj.weight"), vec![h, h]);
        add(format!("model.layers.{l}.self_attn.k_proj.weight"), vec![128, h]);
        add(format!("model.layers.{l}.mlp.gate_proj.weight"), vec![i, h]);
    }
    safetensors_file(&format!(r#"{{"__metadata__":{{"format":"pt"}},{}}}"#, entries.join(",")))
}

#[test]
fn safetensors_header_gives_exact_bytes_and_names_the_assumed_head_width() {
    let bytes = tiny_safetensors();
    let m = import_safetensors(&bytes, Some(bytes.len() as u64 + 10_000_000)).unwrap();
    assert_eq!((m.arch.layers, m.arch.hidden, m.arch.vocab, m.arch.intermediate), (3, 256, 1000, 512));
    assert_eq!((m.arch.heads, m.arch.kv_heads, m.arch.tied_embeddings), (2, 1, false));
    let elements = 2.0 * 1000.0 * 256.0 + 3.0 * (256.0 * 256.0 + 128.0 * 256.0 + 512.0 * 256.0);
    assert_eq!(m.arch.params, Some(elements));
    assert_eq!(m.arch.stored.map(|s| (s.format, s.bytes)), Some((WeightFormat::Bf16, 2.0 * elements)));
    assert!(m.assumed.iter().any(|a| a.key == "head_dim"));
}

#[test]
fn safetensors_lengths_that_no_file_has_are_refused() {
    let mut absurd = (1u64 << 63).to_le_bytes().to_vec();
    absurd.extend(b"{}");
    assert!(matches!(import_safetensors(&absurd, None), Err(FileError::Absurd { .. })));
    let past_end = safetensors_file("{}");
    assert!(matches!(import_safetensors(&past_end, Some(4)), Err(FileError::Absurd { .. })));
    let backwards = safetensors_file(r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}}"#);
    assert!(matches!(import_safetensors(&backwards, None), Err(FileError::Malformed { .. })));
    let bytes = tiny_safetensors();
    assert!(matches!(import_safetensors(&bytes[..100], None), Err(FileError::Truncated(_))));
}

#[test]
fn safetensors_index_gives_total_size_and_layer_count() {
    let text = r#"{"metadata":{"total_size":16060522496},"weight_map":{
        "model.embed_tokens.weight":"model-00001-of-00004.safetensors",
        "model.layers.0.mlp.up_proj.weight":"model-00001-of-00004.safetensors",
        "model.layers.31.mlp.up_proj.weight":"model-00004-of-00004.safetensors",
        "lm_head.weight":"model-00004-of-00004.safetensors"}}"#;
    let m = import_safetensors_index(text).unwrap();
    assert_eq!(m.arch.layers, 2);
    assert_eq!(m.arch.stored.map(|s| s.bytes), Some(16_060_522_496.0));
    assert!(import_safetensors_index("{").is_err());
}

proptest! {
    #[test]
    fn any_bytes_give_a_result_or_an_error_never_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = import_gguf(&bytes);
        let _ = import_safetensors(&bytes, Some(bytes.len() as u64));
        let _ = config::import(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn a_corrupted_gguf_byte_never_panics(at in 0usize..4000, byte in any::<u8>()) {
        let mut b = tiny_llama_gguf();
        let i = at % b.len();
        b[i] = byte;
        let _ = import_gguf(&b);
    }

    #[test]
    fn a_written_header_reads_back_the_same(
        ints in proptest::collection::btree_map("[a-z.]{1,12}", any::<i64>(), 0..8),
        dims in proptest::collection::vec(proptest::collection::vec(1u64..5000, 1..4), 0..20),
    ) {
        let mut h = tiny_llama();
        h.metadata.extend(ints.into_iter().map(|(k, v)| (format!("x.{k}"), gguf::Value::Int(v.into()))));
        h.tensors = dims.iter().enumerate().map(|(i, d)| tensor(&format!("t{i}"), d, 12)).collect();
        let bytes = gguf::write(&h);
        let back = gguf::read(&bytes).unwrap();
        prop_assert_eq!(back.header_bytes, bytes.len() as u64);
        prop_assert_eq!(gguf::Header { header_bytes: 0, ..back }, h);
    }

    #[test]
    fn tensor_bytes_round_up_to_whole_blocks(n in 1u64..100_000, t in prop::sample::select(vec![0u32, 1, 8, 12, 14, 23, 30, 39])) {
        let info = gguf::TensorInfo { name: "x".into(), dims: vec![n], ggml_type: t };
        let (block, size) = gguf::block_layout(t).unwrap();
        let b = info.bytes().unwrap();
        prop_assert_eq!(b, n.div_ceil(u64::from(block)) as f64 * f64::from(size));
    }
}

#[test]
fn an_imported_model_travels_in_a_link_as_numbers() {
    let m = import_gguf(&tiny_llama_gguf()).unwrap();
    let mut plan = crate::plan::Plan {
        model: crate::model::ModelSpec::Custom { arch: m.arch.clone() },
        ..Default::default()
    };
    plan.inference.weights = WeightFormat::GgufQ4KM;
    let link = crate::share::encode(&plan, None, None);
    assert!(link.contains("a.file=gguf_q4_k_m,") && link.contains("a.src=gguf"), "{link}");
    assert!(link.len() < 400, "{link}");
    assert_eq!(crate::share::decode(&link).plan, plan);
}

#[test]
fn qwen2_vl_vision_width_is_its_embed_dim_not_the_merger_output() {
    // Qwen2-VL-7B-Instruct's vision_config: a 32-layer ViT of width 1280, MLP ratio 4;
    // hidden_size 3584 is the merger's output.
    let text = r#"{"model_type":"qwen2_vl","num_hidden_layers":28,"hidden_size":3584,"num_attention_heads":28,
        "num_key_value_heads":4,"intermediate_size":18944,"vocab_size":152064,"tie_word_embeddings":false,
        "vision_config":{"depth":32,"embed_dim":1280,"mlp_ratio":4,"hidden_size":3584,"patch_size":14}}"#;
    let m = config::import(text).unwrap();
    let vision = m.arch.params.unwrap() - crate::model::Arch { params: None, ..m.arch.clone() }.param_count();
    // 32 × (4·1280² + 2·1280·5120) + 3·14²·1280 = 0.63B (published tower: 675M with merger and biases).
    assert!((vision / 1e9 - 0.63).abs() < 0.01, "{}", vision / 1e9);
}

#[test]
fn nvfp4_checkpoints_are_read_as_nvfp4() {
    let llama = r#""model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"num_attention_heads":32,
        "num_key_value_heads":8,"intermediate_size":14336,"vocab_size":128256"#;
    // nvidia/Llama-3.1-8B-Instruct-FP4 (ModelOpt) and an llm-compressor NVFP4 export.
    for q in [
        r#"{"quant_method":"modelopt","quant_algo":"NVFP4","group_size":16}"#,
        r#"{"quant_method":"compressed-tensors","format":"nvfp4-pack-quantized"}"#,
    ] {
        let m = config::import(&format!("{{{llama},\"quantization_config\":{q}}}")).unwrap();
        assert_eq!(m.format, Some(crate::model::WeightFormat::Nvfp4), "{q}");
    }
    let fp8 = r#"{"quant_method":"modelopt","quant_algo":"FP8"}"#;
    let m = config::import(&format!("{{{llama},\"quantization_config\":{fp8}}}")).unwrap();
    assert_ne!(m.format, Some(crate::model::WeightFormat::Nvfp4));
}

mod given_together {
    use super::*;
    use files::{FileKind, Given};

    fn given<'a>(name: &'a str, bytes: &'a [u8]) -> Given<'a> {
        let kind = FileKind::detect(name, bytes).unwrap_or(FileKind::Config);
        Given { name, kind, bytes, size: Some(bytes.len() as u64) }
    }

    /// `tiny_llama` split into two shards as llama.cpp's gguf-split writes
    /// them: the model's keys in the first, tensors in both.
    fn split_in_two() -> (Vec<u8>, Vec<u8>) {
        let whole = tiny_llama();
        let half = whole.tensors.len() / 2;
        let split = |no: i64| [("split.no", no), ("split.count", 2)];
        let mut first = whole.clone();
        first.tensors.truncate(half);
        let mut second = gguf::Header { metadata: Default::default(), ..whole.clone() };
        second.tensors = whole.tensors[half..].to_vec();
        for (h, no) in [(&mut first, 0), (&mut second, 1)] {
            for (k, v) in split(no) {
                h.metadata.insert(k.into(), gguf::Value::Int(v.into()));
            }
        }
        (gguf::write(&first), gguf::write(&second))
    }

    #[test]
    fn kinds_come_from_names_and_first_bytes() {
        assert_eq!(FileKind::detect("m.gguf", b"\x89PNG"), Some(FileKind::Gguf));
        assert_eq!(FileKind::detect("blob", b"GGUF\x03"), Some(FileKind::Gguf));
        assert_eq!(FileKind::detect("config.json", b"{\"model_type\""), Some(FileKind::Config));
        let index = br#"{"metadata":{},"weight_map":{}}"#;
        assert_eq!(FileKind::detect("model.safetensors.index.json", index), Some(FileKind::SafetensorsIndex));
        assert_eq!(FileKind::detect("x", &tiny_safetensors()), Some(FileKind::Safetensors));
        assert_eq!(FileKind::detect("photo.png", b"\x89PNG\r\n"), None);
    }

    #[test]
    fn a_png_named_gguf_is_refused_as_not_gguf() {
        let png = b"\x89PNG\r\n\x1a\n0000000000000000000000";
        let err = files::more_needed(FileKind::Gguf, png, png.len() as u64);
        assert_eq!(err, Err(FileError::NotThisFormat));
    }

    #[test]
    fn reading_grows_to_the_header_and_stops() {
        let bytes = tiny_llama_gguf();
        let size = 40_000_000_000;
        let next = files::more_needed(FileKind::Gguf, &bytes[..64], size);
        assert_eq!(next, Ok(Some(files::FIRST_READ)));
        assert_eq!(files::more_needed(FileKind::Gguf, &bytes, size), Ok(None));
        // The whole file read and the header still going on: it is cut short.
        let short = &bytes[..bytes.len() - 10];
        let cut = files::more_needed(FileKind::Gguf, short, short.len() as u64);
        assert!(matches!(cut, Err(FileError::Truncated(_))), "{cut:?}");
        let json = b"{}";
        assert_eq!(files::more_needed(FileKind::Config, json, 2), Ok(None));
        assert!(files::more_needed(FileKind::Config, json, 1 << 40).is_err());
    }

    #[test]
    fn a_split_gguf_gives_the_whole_model_once_all_shards_are_given() {
        let (a, b) = split_in_two();
        let whole = import_gguf(&tiny_llama_gguf()).map(|m| m.arch.stored);
        let both = files::import(&[given("m-00002-of-00002.gguf", &b), given("m-00001-of-00002.gguf", &a)]);
        assert_eq!(both.map(|m| m.arch.stored), whole);
        let one = files::import(&[given("m-00001-of-00002.gguf", &a)]);
        assert_eq!(one.map(|_| ()), Err(FileError::MissingParts { given: 1, total: 2 }));
    }

    #[test]
    fn safetensors_shards_add_up_and_a_missing_one_is_named() {
        let st = tiny_safetensors();
        let one = files::import(&[given("model.safetensors", &st)]).map(|m| m.arch.stored);
        assert!(matches!(one, Ok(Some(_))), "{one:?}");
        let partial = files::import(&[given("model-00001-of-00003.safetensors", &st)]);
        assert_eq!(partial.map(|_| ()), Err(FileError::MissingParts { given: 1, total: 3 }));
    }

    #[test]
    fn a_config_gives_the_shape_and_the_weights_their_bytes() {
        let config = include_bytes!("../../tests/fixtures/configs/llama-3.1-8b.json");
        let gguf = tiny_llama_gguf();
        let m = files::import(&[given("config.json", config), given("m.gguf", &gguf)]);
        let m = m.map_err(|e| e.message(crate::lang::Lang::En));
        let (shape, bytes) = m.map(|m| (m.arch.hidden, m.arch.stored.map(|s| s.bytes))).unwrap_or_default();
        let gguf_bytes = import_gguf(&gguf).ok().and_then(|m| m.arch.stored).map(|s| s.bytes);
        assert_eq!((shape, bytes), (4096, gguf_bytes));
        let mixed = files::import(&[given("m.gguf", &gguf), given("model.safetensors", &tiny_safetensors())]);
        assert!(matches!(mixed, Err(FileError::Unsupported { .. })));
        assert!(matches!(files::import(&[]), Err(FileError::NotAModel { .. })));
    }
}
