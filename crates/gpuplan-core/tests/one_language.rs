//! A single-language build (feature `zh` or `en`: the page's bundles, issue
//! 10) writes every text in its own language, whichever one is asked for,
//! and never an empty one where the other language's text was dropped.
//! Run by `cargo xtask test` as `cargo test -p gpuplan-core --features <lang>`.
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
