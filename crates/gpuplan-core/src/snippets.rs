//! Copy-paste snippets of one plan for other pages: an iframe tag (with the
//! embed helper), a MediaWiki table for wikis that forbid iframes, and a
//! Markdown summary (memory breakdown, chosen hardware, the cheapest bill and
//! the checklist). Every figure comes from the report; every text is escaped
//! for the place it goes to.

use std::fmt::Display;

use crate::checklist::{escape_markdown, to_markdown};
use crate::lang::Lang;
use crate::model::ModelSpec;
use crate::plan::{Plan, Task};
use crate::present::{bytes_exact, money};
use crate::report::Report;
use crate::text::{self, Key};

/// The three snippets and the link they carry.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippets {
    /// The share link: `base?v=1&...&lang=..`.
    pub link: String,
    /// `<iframe src="link&embed=1" data-gpuplan ...>` and the `embed.js` tag.
    pub iframe: String,
    /// MediaWiki wikitext: the link and `{| class="wikitable"` tables.
    pub wiki: String,
    /// Markdown: the link, tables of memory, hardware and cost, the checklist.
    pub markdown: String,
}

/// A two-column table of the summary; `total` is the bold last row.
struct Table {
    title: &'static str,
    head: [&'static str; 2],
    /// A sentence before the table.
    note: Option<String>,
    rows: Vec<[String; 2]>,
    total: Option<[String; 2]>,
}

/// Snippets for `plan` and its `report`, in `lang`, linking to the page at
/// `base` (its URL without query, e.g. `https://host/gpuplan/`).
pub fn snippets(plan: &Plan, report: &Report, lang: Lang, base: &str) -> Snippets {
    let base = base.split(['?', '#']).next().unwrap_or_default();
    let link = url(&format!("{base}?{}", crate::share::encode(plan, Some(lang), None)));
    let title = title(plan, lang);
    let tables = tables(report, lang);
    let open = text::get(Key::SnipOpen, lang);
    // The last '/' past the scheme's "//".
    let scheme_end = base.find("//").map_or(0, |j| j + 1);
    let dir = base.rfind('/').filter(|&i| i > scheme_end);
    let script = match dir.and_then(|i| base.get(..=i)) {
        Some(dir) => url(&format!("{dir}embed.js")),
        None if base.is_empty() => "embed.js".to_string(),
        None => url(&format!("{base}/embed.js")),
    };
    let iframe = format!(
        "<iframe src=\"{}\" data-gpuplan title=\"{}\" style=\"width:100%;height:900px;border:0\"></iframe>\n\
         <script src=\"{}\"></script>\n",
        attr(&format!("{link}&embed=1")),
        attr(&title),
        attr(&script)
    );

    let mut wiki = format!("== {} ==\n[{link} {}]\n", wikitext(&title), wikitext(open));
    let mut md = format!("# {}\n\n[{}]({link})\n", escape_markdown(&title), escape_markdown(open));
    for t in &tables {
        wiki_table(t, &mut wiki);
        markdown_table(t, &mut md);
    }
    // The checklist's headings one level down, under the summary's title.
    for line in to_markdown(&report.checklist).lines() {
        md.push_str(if line.starts_with('#') { "\n#" } else { "\n" });
        md.push_str(line);
    }
    md.push('\n');
    Snippets { link, iframe, wiki, markdown: md }
}

fn title(plan: &Plan, lang: Lang) -> String {
    let model = match &plan.model {
        ModelSpec::Preset { id } => crate::model::presets::find(id).map_or(id.as_str(), |p| p.name),
        ModelSpec::Custom { .. } => text::get(Key::SnipCustomModel, lang),
        ModelSpec::Generic { .. } => text::get(Key::SnipGenericModel, lang),
    };
    let task = match plan.task {
        Task::Infer => text::get(Key::SnipInference, lang),
        Task::Train => text::get(Key::SnipTraining, lang),
    };
    format!("gpuplan: {model} · {task}")
}

/// Memory by component, the chosen GPU, the selection's bill.
fn tables(r: &Report, lang: Lang) -> [Table; 3] {
    let m = &r.memory;
    let parts = m.components.named(lang);
    let memory = Table {
        title: text::get(Key::SnipMemoryTitle, lang),
        head: [text::get(Key::SnipComponent, lang), text::get(Key::SnipSize, lang)],
        note: None,
        rows: parts.iter().map(|(k, c)| [k.to_string(), bytes_exact(c.bytes)]).collect(),
        total: Some([
            text::get(Key::SnipPeak, lang).into(),
            format!("{} ({} B)", bytes_exact(m.per_gpu_bytes), m.per_gpu_bytes),
        ]),
    };

    let mut hardware = Table {
        title: text::get(Key::SnipHardwareTitle, lang),
        head: [text::get(Key::SnipItem, lang), text::get(Key::SnipValue, lang)],
        note: None,
        rows: Vec::new(),
        total: None,
    };
    if let Some(g) = r.fit.rows.iter().find(|g| g.chosen) {
        let (need, usable) = (m.per_gpu_bytes, g.usable.bytes);
        let verdict = if need <= usable { Key::SnipNeedUsableFits } else { Key::SnipNeedUsableExceeds };
        let fewest = match &g.best {
            Some(b) => {
                let holes: [(&str, &dyn Display); 4] = [
                    ("n", &b.gpus),
                    ("gpu", &g.gpu_name),
                    ("split", &b.strategy.label(lang)),
                    ("nodes", &b.nodes),
                ];
                text::fill(Key::SnipFewest, lang, &holes)
            }
            None => text::fill(Key::SnipNoFit, lang, &[("max", &r.fit.max_gpus)]),
        };
        let ordered = r.selection.as_ref().map_or_else(|| "-".into(), |s| s.gpus.to_string());
        hardware.rows = vec![
            ["GPU".into(), g.gpu_name.clone()],
            [text::get(Key::SnipGpusToOrder, lang).into(), ordered],
            [
                text::get(Key::SnipNeededUsable, lang).into(),
                text::fill(verdict, lang, &[("need", &bytes_exact(need)), ("usable", &bytes_exact(usable))]),
            ],
            [text::get(Key::SnipFewestLabel, lang).into(), fewest],
        ];
    }

    // The bill of the selection's purchase option: the machine the hardware table names.
    let chosen = r.selection.as_ref().and_then(|s| s.option.as_ref());
    let best = chosen.and_then(|c| r.cost.options.iter().find(|o| o.id == c.id));
    let cur = r.cost.currency;
    let cost = Table {
        title: text::get(Key::SnipCostTitle, lang),
        head: [text::get(Key::SnipBillLine, lang), text::get(Key::SnipAmount, lang)],
        note: Some(match best {
            Some(o) => {
                let holes: [(&str, &dyn Display); 3] =
                    [("option", &o.label(lang)), ("instances", &o.instances), ("per", &o.gpus_per_instance)];
                text::fill(Key::SnipCostNote, lang, &holes)
            }
            None => text::get(Key::SnipNoOffer, lang).into(),
        }),
        rows: best
            .map(|o| o.lines.iter().map(|l| [l.label(lang), money(l.amount, cur)]).collect())
            .unwrap_or_default(),
        total: best.map(|o| [text::get(Key::SnipTotal, lang).into(), money(o.total, cur)]),
    };
    [memory, hardware, cost]
}

fn markdown_table(t: &Table, out: &mut String) {
    let cell = |s: &str| escape_markdown(s).replace('|', "\\|");
    out.push_str(&format!("\n## {}\n\n", escape_markdown(t.title)));
    if let Some(note) = &t.note {
        out.push_str(&format!("{}\n\n", escape_markdown(note)));
    }
    if t.rows.is_empty() && t.total.is_none() {
        return;
    }
    let [h0, h1] = t.head;
    out.push_str(&format!("| {} | {} |\n|---|---|\n", cell(h0), cell(h1)));
    for [a, b] in &t.rows {
        out.push_str(&format!("| {} | {} |\n", cell(a), cell(b)));
    }
    if let Some([a, b]) = &t.total {
        out.push_str(&format!("| **{}** | **{}** |\n", cell(a), cell(b)));
    }
}

fn wiki_table(t: &Table, out: &mut String) {
    out.push_str(&format!("\n=== {} ===\n", wikitext(t.title)));
    if let Some(note) = &t.note {
        out.push_str(&format!("{}\n", wikitext(note)));
    }
    if t.rows.is_empty() && t.total.is_none() {
        return;
    }
    let [h0, h1] = t.head;
    out.push_str(&format!("{{| class=\"wikitable\"\n! {} !! {}\n", wikitext(h0), wikitext(h1)));
    for [a, b] in &t.rows {
        out.push_str(&format!("|-\n| {} || {}\n", wikitext(a), wikitext(b)));
    }
    if let Some([a, b]) = &t.total {
        out.push_str(&format!("|-\n| '''{}''' || '''{}'''\n", wikitext(a), wikitext(b)));
    }
    out.push_str("|}\n");
}

/// `&<>"` always, and the `special` characters, as character references;
/// line breaks as spaces.
fn entities(s: &str, special: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if special.contains(c) => out.push_str(&format!("&#{};", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Text for a double-quoted HTML attribute.
fn attr(s: &str) -> String {
    entities(s, "'")
}

/// Text for wikitext: nothing in it can open markup (tables, links, templates,
/// bold, signatures, headings).
fn wikitext(s: &str) -> String {
    entities(s, "'|![]{}~")
}

/// A URL that ends nowhere early: percent-encodes everything but letters,
/// digits and the URL punctuation that no target format reads as markup.
fn url(s: &str) -> String {
    crate::percent::escape_keeping(s, b"-._:/?#@!$&+,;=%")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Item;
    use crate::report::evaluate;

    fn plan() -> Plan {
        let mut plan = Plan { model: ModelSpec::Preset { id: "llama-3.1-70b".into() }, ..Plan::default() };
        plan.inference.context = 32768;
        plan
    }

    fn of(plan: &Plan, lang: Lang, base: &str) -> (Report, Snippets) {
        let r = evaluate(plan, lang).unwrap();
        let s = snippets(plan, &r, lang, base);
        (r, s)
    }

    /// The text between `start` and the next `end` after it.
    fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
        let from = s.find(start).unwrap() + start.len();
        let len = s[from..].find(end).unwrap();
        &s[from..from + len]
    }

    #[test]
    fn every_link_opens_the_same_plan() {
        let plan = plan();
        let (_, s) = of(&plan, Lang::En, "https://wiki.example/gpuplan/");
        assert!(s.link.starts_with("https://wiki.example/gpuplan/?v=1&"), "{}", s.link);
        let src = between(&s.iframe, "src=\"", "\"").replace("&amp;", "&");
        let md = between(&s.markdown, "](", ")\n");
        let wiki = between(&s.wiki, "\n[", " ");
        assert_eq!(md, s.link);
        assert_eq!(wiki, s.link);
        for link in [src.as_str(), md, wiki] {
            let back = crate::share::decode(link);
            assert_eq!(back.plan, plan, "{link}");
            assert_eq!(back.lang, Some(Lang::En));
            assert!(back.ignored.is_empty(), "{:?}", back.ignored);
        }
        assert!(crate::share::decode(&src).embed, "the iframe opens the compact layout");
        assert!(src.ends_with("&embed=1"), "{src}");
        assert!(s.iframe.contains("<script src=\"https://wiki.example/gpuplan/embed.js\"></script>"));
        assert!(s.iframe.contains(" data-gpuplan "));
    }

    #[test]
    fn iframe_attributes_are_escaped() {
        let plan = plan();
        let (_, s) = of(&plan, Lang::En, "https://h.example/a\"b<c>'d&e/index.html?x=1#y");
        let tag = s.iframe.lines().next().unwrap();
        // One opening quote and one closing quote per attribute, no raw '<' or '&' inside.
        let src = between(tag, "src=\"", "\"");
        assert!(!src.contains(['<', '>', '"', '\'']), "{src}");
        assert!(!src.replace("&amp;", "").contains('&'), "{src}");
        assert!(src.starts_with("https://h.example/a%22b%3Cc%3E%27d&amp;e/index.html?v=1&amp;"), "{src}");
        assert!(
            s.iframe.contains("src=\"https://h.example/a%22b%3Cc%3E%27d&amp;e/embed.js\""),
            "{}",
            s.iframe
        );
        assert_eq!(tag.matches('"').count(), 6, "{tag}");
        assert_eq!(attr("a&b\"c'd<e>"), "a&amp;b&quot;c&#39;d&lt;e&gt;");
        assert_eq!(url("https://x/a b(c)|d~"), "https://x/a%20b%28c%29%7Cd%7E");
    }

    #[test]
    #[cfg(not(feature = "zh"))]
    fn markdown_has_every_memory_row_hardware_cost_and_checklist() {
        let plan = plan();
        let (r, s) = of(&plan, Lang::En, "https://h.example/");
        let md = &s.markdown;
        let c = &r.memory.components;
        for (label, bytes) in [
            ("Weights", c.weights.bytes),
            ("Gradients", c.gradients.bytes),
            ("Optimizer state", c.optimizer.bytes),
            ("Activations", c.activations.bytes),
            ("KV cache", c.kv_cache.bytes),
            ("Workspace and runtime", c.workspace.bytes),
        ] {
            let row = format!("| {label} | {} |\n", bytes_exact(bytes));
            assert!(md.contains(&row), "missing {row:?} in\n{md}");
        }
        let peak = r.memory.per_gpu_bytes;
        assert!(md.contains(&format!("| **Peak per GPU** | **{} ({peak} B)** |", bytes_exact(peak))), "{md}");
        assert!(md.contains("|---|---|\n"));
        let chosen = r.fit.rows.iter().find(|g| g.chosen).unwrap();
        assert!(md.contains(&format!("| GPU | {} |", chosen.gpu_name)), "{md}");
        let ordered = r.selection.as_ref().unwrap().gpus;
        assert!(
            md.contains(&format!("| GPUs to order | {ordered} |\n| Per GPU: needed / usable | ")),
            "{md}"
        );
        let b = chosen.best.as_ref().unwrap();
        let fewest = format!("{} × {}, {}, 1 server(s)", b.gpus, chosen.gpu_name, b.strategy.label(Lang::En));
        assert!(md.contains(&format!(": exceeds |\n| Fewest GPUs that fit | {fewest} |")), "{md}");
        let chosen_option = r.selection.as_ref().and_then(|s| s.option.as_ref()).unwrap();
        let best = r.cost.options.iter().find(|o| o.id == chosen_option.id).unwrap();
        let total = format!("| **Total** | **{} {}** |", best.total.text(), r.cost.currency.code());
        assert!(md.contains(&total), "{md}");
        for line in &best.lines {
            assert!(md.contains(&format!("| {} | {} ", line.label(Lang::En), line.amount.text())), "{md}");
        }
        // The checklist, its title one level down.
        assert!(md.contains(&format!("\n## {}\n", r.checklist.title)), "{md}");
        assert!(md.contains("\n### "), "checklist sections follow");
        assert!(md.contains("\n- [ ] "));
        assert_eq!(md.matches("\n# ").count() + usize::from(md.starts_with("# ")), 1, "one top heading");
    }

    #[test]
    fn markdown_and_wiki_cells_cannot_break_their_tables() {
        let mut plan = plan();
        let name = "a|b\n| x | y |\n<script>[[c]]{{d}}'''e''' ~~~~";
        plan.cost.items.push(Item { name: name.into(), amount: 5.0, ..Item::default() });
        let (_, s) = of(&plan, Lang::En, "https://h.example/");
        let row =
            s.markdown.lines().find(|l| l.contains("a\\|b")).unwrap_or_else(|| panic!("{}", s.markdown));
        assert!(row.starts_with("| a\\|b \\| x \\| y \\| \\<script\\>\\[\\[c\\]\\]"), "{row}");
        assert_eq!(row.replace("\\|", "").matches('|').count(), 3, "two cells: {row}");
        let cell = s.wiki.lines().find(|l| l.contains("a&#124;b")).unwrap_or_else(|| panic!("{}", s.wiki));
        assert_eq!(
            cell.split(" || ").next().unwrap(),
            "| a&#124;b &#124; x &#124; y &#124; &lt;script&gt;&#91;&#91;c&#93;&#93;&#123;&#123;d&#125;&#125;\
             &#39;&#39;&#39;e&#39;&#39;&#39; &#126;&#126;&#126;&#126;"
        );
        assert!(!s.wiki.contains("<script>") && !s.markdown.contains("<script>"));
    }

    #[test]
    #[cfg(not(feature = "en"))]
    fn wiki_is_a_wikitable_with_the_link() {
        let (r, s) = of(&plan(), Lang::Zh, "https://h.example/gpuplan/");
        assert!(s.wiki.starts_with("== gpuplan: Llama 3.1 70B · 推理 ==\n[https://h.example/gpuplan/?v=1&"));
        assert!(s.wiki.contains(" 在 gpuplan 中打开此方案]\n"), "{}", s.wiki);
        assert_eq!(s.wiki.matches("{| class=\"wikitable\"").count(), 3, "{}", s.wiki);
        assert_eq!(s.wiki.matches("\n|}\n").count(), 3);
        assert!(s.wiki.contains(&format!("| 权重 || {}\n", bytes_exact(r.memory.components.weights.bytes))));
        assert!(s.link.contains("&lang=zh"));
        assert!(s.markdown.contains("| 组成 | 大小 |"));
    }

    #[test]
    fn a_bare_base_still_names_the_helper() {
        let (_, s) = of(&plan(), Lang::En, "");
        assert!(s.link.starts_with("?v=1&"));
        assert!(s.iframe.contains("<script src=\"embed.js\">"));
        let (_, s) = of(&plan(), Lang::En, "https://h.example");
        assert!(s.iframe.contains("<script src=\"https://h.example/embed.js\">"));
    }

    #[test]
    #[cfg(not(feature = "zh"))]
    fn a_plan_no_offer_meets_says_so() {
        let mut plan = plan();
        plan.task = Task::Train;
        plan.cost.deadline_h = 0.001;
        let (r, s) = of(&plan, Lang::En, "https://h.example/");
        assert!(r.cost.best.is_none());
        assert!(s.markdown.contains("No offer for this GPU meets this plan."), "{}", s.markdown);
        assert!(!s.markdown.contains("**Total**"));
    }
}
