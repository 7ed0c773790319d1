//! Hand-computed checks of the step and load model.

use super::*;
use crate::plan::Engine;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

/// A 7B dense model in bf16 on one RTX 4090 (1.008 TB/s, 165 TFLOPS).
fn rtx4090() -> Replica {
    Replica {
        bandwidth_tbs: 1.008,
        tflops: 165.0,
        fp8: false,
        mmq: None,
        efficiency: efficiency(Engine::Vllm),
        tp: 1,
        pp: 1,
        link: Link { gbs: 31.5, nvlink: false },
        weight_bytes: 14e9,
        gathered_bytes: 0.0,
        head_bytes: 0.0,
        head_params: 0.0,
        embedding_params: 0.0,
        moe: None,
        active_params: 7e9,
        attention_width: 4096.0 * 32.0,
        kv_bytes_per_token: 131_072.0,
        hidden: 4096,
        stage_layers: 32,
        kv_capacity_tokens: 50_000.0,
    }
}

#[test]
fn a_chunk_that_ends_no_prompt_skips_the_lm_head() {
    // Llama 3.2 1B-like: a 0.5 GB tied head of 2.5 GB, 0.26e9 of 1.24e9 parameters.
    let r = Replica {
        weight_bytes: 2.5e9,
        head_bytes: 0.5e9,
        head_params: 0.26e9,
        active_params: 1.24e9,
        ..rtx4090()
    };
    let (end, chunk) = (r.step(0.0, 0.0, 512.0, 0.0), r.chunk_step(0.0, 0.0, 512.0, 0.0));
    assert!(close(chunk.memory_s / end.memory_s, 2.0 / 2.5, 1e-12));
    // The ending chunk multiplies the head for its last token only.
    let flops = |s: Step| s.compute_s * 165e12 * r.compute_share();
    assert!(close(flops(end), 2.0 * (0.98e9 * 512.0 + 0.26e9), 1e-9));
    assert!(close(flops(chunk), 2.0 * 0.98e9 * 512.0, 1e-9));
}

#[test]
fn the_input_embedding_is_gathered_not_read() {
    let whole = rtx4090();
    let gathered = Replica { gathered_bytes: 0.5e9, ..rtx4090() };
    let (a, b) = (whole.step(1.0, 0.0, 0.0, 0.0), gathered.step(1.0, 0.0, 0.0, 0.0));
    assert!(close(b.memory_s / a.memory_s, 13.5 / 14.0, 1e-12));
}

#[test]
fn one_sequence_steps_at_the_weight_read_over_achieved_bandwidth() {
    let r = rtx4090();
    let e = r.efficiency;
    let s = r.step(1.0, 1000.0, 0.0, 0.0);
    let bytes = 14e9 + 1000.0 * 131_072.0;
    assert!(close(s.memory_s, bytes / (1.008e12 * e.bandwidth), 1e-12));
    assert!(!s.compute_bound());
    assert!(close(
        s.seconds(),
        e.layer_overhead_s * 32.0 + e.seq_overhead_s + s.memory_s + s.compute_s,
        1e-12
    ));
}

#[test]
fn a_large_batch_becomes_compute_bound_and_tpot_rises() {
    let r = rtx4090();
    let w = Workload::new(512, 256, 0.0);
    let one = at_concurrency(&r, &w, 1.0);
    let many = at_concurrency(&r, &w, 64.0);
    assert!(many.step.compute_bound(), "{:?}", many.step);
    assert!(many.tpot_s > one.tpot_s);
    assert!(many.tokens_per_s > 10.0 * one.tokens_per_s);
    // One request alone: no wait, the prompt in one chunk of 512.
    let prefill = r.step(0.0, w.prompt_tokens + 128.0, 512.0, 256.0).seconds();
    assert!(close(one.ttft_s, prefill, 1e-12));
    assert!(close(one.requests_per_s, 1.0 / (one.ttft_s + 255.0 * one.tpot_s), 1e-12));
}

#[test]
fn an_arrival_rate_settles_at_the_concurrency_that_serves_it() {
    let r = rtx4090();
    let w = Workload::new(512, 256, 0.0);
    let s = at_rate(&r, &w, 3.0, 40.0).expect("sustainable");
    assert!(close(s.requests_per_s, 3.0, 1e-6), "{}", s.requests_per_s);
    assert!(at_rate(&r, &w, 1.0e4, 40.0).is_none(), "beyond what 40 sequences serve");
}

#[test]
fn random_arrivals_wait_for_the_prompts_ahead() {
    // Pollaczek-Khinchine for a deterministic server: ρS ÷ 2(1 − ρ).
    assert!(close(arrivals::md1_wait(10.0, 0.05).expect("ρ 0.5"), 0.025, 1e-12));
    assert!(arrivals::md1_wait(20.0, 0.05).is_none(), "ρ 1 saturates");
    let r = rtx4090();
    // Long prompts: the slot is busy long enough to matter.
    let w = Workload::new(2048, 64, 0.0);
    let slot = arrivals::service_s(&r, &w, &at_concurrency(&r, &w, 1.0));
    let rate = 0.3 / slot;
    let s = at_rate(&r, &w, rate, 200.0).expect("sustainable");
    let q = s.queue.expect("arrivals wait");
    assert!(q.utilisation > 0.2 && q.wait_s > 0.0, "{q:?}");
    assert!(close(s.ttft_s, s.ttft_in_batch_s() + q.wait_s + q.front_end_s, 1e-12));
    // The rate the replica serves is the arrival rate (Little's law on the batch).
    assert!(close(s.requests_per_s, rate, 1e-6));
    // More traffic, longer waits.
    let busier = at_rate(&r, &w, 1.5 * rate, 200.0).and_then(|s| s.queue).expect("sustainable");
    assert!(busier.wait_s > q.wait_s && busier.utilisation > q.utilisation);
}

#[test]
fn a_prefill_bound_replica_takes_a_fraction_of_one_sequences_traffic() {
    // One output token after a long prompt: one sequence in flight keeps the
    // prefill slot busy, so random arrivals need less than that per replica.
    let r = rtx4090();
    let w = Workload::new(8192, 1, 0.0);
    let t = Targets { qps: 5.0, ttft_s: None, tpot_s: None };
    let c = sizing::for_targets(std::slice::from_ref(&r), &w, &t).expect("a count");
    let per_replica = c.concurrency.expect("the model's");
    assert!(per_replica < 1.0, "{per_replica}");
    assert!(at_rate(&r, &w, 5.0 / f64::from(c.replicas), 200.0).is_some());
}

#[test]
fn a_ttft_target_counts_the_wait_of_random_arrivals() {
    let r = rtx4090();
    let w = Workload::new(2048, 64, 0.0);
    let free = Targets { qps: 5.0, ttft_s: None, tpot_s: None };
    let loose = sizing::for_targets(std::slice::from_ref(&r), &w, &free).expect("count");
    // Arriving at one sequence in flight: the server's own time and one
    // other sequence's decoding beside the prompt.
    let unloaded = arrivals::arriving(&r, &w, 1.0).expect("unsaturated").ttft_s;
    assert!(unloaded > at_concurrency(&r, &w, 1.0).ttft_s);
    let tight = Targets { ttft_s: Some(unloaded * 1.2), ..free };
    let c = sizing::for_targets(std::slice::from_ref(&r), &w, &tight).expect("count");
    assert_eq!(c.binds, Binding::Ttft);
    assert!(c.gpus >= loose.gpus);
    let per_replica = 5.0 / f64::from(c.replicas);
    let s = at_rate(&r, &w, per_replica, 200.0).expect("sustainable");
    assert!(s.ttft_s <= unloaded * 1.2 + 1e-9, "{} > {}", s.ttft_s, unloaded * 1.2);
}

#[test]
fn the_tpot_target_caps_concurrency_and_sizing_says_it_binds() {
    let r = rtx4090();
    let w = Workload::new(512, 256, 0.0);
    let cap = max_concurrency_for_tpot(&r, &w, 0.030, 1000.0).expect("one sequence meets 30 ms");
    assert!(at_concurrency(&r, &w, cap as f64).tpot_s <= 0.030);
    assert!(at_concurrency(&r, &w, cap as f64 + 1.0).tpot_s > 0.030);
    let t = Targets { qps: 20.0, ttft_s: None, tpot_s: Some(0.030) };
    let c = sizing::for_targets(std::slice::from_ref(&r), &w, &t).expect("count");
    assert_eq!(c.binds, Binding::Tpot);
    assert_eq!(f64::from(c.replicas), (20.0 / c.replica_rps).ceil());
    // A TPOT no single sequence meets leaves no layout.
    let impossible = Targets { tpot_s: Some(0.001), ..t };
    assert!(sizing::for_targets(&[r], &w, &impossible).is_none());
}

#[test]
fn tensor_parallel_pays_all_reduces_over_its_link_and_moe_reads_touched_experts() {
    let mut r = rtx4090();
    r.tp = 2;
    let s = r.step(8.0, 1000.0, 0.0, 0.0);
    // 2 per layer × 32 layers × (20 µs + 2·(1/2) × 8 × 4096 × 2 B ÷ 31.5 GB/s).
    let one = 20e-6 + 8.0 * 4096.0 * 2.0 / 31.5e9;
    assert!(close(s.comm_s, 64.0 * one, 1e-9), "{}", s.comm_s);
    let moe = Replica { moe: Some(Moe { experts: 8, active: 2, expert_share: 0.9 }), ..rtx4090() };
    assert!(close(moe.weight_share(1.0), 0.1 + 0.9 * 0.25, 1e-12));
    assert!(moe.weight_share(64.0) > 0.99);
}

#[test]
fn the_user_measurement_replaces_the_model() {
    let w = Workload::new(512, 256, 0.0);
    let c = sizing::from_measured(2560.0, &w, 25.0, 1, 1).expect("count");
    // 2560 token/s ÷ 256 tokens = 10 req/s per GPU; ⌈25 ÷ 10⌉ = 3.
    assert_eq!(c.gpus, 3);
    assert_eq!(c.basis, crate::figure::Basis::Measured);
    assert!(sizing::from_measured(0.0, &w, 25.0, 1, 1).is_none());
}

/// Decode attention rides on the KV read the memory time holds; a prompt
/// chunk's attention is the larger of its FLOPs and one KV read per 64-row
/// tile of queries.
#[test]
fn attention_is_its_own_roofline_and_decode_is_counted_once() {
    let r = rtx4090();
    assert_eq!(r.step(8.0, 4000.0, 0.0, 0.0).attention_s, 0.0);
    let s = r.chunk_step(0.0, 0.0, 128.0, 8000.0);
    let flops = 4.0 * 4096.0 * 32.0 * 128.0 * 8000.0 / (165e12 * r.compute_share());
    let reads = 2.0 * 8000.0 * 131_072.0 / (1.008e12 * r.efficiency.bandwidth);
    assert!(close(s.attention_s, flops.max(reads), 1e-12), "{s:?}");
}
