//! CSV records (RFC 4180: quoted fields, doubled quotes, line breaks inside
//! quotes), each with the line it starts on, for line-numbered messages.

/// One record: the 1-based line it starts on and its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<String>,
}

/// The records of `text`, one at a time (a big sheet is never held as
/// records all at once). Blank lines are skipped. A quote left open drops
/// the record it starts; [`Records::open`] then names its line.
pub fn records(text: &str) -> Records<'_> {
    Records { chars: text.chars().peekable(), line: 1, open: None, done: false }
}

pub struct Records<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    open: Option<usize>,
    done: bool,
}

impl Records<'_> {
    /// The line of a quote left open, once the records are read.
    pub fn open(&self) -> Option<usize> {
        self.open
    }

    /// The next record, blank or not; None at the end of the text.
    fn next_any(&mut self) -> Option<Record> {
        if self.done {
            return None;
        }
        let start = self.line;
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        while let Some(c) = self.chars.next() {
            match (c, quoted) {
                ('"', true) if self.chars.peek() == Some(&'"') => {
                    self.chars.next();
                    field.push('"');
                }
                ('"', true) => quoted = false,
                ('"', false) if field.is_empty() => quoted = true,
                (',', false) => fields.push(std::mem::take(&mut field)),
                ('\r', false) if self.chars.peek() == Some(&'\n') => {}
                ('\n', false) => {
                    fields.push(field);
                    self.line += 1;
                    return Some(Record { line: start, fields });
                }
                ('\n', true) => {
                    self.line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
        }
        self.done = true;
        if quoted {
            self.open = Some(start);
            return None;
        }
        fields.push(field);
        Some(Record { line: start, fields })
    }
}

impl Iterator for Records<'_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        loop {
            let rec = self.next_any()?;
            if !rec.fields.iter().all(|f| f.trim().is_empty()) {
                return Some(rec);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_line_breaks() {
        let text = "a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",z\nlast,";
        let mut it = records(text);
        let recs: Vec<Record> = it.by_ref().collect();
        assert_eq!(it.open(), None);
        let lines: Vec<usize> = recs.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 2, 4, 6]);
        assert_eq!(recs[1].fields, ["x, y", "say \"hi\""]);
        assert_eq!(recs[2].fields, ["two\nlines", "z"]);
        assert_eq!(recs[3].fields, ["last", ""]);
    }

    #[test]
    fn an_open_quote_names_its_line() {
        let mut it = records("a\nb,\"open\nc");
        let recs: Vec<Record> = it.by_ref().collect();
        assert_eq!((recs.len(), it.open()), (1, Some(2)));
    }
}
