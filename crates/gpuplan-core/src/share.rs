//! Share links: a plan as a short, readable, versioned query string.
//!
//! `v=1&t=train&m=llama-3.1-70b&meth=qlora&g=2` — one short key per field,
//! only the fields that differ from the defaults. Decoding never fails: each
//! key is read on its own, and whatever cannot be read (unknown key, bad
//! value, value out of range) is listed in `ignored` while the rest is kept.
//! Version 1 keys are kept forever; a new version adds keys or a migration.

use serde::Serialize;

use crate::lang::Lang;
use crate::model::{Arch, Generic, ModelSpec};
use crate::percent::{escape_keeping, unescape};
use crate::plan::{fields, Field, Plan};
use crate::text::{self, Key};

mod embed;
mod project_link;
pub use embed::{Block as EmbedBlock, Embed, Theme};
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
    /// What the host asks of the embedded widget (`show=`, `lock=`, `theme=`).
    pub embed_options: Embed,
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
    /// A workload's key whose index the link's list of workloads does not hold.
    NoSuchWorkload,
    /// More workloads than a project holds: the first ones open, the rest are left out.
    TooManyWorkloads,
}

impl Ignored {
    /// "ctx=abc (bad value)" in the user's language, for the page's notice.
    pub fn describe(&self, lang: Lang) -> String {
        let why = match self.reason {
            Reason::UnknownKey => Key::LinkUnknownParam,
            Reason::BadValue => Key::LinkBadValue,
            Reason::OutOfRange => Key::LinkOutOfRange,
            Reason::NewerVersion => Key::LinkNewerVersion,
            Reason::NotApplicable => Key::LinkNotApplicable,
            Reason::NoSuchWorkload => Key::LinkNoSuchWorkload,
            Reason::TooManyWorkloads => Key::LinkTooManyWorkloads,
        };
        let max = crate::project::MAX_WORKLOADS;
        format!("{}={} ({})", self.key, self.value, text::fill(why, lang, &[("max", &max)]))
    }
}

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
    for f in fields() {
        let (Some(value), old) = (f.text(plan), f.text(&base)) else { continue };
        if f.key() == "m" || old.as_deref() != Some(value.as_str()) {
            out.push(format!("{}={}", f.key(), escape(&value)));
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
    for f in fields() {
        for (_, value) in pairs.iter().filter(|(k, _)| k == f.key()) {
            if f.write(&mut link.plan, value) {
                applied.push((f, value.clone()));
            } else {
                // A shape key is "not applicable" only when the model lacks that shape.
                let model = &link.plan.model;
                let elsewhere = (f.key().starts_with("a.") && model.custom().is_none())
                    || (f.key().starts_with("g.") && model.generic().is_none());
                let reason = if elsewhere { Reason::NotApplicable } else { Reason::BadValue };
                link.ignored.push(Ignored { key: f.key().into(), value: value.clone(), reason });
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
            k if fields().iter().any(|f| f.key() == k) => {}
            k if link.embed_options.read(k, value, &mut link.ignored) => {}
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
        live.retain(|(f, _)| f.key() != field.key());
        let fresh = baseline(&link.plan);
        if let Some(default) = field.text(&fresh) {
            field.write(&mut link.plan, &default);
        }
        link.ignored.push(Ignored {
            key: field.key().into(),
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
        .filter(|(f, _)| covers(f.path()))
        .max_by_key(|(f, _)| f.path().len())
        .copied()
        .or_else(|| live.iter().rev().find(|(f, _)| section(f.path())).copied())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{Edit, Item};
    use crate::model::{Attention, SlidingWindow, WeightFormat};
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
    fn nvfp4_weights_travel_in_the_link() {
        let mut p = Plan::default();
        p.inference.weights = WeightFormat::Nvfp4;
        let q = encode(&p, None, None);
        assert!(q.contains("nvfp4"), "{q}");
        let link = decode(&q);
        assert_eq!(link.ignored, vec![]);
        assert_eq!(link.plan.inference.weights, WeightFormat::Nvfp4);
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
