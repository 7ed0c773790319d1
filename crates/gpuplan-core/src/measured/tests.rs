//! The readers on real outputs (tests/fixtures/measured, sources in its
//! SOURCES.md) and on what people paste by mistake.

use super::*;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../tests/fixtures/measured/", $name))
    };
}

fn serving(text: &str) -> (Tool, Format, Serving) {
    let r = read(text).expect("a reading");
    (r.tool, r.format, r.serving.expect("serving figures"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn vllm_summary_gives_throughput_and_median_latencies() {
    let (tool, format, s) = serving(fixture!("vllm_summary.txt"));
    assert_eq!((tool, format), (Tool::Vllm, Format::Text));
    assert!(close(s.output_tok_s, 6582.87));
    assert_eq!(s.ttft_ms, Some(9459.70));
    assert_eq!(s.tpot_ms, Some(48.84));
    assert_eq!(s.requests_per_s, Some(32.42));
    assert_eq!(s.max_concurrency, None);
}

#[test]
fn a_concurrency_printed_above_the_block_is_read() {
    let (_, _, s) = serving(fixture!("vllm_summary_concurrency.txt"));
    assert_eq!(s.max_concurrency, Some(30));
    assert!(close(s.output_tok_s, 7.27));
}

#[test]
fn vllm_saved_json_gives_the_same_figures() {
    let (tool, format, s) = serving(fixture!("vllm_result.json"));
    assert_eq!((tool, format), (Tool::Vllm, Format::Json));
    assert!(close(s.output_tok_s, 124.58542994370372));
    assert!(s.ttft_ms.is_some_and(|t| close(t, 98.94429985433817)));
    assert!(s.tpot_ms.is_some_and(|t| close(t, 34.45028747967261)));
    assert_eq!(s.max_concurrency, None, "null in the file");
}

#[test]
fn sglang_summary_is_told_apart_by_its_backend_line() {
    let (tool, _, s) = serving(fixture!("sglang_summary.txt"));
    assert_eq!(tool, Tool::Sglang);
    assert!(close(s.output_tok_s, 12195.89));
    assert_eq!(s.ttft_ms, Some(2409.87));
    assert_eq!(s.tpot_ms, None, "this run printed ITL, not TPOT");
    assert_eq!(s.max_concurrency, Some(330));
}

#[test]
fn llama_bench_reads_in_all_three_formats() {
    let (tool, format, md) = serving(fixture!("llama_bench.md"));
    assert_eq!((tool, format), (Tool::LlamaBench, Format::Markdown));
    assert!(close(md.output_tok_s, 120.60));
    assert_eq!(md.prompt_tok_s, Some(7340.20));
    assert!(md.tpot_ms.is_some_and(|t| close(t, 1000.0 / 120.60)));
    let (_, format, csv) = serving(fixture!("llama_bench.csv"));
    assert_eq!(format, Format::Csv);
    assert!(close(csv.output_tok_s, 132.052051));
    assert_eq!(csv.prompt_tok_s, Some(2413.341687));
    let (_, format, json) = serving(fixture!("llama_bench.json"));
    assert_eq!(format, Format::Json);
    assert!(close(json.output_tok_s, 118.881588));
    assert_eq!(json.prompt_tok_s, Some(7100.002165));
}

#[test]
fn torchtune_keeps_the_median_step_after_the_first() {
    let r = read(fixture!("torchtune.log")).expect("a reading");
    assert_eq!(r.tool, Tool::Torchtune);
    let t = r.training.expect("training figures");
    // Steps 2-12 sorted: the sixth of eleven is step 4's 417.5.
    assert!(t.tokens_per_s_per_gpu.is_some_and(|v| close(v, 417.49818620797487)), "{t:?}");
    let m = read(fixture!("torchtune_memory.log")).expect("a reading").training.expect("training");
    assert_eq!(m.tokens_per_s_per_gpu, Some(15001.66796875));
    let gib = 4.512502193450928 * 1_073_741_824.0;
    assert_eq!(m.peak_allocated_bytes, Some(gib as u64));
}

#[test]
fn hf_trainer_reads_its_samples_per_second_and_a_printed_peak() {
    for (text, want) in [(fixture!("hf_trainer.log"), 2.627), (fixture!("hf_trainer_dict.log"), 1.161)] {
        let r = read(text).expect("a reading");
        assert_eq!(r.tool, Tool::HfTrainer);
        assert_eq!(r.training.and_then(|t| t.samples_per_s), Some(want));
    }
    let with_peak = format!("{}\nmax_memory_reserved 61.25 GiB\n", fixture!("hf_trainer.log"));
    let t = read(&with_peak).expect("a reading").training.expect("training");
    assert_eq!(t.peak_reserved_bytes, Some((61.25 * 1_073_741_824.0) as u64));
}

#[test]
fn bad_pastes_get_a_notice_that_says_what_was_expected() {
    let huge = "a".repeat(10_000_000);
    assert!(matches!(read(&huge), Err(Notice::TooLong { .. })));
    assert_eq!(read("  \n"), Err(Notice::Empty));
    assert_eq!(read("nvidia-smi\nGPU 0: NVIDIA H100 80GB HBM3"), Err(Notice::Unknown));
    // Cut before the throughput line.
    let cut: String = fixture!("vllm_summary.txt").lines().take(5).collect::<Vec<_>>().join("\n");
    assert_eq!(
        read(&cut),
        Err(Notice::Incomplete { tool: Tool::Vllm, missing: "Output token throughput (tok/s)" })
    );
    // Latencies in seconds.
    let seconds = fixture!("vllm_summary.txt").replace("Median TTFT (ms)", "Median TTFT (s)");
    assert_eq!(
        read(&seconds),
        Err(Notice::OtherUnit { tool: Tool::Vllm, field: "Median TTFT", expected: "ms" })
    );
    // Script where a number belongs.
    let script = "Step 2 | loss:1.8 tokens_per_second_per_gpu:<script>alert(1)</script>";
    assert_eq!(
        read(script),
        Err(Notice::BadNumber { tool: Tool::Torchtune, field: "tokens_per_second_per_gpu" })
    );
    let mem = "max_memory_reserved 61.25 furlongs";
    assert!(matches!(read(mem), Err(Notice::OtherUnit { tool: Tool::HfTrainer, .. })));
    for lang in [Lang::Zh, Lang::En] {
        for n in [Notice::Unknown, Notice::TooLong { bytes: 10_000_000, max_bytes: MAX_BYTES }] {
            assert!(!n.message(lang).is_empty());
        }
    }
}

#[test]
fn a_reading_travels_in_a_link_and_a_damaged_one_is_dropped() {
    for text in [fixture!("vllm_summary.txt"), fixture!("llama_bench.md"), fixture!("torchtune_memory.log")] {
        let r = read(text).expect("a reading");
        assert_eq!(Reading::from_link(&r.to_link()), Some(r));
    }
    assert_eq!(Reading::from_link("vllm:text:o12:zz"), None);
    assert_eq!(Reading::from_link("nope:text:o12"), None);
    assert_eq!(Reading::from_link("vllm:text:oNaN"), None);
}

const FIXTURES: [&str; 8] = [
    fixture!("vllm_summary.txt"),
    fixture!("vllm_result.json"),
    fixture!("sglang_summary.txt"),
    fixture!("llama_bench.md"),
    fixture!("llama_bench.csv"),
    fixture!("llama_bench.json"),
    fixture!("torchtune.log"),
    fixture!("hf_trainer.log"),
];

proptest::proptest! {
    /// Any cut or splice of real outputs gives figures or a notice, and
    /// every reading survives the link.
    #[test]
    fn cut_and_spliced_outputs_never_panic(
        a in 0usize..8,
        b in 0usize..8,
        cut in 0usize..4000,
        noise in "\\PC{0,40}",
    ) {
        let (x, y) = (FIXTURES[a], FIXTURES[b]);
        let head: String = x.chars().take(cut).collect();
        let text = format!("{head}{noise}{y}");
        if let Ok(r) = read(&text) {
            proptest::prop_assert_eq!(Reading::from_link(&r.to_link()), Some(r));
        }
    }
}
