//! Host prices: `prices.json` shipped next to the page (a vendor replaces it
//! without rebuilding), and, in embed mode, offers posted by the host page
//! from the origin named in the link's `host` key. Both go through the
//! core's sheet validation; nothing from them is ever treated as HTML.

use gpuplan_core::offers::defaults_in;
use gpuplan_core::sheet::{self, host_offers, Sheet};
use leptos::prelude::*;

use crate::adapters::{fetch, host};
use crate::state::AppState;

pub fn load(state: AppState, host_origin: Option<String>) {
    leptos::task::spawn_local(async move {
        match fetch::text("prices.json").await.map(|text| sheet::json::<Sheet>(&text)) {
            Some(Ok(sheet)) => apply(state, sheet),
            Some(Err(why)) => warn(&why),
            None => {}
        }
    });
    if let Some(origin) = host_origin {
        host::listen_for_offers(origin, move |text| match sheet::json(&text) {
            Ok(offers) => apply(state, Sheet { version: 1, provider: String::new(), offers }),
            Err(why) => warn(&why),
        });
    }
}

/// The defaults plus the sheet's offers, or a console note when it is invalid.
fn apply(state: AppState, sheet: Sheet) {
    if sheet.offers.is_empty() {
        return;
    }
    match host_offers(sheet) {
        Ok(mut host) => {
            let mut all = defaults_in(state.lang);
            all.append(&mut host);
            state.listed.set(all);
        }
        Err(errs) => {
            let fields: Vec<String> = errs.iter().map(|e| e.field.clone()).collect();
            warn(&fields.join(", "));
        }
    }
}

/// Tells the host's developer, in the console, why their prices are not shown.
fn warn(why: &str) {
    leptos::logging::warn!("gpuplan: price sheet ignored: {why}");
}
