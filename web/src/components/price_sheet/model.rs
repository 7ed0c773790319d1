//! What the price-sheet panel says about a file it read, as lines of text:
//! the core reads the file (in the reader worker) and names each problem by
//! its line; these pick and word them. Tested natively.

use gpuplan_core::market::Import;
use gpuplan_core::present;

use crate::i18n::{t, Lang, K};

/// Notices listed one by one; the rest are counted.
pub const LISTED: usize = 20;

/// The lines shown after `file` was read: what loaded, the cards the
/// catalog lacks, then each notice, line-numbered.
pub fn summary(read: &Import, file: &str, lang: Lang) -> Vec<String> {
    let mut lines = vec![t(lang, K::SheetRead)
        .replace("{offers}", &read.offers.len().to_string())
        .replace("{items}", &read.items.len().to_string())
        .replace("{file}", file)];
    if !read.unmapped.is_empty() {
        let names: Vec<String> = read.unmapped.iter().map(|u| format!("{} ({})", u.name, u.rows)).collect();
        lines.push(t(lang, K::SheetUnmapped).replace("{list}", &names.join(", ")));
    }
    lines.extend(read.notices.iter().take(LISTED).map(|n| n.text()));
    if read.notices.len() > LISTED {
        let more = read.notices.len() - LISTED;
        lines.push(t(lang, K::SheetMoreNotices).replace("{n}", &more.to_string()));
    }
    lines
}

/// Why a file is refused before it is read, if it is: too big.
pub fn refused(file: &str, size: u64, lang: Lang) -> Option<String> {
    let max = gpuplan_core::market::MAX_BYTES as u64;
    (size > max).then(|| {
        t(lang, K::SheetTooBig)
            .replace("{file}", file)
            .replace("{size}", &megabytes(size))
            .replace("{max}", &megabytes(max))
    })
}

/// "Reading sheet.csv (1.8 MB)…"
pub fn reading(file: &str, size: u64, lang: Lang) -> String {
    t(lang, K::SheetReading).replace("{file}", file).replace("{size}", &megabytes(size))
}

fn megabytes(bytes: u64) -> String {
    format!("{} MB", present::amount(bytes as f64 / 1e6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpuplan_core::market::{Notice, Unmapped};

    fn import(notices: usize) -> Import {
        Import {
            offers: gpuplan_core::offers::defaults(),
            notices: (1..=notices).map(|i| Notice::new(i + 1, format!("bad row {i}"))).collect(),
            unmapped: vec![Unmapped { name: "A40".into(), rows: 12 }],
            ..Import::default()
        }
    }

    #[test]
    fn a_summary_counts_lists_and_bounds_the_notices() {
        let read = import(LISTED + 5);
        let lines = summary(&read, "aws.csv", Lang::En);
        assert_eq!(lines.len(), 1 + 1 + LISTED + 1, "{lines:?}");
        assert!(lines[0].contains(&read.offers.len().to_string()) && lines[0].contains("aws.csv"));
        assert!(lines[1].contains("A40 (12)"), "{lines:?}");
        assert_eq!(lines[2], "line 2: bad row 1");
        assert!(lines.last().is_some_and(|l| l.contains('5')), "{lines:?}");
    }

    #[test]
    fn a_clean_file_says_only_what_it_read() {
        let read = Import { offers: gpuplan_core::offers::defaults(), ..Import::default() };
        assert_eq!(summary(&read, "own.json", Lang::Zh).len(), 1);
    }

    #[test]
    fn only_files_over_the_readers_limit_are_refused() {
        let max = gpuplan_core::market::MAX_BYTES as u64;
        assert_eq!(refused("a.csv", max, Lang::En), None);
        let why = refused("big.csv", 50_000_000, Lang::En).unwrap_or_default();
        assert!(why.contains("big.csv") && why.contains("50.0 MB"), "{why}");
    }
}
