//! The acceptance step that checks the plan itself: the engine's own
//! benchmark (or a short training run) at the plan's settings, with the
//! figures the plan expects and the output line that carries each. Pasting
//! the output back into gpuplan sets it beside the plan (`crate::readback`).

use super::text::{bi, Bi, Para};
use super::{Facts, Fill};
use crate::hardware::Stack;
use crate::plan::{Engine, Method, Task};
use crate::present::amount as num;
use crate::serving::{Estimate, Expected};

const GIB: f64 = 1_073_741_824.0;

pub(super) fn bench(f: &Facts) -> Option<Fill> {
    match f.task {
        Task::Infer => serving(f),
        Task::Train => training(f),
    }
}

/// "about 2,400 (1,920–2,880)".
fn about(e: &Estimate) -> String {
    format!("{} ({}–{})", num(e.value), num(e.low), num(e.high))
}

fn repo(f: &Facts) -> String {
    f.model_repo.clone().unwrap_or_else(|| "MODEL".to_string())
}

/// Requests in flight during the benchmark: the load the expected figures describe.
fn concurrency(e: Option<&Expected>, f: &Facts) -> u64 {
    e.map_or(f.concurrency, |e| e.concurrency.ceil() as u64).max(1)
}

fn serving(f: &Facts) -> Option<Fill> {
    let e = f.serving_expected.as_ref();
    let c = concurrency(e, f);
    let (p, o, ctx, tp, m) = (f.prompt_tokens, f.output_tokens, f.context, f.tensor_parallel, repo(f));
    let prompts = c.saturating_mul(8).clamp(32, 2000);
    // The engine's server, started first (it runs in the foreground), where the benchmark needs one.
    let (server, command) = match f.engine {
        Engine::Vllm => (
            Some(format!("vllm serve {m} --tensor-parallel-size {tp} --max-model-len {ctx} --max-num-seqs {c}")),
            format!("vllm bench serve --model {m} --dataset-name random --random-input-len {p} --random-output-len {o} --ignore-eos --max-concurrency {c} --num-prompts {prompts} --save-result"),
        ),
        Engine::Sglang => (
            Some(format!("python -m sglang.launch_server --model-path {m} --tp {tp} --context-length {ctx}")),
            format!("python -m sglang.bench_serving --backend sglang --dataset-name random --random-input-len {p} --random-output-len {o} --random-range-ratio 1 --max-concurrency {c} --num-prompts {prompts} --output-file bench.jsonl"),
        ),
        Engine::Trtllm => (
            None,
            format!("python benchmarks/cpp/prepare_dataset.py --stdout --tokenizer {m} token-norm-dist --input-mean {p} --output-mean {o} --input-stdev 0 --output-stdev 0 --num-requests {prompts} > dataset.txt && trtllm-bench --model {m} throughput --dataset dataset.txt --tp {tp} --concurrency {c} --streaming"),
        ),
        Engine::LlamaCpp => (None, format!("llama-bench -m model.gguf -p {p} -n {o} -ngl 99 -o md")),
        // No benchmark of its own: the representative job covers it.
        Engine::Transformers => return None,
    };
    let mut text = Para::from(bi!(
        format!("性能基准：用方案的设置（{p} 个提示 token、{o} 个输出 token、{c} 个并发请求）跑推理引擎自带的基准测试，对照方案的预期。"),
        format!("Benchmark: run the engine's own benchmark at the plan's settings ({p} prompt tokens, {o} output tokens, {c} requests at once) and compare with what the plan expects."),
    ));
    if let Some(server) = server {
        text.push(bi!(
            format!("先按方案的设置启动服务：{server}，再运行下面的命令。"),
            format!("Start the server at the plan's settings first: {server}, then run the command below.")
        ));
    }
    let text = text.done();
    let fill = Fill::new(text).command(command);
    Some(match e {
        Some(e) => fill.expect(serving_expect(f, e, c)),
        None => fill,
    })
}

fn serving_expect(f: &Facts, e: &Expected, c: u64) -> Bi {
    let o = f.output_tokens as f64;
    let r = &e.requests_per_s;
    let out = Estimate { value: r.value * o, low: r.low * o, high: r.high * o, ..r.clone() };
    let mut p = match f.engine {
        Engine::LlamaCpp => Para::from(bi!(
            format!("读 tg{} 那一行的 t/s：预计单个序列约 {} token/s；pp{} 那一行是处理提示的速度。", f.output_tokens, about(&e.decode_tps_per_sequence), f.prompt_tokens),
            format!("Read t/s on the tg{} row: one sequence at about {} tok/s expected; the pp{} row is the prompt speed.", f.output_tokens, about(&e.decode_tps_per_sequence), f.prompt_tokens),
        )),
        Engine::Trtllm => Para::from(bi!(
            format!("读 Total Output Throughput (tokens/sec)：本副本在 {c} 个并发下预计约 {} token/s；TTFT 约 {} ms，TPOT 约 {} ms。", about(&out), about(&e.ttft_ms), about(&e.tpot_ms)),
            format!("Read Total Output Throughput (tokens/sec): about {} tok/s expected for this replica at {c} requests at once; TTFT about {} ms, TPOT about {} ms.", about(&out), about(&e.ttft_ms), about(&e.tpot_ms)),
        )),
        _ => Para::from(bi!(
            format!("读 Output token throughput (tok/s)：本副本在 {c} 个并发下预计约 {} token/s；Median TTFT (ms) 约 {}；Median TPOT (ms) 约 {}。", about(&out), about(&e.ttft_ms), about(&e.tpot_ms)),
            format!("Read Output token throughput (tok/s): about {} tok/s expected for this replica at {c} requests at once; Median TTFT (ms) about {}; Median TPOT (ms) about {}.", about(&out), about(&e.ttft_ms), about(&e.tpot_ms)),
        )),
    };
    p.push(bi!(
        "括号里是预期范围。把输出（汇总或保存的 JSON）粘贴回 gpuplan（命令行：--measured 文件），即可并排对照，并按实测结果重新规划 GPU 数量和费用。",
        "The range is in brackets. Paste the output (the summary or the saved JSON) back into gpuplan (CLI: --measured FILE) to see it side by side and plan the GPUs and the bill again from it.",
    ));
    p.done()
}

fn training(f: &Facts) -> Option<Fill> {
    if f.stack() != Stack::Cuda {
        return None;
    }
    let kind = if f.method == Method::Full { "full" } else { "lora" };
    let n = f.gpu_count;
    let recipe = if n > 1 {
        format!("--nproc_per_node {} {kind}_finetune_distributed", f.gpus_per_node())
    } else {
        format!("{kind}_finetune_single_device")
    };
    let command = format!(
        "tune run {recipe} --config CONFIG batch_size={} tokenizer.max_seq_len={} gradient_accumulation_steps={} max_steps_per_epoch=20 log_peak_memory_stats=True",
        f.batch, f.seq, f.grad_accum
    );
    let text = bi!(
        format!("性能基准：按方案的配置（每卡微批 {}、序列 {} token）短跑 20 步，对照方案的预期速度和显存。", f.batch, f.seq),
        format!("Benchmark: a short run of 20 steps at the plan's configuration (micro-batch {} per GPU, {} tokens a sequence), compared with the speed and memory the plan expects.", f.batch, f.seq),
    );
    let mut p = Para::default();
    if let Some(v) = f.train_tok_s_per_gpu {
        let (lo, hi) = (v * (1.0 - crate::training_mfu::SPREAD), v * (1.0 + crate::training_mfu::SPREAD));
        let samples = v * f64::from(n) / f.seq.max(1) as f64;
        p.push(bi!(
            format!("torchtune 日志每步的 tokens_per_second_per_gpu：第一步之后预计约 {} ({}–{})；Hugging Face Trainer（--max_steps 20）结束时的 train_samples_per_second 预计约 {}。", num(v), num(lo), num(hi), num(samples)),
            format!("torchtune logs tokens_per_second_per_gpu each step: about {} ({}–{}) expected after the first step; the Hugging Face Trainer (--max_steps 20) ends with train_samples_per_second, about {} expected.", num(v), num(lo), num(hi), num(samples)),
        ));
    }
    if f.per_gpu_bytes > 0 {
        let gib = f.per_gpu_bytes as f64 / GIB;
        let mib = (f.per_gpu_bytes as f64 / 1_048_576.0).round();
        p.push(bi!(
            format!("显存：日志的 peak_memory_alloc 与 peak_memory_reserved（GiB）约 {}；Trainer 脚本结束时打印 torch.cuda.max_memory_reserved() / 2**30，写成 “max_memory_reserved 数值 GiB”；nvidia-smi 的 memory.used 约 {} MiB，再加上 CUDA 上下文的几百 MiB。", num(gib), num(mib)),
            format!("Memory: peak_memory_alloc and peak_memory_reserved (GiB) in the log about {}; with the Trainer, print torch.cuda.max_memory_reserved() / 2**30 at the end as \"max_memory_reserved N GiB\"; nvidia-smi's memory.used about {} MiB plus a few hundred MiB of CUDA context.", num(gib), num(mib)),
        ));
    }
    p.push(bi!(
        "把这些日志行粘贴回 gpuplan（命令行：--measured 文件），即可对照并按实测速度重算训练时长和费用。",
        "Paste these log lines back into gpuplan (CLI: --measured FILE) to compare and recompute the run's hours and bill from the measured speed.",
    ));
    Some(Fill::new(text).command(command).expect(p.done()))
}
