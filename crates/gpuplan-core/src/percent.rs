//! Percent-encoding, shared by the share link, the list values of plan
//! fields and the snippets' URLs; each caller chooses which bytes stay plain.

/// Percent-encoding of every byte but ASCII letters, digits and `keep`.
pub fn escape_keeping(s: &str, keep: &[u8]) -> String {
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

/// Reverses [`escape_keeping`]; '+' reads as a space, and a '%' not followed
/// by two hex digits stays as it is.
pub fn unescape(s: &str) -> String {
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

    #[test]
    fn escapes_all_but_what_is_kept_and_reads_back() {
        assert_eq!(escape_keeping("a b,c", b","), "a%20b,c");
        assert_eq!(unescape(&escape_keeping("支持, 24/7", b"")), "支持, 24/7");
        assert_eq!(unescape("%E4%B8%AD+x%2"), "中 x%2");
    }
}
