//! What the core writes for a reader never cites a source by the number of
//! our own reference files ("seed 002", "种子 002"): a reader has never seen
//! them. A rule is stated plainly, or its article named by title; `docs/`
//! keeps the numbers.

use gpuplan_core::checklist::to_markdown;
use gpuplan_core::lang::Lang;
use gpuplan_core::plan::Plan;
use gpuplan_core::{budget, examples, hardware, offers, report, snippets, summary};

/// Every text a page or the CLI shows for `plan` in `lang`: the report (its
/// derivations, notes, flags, bill and checklist), the checklist's Markdown,
/// the snippets and the one-line summary.
fn rendered(plan: &Plan, lang: Lang) -> String {
    let r = report::evaluate(plan, lang).expect("a valid plan");
    let s = snippets::snippets(plan, &r, lang, "https://example.org/gpuplan/");
    let line = summary::summarize(plan, &r, lang).text;
    let json = serde_json::to_string(&r).expect("the report serialises");
    [json, to_markdown(&r.checklist), s.markdown, s.wiki, s.iframe, line].join("\n")
}

/// The places in `text` that cite a reference file by number.
fn citations(text: &str) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    ["seed", "种子"]
        .iter()
        .flat_map(|word| lower.match_indices(word).map(|(i, _)| i))
        .map(|i| {
            let start = lower.floor_char_boundary(i.saturating_sub(60));
            let end = lower.ceil_char_boundary((i + 60).min(lower.len()));
            lower[start..end].to_string()
        })
        .collect()
}

fn assert_plain(what: &str, text: &str) {
    let found = citations(text);
    assert!(found.is_empty(), "{what} cites reference files {} times:\n{}", found.len(), found.join("\n"));
}

#[test]
fn the_default_inference_plan_and_every_example_read_without_seed_numbers() {
    let mut plans = vec![("default".to_string(), Plan::default())];
    plans.extend(examples::all().into_iter().map(|e| (e.id.to_string(), e.plan)));
    for (id, plan) in &plans {
        for lang in [Lang::Zh, Lang::En] {
            assert_plain(&format!("{id} ({})", lang.code()), &rendered(plan, lang));
        }
    }
    assert!(plans.iter().any(|(id, _)| id == "full-70b-8gpu"), "the 70B training example is covered");
}

#[test]
fn examples_catalog_and_offers_read_without_seed_numbers() {
    for lang in [Lang::Zh, Lang::En] {
        for e in examples::all() {
            let text = [e.title(lang), e.summary(lang), e.note(lang).unwrap_or_default()].join("\n");
            assert_plain(e.id, &text);
        }
        for p in examples::projects() {
            let budget = budget::evaluate(&p.project, &offers::defaults(), lang).expect("a valid project");
            let json = serde_json::to_string(&budget).expect("the budget serialises");
            assert_plain(p.id, &[p.title(lang), p.note(lang), &json].join("\n"));
        }
    }
    for g in hardware::catalog() {
        assert_plain(&g.id, &[&*g.notes, &*g.notes_zh, &*g.source].join("\n"));
    }
    for o in offers::defaults() {
        assert_plain(&o.id, &serde_json::to_string(&o).expect("an offer serialises"));
    }
}
