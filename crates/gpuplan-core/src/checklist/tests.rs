//! Each rule fires on a plan that needs it and stays silent on one that does not.

use proptest::prelude::*;

use super::*;
use crate::cost::OptionKind;
use crate::hardware::Gpu;
use crate::model::WeightFormat;
use crate::plan::{Method, Precision, Shard, Task};

fn gpu(id: &str) -> Gpu {
    crate::hardware::find(id).cloned().unwrap_or_else(|| panic!("no catalog row {id}"))
}

/// A rented single-H100 inference plan: the quiet baseline most tests change one thing of.
fn base() -> Facts {
    Facts {
        model_name: "Llama 3.1 8B".into(),
        params: 8.03e9,
        weights_bytes: 16_060_000_000,
        per_gpu_bytes: 30_000_000_000,
        gpu: Some(gpu("h100-sxm")),
        option: Some(OptionKind::OnDemand),
        ..Facts::default()
    }
}

fn on(f: Facts, id: &str, count: u32) -> Facts {
    Facts { gpu: Some(gpu(id)), gpu_count: count, ..f }
}

fn tp(f: Facts, tp: u32) -> Facts {
    Facts { tensor_parallel: tp, ..f }
}

fn train(f: Facts) -> Facts {
    Facts { task: Task::Train, ..f }
}

fn list(f: &Facts) -> Checklist {
    build(f, Lang::En, &[]).expect("valid facts")
}

fn find(f: &Facts, id: &str) -> Option<Item> {
    let c = list(f);
    c.sections.into_iter().flat_map(|s| s.items).find(|i| i.id == id)
}

fn get(f: &Facts, id: &str) -> Item {
    find(f, id).unwrap_or_else(|| panic!("{id} missing"))
}

/// Text, command and expectation together, for searching.
fn all(i: &Item) -> String {
    format!(
        "{} | {} | {}",
        i.text,
        i.command.clone().unwrap_or_default(),
        i.expect.clone().unwrap_or_default()
    )
}

#[test]
fn workload_names_the_inference_or_training_settings() {
    let i = get(&base(), "workload");
    assert!(
        i.text.contains("Llama 3.1 8B (8B), BF16 weights, context up to 8192 tokens, 1 sequence at once"),
        "{}",
        i.text
    );
    let t = train(Facts { method: Method::Lora, seq: 2048, batch: 4, ..base() });
    let i = get(&t, "workload");
    assert!(i.text.contains("LoRA") && i.text.contains("sequence length 2048, micro-batch 4"), "{}", i.text);
}

#[test]
fn memory_is_a_risk_over_the_usable_share_or_with_little_headroom() {
    let fits = get(&base(), "memory");
    assert!(!fits.risk && fits.text.contains("30 GB") && fits.text.contains("72 GB usable"), "{}", fits.text);
    // 75 GB > 80 × 0.9 = 72 GB.
    let over = get(&Facts { per_gpu_bytes: 75_000_000_000, ..base() }, "memory");
    assert!(over.risk && over.text.contains("That is over"), "{}", over.text);
    let thin = get(&Facts { headroom_pct: 5.0, ..base() }, "memory");
    assert!(thin.risk && thin.text.contains("below the usual 10-30%"), "{}", thin.text);
}

#[test]
fn gpu_count_says_single_or_describes_the_split() {
    assert!(get(&base(), "gpu-count").text.starts_with("Single-GPU plan"));
    let f = Facts { nodes: 2, shard: Shard::Zero3, ..train(on(base(), "h100-sxm", 16)) };
    let t = get(&f, "gpu-count").text;
    assert!(t.contains("16 GPUs on 2 servers of 8, ZeRO-3"), "{t}");
}

#[test]
fn interconnect_asks_for_nvlink_only_where_gpus_exchange_data() {
    assert!(find(&base(), "interconnect").is_none());
    let nv = get(&tp(on(base(), "h100-sxm", 4), 4), "interconnect");
    assert!(
        !nv.risk
            && nv.text.contains("NVLink4 (900 GB/s both ways) joining all 4 GPUs of each server")
            && nv.text.contains("topo -m"),
        "{}",
        nv.text
    );
    let pcie = get(&tp(on(base(), "rtx-4090", 4), 4), "interconnect");
    assert!(pcie.risk && pcie.text.contains("has no NVLink"), "{}", pcie.text);
    let replicas = get(&on(base(), "rtx-4090", 4), "interconnect");
    assert!(!replicas.risk && replicas.text.contains("PCIe is enough"), "{}", replicas.text);
    let training = get(&train(on(base(), "rtx-4090", 2)), "interconnect");
    assert!(training.risk && training.text.contains("every step"), "{}", training.text);
    let lora = get(&train(Facts { method: Method::Lora, ..on(base(), "rtx-4090", 2) }), "interconnect");
    assert!(!lora.risk && lora.text.contains("adapter gradients"), "{}", lora.text);
    let fsdp_lora = Facts { method: Method::Lora, shard: Shard::Fsdp, ..train(on(base(), "rtx-4090", 2)) };
    assert!(get(&fsdp_lora, "interconnect").risk);
    let bridged = get(&tp(on(base(), "h100-nvl", 4), 4), "interconnect");
    assert!(bridged.risk && bridged.text.contains("joins only 2 cards"), "{}", bridged.text);
    assert!(!get(&tp(on(base(), "h100-nvl", 2), 2), "interconnect").risk);
    let across = Facts { nodes: 2, ..tp(on(base(), "h100-sxm", 16), 16) };
    let a = get(&across, "interconnect");
    assert!(a.risk && a.text.contains("runs over the network"), "{}", a.text);
    assert!(!get(&Facts { nodes: 2, ..tp(on(base(), "h100-sxm", 16), 8) }, "interconnect").risk);
}

#[test]
fn multinode_appears_only_across_servers() {
    assert!(find(&tp(on(base(), "h100-sxm", 8), 8), "multinode").is_none());
    let f = Facts { nodes: 2, ..train(on(base(), "h100-sxm", 16)) };
    assert!(get(&f, "multinode").text.contains("2 servers"));
}

#[test]
fn precision_checks_fp8_fp4_and_bf16_against_the_part() {
    let fp8 = |id| Facts { weights: WeightFormat::Fp8, ..on(base(), id, 1) };
    let h = get(&fp8("h100-sxm"), "precision");
    assert!(!h.risk && h.text.contains("supports FP8"), "{}", h.text);
    let a = get(&fp8("a100-80-sxm"), "precision");
    assert!(a.risk && a.text.contains("FP8 needs Hopper/Ada or newer"), "{}", a.text);
    assert!(!get(&fp8("mi300x"), "precision").risk, "MI300X has a catalog FP8 rate");
    let fp4 = |id| Facts { weights: WeightFormat::Mxfp4, ..on(base(), id, 1) };
    assert!(get(&fp4("h100-sxm"), "precision").risk);
    assert!(!get(&fp4("b200"), "precision").risk);
    let v100 = get(&train(on(base(), "v100-sxm2", 1)), "precision");
    assert!(v100.risk && v100.text.contains("BF16 needs Ampere"), "{}", v100.text);
    let fp32_train = Facts { precision: Precision::Fp32, ..train(on(base(), "v100-sxm2", 1)) };
    assert!(!get(&fp32_train, "precision").risk);
    let gguf = get(&Facts { weights: WeightFormat::GgufQ4KM, ..base() }, "precision");
    assert!(!gguf.risk && gguf.text.contains("does not depend"), "{}", gguf.text);
    let unknown = get(&Facts { weights: WeightFormat::Fp8, ..on(base(), "ascend-910b", 1) }, "precision");
    assert!(unknown.risk && unknown.text.contains("confirm support"), "{}", unknown.text);
}

#[test]
fn host_cpu_scales_with_gpus_per_server() {
    assert!(get(&on(base(), "h100-sxm", 8), "host-cpu").text.contains("112-128 for 8 GPUs"));
    assert!(get(&base(), "host-cpu").text.contains("16-28 vCPU"));
}

#[test]
fn host_ram_fills_total_vram_and_the_lora_merge() {
    let four = get(&on(base(), "h100-sxm", 4), "host-ram");
    assert!(four.text.contains("4 × 80 GB = 320 GB") && !four.text.contains("LoRA"), "{}", four.text);
    // Merging LoRA into a 70B BF16 model: 70e9 × 2 B = 140 GB, above the 80 GB of VRAM.
    let lora = train(Facts { method: Method::Lora, params: 70.0e9, ..base() });
    let i = get(&lora, "host-ram");
    assert!(i.text.contains("70B × 2 bytes ≈ 140 GB") && i.text.contains("at least 140 GB"), "{}", i.text);
    assert!(!get(&train(base()), "host-ram").text.contains("LoRA"));
    // Seed 002 §5.3's floor: one 24 GB card still wants 32 GB of RAM.
    let small = get(&on(base(), "rtx-4090", 1), "host-ram");
    assert!(small.text.contains("1 × 24 GB = 24 GB, so at least 32 GB"), "{}", small.text);
}

#[test]
fn nvme_flags_checkpoints_over_a_terabyte() {
    // 70B full fine-tune, mixed precision: 70e9 × 16 B = 1.12 TB per resumable checkpoint.
    let big = train(Facts { params: 70.0e9, checkpoint_bytes: Some(1_120_000_000_000), ..base() });
    let i = get(&big, "nvme");
    assert!(i.risk && i.text.contains("about 1.12 TB") && i.text.contains("at least 2.24 TB"), "{}", i.text);
    let small = train(Facts { checkpoint_bytes: Some(96_000_000_000), ..base() });
    assert!(!get(&small, "nvme").risk);
    // Two 600 GB checkpoints are 1.2 TB.
    assert!(get(&train(Facts { checkpoint_bytes: Some(600_000_000_000), ..base() }), "nvme").risk);
    let infer = get(&Facts { checkpoint_bytes: Some(1_120_000_000_000), ..base() }, "nvme");
    assert!(!infer.risk && !infer.text.contains("checkpoint (weights"), "{}", infer.text);
    assert!(infer.text.contains("weights (about 16.1 GB)"), "{}", infer.text);
}

#[test]
fn egress_compares_the_estimate_with_the_allowance() {
    let monthly = Facts { option: Some(OptionKind::Monthly), egress_gb_month: 25_000.0, ..base() };
    let over = get(&Facts { egress_included_gb: Some(20_000.0), ..monthly.clone() }, "egress");
    assert!(over.risk && over.text.contains("5000 GB over"), "{}", over.text);
    let under = get(&Facts { egress_included_gb: Some(50_000.0), ..monthly.clone() }, "egress");
    assert!(
        !under.risk && under.text.contains("25000 GB a month against 50000 GB included"),
        "{}",
        under.text
    );
    assert!(get(&monthly, "egress").text.contains("ask how much is included"));
    assert!(get(&base(), "egress").text.contains("estimate monthly egress"));
}

#[test]
fn backups_time_the_checkpoint_copy() {
    // 1.12e12 B / 1.25e9 B/s = 896 s = 14.9 min → 15.
    let f = train(Facts { checkpoint_bytes: Some(1_120_000_000_000), ..base() });
    assert!(get(&f, "backups").text.contains("about 15 minutes"));
    assert!(!get(&base(), "backups").text.contains("minutes"));
}

#[test]
fn stack_fills_the_driver_floor_and_flags_mismatches() {
    let f = |id, v: &str| Facts { cuda: CudaVersion::parse(v), ..on(base(), id, 1) };
    let ok = get(&f("h100-sxm", "12.8"), "stack");
    assert!(!ok.risk && ok.text.contains("CUDA 12.8 needs driver ≥ 570.26"), "{}", ok.text);
    let old = get(&f("rtx-5090", "12.4"), "stack");
    assert!(old.risk && old.text.contains("sm_120"), "{}", old.text);
    assert!(!get(&f("rtx-5090", "12.8"), "stack").risk);
    let volta = get(&f("v100-sxm2", "13.0"), "stack");
    assert!(volta.risk && volta.text.contains("needs CUDA 12.x"), "{}", volta.text);
    assert!(!get(&f("v100-sxm2", "12.4"), "stack").risk);
    assert!(get(&f("h100-sxm", "12.6"), "stack").text.contains("550.54.14 at least"));
    let rocm = get(&on(base(), "mi300x", 1), "stack");
    assert!(rocm.text.contains("ROCm") && !rocm.text.contains("CUDA"), "{}", rocm.text);
}

#[test]
fn term_and_final_check_carry_the_choice() {
    assert!(get(&base(), "term").text.contains("Chosen: On-Demand"));
    assert!(get(&on(base(), "h100-sxm", 8), "final-check").text.contains("(8 × H100 SXM)"));
}

#[test]
fn vendor_questions_follow_the_plan() {
    assert!(find(&base(), "ask-link").is_none());
    assert!(get(&tp(on(base(), "h100-sxm", 4), 4), "ask-link").text.contains("NVLink4"));
    assert!(get(&tp(on(base(), "rtx-4090", 2), 2), "ask-link").text.contains("PCIe only"));
    assert!(get(&on(base(), "rtx-4090", 1), "ask-power").text.contains("full 450 W"));
    let owned = Facts { rented: false, ..base() };
    for id in ["ask-software", "ask-line-items", "ask-billing-rules", "ask-data-deletion"] {
        assert!(find(&owned, id).is_none(), "{id} for owned hardware");
        assert!(find(&base(), id).is_some(), "{id} missing for a rental");
    }
    let spot = get(&Facts { option: Some(OptionKind::Spot), ..base() }, "ask-billing-rules");
    assert!(spot.text.contains("notice"), "{}", spot.text);
    let ri = get(&Facts { option: Some(OptionKind::Reserved), ..base() }, "ask-billing-rules");
    assert!(ri.text.contains("whether used or not"), "{}", ri.text);
    assert!(!get(&base(), "ask-billing-rules").text.contains("notice"));
    let sw = get(&Facts { cuda: CudaVersion::parse("12.8"), ..base() }, "ask-software");
    assert!(sw.text.contains("570.26"), "{}", sw.text);
    assert!(get(&Facts { long_run: true, ..base() }, "ask-redundancy").text.starts_with("This plan runs"));
}

#[test]
fn card_and_cooling_questions_carry_the_hardware() {
    assert!(get(&on(base(), "h100-sxm", 8), "ask-card").text.contains("8 × H100 SXM, 80 GB each, SXM5"));
    assert!(!get(&base(), "ask-cooling").text.contains("dense slots"));
    assert!(get(&on(base(), "h100-sxm", 8), "ask-cooling").text.contains("dense slots"));
}

#[test]
fn pcie_and_persistence_steps_are_nvidia_only() {
    let g = get(&on(base(), "rtx-4090", 1), "acc-pcie");
    assert!(all(&g).contains("Gen 4, width 16 under load"), "{}", all(&g));
    assert!(get(&base(), "acc-persistence")
        .command
        .as_deref()
        .is_some_and(|c| c.contains("persistence_mode")));
    for id in ["acc-pcie", "acc-persistence", "acc-dcgm"] {
        assert!(find(&on(base(), "mi300x", 1), id).is_none(), "{id} on ROCm");
    }
}

#[test]
fn acceptance_expects_this_plans_gpus() {
    let f = tp(on(base(), "h100-sxm", 8), 8);
    let l = get(&f, "acc-list");
    assert_eq!(l.command.as_deref(), Some("nvidia-smi -L"));
    assert!(all(&l).contains("8 GPUs, all H100 SXM"), "{}", all(&l));
    let inv = get(&f, "acc-inventory");
    assert!(all(&inv).contains("about 81920 MiB") && !all(&inv).contains("ECC on"), "{}", all(&inv));
    // L40S: GDDR6 with ECC, 48 × 1024 = 49152 MiB, 15/16 of it = 46080.
    let l40s = get(&on(base(), "l40s", 1), "acc-inventory");
    assert!(all(&l40s).contains("about 46080 MiB with ECC on"), "{}", all(&l40s));
    assert!(all(&get(&f, "acc-power")).contains("at 700 W"));
    let host = get(&f, "acc-host");
    // 8 × 80 GB = 640 GB = 596.05 GiB → 596.
    assert!(
        all(&host).contains("at least 112") && all(&host).contains("596 GiB (= 640 GB"),
        "{}",
        all(&host)
    );
    let drv = get(&Facts { cuda: CudaVersion::parse("13.0"), ..f.clone() }, "acc-driver");
    assert!(all(&drv).contains("≥ 580.65.06"), "{}", all(&drv));
    let job = get(&f, "acc-job");
    // 30e9 B / 2^20 = 28610.2 MiB.
    assert!(all(&job).contains("about 28610 MiB") && all(&job).contains("KV pool"), "{}", all(&job));
}

#[test]
fn topology_and_bandwidth_steps_need_several_gpus_per_server() {
    assert!(find(&base(), "acc-topo").is_none());
    assert!(find(&base(), "acc-nccl").is_none());
    let nv = tp(on(base(), "h100-sxm", 8), 8);
    let topo = get(&nv, "acc-topo");
    assert!(all(&topo).contains("NV# (# = number of NVLinks) between every pair"), "{}", all(&topo));
    let nccl = get(&nv, "acc-nccl");
    assert_eq!(nccl.command.as_deref(), Some("./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8"));
    // 2(n-1)/n = 14/8 = 1.75; NVLink4 900 / 2 = 450 GB/s per direction.
    let e = all(&nccl);
    assert!(e.contains("algbw × 1.75") && e.contains("450 GB/s") && e.contains("482 GB/s"), "{e}");
    let pcie = all(&get(&tp(on(base(), "rtx-4090", 2), 2), "acc-nccl"));
    assert!(pcie.contains("PCIe Gen4 x16's 32 GB/s") && !pcie.contains("482"), "{pcie}");
    assert!(all(&get(&tp(on(base(), "rtx-4090", 2), 2), "acc-topo")).contains("No NV#"));
    let multi = Facts { nodes: 2, ..train(on(base(), "h100-sxm", 16)) };
    let n = get(&multi, "acc-nccl");
    assert!(
        n.command.as_deref().is_some_and(|c| c.ends_with("-g 8")) && all(&n).contains("MPI"),
        "{}",
        all(&n)
    );
}

#[test]
fn ecc_na_on_consumer_cards_is_not_a_pass() {
    let g = get(&on(base(), "rtx-4090", 1), "acc-ecc");
    assert!(g.risk && all(&g).contains("N/A means not available, not pass"), "{}", all(&g));
    let h = get(&base(), "acc-ecc");
    assert!(!h.risk && all(&h).contains("remapped_rows.pending"), "{}", all(&h));
    assert!(all(&get(&on(base(), "v100-sxm2", 1), "acc-ecc")).contains("retired_pages.pending No"));
}

#[test]
fn dcgm_only_on_datacenter_parts() {
    assert!(find(&base(), "acc-dcgm").is_some());
    assert!(find(&on(base(), "rtx-4090", 1), "acc-dcgm").is_none());
}

#[test]
fn other_stacks_swap_the_nvidia_tools() {
    let amd = tp(on(base(), "mi300x", 8), 8);
    assert!(get(&amd, "acc-tools").text.contains("amd-smi"));
    for id in ["acc-inventory", "acc-props", "acc-driver", "acc-ecc", "acc-power", "acc-burn", "acc-recheck"]
    {
        assert!(find(&amd, id).is_none(), "{id} on ROCm");
    }
    assert_eq!(get(&amd, "acc-topo").command.as_deref(), Some("rocm-smi --showtopo"));
    assert!(get(&amd, "acc-nccl").text.contains("rccl-tests"));
    assert!(get(&amd, "acc-job").command.is_none());
    assert!(find(&base(), "acc-tools").is_none());
    let npu = on(base(), "ascend-910b", 8);
    assert_eq!(get(&npu, "acc-list").command.as_deref(), Some("npu-smi info"));
    assert!(find(&npu, "acc-nccl").is_none());
}

#[test]
fn geforce_licence_warns_only_for_rented_geforce() {
    let rented = get(&on(base(), "rtx-4090", 1), "pit-geforce-licence");
    let e = all(&rented);
    assert!(rented.risk && e.contains("§2.7") && e.contains("§2.8") && e.contains("not legal advice"), "{e}");
    assert!(find(&Facts { rented: false, ..on(base(), "rtx-4090", 1) }, "pit-geforce-licence").is_none());
    assert!(find(&base(), "pit-geforce-licence").is_none());
}

#[test]
fn no_ecc_pitfall_for_long_or_training_runs_on_consumer_cards() {
    assert!(get(&train(on(base(), "rtx-4090", 1)), "pit-no-ecc").risk);
    assert!(find(&Facts { long_run: true, ..on(base(), "rtx-4090", 1) }, "pit-no-ecc").is_some());
    assert!(find(&on(base(), "rtx-4090", 1), "pit-no-ecc").is_none());
    assert!(find(&train(base()), "pit-no-ecc").is_none());
}

#[test]
fn commitment_spot_and_alarm_pitfalls_follow_the_option() {
    let ri = get(&Facts { option: Some(OptionKind::Reserved), ..base() }, "pit-long-contract");
    assert!(ri.risk && all(&ri).contains("Reserved"), "{}", all(&ri));
    assert!(find(&Facts { option: Some(OptionKind::SavingsPlan), ..base() }, "pit-long-contract").is_some());
    assert!(find(&base(), "pit-long-contract").is_none());
    let spot =
        train(Facts { option: Some(OptionKind::Spot), checkpoint_bytes: Some(96_000_000_000), ..base() });
    let s = get(&spot, "pit-spot-checkpoints");
    assert!(s.risk && all(&s).contains("every 5-10 minutes (about 96 GB each"), "{}", all(&s));
    assert!(!all(&s).contains("reconsider spot"), "96 GB copies out in 2 minutes");
    // 1.12 TB at 1.25 GB/s = 15 minutes, longer than the 10-minute interval.
    let huge = Facts { checkpoint_bytes: Some(1_120_000_000_000), ..spot };
    assert!(all(&get(&huge, "pit-spot-checkpoints")).contains("about 15 minutes, longer than the interval"));
    assert!(find(&base(), "pit-spot-checkpoints").is_none());
    assert!(find(&base(), "pit-cost-alarm").is_some());
    assert!(find(&Facts { option: Some(OptionKind::Monthly), ..base() }, "pit-cost-alarm").is_none());
    assert!(find(&Facts { rented: false, ..base() }, "pit-cost-alarm").is_none());
    assert!(find(&Facts { rented: false, ..base() }, "pit-price-only").is_none());
}

#[test]
fn split_pitfalls_need_a_split() {
    assert!(find(&base(), "pit-vram-sum").is_none());
    assert!(find(&on(base(), "h100-sxm", 4), "pit-vram-sum").is_none(), "independent replicas");
    let s = get(&tp(on(base(), "h100-sxm", 4), 4), "pit-vram-sum");
    assert!(all(&s).contains("4 × 80 GB = 320 GB is not one pool"), "{}", all(&s));
    assert!(find(&base(), "pit-low-util").is_none());
    assert!(find(&on(base(), "h100-sxm", 4), "pit-low-util").is_some());
}

#[test]
fn stack_port_pitfall_only_off_cuda() {
    assert!(get(&on(base(), "mi300x", 1), "pit-stack-port").risk);
    assert!(find(&base(), "pit-stack-port").is_none());
}

#[test]
fn ticks_check_items_by_id() {
    let c = build(&base(), Lang::Zh, &["memory".into(), "acc-list".into(), "nope".into()]).expect("valid");
    let ticked: Vec<_> =
        c.sections.iter().flat_map(|s| &s.items).filter(|i| i.ticked).map(|i| i.id).collect();
    assert_eq!(ticked, ["memory", "acc-list"]);
}

#[test]
fn ids_are_unique_and_link_safe() {
    let ids: Vec<_> = ids().collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate ids");
    for id in ids {
        assert!(
            !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}"
        );
    }
}

#[test]
fn invalid_facts_name_their_field() {
    let errs = build(&Facts { headroom_pct: f64::NAN, ..base() }, Lang::En, &[]).expect_err("invalid");
    assert_eq!(errs.first().map(|e| e.field.as_str()), Some("hardware.headroom_pct"));
    let errs = build(&Facts { gpu_count: 0, ..base() }, Lang::En, &[]).expect_err("invalid");
    assert_eq!(errs.first().map(|e| e.field.as_str()), Some("parallel.gpus"));
}

#[test]
fn no_gpu_chosen_still_gives_a_whole_checklist() {
    let c = list(&Facts { gpu: None, ..base() });
    assert_eq!(c.sections.len(), 4);
    assert!(c.sections.iter().all(|s| !s.items.is_empty()));
}

fn any_gpu() -> impl Strategy<Value = Option<Gpu>> {
    prop_oneof![
        Just(None),
        prop::sample::select(vec![
            "h100-sxm",
            "a100-80-sxm",
            "b200",
            "h100-nvl",
            "l40s",
            "v100-sxm2",
            "rtx-4090",
            "rtx-5090",
            "mi300x",
            "ascend-910b"
        ])
        .prop_map(|id| Some(gpu(id))),
    ]
}

proptest! {
    #[test]
    fn every_valid_plan_gives_clean_text_in_both_languages(
        g in any_gpu(),
        count in 1u32..64,
        nodes in 1u32..4,
        tp_deg in 1u32..9,
        training in any::<bool>(),
        rented in any::<bool>(),
        per_gpu in 0u64..400_000_000_000,
        ckpt in prop::option::of(0u64..5_000_000_000_000),
        headroom in 0.0f64..90.0,
        egress in 0.0f64..1.0e6,
        included in prop::option::of(0.0f64..1.0e6),
        option in prop::option::of(prop::sample::select(OptionKind::ALL.to_vec())),
        cuda in prop::option::of((10u32..14, 0u32..10)),
    ) {
        let f = Facts {
            task: if training { Task::Train } else { Task::Infer },
            gpu: g,
            gpu_count: count,
            nodes: nodes.min(count),
            tensor_parallel: tp_deg.min(count),
            rented,
            per_gpu_bytes: per_gpu,
            checkpoint_bytes: ckpt,
            headroom_pct: headroom,
            egress_gb_month: egress,
            egress_included_gb: included,
            option,
            cuda: cuda.map(|(major, minor)| CudaVersion { major, minor }),
            ..base()
        };
        for lang in [Lang::Zh, Lang::En] {
            let c = build(&f, lang, &[]).expect("valid facts");
            for i in c.sections.iter().flat_map(|s| &s.items) {
                let t = all(i);
                prop_assert!(!i.text.is_empty(), "{} empty", i.id);
                let bad = t.split(|c: char| !(c.is_alphanumeric() || c == '?')).any(|w| matches!(w, "NaN" | "inf" | "?"));
                prop_assert!(!bad, "{}: {t}", i.id);
                prop_assert!(!t.contains('\n'), "{}: {t}", i.id);
            }
            prop_assert!(to_markdown(&c).starts_with("# "));
        }
    }
}

#[test]
fn transfer_times_both_ways_and_flagged_when_the_rental_notices() {
    // Seed 004: 140 GB at 10 Gbps is about two minutes.
    let f = Facts { weights_bytes: 140_000_000_000, ..base() };
    let i = get(&f, "transfer");
    assert!(i.text.contains("model weights 140 GB (about 2 min)"), "{}", i.text);
    assert!(i.text.contains("out: nothing large") && !i.risk, "{}", i.text);
    // 10 TB of training data takes over two hours; in a 10-hour run that shows.
    let t = train(Facts {
        dataset_bytes: Some(10_000_000_000_000),
        checkpoint_bytes: Some(112_000_000_000),
        rental_hours: Some(10.0),
        ..f.clone()
    });
    let i = get(&t, "transfer");
    assert!(i.text.contains("dataset 10 TB (about 2.2 h)"), "{}", i.text);
    assert!(i.text.contains("out: a checkpoint 112 GB"), "{}", i.text);
    assert!(i.risk && i.text.contains("% of the 10 h rental"), "{}", i.text);
    let long = get(&Facts { rental_hours: Some(2000.0), ..t.clone() }, "transfer");
    assert!(!long.risk, "{}", long.text);
    let fast = get(&Facts { network_gbps: Some(100.0), ..t }, "transfer");
    assert!(
        fast.text.contains("at 100 Gbps line rate,") && fast.text.contains("(about 13 min)"),
        "{}",
        fast.text
    );
}

#[test]
fn windows_error_43_fires_for_consumer_cards() {
    let i = get(&on(base(), "rtx-4090", 1), "pit-windows-error-43");
    assert!(all(&i).contains("DDU") && all(&i).contains("error 43"), "{}", all(&i));
    assert!(find(&base(), "pit-windows-error-43").is_none(), "a rented H100 runs cloud Linux");
    let own_ws = Facts { rented: false, ..on(base(), "rtx-6000-ada", 1) };
    assert!(find(&own_ws, "pit-windows-error-43").is_some());
}

#[test]
fn long_monthly_terms_point_to_a_ticket_and_volume_prices() {
    let year = Facts { option: Some(OptionKind::Monthly), rental_hours: Some(8760.0), nodes: 2, ..base() };
    let i = get(&year, "pit-long-term-ticket");
    assert!(all(&i).contains("6-12 month term") && all(&i).contains("With 2 servers"), "{}", all(&i));
    let short = Facts { rental_hours: Some(1000.0), ..year.clone() };
    assert!(find(&short, "pit-long-term-ticket").is_none(), "under six months");
    let hourly = Facts { option: Some(OptionKind::OnDemand), ..year };
    assert!(find(&hourly, "pit-long-term-ticket").is_none());
}

#[test]
fn power_checks_carry_a_configurable_tdp_range() {
    let nvl = on(base(), "h100-nvl", 1);
    let ask = get(&nvl, "ask-power");
    assert!(ask.text.contains("configurable from 350 to 400 W"), "{}", ask.text);
    let acc = get(&nvl, "acc-power");
    assert!(all(&acc).contains("within the configurable 350-400 W"), "{}", all(&acc));
    assert!(!all(&get(&base(), "acc-power")).contains("configurable"));
}

#[test]
fn memory_item_sets_the_weights_only_margin_beside_the_headroom() {
    let i = get(&base(), "memory");
    assert!(
        i.text.contains("A common rule of thumb adds 30-50%") && i.text.contains("10% headroom"),
        "{}",
        i.text
    );
}

#[test]
fn rented_plans_are_told_to_book_ahead() {
    let i = get(&base(), "book-ahead");
    assert!(i.text.contains("about 2× the usual,") && i.text.contains("often sold out."));
    assert!(i.risk, "on demand is exposed to peaks and stock-outs");
    let monthly = Facts { option: Some(OptionKind::Monthly), ..base() };
    assert!(!get(&monthly, "book-ahead").risk);
    assert!(find(&Facts { rented: false, ..base() }, "book-ahead").is_none());
}

#[test]
fn small_jobs_are_offered_mig_or_shared_cards() {
    // 30 GB of an 80 GB H100: under half, and the H100 has 7 MIG instances.
    let mig = get(&base(), "gpu-sharing");
    assert!(
        mig.text.contains("up to 7 MIG instances")
            && mig.text.contains("run several small jobs on one card."),
        "{}",
        mig.text
    );
    let geforce = get(&on(Facts { per_gpu_bytes: 8_000_000_000, ..base() }, "rtx-4090", 1), "gpu-sharing");
    assert!(geforce.text.contains("has no MIG") && geforce.text.contains("memory cap"), "{}", geforce.text);
    assert!(find(&on(base(), "rtx-4090", 1), "gpu-sharing").is_none(), "30 GB is over half of 24 GB");
    assert!(find(&on(base(), "h100-sxm", 2), "gpu-sharing").is_none(), "a multi-GPU job is not small");
}

#[test]
fn four_bit_weights_carry_the_evaluation_caveat() {
    let int4 = Facts { weights: WeightFormat::GptqInt4, ..base() };
    let i = get(&int4, "pit-4bit-quality");
    assert!(
        i.text.contains("Test on your own evaluation set")
            && i.text.contains("lose accuracy on complex tasks"),
        "{}",
        i.text
    );
    assert!(get(&train(Facts { method: Method::Qlora, ..base() }), "pit-4bit-quality")
        .text
        .contains("QLoRA"));
    assert!(find(&Facts { weights: WeightFormat::Int8, ..base() }, "pit-4bit-quality").is_none());
    assert!(find(&train(Facts { method: Method::Lora, ..base() }), "pit-4bit-quality").is_none());
}

#[test]
fn talking_gpus_count_communication_buffers() {
    let i = get(&tp(on(base(), "h100-sxm", 4), 4), "pit-comm-buffers");
    assert!(
        i.text.contains("NCCL_BUFFSIZE (default 4 MiB") && i.text.contains("reduce_bucket_size"),
        "{}",
        i.text
    );
    let zero = train(Facts { shard: Shard::Zero2, ..on(base(), "h100-sxm", 2) });
    assert!(find(&zero, "pit-comm-buffers").is_some());
    assert!(find(&on(base(), "h100-sxm", 4), "pit-comm-buffers").is_none(), "independent replicas");
    assert!(find(&base(), "pit-comm-buffers").is_none());
}

/// The acceptance guide's benchmark step for a plan, as the report builds it.
fn bench_step(plan: &crate::plan::Plan) -> Item {
    let r = crate::report::evaluate(plan, Lang::En).expect("a valid plan");
    let items = r.checklist.sections.into_iter().flat_map(|s| s.items);
    items.into_iter().find(|i| i.id == "acc-bench").expect("a benchmark step")
}

#[test]
fn a_vllm_plan_gets_its_benchmark_command_and_expected_figures() {
    let mut plan = crate::plan::Plan::default();
    plan.inference.concurrency = 32;
    let i = bench_step(&plan);
    let cmd = i.command.clone().unwrap_or_default();
    assert!(
        cmd.starts_with("vllm bench serve --model meta-llama/Llama-3.1-8B --dataset-name random"),
        "{cmd}"
    );
    assert!(
        cmd.contains("--random-input-len 1024 --random-output-len 256") && cmd.contains("--save-result"),
        "{cmd}"
    );
    assert!(cmd.contains("--max-concurrency 32"), "{cmd}");
    assert!(
        i.text.contains("vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 1 --max-model-len 8192"),
        "{}",
        i.text
    );
    let e = i.expect.unwrap_or_default();
    for label in ["Output token throughput (tok/s)", "Median TTFT (ms)", "Median TPOT (ms)", "–"] {
        assert!(e.contains(label), "{label}: {e}");
    }
}

#[test]
fn a_llama_cpp_plan_gets_llama_bench_at_its_lengths() {
    let mut plan = crate::plan::Plan::default();
    plan.inference.engine = crate::plan::Engine::LlamaCpp;
    plan.inference.weights = WeightFormat::GgufQ4KM;
    plan.hardware.gpu = "rtx-4090".into();
    let i = bench_step(&plan);
    assert_eq!(i.command.as_deref(), Some("llama-bench -m model.gguf -p 1024 -n 256 -ngl 99 -o md"));
    let e = i.expect.unwrap_or_default();
    assert!(e.contains("tg256") && e.contains("tok/s"), "{e}");
}

#[test]
fn a_lora_plan_gets_a_short_run_with_speed_and_memory() {
    let mut plan = crate::plan::Plan { task: Task::Train, ..crate::plan::Plan::default() };
    plan.training.method = Method::Lora;
    let i = bench_step(&plan);
    let cmd = i.command.clone().unwrap_or_default();
    assert!(
        cmd.starts_with("tune run lora_finetune_single_device") && cmd.contains("log_peak_memory_stats=True"),
        "{cmd}"
    );
    let e = i.expect.unwrap_or_default();
    for label in [
        "tokens_per_second_per_gpu",
        "train_samples_per_second",
        "peak_memory_reserved",
        "max_memory_reserved",
        "memory.used",
    ] {
        assert!(e.contains(label), "{label}: {e}");
    }
}
