//! `--config`, `--gguf`, `--safetensors`: models read from files, headers only.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{gpuplan, json};
use gpuplan_core::model_files::gguf::{self, Header, TensorInfo, Value};

/// Llama 3.1 8B as llama.cpp's Q4_K_M writes it: Q4_K matrices, Q6_K for
/// the output and for V and down in the layers `use_more_bits` picks (the
/// first and last eighth, and every third between), F32 norms.
fn llama_8b_q4_k_m() -> Header {
    let (h, kv, ffn, vocab) = (4096u64, 1024u64, 14336u64, 128256u64);
    let t = |name: String, dims: &[u64], ggml_type| TensorInfo { name, dims: dims.to_vec(), ggml_type };
    let mut tensors = vec![
        t("token_embd.weight".into(), &[h, vocab], 12),
        t("output.weight".into(), &[h, vocab], 14),
        t("output_norm.weight".into(), &[h], 0),
    ];
    for l in 0..32 {
        let more_bits = !(4..28).contains(&l) || (l - 4) % 3 == 2;
        let vd = if more_bits { 14 } else { 12 };
        for (n, dims, ty) in [
            ("attn_q", [h, h], 12),
            ("attn_k", [h, kv], 12),
            ("attn_v", [h, kv], vd),
            ("attn_output", [h, h], 12),
            ("ffn_gate", [h, ffn], 12),
            ("ffn_up", [h, ffn], 12),
            ("ffn_down", [ffn, h], vd),
        ] {
            tensors.push(t(format!("blk.{l}.{n}.weight"), &dims, ty));
        }
        tensors.push(t(format!("blk.{l}.attn_norm.weight"), &[h], 0));
        tensors.push(t(format!("blk.{l}.ffn_norm.weight"), &[h], 0));
    }
    let mut metadata = BTreeMap::new();
    metadata.insert("general.architecture".to_string(), Value::Text("llama".into()));
    for (k, v) in [
        ("general.file_type", 15),
        ("llama.block_count", 32),
        ("llama.embedding_length", h),
        ("llama.feed_forward_length", ffn),
        ("llama.attention.head_count", 32),
        ("llama.attention.head_count_kv", 8),
        ("llama.context_length", 131072),
    ] {
        metadata.insert(k.to_string(), Value::Int(v.into()));
    }
    metadata.insert("tokenizer.ggml.tokens".into(), Value::Array { len: vocab, numbers: vec![] });
    Header { version: 3, metadata, tensors, header_bytes: 0 }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuplan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_50_gb_gguf_is_read_from_its_header_alone() {
    let header = llama_8b_q4_k_m();
    let exact: f64 = header.tensors.iter().map(|t| t.bytes().unwrap()).sum();
    let path = temp("big.gguf");
    std::fs::write(&path, gguf::write(&header)).unwrap();
    // Sparse: the length a real file would have, with no disk behind it.
    std::fs::File::options().write(true).open(&path).unwrap().set_len(50_000_000_000).unwrap();
    let started = std::time::Instant::now();
    let v =
        json(&["estimate", "--gguf", path.to_str().unwrap(), "--engine", "transformers", "--format", "json"]);
    assert!(started.elapsed().as_secs_f64() < 5.0);
    let weights = v["memory"]["components"]["weights"]["bytes"].as_f64().unwrap();
    assert!((weights - exact).abs() <= 1.0, "{weights} vs {exact}");
    // Llama 3.1 8B Q4_K_M is published as 4.92 GB.
    assert!((exact / 1e9 - 4.92).abs() < 0.03, "{}", exact / 1e9);
    assert_eq!(v["plan"]["inference"]["weights"], "gguf_q4_k_m");
    assert_eq!(v["plan"]["model"]["arch"]["origin"], "gguf");
}

#[test]
fn bad_model_files_give_one_line_and_status_2() {
    let truncated = temp("cut.gguf");
    std::fs::write(&truncated, &gguf::write(&llama_8b_q4_k_m())[..5000]).unwrap();
    let broken = temp("broken.json");
    std::fs::write(&broken, "{\"hidden_size\": 4096,").unwrap();
    let absurd = temp("absurd.safetensors");
    let mut bytes = (1u64 << 63).to_le_bytes().to_vec();
    bytes.extend(b"{}");
    std::fs::write(&absurd, bytes).unwrap();
    for (flag, path, says) in [
        ("--gguf", &truncated, "ends inside its header"),
        ("--config", &broken, "malformed"),
        ("--safetensors", &absurd, "impossible sizes"),
    ] {
        let out = gpuplan(&["estimate", flag, path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
