//! What a host page asks of the embedded widget: the blocks to show below
//! the answer (`show=memory,cost`), the fields it fixes (`lock=hardware.gpu`,
//! by path or link key), the colour theme (`theme=dark`) and the accent
//! colour (`accent=c2410c`, hex digits only). Anything else in those keys is
//! ignored and listed, never used.

use serde::Serialize;

use super::{Ignored, Reason};
use crate::plan::{field, fields};

/// A block the widget can show below its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    Memory,
    Fit,
    Cost,
    Serving,
    Checklist,
}

impl Block {
    pub const ALL: [Block; 5] = [Block::Memory, Block::Fit, Block::Cost, Block::Serving, Block::Checklist];

    pub fn code(self) -> &'static str {
        match self {
            Block::Memory => "memory",
            Block::Fit => "fit",
            Block::Cost => "cost",
            Block::Serving => "serving",
            Block::Checklist => "checklist",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// The reader's system setting (`prefers-color-scheme`).
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// The host's choices for the widget.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Embed {
    pub show: Vec<Block>,
    /// Plan paths the host fixes: the widget shows them, the reader cannot change them.
    pub lock: Vec<&'static str>,
    pub theme: Theme,
    /// The accent colour as 3 or 6 hex digits, without `#`.
    pub accent: Option<String>,
}

/// At most this many entries of a list are read: a host names a few.
const MAX_ENTRIES: usize = 16;

impl Embed {
    /// Reads one key of the link; false when the key is not the widget's.
    pub(super) fn read(&mut self, key: &str, value: &str, ignored: &mut Vec<Ignored>) -> bool {
        let mut bad = |v: &str| {
            ignored.push(Ignored { key: key.into(), value: v.into(), reason: Reason::BadValue });
        };
        match key {
            "show" => {
                for v in entries(value) {
                    match Block::ALL.iter().find(|b| b.code() == v) {
                        Some(b) if !self.show.contains(b) => self.show.push(*b),
                        Some(_) => {}
                        None => bad(v),
                    }
                }
            }
            "lock" => {
                for v in entries(value) {
                    let by_key = fields().iter().find(|f| f.key() == v);
                    match field(v).or(by_key) {
                        Some(f) if !self.lock.contains(&f.path()) => self.lock.push(f.path()),
                        Some(_) => {}
                        None => bad(v),
                    }
                }
            }
            "accent" => {
                let hex = value.trim_start_matches('#');
                let digits = hex.bytes().all(|b| b.is_ascii_hexdigit());
                if digits && matches!(hex.len(), 3 | 6) {
                    self.accent = Some(hex.to_ascii_lowercase());
                } else {
                    bad(value);
                }
            }
            "theme" => match [Theme::Auto, Theme::Light, Theme::Dark].into_iter().find(|t| t.code() == value)
            {
                Some(t) => self.theme = t,
                None => bad(value),
            },
            _ => return false,
        }
        true
    }

    /// The keys that keep these choices in the widget's own address.
    pub fn query(&self) -> String {
        let mut out = Vec::new();
        if !self.show.is_empty() {
            out.push(format!("show={}", self.show.iter().map(|b| b.code()).collect::<Vec<_>>().join(",")));
        }
        if !self.lock.is_empty() {
            out.push(format!("lock={}", self.lock.join(",")));
        }
        if self.theme != Theme::Auto {
            out.push(format!("theme={}", self.theme.code()));
        }
        if let Some(a) = &self.accent {
            out.push(format!("accent={a}"));
        }
        out.iter().map(|kv| format!("&{kv}")).collect()
    }
}

fn entries(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|v| !v.is_empty()).take(MAX_ENTRIES)
}

#[cfg(test)]
mod tests {
    use super::super::decode;
    use super::*;

    #[test]
    fn a_host_picks_blocks_fields_and_theme() {
        let link = decode("?embed=1&show=cost,memory,cost&lock=hardware.gpu,ctx&theme=dark&accent=%23C2410C");
        assert_eq!(link.embed_options.show, [Block::Cost, Block::Memory]);
        assert_eq!(link.embed_options.lock, ["hardware.gpu", "inference.context"]);
        assert_eq!(link.embed_options.theme, Theme::Dark);
        assert!(link.ignored.is_empty(), "{:?}", link.ignored);
        assert_eq!(link.embed_options.accent.as_deref(), Some("c2410c"));
        let query = "&show=cost,memory&lock=hardware.gpu,inference.context&theme=dark&accent=c2410c";
        assert_eq!(link.embed_options.query(), query);
    }

    #[test]
    fn hostile_or_unknown_choices_are_ignored_and_listed() {
        let link =
            decode("?embed=1&show=%3Cscript%3E,fit&lock=no.such&theme=%22%3E%3Cimg&accent=red;x:url(y)");
        assert_eq!(link.embed_options.show, [Block::Fit]);
        assert!(link.embed_options.lock.is_empty());
        assert_eq!(link.embed_options.theme, Theme::Auto);
        let keys: Vec<&str> = link.ignored.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, ["show", "lock", "theme", "accent"]);
        assert_eq!(link.embed_options.accent, None);
        let long = format!("?show={}", vec!["memory"; 10_000].join(","));
        assert_eq!(decode(&long).embed_options.show, [Block::Memory]);
    }
}
