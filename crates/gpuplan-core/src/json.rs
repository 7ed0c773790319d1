//! A small JSON reader for the host's price sheet, so the page reads
//! `prices.json` and posted offers without serde's generic deserializers
//! (about 9 KB gzip of the page's wasm, issue 10). Types opt in through
//! [`FromJson`]; object keys are the fields' serde names, unknown keys are
//! skipped as serde does, and a wrong type names its path ("offers[0].gpus").

use std::borrow::Cow;

/// A parsed JSON value. Objects keep their keys in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
const MAX_DEPTH: u32 = 64;

/// Parses one JSON document (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut r = Reader { text, at: 0 };
    let value = r.value(0)?;
    r.space();
    if r.at < text.len() {
        return Err(r.fail());
    }
    Ok(value)
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or("")
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn fail(&self) -> String {
        format!("JSON: unexpected input at byte {}", self.at)
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `word` if the input continues with it.
    fn eat(&mut self, word: &str) -> bool {
        let found = self.rest().starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self, depth: u32) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(format!("JSON: nested deeper than {MAX_DEPTH}"));
        }
        self.space();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat("null") => Ok(Json::Null),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ => Err(self.fail()),
        }
    }

    /// The items of `[...]` or `{...}` after the opening bracket, up to `close`.
    fn items(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        self.at += 1;
        self.space();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(());
        }
        loop {
            item(self)?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.fail()),
            }
        }
    }

    fn array(&mut self, depth: u32) -> Result<Json, String> {
        let mut items = Vec::new();
        self.items(b']', |r| {
            items.push(r.value(depth + 1)?);
            Ok(())
        })?;
        Ok(Json::Arr(items))
    }

    fn object(&mut self, depth: u32) -> Result<Json, String> {
        let mut fields = Vec::new();
        self.items(b'}', |r| {
            r.space();
            if r.peek() != Some(b'"') {
                return Err(r.fail());
            }
            let key = r.string()?;
            r.space();
            if !r.eat(":") {
                return Err(r.fail());
            }
            fields.push((key, r.value(depth + 1)?));
            Ok(())
        })?;
        Ok(Json::Obj(fields))
    }

    /// A string literal starting at its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        let start = self.at;
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.at = start + i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let escaped = match chars.next().map(|(_, e)| e) {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => unicode(&mut chars).ok_or_else(|| self.fail_at(start + i))?,
                        _ => return Err(self.fail_at(start + i)),
                    };
                    out.push(escaped);
                }
                c if c < ' ' => return Err(self.fail_at(start + i)),
                c => out.push(c),
            }
        }
        Err(self.fail_at(self.text.len()))
    }

    fn fail_at(&self, at: usize) -> String {
        format!("JSON: unexpected input at byte {at}")
    }

    fn number(&mut self) -> Result<Json, String> {
        let len = self
            .rest()
            .bytes()
            .take_while(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
            .count();
        let token = self.rest().get(..len).unwrap_or("");
        let x = token
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && is_json_number(token))
            .ok_or_else(|| self.fail())?;
        self.at += len;
        Ok(Json::Num(x))
    }
}

/// JSON's number grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
fn is_json_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (int, rest) = s.split_at(s.find(['.', 'e', 'E']).unwrap_or(s.len()));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let (frac, exp) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(r.find(['e', 'E']).unwrap_or(r.len())),
        None => ("0", rest),
    };
    let exp_ok = match exp.get(1..) {
        None => exp.is_empty(),
        Some(e) => digits(e.strip_prefix(['+', '-']).unwrap_or(e)),
    };
    digits(int) && (int == "0" || !int.starts_with('0')) && digits(frac) && exp_ok
}

/// The character of a `\uXXXX` escape (the `u` already read), joining a
/// surrogate pair written as two escapes.
fn unicode(chars: &mut std::str::CharIndices) -> Option<char> {
    let hex4 = |chars: &mut std::str::CharIndices| -> Option<u32> {
        (0..4).try_fold(0u32, |n, _| Some(n * 16 + chars.next()?.1.to_digit(16)?))
    };
    let first = hex4(chars)?;
    if (0xD800..0xDC00).contains(&first) {
        if chars.next()?.1 != '\\' || chars.next()?.1 != 'u' {
            return None;
        }
        let low = hex4(chars)?;
        if !(0xDC00..0xE000).contains(&low) {
            return None;
        }
        return char::from_u32(0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00));
    }
    char::from_u32(first)
}

/// A value of the wrong type: where it is and what was expected. The path
/// is built on the way out, so reading a valid sheet formats nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Wrong {
    path: String,
    want: &'static str,
}

impl Wrong {
    pub fn new(want: &'static str) -> Wrong {
        Wrong { path: String::new(), want }
    }

    /// The same error seen from the object holding it under `key`.
    pub fn under(mut self, key: &str) -> Wrong {
        let sep = if self.path.is_empty() || self.path.starts_with('[') { "" } else { "." };
        self.path = format!("{key}{sep}{}", self.path);
        self
    }
}

impl std::fmt::Display for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: expected {}", self.path, self.want)
    }
}

/// A type read from a JSON value.
pub trait FromJson: Sized {
    fn from_json(v: &Json) -> Result<Self, Wrong>;
}

impl FromJson for f64 {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Num(x) => Ok(*x),
            _ => Err(Wrong::new("a number")),
        }
    }
}

impl FromJson for u32 {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Num(x) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(x) => Ok(*x as u32),
            _ => Err(Wrong::new("a whole number")),
        }
    }
}

impl FromJson for bool {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Bool(b) => Ok(*b),
            _ => Err(Wrong::new("true or false")),
        }
    }
}

impl FromJson for String {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Str(s) => Ok(s.clone()),
            _ => Err(Wrong::new("a string")),
        }
    }
}

impl FromJson for Cow<'static, str> {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        String::from_json(v).map(Cow::Owned)
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Json) -> Result<Self, Wrong> {
        match v {
            Json::Arr(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| T::from_json(v).map_err(|e| e.under(&format!("[{i}]"))))
                .collect(),
            _ => Err(Wrong::new("a list")),
        }
    }
}

/// A struct read field by field under the fields' own names; absent fields
/// keep their default, as with `#[serde(default)]`, unknown ones are skipped.
pub trait Fields: Default {
    fn set(&mut self, key: &str, v: &Json) -> Result<(), Wrong>;
}

/// Reads any [`Fields`] type from an object.
pub fn object<T: Fields>(v: &Json) -> Result<T, Wrong> {
    let Json::Obj(fields) = v else { return Err(Wrong::new("an object")) };
    let mut out = T::default();
    for (key, v) in fields {
        out.set(key, v).map_err(|e| e.under(key))?;
    }
    Ok(out)
}

/// `Fields` and `FromJson` for a struct with `Default`.
macro_rules! from_json_fields {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        impl $crate::json::Fields for $ty {
            fn set(&mut self, key: &str, v: &$crate::json::Json) -> Result<(), $crate::json::Wrong> {
                match key {
                    $(stringify!($field) => self.$field = $crate::json::FromJson::from_json(v)?,)*
                    _ => {}
                }
                Ok(())
            }
        }
        impl $crate::json::FromJson for $ty {
            fn from_json(v: &$crate::json::Json) -> Result<Self, $crate::json::Wrong> {
                $crate::json::object(v)
            }
        }
    };
}
pub(crate) use from_json_fields;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_value() {
        let v = parse(r#" {"a": [1, -2.5e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n"} "#).unwrap();
        let want = Json::Obj(vec![
            (
                "a".into(),
                Json::Arr(vec![
                    Json::Num(1.0),
                    Json::Num(-2500.0),
                    Json::Bool(true),
                    Json::Bool(false),
                    Json::Null,
                ]),
            ),
            ("b".into(), Json::Str("x\"é😀\n".into())),
        ]);
        assert_eq!(v, want);
        assert_eq!(parse("[]").unwrap(), Json::Arr(vec![]));
        assert_eq!(parse("{}").unwrap(), Json::Obj(vec![]));
        assert_eq!(parse("\"中文\"").unwrap(), Json::Str("中文".into()));
    }

    #[test]
    fn refuses_what_is_not_json() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "NaN",
            "\"\\x\"",
            "\"a",
            "\"\\ud800\"",
            "[1] 2",
            "{a:1}",
            "\"\t\"",
            "1e400",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(parse(&"[".repeat(100_000)).is_err());
    }

    #[test]
    fn reads_typed_values_and_names_the_path_of_a_wrong_one() {
        let v = parse(r#"{"n": [1, 2.5]}"#).unwrap();
        let Json::Obj(f) = &v else { panic!() };
        assert_eq!(Vec::<f64>::from_json(&f[0].1), Ok(vec![1.0, 2.5]));
        let wrong = Vec::<u32>::from_json(&f[0].1).unwrap_err().under("n");
        assert_eq!(wrong.to_string(), "n[1]: expected a whole number");
        assert_eq!(Option::<u32>::from_json(&Json::Null), Ok(None));
        assert!(u32::from_json(&Json::Num(-1.0)).is_err());
        assert!(u32::from_json(&Json::Num(0.5)).is_err());
    }
}
