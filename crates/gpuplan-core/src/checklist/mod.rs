//! The pre-order checklist and acceptance guide, generated from one plan.
//!
//! Each item is data (a stable id, its section) plus a rule over [`Facts`]:
//! the rule decides whether the item appears, fills it with the plan's
//! numbers, and marks it as a risk where the plan needs attention. The items
//! follow the seeds: seed 004's ten pre-order steps, seed 000's vendor
//! questions and acceptance order, and the pitfalls of seeds 000-002 (facts in
//! shared/reference/checklist.md).

mod acceptance;
mod before;
mod bench;
mod caveats;
mod cuda;
mod facts;
mod from_plan;
mod markdown;
mod pitfalls;
mod text;
mod transfer;
mod vendor;

// The rules' tests read the English text they write, which a Chinese-only
// build does not carry; the snapshot and one-language tests cover that build.
#[cfg(all(test, not(feature = "zh")))]
mod tests;

use serde::Serialize;

pub use facts::{CudaVersion, Facts};
pub use from_plan::facts;
pub(crate) use markdown::escape as escape_markdown;
pub use markdown::to_markdown;

use crate::error::FieldError;
use crate::lang::Lang;
use crate::text::Key;
use text::Bi;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionId {
    BeforeOrdering,
    VendorQuestions,
    Acceptance,
    Pitfalls,
}

impl SectionId {
    pub const ALL: [SectionId; 4] =
        [SectionId::BeforeOrdering, SectionId::VendorQuestions, SectionId::Acceptance, SectionId::Pitfalls];

    pub fn title(self, lang: Lang) -> &'static str {
        let key = match self {
            SectionId::BeforeOrdering => Key::SectionBeforeOrdering,
            SectionId::VendorQuestions => Key::SectionVendorQuestions,
            SectionId::Acceptance => Key::SectionAcceptance,
            SectionId::Pitfalls => Key::SectionPitfalls,
        };
        crate::text::get(key, lang)
    }

    fn specs(self) -> &'static [Spec] {
        match self {
            SectionId::BeforeOrdering => before::SPECS,
            SectionId::VendorQuestions => vendor::SPECS,
            SectionId::Acceptance => acceptance::SPECS,
            SectionId::Pitfalls => pitfalls::SPECS,
        }
    }
}

/// One line of the checklist.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Item {
    /// Stable short id (lowercase letters, digits, '-'): share links store ticks by it.
    pub id: &'static str,
    pub text: String,
    /// A command to copy and run, kept apart from the text.
    pub command: Option<String>,
    /// What a pass looks like for this plan (acceptance), or why a pitfall applies.
    pub expect: Option<String>,
    /// The plan needs attention here.
    pub risk: bool,
    pub ticked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    pub id: SectionId,
    pub title: String,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Checklist {
    pub lang: Lang,
    pub title: String,
    pub sections: Vec<Section>,
}

/// What a rule returns when its item applies.
pub(crate) struct Fill {
    text: Bi,
    command: Option<String>,
    expect: Option<Bi>,
    risk: bool,
}

impl Fill {
    fn new(text: Bi) -> Fill {
        Fill { text, command: None, expect: None, risk: false }
    }

    fn command(mut self, command: impl Into<String>) -> Fill {
        self.command = Some(command.into());
        self
    }

    fn expect(mut self, expect: Bi) -> Fill {
        self.expect = Some(expect);
        self
    }

    fn risk(mut self, risk: bool) -> Fill {
        self.risk = risk;
        self
    }
}

/// An item as data: its id and the rule that decides and fills it.
pub(crate) struct Spec {
    id: &'static str,
    rule: fn(&Facts) -> Option<Fill>,
}

/// Every item id, in order, whether or not a plan shows it.
pub fn ids() -> impl Iterator<Item = &'static str> {
    SectionId::ALL.into_iter().flat_map(|s| s.specs().iter().map(|spec| spec.id))
}

/// The checklist for a plan, in one language, with the ticked ids checked.
pub fn build(facts: &Facts, lang: Lang, ticks: &[String]) -> Result<Checklist, Vec<FieldError>> {
    let errs = facts.validate();
    if !errs.is_empty() {
        return Err(errs);
    }
    let sections = SectionId::ALL
        .into_iter()
        .map(|id| Section {
            id,
            title: id.title(lang).to_string(),
            items: id
                .specs()
                .iter()
                .filter_map(|spec| {
                    let fill = (spec.rule)(facts)?;
                    Some(Item {
                        id: spec.id,
                        text: fill.text.pick(lang).to_string(),
                        command: fill.command,
                        expect: fill.expect.map(|e| e.pick(lang).to_string()),
                        risk: fill.risk,
                        ticked: ticks.iter().any(|t| t == spec.id),
                    })
                })
                .collect(),
        })
        .collect();
    Ok(Checklist { lang, title: title(facts).pick(lang).to_string(), sections })
}

fn title(f: &Facts) -> Bi {
    let model = f.model_name.as_str();
    let hw = f.gpu.as_ref().map(|g| format!("{} × {}", f.gpu_count, g.name));
    match (model.is_empty(), hw) {
        (false, Some(h)) => {
            crate::text::both(Key::ChecklistTitleModelOnGpu, &[("model", &model), ("gpus", &h)])
        }
        (false, None) => crate::text::both(Key::ChecklistTitleModel, &[("model", &model)]),
        (true, Some(h)) => crate::text::both(Key::ChecklistTitleGpu, &[("gpus", &h)]),
        (true, None) => crate::text::both(Key::ChecklistTitle, &[]),
    }
}
