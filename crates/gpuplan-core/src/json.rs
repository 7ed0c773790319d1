//! A small JSON reader for the host's price sheet, so the page reads
//! `prices.json` and posted offers without serde's generic deserializers
//! (issue 10); `sheet` maps the values onto offers.

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

    /// The error for unexpected input at the current position.
    fn fail(&self) -> String {
        self.fail_at(self.at)
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
        let x = crate::decimal::parse(token)
            .filter(|x| x.is_finite() && is_json_number(token))
            .ok_or_else(|| self.fail())?;
        self.at += len;
        Ok(Json::Num(x))
    }
}

/// JSON's number grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
fn is_json_number<'a>(s: &'a str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    // `split_at_checked`: `split_at`'s panic message would bring `char`'s
    // Debug formatting into the wasm (issue 10).
    let cut = |t: &'a str, at: Option<usize>| t.split_at_checked(at.unwrap_or(t.len())).unwrap_or((t, ""));
    let (int, rest) = cut(s, s.find(['.', 'e', 'E']));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let (frac, exp) = match rest.strip_prefix('.') {
        Some(r) => cut(r, r.find(['e', 'E'])),
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
}
