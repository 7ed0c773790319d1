//! Version 2 links: a project of several workloads in one query string.
//!
//! `v=2&wl=train,serve&0.t=train&0.m=qwen2.5-7b&1.m=qwen2.5-7b&1.re=train&pit=300:CNY:1:storage&pcur=CNY`
//!
//! `wl` lists the workloads' names (`w` is version 1's weights); each workload's plan is its version 1
//! keys behind its index (`0.m`, `1.ctx`), read exactly as a version 1 link;
//! `{i}.re` names the workload whose machines it reuses, `{i}.sm` its start
//! month. `pit` holds the project's lines, `pcur` and `pfx` the budget's
//! currency and exchange rate. A link without `wl` is a version 1 link and
//! opens as a one-workload project; a one-workload project without lines
//! is written as its version 1 link.

use serde::Serialize;

use super::{decode, encode, escape, pairs, Ignored, Reason};
use crate::cost::Item;
use crate::lang::Lang;
use crate::money::Currency;
use crate::percent::unescape;
use crate::plan::fields::{escape_part, Param};
use crate::project::{Project, Workload, MAX_WORKLOADS};

/// What a link carries: the project and the display choices.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ProjectLink {
    pub project: Project,
    pub lang: Option<Lang>,
    pub unit: Option<String>,
    pub embed: bool,
    pub host: Option<String>,
    /// Keys that could not be used, with the reason; a workload's keys keep their index.
    pub ignored: Vec<Ignored>,
}

/// Keys of the project itself (the rest of a v2 link is the workloads' or display keys).
const PROJECT_KEYS: [&str; 4] = ["wl", "pit", "pcur", "pfx"];

/// Reads a link of either version.
pub fn decode_project(input: &str) -> ProjectLink {
    let pairs = pairs(input);
    let Some(names) = pairs.iter().find(|(k, _)| k == "wl").map(|(_, v)| v) else {
        let link = decode(input);
        return ProjectLink {
            project: Project::single(link.plan),
            lang: link.lang,
            unit: link.unit,
            embed: link.embed,
            host: link.host,
            ignored: link.ignored,
        };
    };
    // Every name, empty ones too: a name's place is its workload's index.
    let mut names: Vec<String> = names.split(',').map(unescape).collect();
    let mut ignored = Vec::new();
    if names.len() > MAX_WORKLOADS {
        ignored.push(Ignored {
            key: "wl".into(),
            value: names.len().to_string(),
            reason: Reason::TooManyWorkloads,
        });
        names.truncate(MAX_WORKLOADS);
    }
    // A workload's key beyond the list: read by nobody, so said.
    for (key, value) in &pairs {
        if index(key).is_some_and(|(i, _)| i >= names.len()) {
            ignored.push(Ignored { key: key.clone(), value: value.clone(), reason: Reason::NoSuchWorkload });
        }
    }
    // Display keys and anything unknown: read by the version 1 reader on its own.
    let top: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| !PROJECT_KEYS.contains(&k.as_str()) && index(k).is_none())
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect();
    let display = decode(&top.join("&"));
    ignored.extend(display.ignored);
    let mut project = Project { workloads: Vec::with_capacity(names.len()), ..Project::default() };
    for (i, name) in names.into_iter().enumerate() {
        project.workloads.push(workload(i, name, &pairs, &mut ignored));
    }
    project_keys(&pairs, &mut project, &mut ignored);
    ProjectLink {
        project,
        lang: display.lang,
        unit: display.unit,
        embed: display.embed,
        host: display.host,
        ignored,
    }
}

/// "3.ctx" → (3, "ctx").
fn index(key: &str) -> Option<(usize, &str)> {
    let (i, rest) = key.split_once('.')?;
    Some((i.parse().ok()?, rest))
}

fn workload(i: usize, name: String, pairs: &[(String, String)], ignored: &mut Vec<Ignored>) -> Workload {
    let mine: Vec<(&str, &str)> = pairs
        .iter()
        .filter_map(|(k, v)| index(k).filter(|(j, _)| *j == i).map(|(_, k)| (k, v.as_str())))
        .collect();
    let value = |key: &str| mine.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let query: Vec<String> = mine
        .iter()
        .filter(|(k, _)| !matches!(*k, "re" | "sm"))
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect();
    let link = decode(&query.join("&"));
    ignored.extend(link.ignored.into_iter().map(|g| Ignored { key: format!("{i}.{}", g.key), ..g }));
    let mut w = Workload::new(name, link.plan);
    w.no_model = value("m").is_none();
    w.reuse = value("re").map(str::to_string);
    if let Some(sm) = value("sm") {
        match f64::parse(sm) {
            Some(m) => w.start_month = Some(m),
            None => {
                ignored.push(Ignored { key: format!("{i}.sm"), value: sm.into(), reason: Reason::BadValue })
            }
        }
    }
    w
}

fn project_keys(pairs: &[(String, String)], project: &mut Project, ignored: &mut Vec<Ignored>) {
    for (key, value) in pairs {
        let read = match key.as_str() {
            "pit" => <Vec<Item>>::parse(value).map(|v| project.lines = v),
            "pcur" => Currency::parse(value).map(|c| project.currency = c),
            "pfx" => f64::parse(value).map(|x| project.cny_per_usd = x),
            _ => Some(()),
        };
        if read.is_none() {
            ignored.push(Ignored { key: key.clone(), value: value.clone(), reason: Reason::BadValue });
        }
    }
}

/// The link for a project: version 1 for one unnamed workload without
/// project lines, version 2 otherwise.
pub fn encode_project(project: &Project, lang: Option<Lang>, unit: Option<&str>) -> String {
    if let [only] = project.workloads.as_slice() {
        let plain = only.name.is_empty() && only.start_month.is_none() && only.reuse.is_none();
        let same_money =
            project.currency == only.plan.cost.currency && project.cny_per_usd == only.plan.cost.cny_per_usd;
        if plain && project.lines.is_empty() && same_money {
            return encode(&only.plan, lang, unit);
        }
    }
    // Each name escaped as a list part, then the list as a value (as v1's lists are).
    let names: Vec<String> = project.workloads.iter().map(|w| escape_part(&w.name)).collect();
    let mut out = vec![format!("v={}", super::VERSION), format!("wl={}", escape(&names.join(",")))];
    for (i, w) in project.workloads.iter().enumerate() {
        let plan = encode(&w.plan, None, None);
        // A workload read without a model is written without one, to be refused again.
        let written = |kv: &&str| !(kv.starts_with("v=") || (w.no_model && kv.starts_with("m=")));
        out.extend(plan.split('&').filter(written).map(|kv| format!("{i}.{kv}")));
        if let Some(donor) = &w.reuse {
            out.push(format!("{i}.re={}", escape(donor)));
        }
        if let Some(m) = w.start_month {
            out.push(format!("{i}.sm={m}"));
        }
    }
    let base = Project::default();
    if !project.lines.is_empty() {
        out.push(format!("pit={}", escape(&project.lines.text())));
    }
    if project.currency != base.currency {
        out.push(format!("pcur={}", project.currency.text()));
    }
    if project.cny_per_usd != base.cny_per_usd {
        out.push(format!("pfx={}", project.cny_per_usd));
    }
    if let Some(lang) = lang {
        out.push(format!("lang={}", lang.code()));
    }
    if let Some(unit) = unit {
        out.push(format!("unit={}", escape(unit)));
    }
    out.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;

    #[test]
    fn the_gallery_project_round_trips() {
        let p = crate::examples::projects().remove(0).project;
        let q = encode_project(&p, Some(Lang::Zh), None);
        assert!(q.starts_with("v=2&wl=train,serve&0.t=train&0.m=qwen2.5-7b"), "{q}");
        assert!(q.len() < 400, "compact: {} characters", q.len());
        let link = decode_project(&q);
        assert_eq!(link.ignored, vec![]);
        assert_eq!(link.project, p);
        assert_eq!(link.lang, Some(Lang::Zh));
    }

    #[test]
    fn one_plan_is_its_version_1_link() {
        let p = Project::single(crate::examples::find("chat-7b").map(|e| e.plan).unwrap_or_default());
        let q = encode_project(&p, None, None);
        assert_eq!(q, encode(&p.workloads[0].plan, None, None));
        assert_eq!(decode_project(&q).project, p);
    }

    #[test]
    fn bad_workloads_are_named_and_bounded() {
        let names: Vec<String> = (0..1000).map(|i| format!("w{i}")).collect();
        let q: String = format!("v=2&wl={}&0.m=qwen2.5-7b&1.ctx=abc&2.m=nope", names.join(","));
        let link = decode_project(&q);
        assert_eq!(link.project.workloads.len(), MAX_WORKLOADS);
        let keys: Vec<(&str, Reason)> = link.ignored.iter().map(|i| (i.key.as_str(), i.reason)).collect();
        assert!(keys.contains(&("wl", Reason::TooManyWorkloads)), "{keys:?}");
        assert!(keys.contains(&("1.ctx", Reason::BadValue)), "{keys:?}");
        assert!(keys.contains(&("2.m", Reason::BadValue)), "{keys:?}");
        // Workloads without a model are refused by name, never filled in.
        let errs = link.project.validate();
        assert!(errs.iter().any(|e| e.field == "workloads[1].plan.model"), "{errs:?}");
    }

    /// A hand-edited link: every key it carries is used, or listed with
    /// why not, or refused by the budget with its field; none is lost unseen.
    #[test]
    fn hand_edited_links_say_what_they_left_out() {
        let q = "v=2&wl=train,serve&0.t=train&0.m=qwen2.5-7b&1.m=qwen2.5-7b&1.re=nobody&1.sm=soon\
                 &2.m=llama-3.1-8b&7.ctx=4096&x.m=a&pcur=EUR&pfx=-1";
        let link = decode_project(q);
        let keys: Vec<(&str, Reason)> = link.ignored.iter().map(|i| (i.key.as_str(), i.reason)).collect();
        for expected in [
            ("2.m", Reason::NoSuchWorkload),
            ("7.ctx", Reason::NoSuchWorkload),
            ("x.m", Reason::UnknownKey),
            ("1.sm", Reason::BadValue),
            ("pcur", Reason::BadValue),
        ] {
            assert!(keys.contains(&expected), "{expected:?} in {keys:?}");
        }
        for i in &link.ignored {
            assert!(!i.describe(Lang::Zh).is_empty() && !i.describe(Lang::En).is_empty());
        }
        let fields: Vec<String> = link.project.validate().into_iter().map(|e| e.field).collect();
        assert!(fields.contains(&"cny_per_usd".to_string()), "{fields:?}");
        assert!(fields.contains(&"workloads[1].reuse".to_string()), "{fields:?}");
        // A list of names with nothing behind them opens as workloads without a model.
        let bare = decode_project("v=2&wl=a,b").project;
        let errs: Vec<String> = bare.validate().into_iter().map(|e| e.field).collect();
        assert_eq!(errs, ["workloads[0].plan.model", "workloads[1].plan.model"]);
    }

    #[test]
    fn too_many_workloads_say_how_many_opened() {
        let names: Vec<String> = (0..1000).map(|i| format!("w{i}")).collect();
        let link = decode_project(&format!("v=2&wl={}", names.join(",")));
        let notice = link.ignored.iter().find(|i| i.key == "wl").map(|i| i.describe(Lang::En));
        if Lang::En.carried() {
            assert!(notice.is_some_and(|n| n.contains("first 16")), "{:?}", link.ignored);
        }
    }

    /// Names with separators and an unnamed workload keep their places.
    #[test]
    fn awkward_names_keep_their_workloads() {
        let mut p = crate::examples::projects().remove(0).project;
        p.workloads[0].name = "a,b:c &d".into();
        p.workloads[1].reuse = Some("a,b:c &d".into());
        let link = decode_project(&encode_project(&p, None, None));
        assert_eq!((link.ignored, link.project), (vec![], p.clone()));
        let mut one = Project::single(Plan::default());
        one.lines = p.lines.clone();
        assert_eq!(decode_project(&encode_project(&one, None, None)).project, one);
    }
}
