//! `gpuplan`: the core on the command line. A small dispatch over
//! subcommands; each lives in its own module and reads its flags through
//! `args`, which turns flags and plan files into a `Plan`.

mod args;
mod budget;
mod checklist;
mod cost;
mod error;
mod estimate;
mod fit;
mod gpus;
mod market;
mod measured;
mod model_file;
mod models;
mod out;
mod share;

use std::process::ExitCode;

use error::CliError;

const HELP: &str = "\
gpuplan: GPU memory, hardware fit and rental cost for a model workload

usage: gpuplan <command> [flags]

commands:
  estimate   peak memory per GPU, by component, with derivations
  fit        every catalog GPU: count needed, per-GPU use, headroom, flags, speed
  gpus       the GPU catalog with sources
  cost       every purchase option's whole bill, cheapest first
  share      the share link for the plan (--base URL to prefix it); --format iframe|wiki|markdown
             prints the page's copy-paste snippets (Markdown: memory, hardware, cost, checklist)
  checklist  pre-order checklist and acceptance guide for the plan, as Markdown
  budget     a project's budget by month: --plan FILE (workloads, or one plan), --url LINK
             or --example ID; --format text|json|markdown|link (link: the project's share link)
  models     the preset models
  help       this text

workload flags (estimate):
  --plan FILE            a plan as JSON, - for stdin (flags below override it)
  --url LINK             a share link as the base plan
  --task infer|train
  --model ID             a preset (gpuplan models); its checkpoint format is the default
  --params-b --layers --hidden --heads --kv-heads --head-dim --intermediate --vocab
  --experts --experts-active
                         a custom shape (starting from --model, or Llama 3.1 8B's);
                         --params-b alone, or --activation-gb GB, describes a generic model
  --config FILE          a Hugging Face config.json (- for stdin): the exact shape
  --gguf FILE            a .gguf file: shape and exact bytes from its header only
  --safetensors FILE     a .safetensors file (header only) or model.safetensors.index.json;
                         with --config, the shape comes from the config, the bytes from the file
  --weights FORMAT       fp32 bf16 fp8 int8 nf4 gptq_int4 gptq_int8 mxfp4 nvfp4 gguf_q4_k_m ...
                         (training: the frozen base of LoRA / QLoRA)
  --context N --concurrency N --kv-dtype bf16|fp8|int8|int4|fp32
  --engine vllm|sglang|trtllm|llama_cpp|transformers --gpu-mem-util X
  --engine-release R     the engine release the serving factors are for (default current; an
                         older one the measured kernel tables hold, such as 0.5.6.post2; for
                         llama_cpp, pre-2024-06: builds before the MMQ rework)
  --prompt-tokens N --output-tokens N --prefix-hit X (0-0.99, prompt share the prefix cache holds)
  --ttft-ms MS --tpot-ms MS (median serving targets)
  --qps X                serving target: memory counts the sequences in flight it implies
  --method full|lora|qlora --lora-rank N --lora-targets qv|attention|all_linear
  --precision mixed|pure-bf16|fp32
  --optimizer adamw|adamw-8bit|paged-adamw-8bit|sgd|adafactor|lion --opt-in-bwd
  --batch N --seq N --grad-ckpt none|selective|full --grad-accum N --act-offload --no-flash-attn
  --loss hf_trainer|chunked|fused (--chunked-ce = --loss chunked)
  --gpus N --shard none|zero1|zero2|zero3|fsdp --tp N --pp N
  --gpu ID --gpu-mem-gb GB (a card's memory, for vLLM's reserved pool)
  --cheapest             the cheapest option that meets the plan picks the GPU (cost, checklist)
fit flags (with the workload flags):
  --headroom PCT         memory kept free per GPU (default 10: the estimate counts KV cache,
                         activations and runtime; the common 30-50 % rule is over weights alone)
  --gpus-per-node N --custom-gpu FILE (a GPU as JSON, see gpus --format json)
  --tokens N --epochs X (training time) --mfu X (default: measured, by GPU class and method)
  --qps X (alias --target-qps) serving target: GPUs per type from the TTFT/TPOT targets
  --measured-tok-s GPU_ID=X (repeatable) your own single-GPU output token/s: replaces the model
  --own-hardware         the machines are your own (no GeForce rental/hosting licence flag)
offer flags (cost, checklist):
  --offers FILE          a price sheet: SkyPilot catalog CSV or gpuplan offers JSON (repeatable);
                         with it only the sheets are priced, --market adds the shipped market
  --hourly X --monthly X --spot X [--instance-gpus N]
                         a quick quote on the plan's GPU (--gpu), in --currency
  --currency usd|cny     the bill's currency (and a quote's); --fx X sets CNY per USD,
                         --fx-date D the day of that rate (shown with the bill)
  --no-market            the built-in examples only, without the shipped market
  --provider P --region R --price-currency usd|cny --offer-gpu ID --buy od|spot|commit
                         market filters (repeatable or comma-separated)
  --today YYYY-MM-DD     date prices are aged against (default: the system date);
                         prices six months old or more are marked stale
  --top N                options shown in text (default 20 with the shipped market
                         or a sheet of more than 100 options)
  --export-offers FILE   write the offers (after the filters) and line items as gpuplan offers JSON
                         instead of pricing them
measured flags (estimate, cost, checklist):
  --measured FILE        what the acceptance guide's benchmark printed (- for stdin): vllm bench
                         serve's summary or saved JSON, sglang.bench_serving's summary,
                         llama-bench's Markdown, CSV or JSON, or torchtune / Trainer log lines;
                         shown beside the plan's expected figures, and the plan is made again from it
checklist flags (with the workload and fit flags):
  --cuda VERSION         the CUDA your software is built for, e.g. 12.8 (fills the driver floor)
  --tick ID,ID           items to check, on top of the plan's or link's ticks
output:
  --format text|json     --lang zh|en
Invalid input exits with status 2 and one line naming the field.
";

fn run(argv: &[String]) -> Result<(), CliError> {
    let (cmd, rest) = match argv.split_first() {
        Some((cmd, rest)) => (cmd.as_str(), rest),
        None => ("help", argv),
    };
    match cmd {
        "estimate" => estimate::run(rest),
        "fit" => fit::run(rest),
        "gpus" => gpus::run(rest),
        "models" => models::run(rest),
        "cost" => cost::run(rest),
        "share" => share::run(rest),
        "checklist" => checklist::run(rest),
        "budget" => budget::run(rest),
        "help" | "--help" | "-h" => {
            out::print(HELP);
            Ok(())
        }
        other => Err(CliError(format!("unknown command \"{other}\" (see gpuplan help)"))),
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(line)) => {
            eprintln!("error: {line}");
            ExitCode::from(2)
        }
    }
}
