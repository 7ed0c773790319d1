//! JSON values read as the core's types (the JS API's plans, projects,
//! offers and queries). A value that does not read becomes a [`Misread`]
//! named by its path and worded in the language asked for, as a
//! [`FieldError`](crate::error::FieldError) is, so a caller gets one shape of
//! error whatever is wrong. (The page reads no JSON this way, so these are
//! not among a field error's problems, whose wording it carries.)

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::cost::Item;
use crate::lang::Lang;
use crate::market_view::Query;
use crate::offers::Offer;
use crate::plan::Plan;
use crate::project::Project;
use crate::text::{fill, get, Key};

/// Longest text of a given value a message quotes, in characters.
const QUOTED_CHARS: usize = 40;

/// A value that does not read, named by its path.
#[derive(Clone, Debug, PartialEq)]
pub struct Misread {
    pub field: String,
    pub wrong: Wrong,
}

/// What is wrong with a value that does not read.
#[derive(Clone, Debug, PartialEq)]
pub enum Wrong {
    /// Another type than the field takes (text in a number field).
    WrongType { expected: Expected, given: Given },
    /// A name the field does not take; `accepted` are the ones it does.
    NotOneOf { given: String, accepted: Vec<String> },
    /// A number past its whole-number type (300 for a u8), from 0.
    OutOfRange { max: f64 },
    /// A field that must be given.
    Required,
    /// Not JSON data at all (a function, a symbol).
    NotJson,
    /// Unreadable for a reason only the reader's own words give.
    Unreadable { detail: String },
}

impl Misread {
    pub fn new(field: impl Into<String>, wrong: Wrong) -> Misread {
        Misread { field: field.into(), wrong }
    }

    /// One line naming the field and what it takes, as a field error's.
    pub fn message(&self, lang: Lang) -> String {
        let what = match &self.wrong {
            Wrong::WrongType { expected, given } => wrong_type(*expected, given, lang),
            Wrong::NotOneOf { given, accepted } => {
                let accepted = accepted.join(lang.pick("、", ", "));
                fill(Key::ErrNotOneOf, lang, &[("accepted", &accepted), ("given", &format!("\"{given}\""))])
            }
            Wrong::OutOfRange { max } => fill(Key::ErrOutOfRange, lang, &[("min", &0), ("max", max)]),
            Wrong::Required => get(Key::ErrRequired, lang).to_string(),
            Wrong::NotJson => get(Key::ErrNotJson, lang).to_string(),
            Wrong::Unreadable { detail } => fill(Key::ErrUnreadable, lang, &[("detail", detail)]),
        };
        format!("{}: {what}", self.field)
    }
}

/// "must be a whole number, not \"8k\"", or "cannot be …" where the
/// type the field takes has no words.
fn wrong_type(expected: Expected, given: &Given, lang: Lang) -> String {
    let given = given.text(lang);
    match expected.text(lang) {
        Some(expected) => fill(Key::ErrWrongType, lang, &[("expected", &expected), ("given", &given)]),
        None => fill(Key::ErrWrongTypeAny, lang, &[("given", &given)]),
    }
}

/// A type read from JSON data, a value that does not read as a [`Misread`].
pub trait FromJson: DeserializeOwned {
    /// Reads `value`. `name` names the value as a whole and leads the
    /// paths of a list's items (`offers[2].gpus`); an object's fields are
    /// named by their own path (`inference.context`), as validation names them.
    fn from_json(value: &Value, name: &str) -> Result<Self, Misread> {
        read(value, name)
    }
}

impl FromJson for Plan {}
impl FromJson for Vec<Offer> {}
impl FromJson for Vec<Item> {}
impl FromJson for Query {}

/// A workload's plan is read whole, its model apart (serde then loses the
/// path inside it): a wrong value there is named by reading that plan again.
impl FromJson for Project {
    fn from_json(value: &Value, name: &str) -> Result<Self, Misread> {
        read(value, name).map_err(|e| within_plan(value, e))
    }
}

/// `e` named inside the workload's plan it points at, where that plan
/// read alone names a field in it.
fn within_plan(project: &Value, e: Misread) -> Misread {
    let at = e.field.strip_prefix("workloads[").and_then(|r| r.strip_suffix("].plan"));
    let plan =
        at.and_then(|i| i.parse::<usize>().ok()).and_then(|i| project.get("workloads")?.get(i)?.get("plan"));
    match plan.map(|plan| read::<Plan>(plan, "")) {
        Some(Err(inner)) if !inner.field.is_empty() => {
            Misread::new(format!("{}.{}", e.field, inner.field), inner.wrong)
        }
        _ => e,
    }
}

/// `value` as a `T`, a wrong value named by its path under `name`.
fn read<T: DeserializeOwned>(value: &Value, name: &str) -> Result<T, Misread> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let field = match path.as_str() {
            "." => name.to_string(),
            p if p.starts_with('[') => format!("{name}{p}"),
            p => p.to_string(),
        };
        misread(field, &e.inner().to_string())
    })
}

/// The error for a value that is not JSON data at all (a function, a symbol).
pub fn not_json(name: &str) -> Misread {
    Misread::new(name, Wrong::NotJson)
}

/// What serde's message describes, in serde's own wording
/// ("invalid type: string \"8k\", expected u64", "unknown variant `EUR`,
/// expected one of `USD`, `CNY`", "missing field `id`"); any other message
/// is kept as the reason a value cannot be read.
fn misread(field: String, message: &str) -> Misread {
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (given, expected) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
        let wrong = Wrong::WrongType { expected: expected_kind(expected), given: given_value(given) };
        return Misread::new(field, wrong);
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        let (given, expected) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
        return Misread::new(field, invalid_value(given_value(given), expected));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let mut names = quoted_names(rest).into_iter();
        let given = names.next().unwrap_or_default();
        return Misread::new(field, Wrong::NotOneOf { given, accepted: names.collect() });
    }
    if let Some(name) = message.strip_prefix("missing field ").and_then(|r| quoted_names(r).pop()) {
        let path = if field.is_empty() { name } else { format!("{field}.{name}") };
        return Misread::new(path, Wrong::Required);
    }
    Misread::new(field, Wrong::Unreadable { detail: message.to_string() })
}

/// A number past its whole-number type (300 for a u8) is out of that
/// type's range; any other value is of the wrong kind.
fn invalid_value(given: Given, expected: &str) -> Wrong {
    let max = match expected {
        "u8" => Some(f64::from(u8::MAX)),
        "u16" => Some(f64::from(u16::MAX)),
        "u32" => Some(f64::from(u32::MAX)),
        _ => None,
    };
    match (&given, max) {
        (Given::Scalar(n), Some(max)) if !n.starts_with('-') => Wrong::OutOfRange { max },
        _ => Wrong::WrongType { expected: expected_kind(expected), given },
    }
}

/// The names between backquotes: "`EUR`, expected one of `USD`, `CNY`".
fn quoted_names(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// From serde's name for the type a value was read as ("u64", "a
/// boolean", "struct Plan", "internally tagged enum ModelSpec").
fn expected_kind(serde_name: &str) -> Expected {
    const WHOLE: [&str; 12] =
        ["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"];
    let has = |word: &str| serde_name.contains(word);
    match serde_name {
        name if WHOLE.contains(&name) => Expected::WholeNumber,
        "f32" | "f64" => Expected::Number,
        _ if has("tagged enum") || has("struct ") || serde_name == "a map" => Expected::Object,
        _ if has("string") || has("char") => Expected::Text,
        _ if has("sequence") || has("tuple") || has("array") => Expected::List,
        _ if has("bool") => Expected::Boolean,
        _ => Expected::Other,
    }
}

/// From serde's words for a value ("string \"8k\"", "integer `5`",
/// "null", "unit value", "sequence", "map").
fn given_value(serde_words: &str) -> Given {
    let ticked = |prefix: &str| {
        serde_words.strip_prefix(prefix).and_then(|r| r.strip_prefix('`')).and_then(|r| r.strip_suffix('`'))
    };
    let scalar = ["integer ", "floating point ", "boolean ", "character "].into_iter().find_map(ticked);
    if let Some(written) = scalar {
        return Given::Scalar(written.to_string());
    }
    match serde_words {
        "null" | "unit value" => Given::Null,
        "sequence" => Given::List,
        "map" => Given::Object,
        _ => match serde_words.strip_prefix("string ") {
            Some(quoted) => Given::Text(cut(quoted)),
            None => Given::Other(serde_words.to_string()),
        },
    }
}

/// What a field takes, as a type error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    WholeNumber,
    Number,
    Boolean,
    Text,
    List,
    Object,
    /// A type serde's message does not say in these words.
    Other,
}

impl Expected {
    /// Its words, where it has them.
    fn key(self) -> Option<Key> {
        match self {
            Expected::WholeNumber => Some(Key::KindWholeNumber),
            Expected::Number => Some(Key::KindNumber),
            Expected::Boolean => Some(Key::KindBoolean),
            Expected::Text => Some(Key::KindText),
            Expected::List => Some(Key::KindList),
            Expected::Object => Some(Key::KindObject),
            Expected::Other => None,
        }
    }

    /// "a whole number", in `lang`; None for [`Expected::Other`].
    pub fn text(self, lang: Lang) -> Option<&'static str> {
        self.key().map(|key| get(key, lang))
    }
}

/// The value a field was given, as a type error shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Given {
    Null,
    /// A number or true/false, as written.
    Scalar(String),
    /// Text, quoted (and cut short when long).
    Text(String),
    List,
    Object,
    Other(String),
}

impl Given {
    /// `"8k"`, `5`, `null`, "a list", in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Given::Null => "null".to_string(),
            Given::Scalar(s) | Given::Text(s) | Given::Other(s) => s.clone(),
            Given::List => get(Key::KindList, lang).to_string(),
            Given::Object => get(Key::KindObject, lang).to_string(),
        }
    }
}

/// `text` cut to [`QUOTED_CHARS`], keeping its closing quote.
fn cut(text: &str) -> String {
    if text.chars().count() <= QUOTED_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(QUOTED_CHARS).collect();
    format!("{head}…\"")
}

#[cfg(test)]
mod tests;
