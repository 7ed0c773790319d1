//! The checklist as Markdown, for a wiki page or a ticket: task-list lines,
//! commands in code spans, ticks as [x].

use super::{Checklist, Item, SectionId};
use crate::lang::Lang;
use crate::text::{self, Key};

pub fn to_markdown(list: &Checklist) -> String {
    let lang = list.lang;
    let mut out = format!("# {}\n", escape(&list.title));
    for section in &list.sections {
        if section.items.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n\n", escape(&section.title)));
        for item in &section.items {
            item_lines(item, section.id, lang, &mut out);
        }
    }
    out
}

fn item_lines(item: &Item, section: SectionId, lang: Lang, out: &mut String) {
    let tick = if item.ticked { "x" } else { " " };
    let risk = if item.risk { text::get(Key::MdRisk, lang) } else { "" };
    out.push_str(&format!("- [{tick}] {risk}{}\n", escape(&item.text)));
    if let Some(cmd) = &item.command {
        out.push_str(&format!("  - {}{}\n", text::get(Key::MdCommand, lang), code(cmd)));
    }
    if let Some(expect) = &item.expect {
        let label = match section {
            SectionId::Pitfalls => Key::MdWhy,
            _ => Key::MdPass,
        };
        out.push_str(&format!("  - {}{}\n", text::get(label, lang), escape(expect)));
    }
}

/// Backslash-escapes the punctuation Markdown would read as markup, and keeps
/// everything on one line.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// An inline code span fenced by more backticks than the command contains in a row.
fn code(cmd: &str) -> String {
    let one_line = cmd.replace(['\n', '\r'], " ");
    let longest = one_line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if longest > 0 {
        format!("{fence} {one_line} {fence}")
    } else {
        format!("{fence}{one_line}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_fences_backticks() {
        assert_eq!(escape("a*b_c <x>\nd"), "a\\*b\\_c \\<x\\> d");
        assert_eq!(code("nvidia-smi -L"), "`nvidia-smi -L`");
        assert_eq!(code("echo `x`"), "`` echo `x` ``");
    }
}
