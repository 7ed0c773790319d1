//! A single-language build (feature `zh` or `en`: the page's bundles, issue
//! 10) writes every text in its own language, whichever one is asked for,
//! and never an empty one where the other language's text was dropped.
//! Run by `cargo xtask test` with the core's unit tests, `cargo test -p gpuplan-core --features <lang> --lib --test one_language`.
#![cfg(any(feature = "zh", feature = "en"))]

use gpuplan_core::checklist::Checklist;
use gpuplan_core::lang::{Lang, ONLY};
use gpuplan_core::{examples, report, snippets};

fn built() -> Lang {
    ONLY.expect("a one-language build")
}

fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Every text of a checklist, with where it came from.
fn texts(list: &Checklist) -> Vec<(String, &str)> {
    let mut out = vec![("title".to_string(), list.title.as_str())];
    for s in &list.sections {
        for item in &s.items {
            out.push((item.id.to_string(), item.text.as_str()));
            if let Some(e) = &item.expect {
                out.push((format!("{} (expect)", item.id), e.as_str()));
            }
        }
    }
    out
}

#[test]
fn every_example_reads_the_same_in_either_requested_language() {
    for ex in examples::all() {
        let zh = report::evaluate(&ex.plan, Lang::Zh).expect("examples are valid");
        let en = report::evaluate(&ex.plan, Lang::En).expect("examples are valid");
        assert_eq!(zh.checklist.sections, en.checklist.sections, "{}", ex.id);
        let (a, b) = (
            snippets::snippets(&ex.plan, &zh, Lang::Zh, "https://x/"),
            snippets::snippets(&ex.plan, &en, Lang::En, "https://x/"),
        );
        assert_eq!(a.markdown.replace("lang=zh", "lang=en"), b.markdown, "{}", ex.id);
        assert_eq!(ex.title(Lang::Zh), ex.title(Lang::En));
    }
}

#[test]
fn every_checklist_text_is_written_in_the_build_language() {
    for ex in examples::all() {
        let r = report::evaluate(&ex.plan, Lang::En).expect("examples are valid");
        for (id, text) in texts(&r.checklist) {
            assert!(!text.trim().is_empty(), "{}: {id} is empty", ex.id);
            match built() {
                Lang::Zh => assert!(has_cjk(text), "{}: {id} is not Chinese: {text}", ex.id),
                Lang::En => assert!(!has_cjk(text), "{}: {id} is not English: {text}", ex.id),
            }
        }
    }
}

/// Fit flags, network advice and memory notes: the build's side is written,
/// in its language; the other side is empty.
#[test]
fn flags_and_notes_are_written_in_the_build_language() {
    let mut seen = 0;
    for ex in examples::all() {
        let r = report::evaluate(&ex.plan, Lang::En).expect("examples are valid");
        let mut pairs: Vec<(&str, &str)> =
            r.memory.notes.iter().map(|n| (n.zh.as_str(), n.en.as_str())).collect();
        for row in &r.fit.rows {
            pairs.extend(row.flags.iter().map(|f| (f.zh.as_str(), f.en.as_str())));
            pairs.extend(row.network.iter().map(|n| (n.zh.as_str(), n.en.as_str())));
        }
        for (zh, en) in pairs {
            let (kept, dropped) = if built() == Lang::Zh { (zh, en) } else { (en, zh) };
            assert!(dropped.is_empty(), "{}: {dropped}", ex.id);
            assert!(!kept.is_empty(), "{}: an empty text", ex.id);
            assert_eq!(has_cjk(kept), built() == Lang::Zh, "{}: {kept}", ex.id);
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} flags and notes");
}

#[test]
fn field_errors_are_written_in_the_build_language() {
    let mut plan = gpuplan_core::plan::Plan::default();
    plan.inference.context = 0;
    let errors = report::evaluate(&plan, Lang::En).expect_err("context 0 is out of range");
    for e in &errors {
        let (zh, en) = (e.message(Lang::Zh), e.message(Lang::En));
        assert_eq!(zh, en);
        assert_eq!(has_cjk(&zh), built() == Lang::Zh, "{zh}");
    }
}
