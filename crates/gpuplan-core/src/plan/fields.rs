//! The plan's fields: every field a user sets, by its dotted plan path, with
//! its share-link key and two accessors, read and written as text. The share
//! link, the page's inputs column and the CLI's flags all set fields through
//! this one table, so a field's text form exists once.

use super::{
    CudaVersion, Engine, GradCkpt, KvDtype, LoraTargets, Loss, Measured, Method, Optimizer, Plan, Precision,
    Shard, Task,
};
use crate::cost::{Edit, Item, PriceKey, Upfront};
use crate::model::{Arch, Attention, Generic, Mlp, ModelSpec, Origin, SlidingWindow, Stored, WeightFormat};
use crate::money::Currency;
use crate::offers::Offer;
use crate::percent::{escape_keeping, unescape};

mod offer_link;

/// A plan field: where it sits in the plan, read as a value that writes
/// and reads itself as text. `get` is None when the field does not apply.
/// Each field adds only two accessors that return a reference; the text
/// code exists once per type.
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

    /// The share link's key ("ctx").
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The dotted plan path ("inference.context"), also the prefix of the
    /// validation errors that point at this field.
    pub fn path(&self) -> &'static str {
        self.path
    }
}

/// The field at a dotted plan path ("inference.context").
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path)
}

/// Every field, in the order a link applies them (the model first).
pub fn fields() -> &'static [Field] {
    FIELDS
}

/// Values that read and write as link text.
pub(crate) trait Param: Sized {
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

/// Escapes ',' and ':' too, for the parts of a list value.
pub(crate) fn escape_part(s: &str) -> String {
    escape_keeping(s, b"-._~")
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

/// A benchmark or training run's figures, with the tool that printed them.
impl Param for crate::measured::Reading {
    fn text(&self) -> String {
        self.to_link()
    }
    fn parse(s: &str) -> Option<Self> {
        Self::from_link(s)
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
    plain!("rel", "inference.engine_release", inference.engine_release),
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
    plain!("fxd", "cost.fx_date", cost.fx_date),
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
    plain!("bench", "bench", bench),
];

#[cfg(test)]
mod tests {
    use super::*;

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
    fn paths_and_keys_are_unique() {
        let mut paths: Vec<&str> = FIELDS.iter().map(Field::path).collect();
        let mut keys: Vec<&str> = FIELDS.iter().map(Field::key).collect();
        paths.sort_unstable();
        keys.sort_unstable();
        paths.dedup();
        keys.dedup();
        assert_eq!((paths.len(), keys.len()), (FIELDS.len(), FIELDS.len()));
    }
}
