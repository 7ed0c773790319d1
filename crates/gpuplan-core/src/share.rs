//! Share links: a plan as a short, readable, versioned query string.
//!
//! `v=1&t=train&m=llama-3.1-70b&meth=qlora&g=2` — one short key per field,
//! only the fields that differ from the defaults. Decoding never fails: each
//! key is read on its own, and whatever cannot be read (unknown key, bad
//! value, value out of range) is listed in `ignored` while the rest is kept.
//! Version 1 keys are kept forever; a new version adds keys or a migration.

use serde::Serialize;

use crate::cost::{Edit, Item, PriceKey, Upfront};
use crate::lang::Lang;
use crate::model::{Arch, Attention, Generic, Mlp, ModelSpec, Origin, SlidingWindow, Stored};
use crate::money::Currency;
use crate::offers::Offer;

mod offer_link;
mod project_link;
use crate::model::WeightFormat;
use crate::plan::{
    CudaVersion, Engine, GradCkpt, KvDtype, LoraTargets, Loss, Measured, Method, Optimizer, Plan, Precision,
    Shard, Task,
};
pub use project_link::{decode_project, encode_project, ProjectLink};

/// The newest version this build reads: 2 adds workloads ([`project_link`]).
pub const VERSION: u32 = 2;

/// The version a single plan's link is written in: its keys are all of version 1.
pub const PLAN_VERSION: u32 = 1;

/// What a link carries besides the plan: display choices and embed mode.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Link {
    pub plan: Plan,
    pub lang: Option<Lang>,
    /// "gb" or "gib".
    pub unit: Option<String>,
    pub embed: bool,
    /// The origin allowed to post offers to an embedded page (`host=`).
    pub host: Option<String>,
    /// Keys that could not be used, with the reason.
    pub ignored: Vec<Ignored>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ignored {
    pub key: String,
    pub value: String,
    pub reason: Reason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    UnknownKey,
    BadValue,
    OutOfRange,
    NewerVersion,
    NotApplicable,
}

impl Ignored {
    /// "ctx=abc (bad value)" in the user's language, for the page's notice.
    pub fn describe(&self, lang: Lang) -> String {
        let why = match self.reason {
            Reason::UnknownKey => lang.pick("未知参数", "unknown key"),
            Reason::BadValue => lang.pick("无法解析的值", "unreadable value"),
            Reason::OutOfRange => lang.pick("超出允许范围", "out of range"),
            Reason::NewerVersion => lang.pick("来自更新的版本", "from a newer version"),
            Reason::NotApplicable => lang.pick("与所选模型不符", "does not apply to the chosen model"),
        };
        format!("{}={} ({why})", self.key, self.value)
    }
}

/// A plan field: where it sits in the plan, read as a value that writes
/// and reads itself as link text. `get` is None when the field does not
/// apply. The page's inputs column reads and writes fields through this same
/// table ([`field`]). Each field adds only two accessors that return a
/// reference; the text code exists once per type.
pub struct Field {
    key: &'static str,
    /// The plan-path prefix whose validation errors point at this key.
    path: &'static str,
    get: fn(&Plan) -> Option<&dyn Text>,
    get_mut: fn(&mut Plan) -> Option<&mut dyn Text>,
}

impl Field {
    /// The value as the link writes it; None when the field does not apply.
    pub fn text(&self, plan: &Plan) -> Option<String> {
        (self.get)(plan).map(Text::as_text)
    }

    /// Sets the value from text as the link reads it; false (and the plan
    /// unchanged) when the text is unreadable or the field does not apply.
    pub fn write(&self, plan: &mut Plan, text: &str) -> bool {
        (self.get_mut)(plan).and_then(|v| v.read(text)).is_some()
    }
}

/// The field at a dotted plan path ("inference.context").
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path)
}

/// Values that read and write as link text.
trait Param: Sized {
    fn text(&self) -> String;
    fn parse(s: &str) -> Option<Self>;
}

/// A plan value as link text, behind a reference into the plan.
trait Text {
    fn as_text(&self) -> String;
    /// Replaces the value with the text's; None, and no change, when unreadable.
    fn read(&mut self, s: &str) -> Option<()>;
}

impl<T: Param> Text for T {
    fn as_text(&self) -> String {
        Param::text(self)
    }
    fn read(&mut self, s: &str) -> Option<()> {
        *self = T::parse(s)?;
        Some(())
    }
}

/// Whole numbers are read as decimals ("8192", "8192.0", "1e4"), and a
/// value past the type's range saturates, so that validation names the
/// range instead of the text being dropped as unreadable.
macro_rules! param_num {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn text(&self) -> String { self.to_string() }
            fn parse(s: &str) -> Option<Self> {
                s.trim().parse::<f64>().ok().filter(|v| *v >= 0.0 && v.fract() == 0.0).map(|v| v as $t)
            }
        }
    )*};
}
param_num!(u8, u32, u64);

impl Param for f64 {
    fn text(&self) -> String {
        self.to_string()
    }
    fn parse(s: &str) -> Option<Self> {
        s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
    }
}

impl Param for bool {
    fn text(&self) -> String {
        if *self { "1" } else { "0" }.into()
    }
    fn parse(s: &str) -> Option<Self> {
        match s {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        }
    }
}

impl Param for String {
    fn text(&self) -> String {
        self.clone()
    }
    fn parse(s: &str) -> Option<Self> {
        Some(s.to_string())
    }
}

/// Optional values: empty text is None.
impl<T: Param> Param for Option<T> {
    fn text(&self) -> String {
        self.as_ref().map(Param::text).unwrap_or_default()
    }
    fn parse(s: &str) -> Option<Self> {
        if s.is_empty() {
            Some(None)
        } else {
            T::parse(s).map(Some)
        }
    }
}

/// Enums read and write by their serde names ("qlora", "zero3" ...).
macro_rules! param_named {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn text(&self) -> String { crate::names::variant(self).unwrap_or_default().to_string() }
            fn parse(s: &str) -> Option<Self> { crate::names::parse(s) }
        }
    )*};
}
param_named!(
    Task,
    WeightFormat,
    KvDtype,
    Engine,
    Method,
    LoraTargets,
    Precision,
    Optimizer,
    GradCkpt,
    Shard,
    Loss
);
param_named!(Currency, Upfront, PriceKey, Mlp, Origin);

/// A field at a fixed path.
macro_rules! plain {
    ($key:literal, $path:literal, $($f:ident).+) => {
        Field { key: $key, path: $path, get: |p| Some(&p.$($f).+), get_mut: |p| Some(&mut p.$($f).+) }
    };
}

/// A field of the custom architecture (applies only when m=custom).
macro_rules! arch {
    ($key:literal, $f:ident) => {
        Field {
            key: $key,
            path: concat!("model.arch.", stringify!($f)),
            get: |p| p.model.custom().map(|a| &a.$f as &dyn Text),
            get_mut: |p| p.model.custom_mut().map(|a| &mut a.$f as &mut dyn Text),
        }
    };
}

/// A field of the generic (non-transformer) model (applies only when m=generic).
macro_rules! generic {
    ($key:literal, $f:ident) => {
        Field {
            key: $key,
            path: concat!("model.generic.", stringify!($f)),
            get: |p| p.model.generic().map(|g| &g.$f as &dyn Text),
            get_mut: |p| p.model.generic_mut().map(|g| &mut g.$f as &mut dyn Text),
        }
    };
}

/// The model: a preset's id, "custom" or "generic" (each with its default shape).
impl Param for ModelSpec {
    fn text(&self) -> String {
        match self {
            ModelSpec::Preset { id } => id.clone(),
            ModelSpec::Custom { .. } => "custom".into(),
            ModelSpec::Generic { .. } => "generic".into(),
        }
    }
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "custom" => ModelSpec::Custom { arch: Arch::default() },
            "generic" => ModelSpec::Generic { generic: Generic::default() },
            id if crate::model::presets::find(id).is_some() => ModelSpec::Preset { id: id.into() },
            _ => return None,
        })
    }
}

/// MLA as "kv_lora,q_lora,rope,nope,v_head"; standard attention is empty.
impl Param for Attention {
    fn text(&self) -> String {
        match *self {
            Attention::Standard => String::new(),
            Attention::Mla { kv_lora_rank, q_lora_rank, rope_dim, nope_dim, v_head_dim } => {
                format!("{kv_lora_rank},{q_lora_rank},{rope_dim},{nope_dim},{v_head_dim}")
            }
        }
    }
    fn parse(s: &str) -> Option<Self> {
        if s.is_empty() {
            return Some(Attention::Standard);
        }
        let [kv_lora_rank, q_lora_rank, rope_dim, nope_dim, v_head_dim] = numbers::<5>(s)?;
        Some(Attention::Mla { kv_lora_rank, q_lora_rank, rope_dim, nope_dim, v_head_dim })
    }
}

/// A sliding window as "window,local,global" (none is empty, by `Option`).
impl Param for SlidingWindow {
    fn text(&self) -> String {
        format!("{},{},{}", self.window, self.local, self.global)
    }
    fn parse(s: &str) -> Option<Self> {
        let [window, local, global] = numbers::<3>(s)?;
        Some(SlidingWindow { window, local, global })
    }
}

/// A file's exact weights as "format,bytes" (none is empty, by `Option`).
impl Param for Stored {
    fn text(&self) -> String {
        format!("{},{}", self.format.text(), self.bytes.text())
    }
    fn parse(s: &str) -> Option<Self> {
        let (format, bytes) = s.split_once(',')?;
        let bytes = f64::parse(bytes).filter(|b| b.is_finite())?;
        Some(Stored { format: WeightFormat::parse(format)?, bytes })
    }
}

/// Exactly N comma-separated u32 values.
fn numbers<const N: usize>(s: &str) -> Option<[u32; N]> {
    let mut out = [0u32; N];
    let mut parts = s.split(',');
    for slot in out.iter_mut() {
        *slot = parts.next()?.trim().parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// A list as "a:b:c,d:e:f", each part escaped so that ',' and ':' inside
/// names survive.
fn list<T>(items: &[T], parts: fn(&T) -> Vec<String>) -> String {
    items
        .iter()
        .map(|i| parts(i).iter().map(|p| escape_part(p)).collect::<Vec<_>>().join(":"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The items of a list value, each split into its unescaped parts.
fn items(s: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    s.split(',').filter(|i| !i.is_empty()).map(|i| i.split(':').map(unescape).collect())
}

/// The items of a list value, each split into exactly `N` unescaped parts
/// and made into a `T`; None when any item is unreadable.
fn unlist<T, const N: usize>(s: &str, item: fn([String; N]) -> Option<T>) -> Option<Vec<T>> {
    items(s).map(|parts| item(parts.try_into().ok()?)).collect()
}

impl Param for Vec<Edit> {
    fn text(&self) -> String {
        list(self, |e| vec![e.id.clone(), Param::text(&e.key), Param::text(&e.value)])
    }
    fn parse(s: &str) -> Option<Self> {
        unlist(s, |[id, key, value]| {
            Some(Edit { id, key: Param::parse(&key)?, value: Param::parse(&value)? })
        })
    }
}

impl Param for Vec<Item> {
    fn text(&self) -> String {
        list(self, |i| {
            vec![i.amount.text(), Param::text(&i.currency), Param::text(&i.monthly), i.name.clone()]
        })
    }
    fn parse(s: &str) -> Option<Self> {
        unlist(s, |[amount, currency, monthly, name]| {
            Some(Item {
                name,
                amount: Param::parse(&amount)?,
                currency: Param::parse(&currency)?,
                monthly: Param::parse(&monthly)?,
            })
        })
    }
}

/// A user's own offer travels whole (see [`offer_link`]).
impl Param for Vec<Offer> {
    fn text(&self) -> String {
        list(self, offer_link::parts)
    }
    fn parse(s: &str) -> Option<Self> {
        items(s).map(|parts| offer_link::from_parts(&parts)).collect()
    }
}

/// A CUDA version as "12.8".
impl Param for CudaVersion {
    fn text(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
    fn parse(s: &str) -> Option<Self> {
        CudaVersion::parse(s)
    }
}

/// Measured throughputs: `gpu:tok_s` items.
impl Param for Vec<Measured> {
    fn text(&self) -> String {
        list(self, |m| vec![m.gpu.clone(), m.tok_s.text()])
    }
    fn parse(s: &str) -> Option<Self> {
        unlist(s, |[gpu, tok_s]| Some(Measured { gpu, tok_s: Param::parse(&tok_s)? }))
    }
}

/// Checklist ticks: item ids, comma-separated.
impl Param for Vec<String> {
    fn text(&self) -> String {
        self.join(",")
    }
    fn parse(s: &str) -> Option<Self> {
        Some(s.split(',').filter(|t| !t.is_empty()).map(str::to_string).collect())
    }
}

/// Every v1 key, in the order decoding applies them (the model first).
const FIELDS: &[Field] = &[
    plain!("t", "task", task),
    plain!("m", "model", model),
    arch!("a.p", params),
    arch!("a.l", layers),
    arch!("a.h", hidden),
    arch!("a.nh", heads),
    arch!("a.kv", kv_heads),
    arch!("a.hd", head_dim),
    arch!("a.i", intermediate),
    arch!("a.v", vocab),
    arch!("a.tie", tied_embeddings),
    arch!("a.mlp", mlp),
    arch!("a.e", experts),
    arch!("a.ea", experts_active),
    arch!("a.se", shared_experts),
    arch!("a.dl", dense_layers),
    arch!("a.di", dense_intermediate),
    arch!("a.mla", attention),
    arch!("a.sw", sliding),
    arch!("a.ctx", max_context),
    arch!("a.file", stored),
    arch!("a.src", origin),
    generic!("g.p", params),
    generic!("g.act", activation_gb),
    generic!("g.f", flops_per_item),
    plain!("w", "inference.weights", inference.weights),
    plain!("kv", "inference.kv_dtype", inference.kv_dtype),
    plain!("ctx", "inference.context", inference.context),
    plain!("conc", "inference.concurrency", inference.concurrency),
    plain!("eng", "inference.engine", inference.engine),
    plain!("util", "inference.gpu_mem_util", inference.gpu_mem_util),
    plain!("pt", "inference.prompt_tokens", inference.prompt_tokens),
    plain!("ot", "inference.output_tokens", inference.output_tokens),
    plain!("qps", "inference.target_qps", inference.target_qps),
    plain!("rkb", "inference.response_kb", inference.response_kb),
    plain!("ttft", "inference.ttft_ms", inference.ttft_ms),
    plain!("tpot", "inference.tpot_ms", inference.tpot_ms),
    plain!("ph", "inference.prefix_hit", inference.prefix_hit),
    plain!("meas", "inference.measured", inference.measured),
    plain!("meth", "training.method", training.method),
    plain!("bw", "training.base_weights", training.base_weights),
    plain!("r", "training.lora_rank", training.lora_rank),
    plain!("lt", "training.lora_targets", training.lora_targets),
    plain!("prec", "training.precision", training.precision),
    plain!("opt", "training.optimizer", training.optimizer),
    plain!("oib", "training.opt_in_bwd", training.opt_in_bwd),
    plain!("ga", "training.grad_accum", training.grad_accum),
    plain!("b", "training.batch", training.batch),
    plain!("seq", "training.seq", training.seq),
    plain!("gc", "training.grad_ckpt", training.grad_ckpt),
    plain!("off", "training.act_offload", training.act_offload),
    plain!("cce", "training.loss", training.loss),
    plain!("fa", "training.flash_attn", training.flash_attn),
    plain!("tok", "training.dataset_tokens", training.dataset_tokens),
    plain!("ep", "training.epochs", training.epochs),
    plain!("mfu", "training.mfu", training.mfu),
    plain!("g", "parallel.gpus", parallel.gpus),
    plain!("tp", "parallel.tp", parallel.tp),
    plain!("pp", "parallel.pp", parallel.pp),
    plain!("sh", "parallel.shard", parallel.shard),
    plain!("gpu", "hardware.gpu", hardware.gpu),
    plain!("hr", "hardware.headroom_pct", hardware.headroom_pct),
    plain!("gpn", "hardware.gpus_per_node", hardware.gpus_per_node),
    plain!("cheap", "hardware.cheapest", hardware.cheapest),
    plain!("mo", "cost.months", cost.months),
    plain!("hpd", "cost.hours_per_day", cost.hours_per_day),
    plain!("st", "cost.starts", cost.starts),
    plain!("sd", "cost.stopped_days", cost.stopped_days),
    plain!("dl", "cost.deadline_h", cost.deadline_h),
    plain!("disk", "cost.storage_gb", cost.storage_gb),
    plain!("ip", "cost.ips", cost.ips),
    plain!("eg", "cost.egress_gb", cost.egress_gb),
    plain!("ega", "cost.egress_auto", cost.egress_auto),
    plain!("dbg", "cost.debug_pct", cost.debug_pct),
    plain!("cont", "cost.contingency_pct", cost.contingency_pct),
    plain!("cur", "cost.currency", cost.currency),
    plain!("fx", "cost.cny_per_usd", cost.cny_per_usd),
    plain!("spd", "cost.spot_per_day", cost.spot_per_day),
    plain!("cpm", "cost.ckpt_min", cost.ckpt_min),
    plain!("rsm", "cost.restart_min", cost.restart_min),
    plain!("spc", "cost.sp_commit", cost.sp_commit),
    plain!("spu", "cost.sp_upfront", cost.sp_upfront),
    plain!("pro", "cost.prorate", cost.prorate),
    plain!("bd", "cost.block_days", cost.block_days),
    plain!("ed", "cost.edits", cost.edits),
    plain!("it", "cost.items", cost.items),
    plain!("of", "cost.offers", cost.offers),
    plain!("cuda", "cuda", cuda),
    plain!("tick", "ticks", ticks),
];

/// The plan's baseline for "differs from default": a default plan holding a
/// default model of the same kind, so a custom shape lists only its changes.
fn baseline(plan: &Plan) -> Plan {
    let model = match &plan.model {
        ModelSpec::Preset { .. } => ModelSpec::default(),
        ModelSpec::Custom { .. } => ModelSpec::Custom { arch: Arch::default() },
        ModelSpec::Generic { .. } => ModelSpec::Generic { generic: Generic::default() },
    };
    Plan { model, ..Plan::default() }
}

/// The query string for a plan (without the leading '?').
pub fn encode(plan: &Plan, lang: Option<Lang>, unit: Option<&str>) -> String {
    let base = baseline(plan);
    let mut out = vec![format!("v={PLAN_VERSION}")];
    for f in FIELDS {
        let (Some(value), old) = (f.text(plan), f.text(&base)) else { continue };
        if f.key == "m" || old.as_deref() != Some(value.as_str()) {
            out.push(format!("{}={}", f.key, escape(&value)));
        }
    }
    if let Some(lang) = lang {
        out.push(format!("lang={}", lang.code()));
    }
    if let Some(unit) = unit {
        out.push(format!("unit={}", escape(unit)));
    }
    out.join("&")
}

/// Reads a query string (a full URL, "?..." or "#..." also work).
pub fn decode(input: &str) -> Link {
    let mut link = Link::default();
    let mut applied: Vec<(&'static Field, String)> = Vec::new();
    let pairs = pairs(input);
    // Fields apply in table order so that the model is chosen before its shape.
    for f in FIELDS {
        for (_, value) in pairs.iter().filter(|(k, _)| k == f.key) {
            if f.write(&mut link.plan, value) {
                applied.push((f, value.clone()));
            } else {
                // A shape key is "not applicable" only when the model lacks that shape.
                let model = &link.plan.model;
                let elsewhere = (f.key.starts_with("a.") && model.custom().is_none())
                    || (f.key.starts_with("g.") && model.generic().is_none());
                let reason = if elsewhere { Reason::NotApplicable } else { Reason::BadValue };
                link.ignored.push(Ignored { key: f.key.into(), value: value.clone(), reason });
            }
        }
    }
    for (key, value) in &pairs {
        match key.as_str() {
            "v" => match value.parse::<u32>() {
                Ok(v) if v <= VERSION => {}
                read => link.ignored.push(Ignored {
                    key: key.clone(),
                    value: value.clone(),
                    reason: if read.is_ok() { Reason::NewerVersion } else { Reason::BadValue },
                }),
            },
            "lang" if value == "zh" || value == "en" => link.lang = Some(Lang::from_tag(value)),
            "unit" if value == "gb" || value == "gib" => link.unit = Some(value.clone()),
            "embed" => link.embed = value != "0",
            "host" if is_origin(value) => link.host = Some(value.clone()),
            k if FIELDS.iter().any(|f| f.key == k) => {}
            "lang" | "unit" | "host" => link.ignored.push(Ignored {
                key: key.clone(),
                value: value.clone(),
                reason: Reason::BadValue,
            }),
            _ => link.ignored.push(Ignored {
                key: key.clone(),
                value: value.clone(),
                reason: Reason::UnknownKey,
            }),
        }
    }
    drop_invalid(&mut link, &applied);
    link
}

/// The unescaped key-value pairs of a query string (a full URL, "?..." or "#..." also work).
fn pairs(input: &str) -> Vec<(String, String)> {
    let query = input.split_once(['?', '#']).map_or(input, |(_, q)| q);
    query
        .split(['&', '#', '?'])
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (unescape(k), unescape(v))
        })
        .collect()
}

/// Values that parsed but fail validation go back to their defaults, so the
/// link opens as a valid plan with everything else kept.
fn drop_invalid(link: &mut Link, applied: &[(&'static Field, String)]) {
    // Each round resets one applied field, so this ends within their number.
    let mut live: Vec<&(&'static Field, String)> = applied.iter().collect();
    for _ in 0..=applied.len() {
        let errs = link.plan.validate();
        let Some((problem, (field, value))) =
            errs.iter().find_map(|e| Some((&e.problem, culprit(&e.field, &live)?)))
        else {
            return;
        };
        // Every value given for this key is spent: the field is back to its default.
        live.retain(|(f, _)| f.key != field.key);
        let fresh = baseline(&link.plan);
        if let Some(default) = field.text(&fresh) {
            field.write(&mut link.plan, &default);
        }
        link.ignored.push(Ignored {
            key: field.key.into(),
            value: value.clone(),
            // An id that names nothing (gpu=x) is unreadable, not out of range.
            reason: match problem {
                crate::error::Problem::Unknown { .. } => Reason::BadValue,
                _ => Reason::OutOfRange,
            },
        });
    }
}

/// The applied field an error points at: the most specific path that covers
/// it, else the last applied field of the same section (tp for a gpus error).
fn culprit<'a>(error: &str, live: &[&'a (&'static Field, String)]) -> Option<&'a (&'static Field, String)> {
    let covers = |path: &str| error == path || error.strip_prefix(path).is_some_and(|r| r.starts_with('.'));
    let section = |path: &str| path.split('.').next() == error.split('.').next();
    live.iter()
        .filter(|(f, _)| covers(f.path))
        .max_by_key(|(f, _)| f.path.len())
        .copied()
        .or_else(|| live.iter().rev().find(|(f, _)| section(f.path)).copied())
}

/// `scheme://host[:port]` and nothing else: what `MessageEvent.origin` holds.
fn is_origin(s: &str) -> bool {
    let rest = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://"));
    rest.is_some_and(|r| {
        !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
    })
}

/// Percent-encoding of everything but unreserved characters, ',' and ':'.
fn escape(s: &str) -> String {
    escape_keeping(s, b"-._~,:")
}

/// Escapes ',' and ':' too, for the parts of a list value.
fn escape_part(s: &str) -> String {
    escape_keeping(s, b"-._~")
}

/// Percent-encoding of every byte but ASCII letters, digits and `keep`.
pub(crate) fn escape_keeping(s: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (b, hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::WeightFormat;
    use crate::plan::{Method, Shard, Task};

    fn sample() -> Plan {
        let mut p = Plan { task: Task::Train, ..Plan::default() };
        p.model = ModelSpec::Preset { id: "llama-3.1-8b".into() };
        p.training.method = Method::Qlora;
        p.training.seq = 2048;
        p.parallel = crate::plan::Parallel { gpus: 4, tp: 1, pp: 1, shard: Shard::Zero3 };
        p.inference.weights = WeightFormat::Fp8;
        p.ticks = vec!["nvlink".into(), "ram".into()];
        p
    }

    #[test]
    fn round_trip_keeps_the_plan() {
        let p = sample();
        let q = encode(&p, Some(Lang::En), Some("gib"));
        let link = decode(&q);
        assert_eq!(link.ignored, vec![]);
        assert_eq!(link.plan, p);
        assert_eq!(link.lang, Some(Lang::En));
        assert_eq!(link.unit.as_deref(), Some("gib"));
    }

    #[test]
    fn host_is_an_origin_plain_or_percent_encoded() {
        let link = decode("?embed=1&host=https%3A%2F%2Fwiki.example.org%3A8443");
        assert_eq!(link.host.as_deref(), Some("https://wiki.example.org:8443"));
        assert!(link.embed && link.ignored.is_empty());
        assert_eq!(decode("host=http://127.0.0.1:9000").host.as_deref(), Some("http://127.0.0.1:9000"));
        for bad in ["https://a.example/path", "javascript:alert(1)", "https://", "*", "https://a b"] {
            let link = decode(&format!("host={}", escape(bad)));
            assert_eq!(link.host, None, "{bad}");
            assert_eq!(link.ignored.first().map(|i| i.reason), Some(Reason::BadValue), "{bad}");
        }
    }

    #[test]
    fn only_changed_fields_are_written() {
        let q = encode(&Plan::default(), None, None);
        assert_eq!(q, "v=1&m=llama-3.1-8b");
        let q = encode(&sample(), None, None);
        assert!(q.contains("meth=qlora") && q.contains("sh=zero3") && q.contains("tick=nvlink,ram"), "{q}");
        assert!(!q.contains("ctx="), "{q}");
    }

    #[test]
    fn custom_shape_round_trips() {
        let arch = Arch {
            layers: 61,
            hidden: 7168,
            heads: 128,
            kv_heads: 128,
            head_dim: None,
            attention: Attention::Mla {
                kv_lora_rank: 512,
                q_lora_rank: 1536,
                rope_dim: 64,
                nope_dim: 128,
                v_head_dim: 128,
            },
            sliding: Some(SlidingWindow { window: 1024, local: 5, global: 1 }),
            ..Arch::default()
        };
        let p = Plan { model: ModelSpec::Custom { arch }, ..Plan::default() };
        let link = decode(&encode(&p, None, None));
        assert_eq!(link.ignored, vec![]);
        assert_eq!(link.plan, p);
    }

    #[test]
    fn bad_parts_are_named_and_the_rest_kept() {
        let link = decode("https://x/?v=1&m=generic&g.p=7e9&ctx=abc&conc=4&zzz=1&tp=0&a.l=3&lang=fr");
        let keys: Vec<(&str, Reason)> = link.ignored.iter().map(|i| (i.key.as_str(), i.reason)).collect();
        assert!(keys.contains(&("ctx", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("zzz", Reason::UnknownKey)), "{keys:?}");
        assert!(keys.contains(&("tp", Reason::OutOfRange)), "{keys:?}");
        assert!(keys.contains(&("a.l", Reason::NotApplicable)), "{keys:?}");
        assert!(keys.contains(&("lang", Reason::BadValue)), "{keys:?}");
        assert_eq!(
            link.plan.model,
            ModelSpec::Generic { generic: Generic { params: 7e9, ..Generic::default() } }
        );
        assert_eq!(link.plan.inference.concurrency, 4);
        assert_eq!(link.plan.parallel.tp, 1);
        assert!(link.plan.validate().is_empty());
    }

    #[test]
    fn text_is_escaped_both_ways() {
        let p = Plan { ticks: vec!["<script>alert(1)</script>".into()], ..Plan::default() };
        let q = encode(&p, None, None);
        assert!(!q.contains('<'), "{q}");
        assert_eq!(decode(&q).plan.ticks, p.ticks);
        assert_eq!(unescape("%E4%B8%AD+x%2"), "中 x%2");
    }

    #[test]
    fn cost_lists_round_trip_with_awkward_names() {
        let mut p = sample();
        p.cost.currency = crate::money::Currency::Cny;
        p.cost.edits = vec![Edit { id: "aws-p5".into(), key: crate::cost::PriceKey::Od, value: 50.5 }];
        p.cost.items =
            vec![Item { name: "支持, 24/7: gold".into(), amount: 99.99, monthly: true, ..Item::default() }];
        let link = decode(&encode(&p, None, None));
        assert_eq!(link.ignored, vec![]);
        assert_eq!(link.plan, p);
    }

    #[test]
    fn each_bad_part_gets_its_own_reason() {
        let link = decode("v=x&m=custom&a.l=abc&g.p=1&gpu=%3Cb%3E&hr=95");
        let keys: Vec<(&str, Reason)> = link.ignored.iter().map(|i| (i.key.as_str(), i.reason)).collect();
        assert!(keys.contains(&("a.l", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("g.p", Reason::NotApplicable)), "{keys:?}");
        assert!(keys.contains(&("v", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("gpu", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("hr", Reason::OutOfRange)), "{keys:?}");
        assert_eq!(link.plan.hardware.gpu, Plan::default().hardware.gpu);
        assert!(link.plan.validate().is_empty());
    }

    /// Whole numbers read as decimals; one past its type's range is out of
    /// range (validation names the range), not unreadable.
    #[test]
    fn whole_numbers_read_as_decimals_and_saturate() {
        let link = decode("ctx=3.2768e4&conc=8.0&tp=99999999999&b=1.5&g=-2");
        assert_eq!(link.plan.inference.context, 32768);
        assert_eq!(link.plan.inference.concurrency, 8);
        let keys: Vec<(&str, Reason)> = link.ignored.iter().map(|i| (i.key.as_str(), i.reason)).collect();
        assert!(keys.contains(&("tp", Reason::OutOfRange)), "{keys:?}");
        assert!(keys.contains(&("b", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("g", Reason::BadValue)), "{keys:?}");
    }

    /// The inputs column's way in: a field by path, read and written as text.
    #[test]
    fn fields_by_path_read_and_write_text() {
        let mut p = Plan::default();
        let ctx = field("inference.context").expect("context is a field");
        assert!(ctx.write(&mut p, "65536"));
        assert_eq!(ctx.text(&p).as_deref(), Some("65536"));
        assert!(!ctx.write(&mut p, "lots"), "unreadable text is refused");
        assert_eq!(p.inference.context, 65536, "and leaves the plan");
        let layers = field("model.arch.layers").expect("layers is a field");
        assert_eq!(layers.text(&p), None, "a preset has no custom shape");
        assert!(!layers.write(&mut p, "40"));
        assert!(field("inference.nonsense").is_none());
    }

    #[test]
    fn newer_versions_are_flagged() {
        let link = decode("v=9&ctx=100");
        assert_eq!(link.ignored.first().map(|i| i.reason), Some(Reason::NewerVersion));
        assert_eq!(link.plan.inference.context, 100);
    }
}
#[cfg(test)]
mod fuzz_regressions {
    use super::*;

    /// Found by the share_decode fuzz target.
    #[test]
    fn crash_d804905c() {
        let bytes = [
            118, 114, 61, 49, 38, 97, 109, 97, 255, 255, 255, 255, 255, 255, 253, 255, 11, 38, 111, 114, 97,
            38, 103, 97, 38, 103, 38, 49, 116, 61, 109, 101, 135, 104, 0, 16, 108, 111, 114, 97, 38, 103, 61,
            48, 38, 99, 112, 97, 98, 99,
        ];
        let link = decode(&String::from_utf8_lossy(&bytes));
        assert_eq!(link.plan.validate(), vec![]);
    }
}
