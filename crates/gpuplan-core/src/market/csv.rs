//! CSV records (RFC 4180: quoted fields, doubled quotes, line breaks inside
//! quotes), each with the line it starts on, for line-numbered messages.

/// One record: the 1-based line it starts on and its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<String>,
}

/// The records of `text`, and the line of a quote left open (the record it
/// starts is dropped; those before it are kept). Blank lines are skipped.
pub fn records(text: &str) -> (Vec<Record>, Option<usize>) {
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut line, mut start) = (1, 1);
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            ('\r', false) if chars.peek() == Some(&'\n') => {}
            ('\n', false) => {
                fields.push(std::mem::take(&mut field));
                push(&mut out, start, std::mem::take(&mut fields));
                line += 1;
                start = line;
            }
            ('\n', true) => {
                line += 1;
                field.push(c);
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return (out, Some(start));
    }
    fields.push(field);
    push(&mut out, start, fields);
    (out, None)
}

fn push(out: &mut Vec<Record>, line: usize, fields: Vec<String>) {
    let blank = fields.iter().all(|f| f.trim().is_empty());
    if !blank {
        out.push(Record { line, fields });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_line_breaks() {
        let text = "a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",z\nlast,";
        let (recs, open) = records(text);
        assert_eq!(open, None);
        let lines: Vec<usize> = recs.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 2, 4, 6]);
        assert_eq!(recs[1].fields, ["x, y", "say \"hi\""]);
        assert_eq!(recs[2].fields, ["two\nlines", "z"]);
        assert_eq!(recs[3].fields, ["last", ""]);
    }

    #[test]
    fn an_open_quote_names_its_line() {
        let (recs, open) = records("a\nb,\"open\nc");
        assert_eq!((recs.len(), open), (1, Some(2)));
    }
}
