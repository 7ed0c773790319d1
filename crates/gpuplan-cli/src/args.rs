//! Command-line flags and the plan they describe. Every subcommand that
//! takes a workload reads it with [`plan`]: a plan file (`--plan FILE`, JSON)
//! as the base, then the flags on top of it.

use gpuplan_core::error::FieldError;
use gpuplan_core::lang::Lang;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::names;
use gpuplan_core::plan::*;
use serde::{Deserialize, Serialize};

/// A usage error: one line for stderr; the process exits with status 2.
#[derive(Debug, PartialEq)]
pub struct CliError(pub String);

impl CliError {
    pub fn fields(errs: &[FieldError], lang: Lang) -> Self {
        match errs.first() {
            Some(e) => CliError(e.message(lang)),
            None => CliError(String::from("invalid plan")),
        }
    }
}

/// Flags as given: `--name value`, `--name=value`, or a bare switch.
pub struct Flags {
    items: Vec<(String, Option<String>)>,
}

impl Flags {
    /// Parses `argv` (without the program and subcommand); `switches` are
    /// the flags that take no value.
    pub fn parse(argv: &[String], switches: &[&str]) -> Result<Self, CliError> {
        let mut items = Vec::new();
        let mut it = argv.iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(CliError(format!("unexpected argument \"{arg}\" (flags start with --)")));
            };
            if let Some((n, v)) = name.split_once('=') {
                items.push((n.to_string(), Some(v.to_string())));
            } else if switches.contains(&name) {
                items.push((name.to_string(), None));
            } else {
                let value = it.next().ok_or_else(|| CliError(format!("--{name} needs a value")))?;
                items.push((name.to_string(), Some(value.clone())));
            }
        }
        Ok(Flags { items })
    }

    /// Removes and returns the last value of `--name`.
    pub fn value(&mut self, name: &str) -> Result<Option<String>, CliError> {
        let mut found = None;
        let mut i = 0;
        while i < self.items.len() {
            if self.items.get(i).is_some_and(|(n, _)| n == name) {
                let (_, v) = self.items.remove(i);
                found = Some(v.ok_or_else(|| CliError(format!("--{name} needs a value")))?);
            } else {
                i += 1;
            }
        }
        Ok(found)
    }

    /// Removes `--name VALUE` read as a `T` ("a number", "a whole number": `what`).
    pub fn parsed<T: std::str::FromStr>(&mut self, name: &str, what: &str) -> Result<Option<T>, CliError> {
        self.read(name, &format!("--{name}"), what)
    }

    /// The same, the message naming the plan field the flag sets.
    pub fn field<T: std::str::FromStr>(
        &mut self,
        name: &str,
        field: &str,
        what: &str,
    ) -> Result<Option<T>, CliError> {
        self.read(name, &format!("--{name} ({field})"), what)
    }

    fn read<T: std::str::FromStr>(
        &mut self,
        name: &str,
        label: &str,
        what: &str,
    ) -> Result<Option<T>, CliError> {
        match self.value(name)? {
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| CliError(format!("{label}: expected {what}, got \"{v}\""))),
            None => Ok(None),
        }
    }

    /// Removes every `--name VALUE` (a repeatable flag), values in order.
    pub fn values(&mut self, name: &str) -> Result<Vec<String>, CliError> {
        let mut out = Vec::new();
        while let Some(v) = self.value_once(name)? {
            out.push(v);
        }
        Ok(out)
    }

    /// Removes the first `--name VALUE`.
    fn value_once(&mut self, name: &str) -> Result<Option<String>, CliError> {
        let Some(i) = self.items.iter().position(|(n, _)| n == name) else { return Ok(None) };
        let (_, v) = self.items.remove(i);
        v.map(Some).ok_or_else(|| CliError(format!("--{name} needs a value")))
    }

    /// Removes `--name` and says whether it was there.
    pub fn switch(&mut self, name: &str) -> Result<bool, CliError> {
        let before = self.items.len();
        let mut bad = None;
        self.items.retain(|(n, v)| {
            if n == name && v.is_some() {
                bad = Some(n.clone());
            }
            n != name
        });
        match bad {
            Some(n) => Err(CliError(format!("--{n} takes no value"))),
            None => Ok(self.items.len() < before),
        }
    }

    /// Fails on any flag nobody read.
    pub fn finish(self) -> Result<(), CliError> {
        match self.items.first() {
            Some((n, _)) => Err(CliError(format!("unknown flag --{n} (see gpuplan help)"))),
            None => Ok(()),
        }
    }
}

/// Output format of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

pub fn format(flags: &mut Flags) -> Result<Format, CliError> {
    match flags.value("format")?.as_deref() {
        None | Some("text") => Ok(Format::Text),
        Some("json") => Ok(Format::Json),
        Some(other) => Err(CliError(format!("--format: unknown \"{other}\"; accepted: text, json"))),
    }
}

/// Message language: `--lang zh|en`, else from $LANG.
pub fn lang(flags: &mut Flags) -> Result<Lang, CliError> {
    match flags.value("lang")? {
        Some(tag) if tag.starts_with("zh") || tag.starts_with("en") => Ok(Lang::from_tag(&tag)),
        Some(other) => Err(CliError(format!("--lang: unknown \"{other}\"; accepted: zh, en"))),
        None => Ok(env_lang()),
    }
}

/// The environment's language ($LANG), for words the user did not ask a language for.
pub fn env_lang() -> Lang {
    Lang::from_tag(&std::env::var("LANG").unwrap_or_default())
}

/// Names compared without case, '-', '_' or '.': "adamw-8bit" = "adamw8bit".
fn squash(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, '-' | '_' | '.')).flat_map(char::to_lowercase).collect()
}

/// The enum value a flag names, or a line listing the accepted names.
fn choice<T>(flag: &str, field: &str, given: &str, all: &[T]) -> Result<T, CliError>
where
    T: Serialize + for<'de> Deserialize<'de> + Copy,
{
    if let Some(v) = names::parse::<T>(given) {
        return Ok(v);
    }
    let want = squash(given);
    let found = all.iter().find(|v| names::variant(*v).is_some_and(|n| squash(n) == want));
    found.copied().ok_or_else(|| {
        let accepted: Vec<&str> = all.iter().filter_map(names::variant).collect();
        CliError(format!("--{flag} ({field}): unknown \"{given}\"; accepted: {}", accepted.join(", ")))
    })
}

pub const WEIGHT_FORMATS: [WeightFormat; 19] = WeightFormat::ALL;

const TASKS: [Task; 2] = [Task::Infer, Task::Train];
const METHODS: [Method; 3] = [Method::Full, Method::Lora, Method::Qlora];
const TARGETS: [LoraTargets; 3] = [LoraTargets::Qv, LoraTargets::Attention, LoraTargets::AllLinear];
const PRECISIONS: [Precision; 3] = [Precision::Mixed, Precision::PureBf16, Precision::Fp32];
const OPTIMIZERS: [Optimizer; 6] = [
    Optimizer::Adamw,
    Optimizer::Adamw8bit,
    Optimizer::PagedAdamw8bit,
    Optimizer::Sgd,
    Optimizer::Adafactor,
    Optimizer::Lion,
];
const CKPTS: [GradCkpt; 3] = [GradCkpt::None, GradCkpt::Selective, GradCkpt::Full];
const LOSSES: [Loss; 3] = [Loss::HfTrainer, Loss::Chunked, Loss::Fused];
const SHARDS: [Shard; 5] = [Shard::None, Shard::Zero1, Shard::Zero2, Shard::Zero3, Shard::Fsdp];
const KV_DTYPES: [KvDtype; 5] = [KvDtype::Fp32, KvDtype::Bf16, KvDtype::Fp8, KvDtype::Int8, KvDtype::Int4];
const ENGINES: [Engine; 5] = Engine::ALL;

/// The switches [`plan`] reads; subcommands pass them to [`Flags::parse`].
pub const PLAN_SWITCHES: [&str; 5] = ["opt-in-bwd", "act-offload", "chunked-ce", "no-flash-attn", "cheapest"];

/// Reads the flag, parsed, if given.
struct Reader<'a> {
    flags: &'a mut Flags,
}

impl Reader<'_> {
    fn int<T: std::str::FromStr>(&mut self, flag: &str, field: &str) -> Result<Option<T>, CliError> {
        self.flags.field(flag, field, "a whole number")
    }

    fn real(&mut self, flag: &str, field: &str) -> Result<Option<f64>, CliError> {
        self.flags.field(flag, field, "a number")
    }

    fn pick<T>(&mut self, flag: &str, field: &str, all: &[T]) -> Result<Option<T>, CliError>
    where
        T: Serialize + for<'de> Deserialize<'de> + Copy,
    {
        match self.flags.value(flag)? {
            Some(v) => choice(flag, field, &v, all).map(Some),
            None => Ok(None),
        }
    }
}

fn set<T>(slot: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *slot = v;
    }
}

/// The plan the flags describe: `--plan FILE` (`-` for stdin) or `--url LINK`
/// as the base, flags on top. A link's unreadable parts are named on stderr.
pub fn plan(flags: &mut Flags) -> Result<Plan, CliError> {
    let mut plan = match (flags.value("plan")?, flags.value("url")?) {
        (Some(_), Some(_)) => return Err(CliError("--plan and --url: give one of them".into())),
        (Some(path), None) => read_plan(&path)?,
        (None, Some(url)) => from_link(&url),
        (None, None) => Plan::default(),
    };
    let mut r = Reader { flags };
    set(&mut plan.task, r.pick("task", "task", &TASKS)?);
    model(&mut r, &mut plan)?;
    let weights = r.pick("weights", "inference.weights", &WEIGHT_FORMATS)?;
    match (plan.task, weights) {
        (Task::Train, Some(w)) => plan.training.base_weights = Some(w),
        (Task::Infer, Some(w)) => plan.inference.weights = w,
        (_, None) => {}
    }
    inference(&mut r, &mut plan.inference)?;
    training(&mut r, &mut plan.training)?;
    parallel(&mut r, &mut plan)?;
    Ok(plan)
}

fn from_link(url: &str) -> Plan {
    let link = gpuplan_core::share::decode(url);
    for ignored in &link.ignored {
        eprintln!("notice: link part ignored: {}", ignored.describe(Lang::En));
    }
    link.plan
}

fn read_plan(path: &str) -> Result<Plan, CliError> {
    let text =
        if path == "-" { std::io::read_to_string(std::io::stdin()) } else { std::fs::read_to_string(path) }
            .map_err(|e| CliError(format!("--plan {path}: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CliError(format!("--plan {path}: not a plan: {e}")))?;
    // A project's workloads would be dropped in silence by the plan reader.
    if value.get("workloads").is_some() {
        return Err(CliError(format!(
            "--plan {path}: a project with workloads; gpuplan budget reads it (the other commands take one plan)"
        )));
    }
    serde_json::from_value(value).map_err(|e| CliError(format!("--plan {path}: not a plan: {e}")))
}

/// `--model` names a preset (its checkpoint's format becomes the default
/// for inference); shape flags turn it (or Llama 3.1 8B's shape) into a
/// custom model; `--params-b` alone or `--activation-gb` make a generic one.
fn model(r: &mut Reader, plan: &mut Plan) -> Result<(), CliError> {
    let preset =
        match r.flags.value("model")? {
            Some(id) => Some(gpuplan_core::model::presets::find(&id).ok_or_else(|| {
                CliError(format!("--model (model.id): unknown \"{id}\"; see gpuplan models"))
            })?),
            None => None,
        };
    if let Some(p) = preset {
        plan.model = ModelSpec::Preset { id: p.id.to_string() };
        if plan.task == Task::Infer {
            plan.inference.weights = p.native_weights;
        }
    }
    let imported = crate::model_file::read(
        r.flags.value("config")?,
        r.flags.value("gguf")?,
        r.flags.value("safetensors")?,
    )?;
    if let Some(m) = &imported {
        crate::model_file::report(m);
        plan.model = ModelSpec::Custom { arch: m.arch.clone() };
        if let (Task::Infer, Some(f)) = (plan.task, m.format) {
            plan.inference.weights = f;
        }
    }
    let params = r.real("params-b", "model.arch.params")?.map(|b| b * 1e9);
    let activation_gb = r.real("activation-gb", "model.generic.activation_gb")?;
    let mut arch = match (&plan.model, preset) {
        (_, Some(p)) => p.arch(),
        (ModelSpec::Custom { arch }, None) => arch.clone(),
        _ => Arch::default(),
    };
    let shaped = shape(r, &mut arch)?;
    if activation_gb.is_some() || (params.is_some() && !shaped && preset.is_none()) {
        let mut g = match &plan.model {
            ModelSpec::Generic { generic } => generic.clone(),
            _ => Generic::default(),
        };
        set(&mut g.params, params);
        set(&mut g.activation_gb, activation_gb);
        plan.model = ModelSpec::Generic { generic: g };
    } else if shaped || params.is_some() {
        if params.is_some() {
            arch.params = params;
        }
        plan.model = ModelSpec::Custom { arch };
    }
    Ok(())
}

/// Applies the shape flags; says whether any was given.
fn shape(r: &mut Reader, a: &mut Arch) -> Result<bool, CliError> {
    let before = a.clone();
    let f = "model.arch";
    set(&mut a.layers, r.int("layers", &format!("{f}.layers"))?);
    set(&mut a.hidden, r.int("hidden", &format!("{f}.hidden"))?);
    set(&mut a.heads, r.int("heads", &format!("{f}.heads"))?);
    set(&mut a.kv_heads, r.int("kv-heads", &format!("{f}.kv_heads"))?);
    if let Some(d) = r.int("head-dim", &format!("{f}.head_dim"))? {
        a.head_dim = Some(d);
    }
    set(&mut a.intermediate, r.int("intermediate", &format!("{f}.intermediate"))?);
    set(&mut a.vocab, r.int("vocab", &format!("{f}.vocab"))?);
    set(&mut a.experts, r.int("experts", &format!("{f}.experts"))?);
    set(&mut a.experts_active, r.int("experts-active", &format!("{f}.experts_active"))?);
    Ok(*a != before)
}

fn inference(r: &mut Reader, i: &mut Inference) -> Result<(), CliError> {
    set(&mut i.context, r.int("context", "inference.context")?);
    set(&mut i.concurrency, r.int("concurrency", "inference.concurrency")?);
    set(&mut i.kv_dtype, r.pick("kv-dtype", "inference.kv_dtype", &KV_DTYPES)?);
    set(&mut i.engine, r.pick("engine", "inference.engine", &ENGINES)?);
    set(&mut i.gpu_mem_util, r.real("gpu-mem-util", "inference.gpu_mem_util")?);
    set(&mut i.prompt_tokens, r.int("prompt-tokens", "inference.prompt_tokens")?);
    set(&mut i.output_tokens, r.int("output-tokens", "inference.output_tokens")?);
    set(&mut i.ttft_ms, r.real("ttft-ms", "inference.ttft_ms")?);
    set(&mut i.tpot_ms, r.real("tpot-ms", "inference.tpot_ms")?);
    set(&mut i.prefix_hit, r.real("prefix-hit", "inference.prefix_hit")?);
    Ok(())
}

fn training(r: &mut Reader, t: &mut Training) -> Result<(), CliError> {
    set(&mut t.method, r.pick("method", "training.method", &METHODS)?);
    set(&mut t.lora_rank, r.int("lora-rank", "training.lora_rank")?);
    set(&mut t.lora_targets, r.pick("lora-targets", "training.lora_targets", &TARGETS)?);
    set(&mut t.precision, r.pick("precision", "training.precision", &PRECISIONS)?);
    set(&mut t.optimizer, r.pick("optimizer", "training.optimizer", &OPTIMIZERS)?);
    set(&mut t.batch, r.int("batch", "training.batch")?);
    set(&mut t.seq, r.int("seq", "training.seq")?);
    set(&mut t.grad_ckpt, r.pick("grad-ckpt", "training.grad_ckpt", &CKPTS)?);
    set(&mut t.grad_accum, r.int("grad-accum", "training.grad_accum")?);
    set(&mut t.loss, r.pick("loss", "training.loss", &LOSSES)?);
    t.opt_in_bwd |= r.flags.switch("opt-in-bwd")?;
    t.act_offload |= r.flags.switch("act-offload")?;
    // The switch from before the loss options: torchtune's chunked loss.
    if r.flags.switch("chunked-ce")? {
        t.loss = Loss::Chunked;
    }
    if r.flags.switch("no-flash-attn")? {
        t.flash_attn = false;
    }
    Ok(())
}

fn parallel(r: &mut Reader, plan: &mut Plan) -> Result<(), CliError> {
    let p = &mut plan.parallel;
    set(&mut p.gpus, r.int("gpus", "parallel.gpus")?);
    set(&mut p.tp, r.int("tp", "parallel.tp")?);
    set(&mut p.pp, r.int("pp", "parallel.pp")?);
    set(&mut p.shard, r.pick("shard", "parallel.shard", &SHARDS)?);
    let h = &mut plan.hardware;
    set(&mut h.gpu, r.flags.value("gpu")?);
    h.cheapest |= r.flags.switch("cheapest")?;
    if let Some(gb) = r.real("gpu-mem-gb", "hardware.custom.memory_gb")? {
        let mut gpu = h.custom.clone().unwrap_or_default();
        gpu.memory_gb = gb;
        h.custom = Some(gpu);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Flags {
        let argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Flags::parse(&argv, &PLAN_SWITCHES).unwrap()
    }

    #[test]
    fn names_accept_dashes_and_case() {
        assert_eq!(choice("o", "f", "adamw-8bit", &OPTIMIZERS), Ok(Optimizer::Adamw8bit));
        assert_eq!(choice("o", "f", "paged-adamw-8bit", &OPTIMIZERS), Ok(Optimizer::PagedAdamw8bit));
        assert_eq!(choice("p", "f", "pure-bf16", &PRECISIONS), Ok(Precision::PureBf16));
        assert_eq!(choice("w", "f", "GGUF-Q4_K_M", &WEIGHT_FORMATS), Ok(WeightFormat::GgufQ4KM));
        assert_eq!(choice("e", "f", "llama.cpp", &ENGINES), Ok(Engine::LlamaCpp));
        let err = choice("shard", "parallel.shard", "zero9", &SHARDS).unwrap_err();
        assert_eq!(
            err.0,
            "--shard (parallel.shard): unknown \"zero9\"; accepted: none, zero1, zero2, zero3, fsdp"
        );
    }

    #[test]
    fn every_format_has_a_name() {
        for f in WEIGHT_FORMATS {
            let name = names::variant(&f).unwrap();
            assert_eq!(names::parse::<WeightFormat>(name), Some(f));
        }
    }

    #[test]
    fn flags_build_a_training_plan() {
        let mut f = flags(&[
            "--task",
            "train",
            "--model",
            "qwen3-8b",
            "--method",
            "qlora",
            "--lora-rank=64",
            "--seq",
            "2048",
            "--grad-ckpt",
            "full",
            "--chunked-ce",
            "--gpus",
            "4",
            "--shard",
            "fsdp",
        ]);
        let plan = plan(&mut f).unwrap();
        f.finish().unwrap();
        assert_eq!(plan.task, Task::Train);
        assert_eq!(plan.model, ModelSpec::Preset { id: "qwen3-8b".into() });
        assert_eq!((plan.training.method, plan.training.lora_rank), (Method::Qlora, 64));
        assert!(plan.training.loss == Loss::Chunked && plan.training.flash_attn);
        assert_eq!((plan.parallel.gpus, plan.parallel.shard), (4, Shard::Fsdp));
    }

    #[test]
    fn presets_default_to_their_checkpoint_format() {
        let mut f = flags(&["--model", "gpt-oss-120b"]);
        assert_eq!(plan(&mut f).unwrap().inference.weights, WeightFormat::Mxfp4);
        let mut f = flags(&["--model", "gpt-oss-120b", "--weights", "bf16"]);
        assert_eq!(plan(&mut f).unwrap().inference.weights, WeightFormat::Bf16);
    }

    #[test]
    fn shape_flags_make_custom_and_params_alone_generic() {
        let mut f = flags(&["--model", "llama-3.1-8b", "--kv-heads", "32"]);
        let ModelSpec::Custom { arch } = plan(&mut f).unwrap().model else { panic!("custom") };
        assert_eq!((arch.kv_heads, arch.layers), (32, 32));
        let mut f = flags(&["--params-b", "2.6"]);
        assert!(matches!(plan(&mut f).unwrap().model, ModelSpec::Generic { .. }));
    }

    #[test]
    fn bad_input_names_the_flag() {
        let mut f = flags(&["--context", "-5"]);
        let err = plan(&mut f).err().unwrap();
        assert_eq!(err.0, "--context (inference.context): expected a whole number, got \"-5\"");
        let mut f = flags(&["--bogus", "1"]);
        plan(&mut f).unwrap();
        assert_eq!(f.finish().unwrap_err().0, "unknown flag --bogus (see gpuplan help)");
        let argv = vec!["--seq".to_string()];
        assert!(Flags::parse(&argv, &PLAN_SWITCHES).is_err());
    }
}
