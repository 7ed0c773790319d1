//! The shipped market beside the plan: every provider's offers priced for
//! it, filtered by provider, region, currency and way to buy, the cheapest
//! that meets the plan named first (with the cheapest list price beside an
//! auction or marketplace price), why each dearer one loses. The market is
//! its own files, fetched once the first result is on screen.

mod model;

use std::sync::Arc;

use gpuplan_core::sheet;
use leptos::prelude::*;

use crate::adapters::{clock, fetch};
use crate::components::block::Block;
use crate::components::labelled::Labelled;
use crate::components::offers;
use crate::components::table::{DataTable, Pick};
use crate::i18n::{t, K};
use crate::state::AppState;
use model::Picks;
pub use model::{top, Named, Top};

/// The shipped market's offers, written into dist by `cargo xtask build`
/// from the core's market data, so the page reads them without the CSV reader.
const FILE: &str = "market/offers.json";

/// Fetches the market; true once it failed. The block is a part of the page
/// that mounts after the first result (`crate::parts`), so the fetch never
/// delays the answer.
fn load(state: AppState) -> RwSignal<bool> {
    let failed = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        let offers = fetch::text(FILE).await.and_then(|json| sheet::json(&json).ok());
        let Some(offers) = offers else {
            failed.set(true);
            return;
        };
        state.market_query.update(|q| {
            q.today = clock::today();
            q.limit = model::SHOWN;
        });
        state.market.set(Some(Arc::new(offers)));
    });
    failed
}

#[component]
pub fn MarketBlock(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let failed = load(state);
    let loaded = move || state.market_view.with(Option::is_some);
    let status = move || t(lang, if failed.get() { K::MarketFailed } else { K::MarketLoading });
    view! {
        <Block id="market-h" title=t(lang, K::MarketTitle)>
            <p class="hint">{t(lang, K::MarketHint)}</p>
            <Show when=loaded fallback=move || view! { <p class="hint" data-testid="market-status">{status}</p> }>
                <Market state/>
            </Show>
        </Block>
    }
}

/// The loaded market: its answer, the filters and the table.
#[component]
fn Market(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let picks = RwSignal::new(Picks::default());
    Effect::new(move || {
        let filter = picks.with(Picks::filter);
        state.market_query.update(|q| q.filter = filter);
    });
    let rows = Memo::new(move |_| {
        state.market_view.with(|v| {
            v.as_deref().map(|v| v.rows.iter().map(|r| model::row(r, v, lang)).collect()).unwrap_or_default()
        })
    });
    let providers = Memo::new(move |_| state.market_view.with(|v| v.as_deref().map(model::providers)));
    let shown = move || state.market_view.with(|v| v.as_deref().map(|v| model::shown(v, lang)));
    let fx = move || state.market_view.with(|v| v.as_deref().map(|v| model::fx(v, lang)));
    let set = move |f: fn(&mut Picks, String)| move |ev| picks.update(|p| f(p, event_target_value(&ev)));
    let provider_options = move || {
        providers
            .get()
            .unwrap_or_default()
            .into_iter()
            .map(|(value, label)| view! { <option value=value>{label}</option> })
            .collect_view()
    };
    // A row's name opens its offer as the user's own, to fill in or correct.
    let pick = Pick {
        picked: Signal::derive(|| None),
        on_pick: Callback::new(move |key: String| {
            let offer = state.market_view.with(|v| v.as_deref().and_then(|v| model::offer_of(v, &key)));
            if let Some(offer) = offer {
                offers::adopt(state, &offer);
            }
        }),
    };
    let kinds = model::kinds(lang).map(|(value, label)| view! { <option value=value>{label}</option> });
    view! {
        <div>
            <MarketTop state/>
            <div class="filters">
                <Labelled id="f-market-provider" label=K::Provider lang>
                    <select id="f-market-provider" on:change=set(|p, v| p.provider = v)>
                        <option value="">{t(lang, K::AllChoices)}</option>
                        {provider_options}
                    </select>
                </Labelled>
                <Labelled id="f-market-region" label=K::Region lang>
                    <input id="f-market-region" type="text" placeholder=t(lang, K::RegionHint) on:change=set(|p, v| p.region = v)/>
                </Labelled>
                <Labelled id="f-market-currency" label=K::Currency lang>
                    <select id="f-market-currency" on:change=set(|p, v| p.currency = v)>
                        <option value="">{t(lang, K::AllChoices)}</option>
                        <option value="USD">"USD"</option>
                        <option value="CNY">"CNY"</option>
                    </select>
                </Labelled>
                <Labelled id="f-market-kind" label=K::PurchaseKind lang>
                    <select id="f-market-kind" on:change=set(|p, v| p.kind = v)>{kinds.collect_view()}</select>
                </Labelled>
            </div>
            <p class="hint" data-testid="market-shown">{shown}</p>
            <p class="hint" data-testid="market-fx">{fx}</p>
            <p class="hint">{t(lang, K::MarketAdoptHint)}</p>
            <DataTable testid="market-table" caption=t(lang, K::MarketTitle) cols=model::cols(lang) rows pick/>
        </div>
    }
}

/// The cheapest option in the market that meets the plan, and the cheapest
/// list price beside it when that one is an auction or marketplace price.
#[component]
fn MarketTop(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let top = Memo::new(move |_| state.market_view.with(|v| v.as_deref().and_then(|v| top(v, lang))));
    let line = move |label: K, testid: &'static str, n: Named| {
        view! {
            <p>
                <span class="answer-label">{t(lang, label)}</span>
                <strong data-testid=testid>{n.total}</strong>
                <span class="answer-note">{n.what}</span>
            </p>
        }
    };
    move || match top.get() {
        Some(Top { best, list }) => view! {
            <div class="answer market-top">
                {line(K::MarketBest, "market-best", best)}
                {list.map(|n| line(K::MarketBestList, "market-best-list", n))}
            </div>
        }
        .into_any(),
        None => view! { <p class="hint">{t(lang, K::MarketNone)}</p> }.into_any(),
    }
}
