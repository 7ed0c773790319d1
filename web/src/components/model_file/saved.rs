//! Models the user saved under a name, kept in localStorage. Each is stored
//! as the share-link query of a plan that holds only that model, so it is
//! read the way a link is: a value that cannot be read is dropped, the rest
//! kept.

use gpuplan_core::model::{Arch, ModelSpec};
use gpuplan_core::plan::Plan;
use gpuplan_core::share;

use crate::adapters::storage;

const KEY: &str = "gpuplan.models";
/// Longer names are cut: a name is a label in a list, not a note.
const NAME_CHARS: usize = 60;

#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub name: String,
    pub arch: Arch,
}

/// A name as it is stored: one line, no tab, trimmed, at most `NAME_CHARS`.
pub fn clean_name(name: &str) -> String {
    let one_line: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    one_line.trim().chars().take(NAME_CHARS).collect()
}

/// One line per model: its name, a tab, the query of its plan.
pub fn encode(list: &[Saved]) -> String {
    let line = |s: &Saved| {
        let plan = Plan { model: ModelSpec::Custom { arch: s.arch.clone() }, ..Plan::default() };
        format!("{}\t{}", s.name, share::encode(&plan, None, None))
    };
    list.iter().map(line).collect::<Vec<_>>().join("\n")
}

pub fn decode(text: &str) -> Vec<Saved> {
    let entry = |line: &str| {
        let (name, query) = line.split_once('\t')?;
        match share::decode(query).plan.model {
            ModelSpec::Custom { arch } if !name.is_empty() => Some(Saved { name: name.into(), arch }),
            _ => None,
        }
    };
    text.lines().filter_map(entry).collect()
}

/// `list` with `arch` under `name`: a model of the same name is replaced.
pub fn with(mut list: Vec<Saved>, name: &str, arch: Arch) -> Vec<Saved> {
    let name = clean_name(name);
    list.retain(|s| s.name != name);
    list.push(Saved { name, arch });
    list
}

pub fn load() -> Vec<Saved> {
    storage::load(KEY).map(|t| decode(&t)).unwrap_or_default()
}

pub fn store(list: &[Saved]) {
    storage::save(KEY, &encode(list));
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::model::presets;

    fn arch(id: &str) -> Arch {
        presets::find(id).map(|p| p.arch()).unwrap_or_default()
    }

    #[test]
    fn saved_models_read_back() {
        let list = with(with(vec![], "mine\t8b\n", arch("llama-3.1-8b")), "big", arch("llama-3.1-70b"));
        assert_eq!(list[0].name, "mine 8b");
        assert_eq!(decode(&encode(&list)), list);
    }

    #[test]
    fn a_broken_entry_is_dropped_and_the_rest_kept() {
        let good = encode(&with(vec![], "ok", arch("llama-3.1-8b")));
        let text = format!("no tab here\n\tv=2&x\n{good}");
        assert_eq!(decode(&text).len(), 1);
    }

    #[test]
    fn saving_under_a_name_again_replaces_it() {
        let list = with(with(vec![], "a", arch("llama-3.1-8b")), "a", arch("llama-3.1-70b"));
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].arch, arch("llama-3.1-70b"));
    }
}
