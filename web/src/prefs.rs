//! Display preferences and the user's project, kept in localStorage
//! (`adapters::storage`: where storage is refused, the page works without it).

use gpuplan_core::offers::Offer;
use gpuplan_core::plan::{self, Plan};
use gpuplan_core::project::Project;
use gpuplan_core::share;
use leptos::prelude::*;

use crate::adapters::storage::{load, save};
use crate::i18n::Lang;
use gpuplan_core::present::Unit;

const LANG_KEY: &str = "gpuplan.lang";
const UNIT_KEY: &str = "gpuplan.unit";
/// The project as its share-link query (`share::encode_project`, no lang
/// or unit): a one-workload project is its plan's version 1 query, as
/// saved before projects.
const PLAN_KEY: &str = "gpuplan.plan";

/// The language the loader in index.html opens the page in, unless the
/// link names one.
pub fn save_lang(lang: Lang) {
    save(LANG_KEY, lang.code());
}

pub fn initial_unit() -> Unit {
    load(UNIT_KEY).and_then(|c| Unit::from_code(&c)).unwrap_or_default()
}

pub fn save_unit(unit: Unit) {
    save(UNIT_KEY, unit.code());
}

/// The project saved by the user's last edit, else the default plan. A
/// stored value is read like a share link: whatever cannot be read (a
/// corrupted value, a key from a newer version) is dropped silently, the
/// rest is kept.
pub fn saved_project() -> Project {
    load(PLAN_KEY).map_or_else(|| Project::single(Default::default()), |q| share::decode_project(&q).project)
}

/// Saves the project on every change after the first: a project opened
/// from a link replaces the saved one only once the user edits it.
pub fn keep_project(project: Memo<Project>) {
    Effect::new_sync(move |seen: Option<()>| {
        project.with(|p| seen.is_some().then(|| save(PLAN_KEY, &share::encode_project(p, None, None))));
    });
}

/// Offers of the price sheet the user last opened, in the share link's
/// offer form: the page's one writer of offers (JSON would be another).
const SHEET_KEY: &str = "gpuplan.sheet";
const OFFERS: &str = "cost.offers";

/// The last price sheet's offers; none where storage holds none or a
/// value that no longer reads.
pub fn saved_sheet() -> Vec<Offer> {
    let mut plan = Plan::default();
    if let (Some(text), Some(field)) = (load(SHEET_KEY), plan::field(OFFERS)) {
        field.write(&mut plan, &text);
    }
    plan.cost.offers
}

/// Keeps the sheet's offers for the next visit, where storage has room:
/// a provider's whole catalog may not fit, and is then read again next time.
pub fn save_sheet(offers: &[Offer]) {
    let mut plan = Plan::default();
    plan.cost.offers = offers.to_vec();
    save(SHEET_KEY, &plan::field(OFFERS).and_then(|f| f.text(&plan)).unwrap_or_default());
}
