//! Command-line flags and the plan they describe. Every subcommand that
//! takes a workload reads it with [`plan`]: a plan file (`--plan FILE`, JSON)
//! as the base, then the flags on top of it.

use gpuplan_core::error::FieldError;
use gpuplan_core::lang::Lang;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::money::Currency;
use gpuplan_core::names;
use gpuplan_core::plan::*;
use serde::{Deserialize, Serialize};

use crate::error::CliError;

/// Flags as given: `--name value`, `--name=value`, or a bare switch.
pub struct Flags {
    items: Vec<(String, Option<String>)>,
    /// The flags read so far that set a plan field, with its path.
    given: Vec<(String, &'static str)>,
}

/// The field flags a command was given, so that validation's messages name them.
pub struct Given(Vec<(String, &'static str)>);

impl Given {
    /// The first error as one line, led by the flag that set its field, if one did.
    pub fn error(&self, errs: &[FieldError], lang: Lang) -> CliError {
        let line = CliError::fields(errs, lang);
        let flag = errs.first().and_then(|e| self.0.iter().rev().find(|(_, path)| *path == e.field));
        match flag {
            Some((flag, _)) => CliError(format!("--{flag}: {}", line.0)),
            None => line,
        }
    }
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
        Ok(Flags { items, given: Vec::new() })
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
        match self.value(name)? {
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| CliError(format!("--{name}: expected {what}, got \"{v}\""))),
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

    /// Fails on any flag nobody read; else the field flags that were given.
    pub fn finish(self) -> Result<Given, CliError> {
        match self.items.first() {
            Some((n, _)) => Err(CliError(format!("unknown flag --{n} (see gpuplan help)"))),
            None => Ok(Given(self.given)),
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

/// The serde name of the value `given` names, loosely matched; else the accepted names.
fn named<T>(given: &str, all: &[T]) -> Result<&'static str, Vec<&'static str>>
where
    T: Serialize + for<'de> Deserialize<'de> + Copy,
{
    let exact = names::parse::<T>(given).and_then(|v| names::variant(&v));
    let want = squash(given);
    let loose = || all.iter().filter_map(names::variant).find(|n| squash(n) == want);
    exact.or_else(loose).ok_or_else(|| all.iter().filter_map(names::variant).collect())
}

pub const WEIGHT_FORMATS: [WeightFormat; 20] = WeightFormat::ALL;

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
const CURRENCIES: [Currency; 2] = [Currency::Usd, Currency::Cny];

/// How a flag's text is checked before its field reads it; the field's own
/// reading (the share link's) decides the rest, and validation the range.
#[derive(Clone, Copy)]
enum Kind {
    Whole,
    Number,
    /// A number above 0: in a plan 0 means "none", on the command line it is a mistake.
    Positive,
    /// An enum value, loosely named ("adamw-8bit"); the error lists the names.
    Name(fn(&str) -> Result<&'static str, Vec<&'static str>>),
    /// A CUDA version ("12.8").
    Version,
    /// An id that validation checks against the catalog.
    Id,
}

/// Which command reads a flag: every one that takes a plan, or those that
/// also take the fit's, a quote's or the checklist's flags.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum By {
    Plan,
    Fit,
    Quote,
    Checklist,
}

/// The flags that set one plan field each, by the field's plan path, in the
/// order they apply. The flag's text is written through the plan's field
/// table, as a share link's value is.
const FIELD_FLAGS: &[(&str, &str, Kind, By)] = &[
    ("task", "task", Kind::Name(|v| named(v, &TASKS)), By::Plan),
    ("layers", "model.arch.layers", Kind::Whole, By::Plan),
    ("hidden", "model.arch.hidden", Kind::Whole, By::Plan),
    ("heads", "model.arch.heads", Kind::Whole, By::Plan),
    ("kv-heads", "model.arch.kv_heads", Kind::Whole, By::Plan),
    ("head-dim", "model.arch.head_dim", Kind::Whole, By::Plan),
    ("intermediate", "model.arch.intermediate", Kind::Whole, By::Plan),
    ("vocab", "model.arch.vocab", Kind::Whole, By::Plan),
    ("experts", "model.arch.experts", Kind::Whole, By::Plan),
    ("experts-active", "model.arch.experts_active", Kind::Whole, By::Plan),
    ("activation-gb", "model.generic.activation_gb", Kind::Number, By::Plan),
    ("context", "inference.context", Kind::Whole, By::Plan),
    ("concurrency", "inference.concurrency", Kind::Whole, By::Plan),
    ("kv-dtype", "inference.kv_dtype", Kind::Name(|v| named(v, &KV_DTYPES)), By::Plan),
    ("engine", "inference.engine", Kind::Name(|v| named(v, &ENGINES)), By::Plan),
    ("gpu-mem-util", "inference.gpu_mem_util", Kind::Number, By::Plan),
    ("prompt-tokens", "inference.prompt_tokens", Kind::Whole, By::Plan),
    ("output-tokens", "inference.output_tokens", Kind::Whole, By::Plan),
    ("ttft-ms", "inference.ttft_ms", Kind::Number, By::Plan),
    ("tpot-ms", "inference.tpot_ms", Kind::Number, By::Plan),
    ("prefix-hit", "inference.prefix_hit", Kind::Number, By::Plan),
    ("engine-release", "inference.engine_release", Kind::Id, By::Plan),
    ("method", "training.method", Kind::Name(|v| named(v, &METHODS)), By::Plan),
    ("lora-rank", "training.lora_rank", Kind::Whole, By::Plan),
    ("lora-targets", "training.lora_targets", Kind::Name(|v| named(v, &TARGETS)), By::Plan),
    ("precision", "training.precision", Kind::Name(|v| named(v, &PRECISIONS)), By::Plan),
    ("optimizer", "training.optimizer", Kind::Name(|v| named(v, &OPTIMIZERS)), By::Plan),
    ("batch", "training.batch", Kind::Whole, By::Plan),
    ("seq", "training.seq", Kind::Whole, By::Plan),
    ("grad-ckpt", "training.grad_ckpt", Kind::Name(|v| named(v, &CKPTS)), By::Plan),
    ("grad-accum", "training.grad_accum", Kind::Whole, By::Plan),
    ("loss", "training.loss", Kind::Name(|v| named(v, &LOSSES)), By::Plan),
    ("gpus", "parallel.gpus", Kind::Whole, By::Plan),
    ("tp", "parallel.tp", Kind::Whole, By::Plan),
    ("pp", "parallel.pp", Kind::Whole, By::Plan),
    ("shard", "parallel.shard", Kind::Name(|v| named(v, &SHARDS)), By::Plan),
    ("gpu", "hardware.gpu", Kind::Id, By::Plan),
    ("headroom", "hardware.headroom_pct", Kind::Number, By::Fit),
    ("gpus-per-node", "hardware.gpus_per_node", Kind::Whole, By::Fit),
    ("tokens", "training.dataset_tokens", Kind::Number, By::Fit),
    ("epochs", "training.epochs", Kind::Number, By::Fit),
    ("mfu", "training.mfu", Kind::Number, By::Fit),
    ("target-qps", "inference.target_qps", Kind::Positive, By::Fit),
    ("qps", "inference.target_qps", Kind::Positive, By::Fit),
    ("currency", "cost.currency", Kind::Name(|v| named(v, &CURRENCIES)), By::Quote),
    ("fx", "cost.cny_per_usd", Kind::Number, By::Quote),
    ("fx-date", "cost.fx_date", Kind::Id, By::Quote),
    ("cuda", "cuda", Kind::Version, By::Checklist),
];

/// Switches that set a plan field: flag, plan path, the text written.
const SWITCH_FIELDS: [(&str, &str, &str); 5] = [
    ("opt-in-bwd", "training.opt_in_bwd", "1"),
    ("act-offload", "training.act_offload", "1"),
    // The switch from before the loss options: torchtune's chunked loss.
    ("chunked-ce", "training.loss", "chunked"),
    ("no-flash-attn", "training.flash_attn", "0"),
    ("cheapest", "hardware.cheapest", "1"),
];

/// The switches [`plan`] reads; subcommands pass them to [`Flags::parse`].
pub fn plan_switches() -> impl Iterator<Item = &'static str> {
    SWITCH_FIELDS.iter().map(|(flag, _, _)| *flag)
}

/// `--flag`, and the plan path it sets when that differs from the flag.
fn label(flag: &str, path: &str) -> String {
    if flag == path {
        format!("--{flag}")
    } else {
        format!("--{flag} ({path})")
    }
}

/// The flag's text as its field reads it, or the line saying what is wrong.
fn checked(flag: &str, path: &str, kind: Kind, given: &str) -> Result<String, CliError> {
    let expected = |what: &str| CliError(format!("{}: expected {what}, got \"{given}\"", label(flag, path)));
    let text = given.trim();
    match kind {
        Kind::Name(find) => find(text).map(str::to_string).map_err(|accepted| {
            CliError(format!(
                "{}: unknown \"{given}\"; accepted: {}",
                label(flag, path),
                accepted.join(", ").to_lowercase()
            ))
        }),
        Kind::Positive => match text.parse::<f64>() {
            Ok(v) if v > 0.0 => Ok(text.to_string()),
            Ok(v) => Err(CliError(format!("{}: must be greater than 0, got {v}", label(flag, path)))),
            Err(_) => Err(expected("a number")),
        },
        Kind::Version if CudaVersion::parse(text).is_none() => Err(expected("a version such as 12.8")),
        Kind::Whole | Kind::Number | Kind::Version | Kind::Id => Ok(text.to_string()),
    }
}

/// Sets the field at `path` from `--flag`'s text, if given, through the
/// plan's field table; the flag is remembered for validation's messages.
fn write_flag(
    flags: &mut Flags,
    plan: &mut Plan,
    flag: &str,
    path: &'static str,
    kind: Kind,
) -> Result<(), CliError> {
    let Some(given) = flags.value(flag)? else { return Ok(()) };
    let text = checked(flag, path, kind, &given)?;
    if !write_text(plan, path, &text) {
        let what = if matches!(kind, Kind::Whole) { "a whole number" } else { "a number" };
        return Err(CliError(format!("{}: expected {what}, got \"{given}\"", label(flag, path))));
    }
    flags.given.push((flag.to_string(), path));
    Ok(())
}

/// Writes a field's text through the plan's table; false when it is not read.
fn write_text(plan: &mut Plan, path: &str, text: &str) -> bool {
    gpuplan_core::plan::field(path).is_some_and(|f| f.write(plan, text))
}

/// Applies the value flags of `by` whose plan path `pick` accepts.
pub fn write_flags(
    flags: &mut Flags,
    plan: &mut Plan,
    by: By,
    pick: fn(&str) -> bool,
) -> Result<(), CliError> {
    for &(flag, path, kind, _) in FIELD_FLAGS.iter().filter(|(_, p, _, b)| *b == by && pick(p)) {
        write_flag(flags, plan, flag, path, kind)?;
    }
    Ok(())
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
    write_flags(flags, &mut plan, By::Plan, |p| p == "task")?;
    model(flags, &mut plan)?;
    // Training reads the flag as the base model's format (QLoRA's is 4-bit).
    let weights = if plan.task == Task::Train { "training.base_weights" } else { "inference.weights" };
    write_flag(flags, &mut plan, "weights", weights, Kind::Name(|v| named(v, &WEIGHT_FORMATS)))?;
    write_flags(flags, &mut plan, By::Plan, |p| p != "task" && !p.starts_with("model."))?;
    for (flag, path, text) in SWITCH_FIELDS {
        if flags.switch(flag)? {
            write_text(&mut plan, path, text);
        }
    }
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
fn model(flags: &mut Flags, plan: &mut Plan) -> Result<(), CliError> {
    let preset =
        match flags.value("model")? {
            Some(id) => Some(gpuplan_core::model::presets::find(&id).ok_or_else(|| {
                CliError(format!("--model (model.id): unknown \"{id}\"; see gpuplan models"))
            })?),
            None => None,
        };
    if let Some(p) = preset {
        write_text(plan, "model", p.id);
        if plan.task == Task::Infer {
            plan.inference.weights = p.native_weights;
        }
    }
    let imported =
        crate::model_file::read(flags.value("config")?, flags.value("gguf")?, flags.value("safetensors")?)?;
    if let Some(m) = &imported {
        crate::model_file::report(m);
        plan.take_model(m);
    }
    let params = flags.parsed::<f64>("params-b", "a number")?.map(|b| (b * 1e9).to_string());
    let arch = match (&plan.model, preset) {
        (_, Some(p)) => p.arch(),
        (ModelSpec::Custom { arch }, None) => arch.clone(),
        _ => Arch::default(),
    };
    // The shape flags are written into a custom copy, kept only when they change it.
    let mut custom = Plan { model: ModelSpec::Custom { arch: arch.clone() }, ..Plan::default() };
    write_flags(flags, &mut custom, By::Plan, |p| p.starts_with("model.arch."))?;
    let shaped = custom.model != ModelSpec::Custom { arch };
    let mut generic = Plan { model: ModelSpec::Generic { generic: Generic::default() }, ..Plan::default() };
    if let ModelSpec::Generic { .. } = &plan.model {
        generic.model = plan.model.clone();
    }
    write_flags(flags, &mut generic, By::Plan, |p| p.starts_with("model.generic."))?;
    let activation = flags.given.iter().any(|(_, p)| p.starts_with("model.generic."));
    let (chosen, params_path) = if activation || (params.is_some() && !shaped && preset.is_none()) {
        (generic, "model.generic.params")
    } else if shaped || params.is_some() {
        (custom, "model.arch.params")
    } else {
        return Ok(());
    };
    plan.model = chosen.model;
    if let Some(text) = params {
        if !write_text(plan, params_path, &text) {
            return Err(CliError(format!("--params-b ({params_path}): expected a number, got {text}")));
        }
        flags.given.push(("params-b".into(), params_path));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Flags {
        let argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Flags::parse(&argv, &plan_switches().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn names_accept_dashes_and_case() {
        assert_eq!(named("adamw-8bit", &OPTIMIZERS), Ok("adamw8bit"));
        assert_eq!(named("paged-adamw-8bit", &OPTIMIZERS), Ok("paged_adamw8bit"));
        assert_eq!(named("pure-bf16", &PRECISIONS), Ok("pure_bf16"));
        assert_eq!(
            names::parse(named("GGUF-Q4_K_M", &WEIGHT_FORMATS).unwrap()),
            Some(WeightFormat::GgufQ4KM)
        );
        assert_eq!(named("llama.cpp", &ENGINES), Ok("llama_cpp"));
        let kind = Kind::Name(|v| named(v, &SHARDS));
        let err = checked("shard", "parallel.shard", kind, "zero9").unwrap_err();
        assert_eq!(
            err.0,
            "--shard (parallel.shard): unknown \"zero9\"; accepted: none, zero1, zero2, zero3, fsdp"
        );
    }

    /// Each flag names a field of the plan's table, once.
    #[test]
    fn every_field_flag_names_a_plan_field() {
        let switches = SWITCH_FIELDS.iter().map(|(f, p, _)| (*f, *p));
        let all: Vec<(&str, &str)> =
            FIELD_FLAGS.iter().map(|(f, p, _, _)| (*f, *p)).chain(switches).collect();
        for (flag, path) in &all {
            assert!(gpuplan_core::plan::field(path).is_some(), "--{flag}: {path}");
            assert_eq!(all.iter().filter(|(f, _)| f == flag).count(), 1, "--{flag}");
        }
    }

    #[test]
    fn validation_errors_name_the_flag_that_set_the_field() {
        let mut f = flags(&["--context", "0"]);
        let plan = plan(&mut f).unwrap();
        let given = f.finish().unwrap();
        let err = given.error(&plan.validate(), Lang::En);
        assert!(err.0.starts_with("--context: inference.context: must be between 1 and"), "{}", err.0);
        let from_file = Given(Vec::new()).error(&plan.validate(), Lang::En);
        assert!(from_file.0.starts_with("inference.context: must be"), "{}", from_file.0);
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
        assert_eq!(f.finish().err().unwrap().0, "unknown flag --bogus (see gpuplan help)");
        let argv = vec!["--seq".to_string()];
        assert!(Flags::parse(&argv, &plan_switches().collect::<Vec<_>>()).is_err());
    }
}
