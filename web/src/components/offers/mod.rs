//! The user's own offers and line items: add, duplicate, edit and delete
//! offers with every field the core prices, start from a listed offer (the
//! change shows against it and can be reset), and add support, licences or
//! backups as items. Both live in the plan (`cost.offers`, `cost.items`):
//! they are priced at once, travel in the share link and are kept with the
//! saved plan.

mod model;
#[cfg(test)]
mod tests;

use gpuplan_core::cost::Item;
use gpuplan_core::hardware;
use gpuplan_core::offers::Offer;
use leptos::prelude::*;

use crate::adapters::{clock, focus};
use crate::components::block::Block;
use crate::components::inputs::{core_error, parse, TextInput};
use crate::i18n::{t, K};
use crate::options as o;
use crate::state::AppState;
use model::{Field, Tiers, PRICINGS};

#[component]
pub fn OffersBlock(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let ids = Memo::new(move |_| {
        state.plan.with(|p| p.cost.offers.iter().map(|o| o.id.to_string()).collect::<Vec<_>>())
    });
    // The cards are redrawn when an offer is added or removed, or a plan
    // loads: rare, and typing into a card changes neither.
    let cards = move || {
        state.loaded.track();
        ids.get().into_iter().map(|id| view! { <OfferCard state id/> }).collect_view()
    };
    view! {
        <Block id="offers-h" title=t(lang, K::OffersTitle)>
            <p class="hint">{t(lang, K::OffersHint)}</p>
            <div class="offer-list">
                {cards}
            </div>
            <AddOffer state/>
            <Items state/>
        </Block>
    }
}

/// Reads the user's offer `key` (None once it is gone), tracking the plan.
fn with_offer<T>(state: AppState, key: StoredValue<String>, read: impl FnOnce(Option<&Offer>) -> T) -> T {
    key.with_value(|id| state.plan.with(|p| read(p.cost.offers.iter().find(|o| o.id == id.as_str()))))
}

/// Runs `edit` on the user's offer `id`, if it is still there.
fn edit_offer(state: AppState, id: &str, edit: impl FnOnce(&mut Offer)) {
    state.plan.update(|p| {
        if let Some(o) = p.cost.offers.iter_mut().find(|o| o.id == id) {
            edit(o);
        }
    });
}

/// The offer a user's copy with this id started from: a listed, imported or
/// market offer.
fn started_from(state: AppState, id: &str) -> Option<Offer> {
    let find = |list: &[Offer]| list.iter().find(|o| o.id == id).cloned();
    state
        .listed
        .with(|l| find(l))
        .or_else(|| state.imported.with(|i| find(i)))
        .or_else(|| state.market.with(|m| m.as_deref().and_then(|m| find(m))))
}

/// Makes the offer `id` the user's own to edit (a market offer whose side
/// prices the catalog lacks, say) and moves the focus to its card.
pub fn adopt(state: AppState, id: &str) {
    let own = state.plan.with_untracked(|p| p.cost.offers.iter().any(|o| o.id == id));
    if !own {
        let Some(offer) = started_from(state, id) else { return };
        state.plan.update(|p| p.cost.offers.push(offer));
    }
    let field = element_id(id, "provider");
    request_animation_frame(move || focus::element(&field));
}

/// The buttons that start an offer: a blank one, or a copy of a listed one.
#[component]
fn AddOffer(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let add = move |_| {
        state.plan.update(|p| {
            let name = t(lang, K::OwnOfferName).replace("{n}", &(p.cost.offers.len() + 1).to_string());
            let offer = model::blank(&p.cost.offers, &p.hardware.gpu, name, clock::today());
            p.cost.offers.push(offer);
        });
    };
    // The listed offers not edited yet, by id.
    let editable = Memo::new(move |_| {
        let own: Vec<String> = state.plan.with(|p| p.cost.offers.iter().map(|o| o.id.to_string()).collect());
        state.listed.with(|l| {
            l.iter()
                .filter(|o| !own.iter().any(|id| o.id == id.as_str()))
                .map(|o| (o.id.to_string(), format!("{} · {}", o.provider, o.name)))
                .collect::<Vec<_>>()
        })
    });
    let copy = move |ev| adopt(state, &event_target_value(&ev));
    view! {
        <div class="offer-actions">
            <button type="button" data-testid="offer-add" on:click=add>{t(lang, K::OfferAdd)}</button>
            <label class="inline">
                <span>{t(lang, K::OfferFromListed)}</span>
                <select data-testid="offer-edit-listed" on:change=copy prop:value="">
                    <option value="" selected>{t(lang, K::OfferPick)}</option>
                    {move || editable.get().into_iter().map(|(id, label)| view! { <option value=id>{label}</option> }).collect_view()}
                </select>
            </label>
        </div>
    }
}

/// One offer of the user's, every field editable.
#[component]
fn OfferCard(state: AppState, id: String) -> impl IntoView {
    let lang = state.lang;
    let key = StoredValue::new(id.clone());
    let offer = Memo::new(move |_| with_offer(state, key, |o| o.cloned()));
    let listed = Memo::new(move |_| key.with_value(|id| started_from(state, id)));
    let title = move || offer.with(|o| o.as_ref().map(model::title).unwrap_or_default());
    let duplicate = move |_| {
        state.plan.update(|p| {
            let Some(o) = key.with_value(|id| p.cost.offers.iter().find(|o| o.id == id.as_str()).cloned())
            else {
                return;
            };
            let copy = model::duplicate(&p.cost.offers, &o, t(lang, K::CopyMark));
            p.cost.offers.push(copy);
        });
    };
    let remove =
        move |_| key.with_value(|id| state.plan.update(|p| p.cost.offers.retain(|o| o.id != id.as_str())));
    let remove_label =
        move || if listed.with(Option::is_some) { t(lang, K::OfferReset) } else { t(lang, K::OfferDelete) };
    let changes = move || {
        let (Some(base), Some(own)) = (listed.get(), offer.get()) else { return None };
        let lines = model::changes(&base, &own, lang);
        Some(view! {
            <div class="offer-changes" data-testid="offer-changes">
                <p>{t(lang, K::OfferChanged).replace("{n}", &lines.len().to_string())}</p>
                <ul>
                    {lines.into_iter().map(|c| view! { <li>{format!("{}: {} → {}", t(lang, c.label), show(&c.before), show(&c.after))}</li> }).collect_view()}
                </ul>
            </div>
        })
    };
    let group = move |legend: K, fields: &'static [Field]| {
        view! {
            <fieldset class="offer-group">
                <legend>{t(lang, legend)}</legend>
                <div class="grid">
                    {fields.iter().map(|f| view! { <OfferField state key field=*f/> }).collect_view()}
                </div>
            </fieldset>
        }
    };
    view! {
        <article class="offer-card" data-testid="offer-card" data-id=id>
            <header>
                <h4>{title}</h4>
                <div class="offer-buttons">
                    <button type="button" data-testid="offer-duplicate" on:click=duplicate>{t(lang, K::OfferDuplicate)}</button>
                    <button type="button" data-testid="offer-remove" on:click=remove>{remove_label}</button>
                </div>
            </header>
            {changes}
            <fieldset class="offer-group">
                <legend>{t(lang, K::OfferAbout)}</legend>
                <div class="grid">
                    {model::ABOUT.iter().map(|f| view! { <OfferField state key field=*f/> }).collect_view()}
                    <GpuChoice state key/>
                    <CurrencyChoice state key/>
                    <PricingChoice state key/>
                </div>
            </fieldset>
            {group(K::OfferPrices, model::PRICES)}
            <KeepsBilling state key offer/>
            {group(K::OfferSides, model::SIDES)}
            <TierRows state key kind=Tiers::Egress/>
            <TierRows state key kind=Tiers::Bandwidth/>
            {group(K::OfferSource, model::SOURCE)}
        </article>
    }
}

/// A changed value as the list shows it: an empty one as a dash.
fn show(text: &str) -> &str {
    if text.is_empty() {
        "—"
    } else {
        text
    }
}

/// The index of the user's offer `id` in the plan, for the core's field paths.
fn index_of(state: AppState, id: &str) -> Option<usize> {
    state.plan.with(|p| p.cost.offers.iter().position(|o| o.id == id))
}

/// The core's message for a field of offer `id`, if any.
fn offer_error(state: AppState, id: &str, path: &str) -> Option<String> {
    let i = index_of(state, id)?;
    let full = format!("cost.offers[{i}].{path}");
    state.errors(|errs| core_error(errs.map_or(&[][..], Vec::as_slice), &full, state.lang))
}

/// Element id of a field of offer `id`.
fn element_id(id: &str, path: &str) -> String {
    format!("of-{id}-{}", path.replace(['.', '[', ']'], "-"))
}

/// One text or number field of an offer, shown while it applies.
#[component]
fn OfferField(state: AppState, key: StoredValue<String>, field: Field) -> impl IntoView {
    let applies = Memo::new(move |_| with_offer(state, key, |o| o.is_some_and(field.applies)));
    let value = Signal::derive(move || with_offer(state, key, |o| o.map(field.get).unwrap_or_default()));
    let error = Signal::derive(move || key.with_value(|id| offer_error(state, id, field.path)));
    let commit = Callback::new(move |text: String| {
        let mut typo = None;
        key.with_value(|id| edit_offer(state, id, |o| typo = field.write(o, &text).err()));
        typo
    });
    let placeholder = field.empty;
    let id = key.with_value(|id| element_id(id, field.path));
    move || {
        applies.get().then(|| {
            view! { <TextInput state id=id.clone() label=field.label unit=field.unit hint=None placeholder numeric=field.kind != model::Kind::Text value error commit/> }
        })
    }
}

/// A select over an offer field.
#[component]
fn Choice(
    state: AppState,
    key: StoredValue<String>,
    label: K,
    path: &'static str,
    options: Vec<(String, String)>,
    get: fn(&Offer) -> String,
    set: fn(&mut Offer, &str),
) -> impl IntoView {
    let current = Memo::new(move |_| with_offer(state, key, |o| o.map(get).unwrap_or_default()));
    let id = key.with_value(|id| element_id(id, path));
    let change = move |ev| {
        let value = event_target_value(&ev);
        key.with_value(|id| edit_offer(state, id, |o| set(o, &value)));
    };
    view! {
        <div class="field">
            <label for=id.clone()>{t(state.lang, label)}</label>
            <div class="control">
                <select id=id on:change=change>
                    {options
                        .into_iter()
                        .map(|(value, label)| {
                            let v = value.clone();
                            view! { <option value=value prop:selected=move || current.with(|c| *c == v)>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </div>
        </div>
    }
}

#[component]
fn GpuChoice(state: AppState, key: StoredValue<String>) -> impl IntoView {
    let mut options: Vec<(String, String)> = hardware::catalog()
        .iter()
        .map(|g| (g.id.to_string(), format!("{} · {} GB", g.name, g.memory_gb)))
        .collect();
    options.push(("custom".into(), t(state.lang, K::CustomGpu).into()));
    view! {
        <Choice state key label=K::Gpu path="gpu" options get=|o| o.gpu.to_string() set=|o, v| o.gpu = v.to_string().into()/>
    }
}

#[component]
fn CurrencyChoice(state: AppState, key: StoredValue<String>) -> impl IntoView {
    let options =
        o::CURRENCY.iter().map(|c| (c.value.to_string(), c.label(state.lang).to_string())).collect();
    let set = |o: &mut Offer, v: &str| o.currency = model::currency(v);
    view! { <Choice state key label=K::Currency path="currency" options get=|o| o.currency.code().to_string() set/> }
}

#[component]
fn PricingChoice(state: AppState, key: StoredValue<String>) -> impl IntoView {
    let options = PRICINGS.iter().map(|(_, v, k)| (v.to_string(), t(state.lang, *k).to_string())).collect();
    let get =
        |o: &Offer| PRICINGS.iter().find(|p| p.0 == o.pricing).map(|p| p.1.to_string()).unwrap_or_default();
    let set = |o: &mut Offer, v: &str| {
        if let Some(p) = PRICINGS.iter().find(|p| p.1 == v) {
            o.pricing = p.0;
        }
    };
    view! { <Choice state key label=K::PricingKind path="pricing" options get set/> }
}

/// Whether a stopped instance keeps billing: shown once on-demand is sold.
#[component]
fn KeepsBilling(state: AppState, key: StoredValue<String>, offer: Memo<Option<Offer>>) -> impl IntoView {
    let id = key.with_value(|id| element_id(id, "od.keeps_billing"));
    let on =
        move || offer.with(|o| o.as_ref().and_then(|o| o.od.as_ref()).is_some_and(|od| od.keeps_billing));
    let sold = move || offer.with(|o| o.as_ref().is_some_and(|o| o.od.is_some()));
    let toggle = move |ev| {
        let keeps = event_target_checked(&ev);
        key.with_value(|id| {
            edit_offer(state, id, |o| {
                if let Some(od) = o.od.as_mut() {
                    od.keeps_billing = keeps;
                }
            })
        });
    };
    move || {
        sold().then(|| {
            view! {
                <div class="field check">
                    <input type="checkbox" id=id.clone() prop:checked=on on:change=toggle/>
                    <label for=id.clone()>{t(state.lang, K::KeepsBilling)}</label>
                </div>
            }
        })
    }
}

/// Egress tiers or bandwidth ports: a row per tier, the last one open-ended.
#[component]
fn TierRows(state: AppState, key: StoredValue<String>, kind: Tiers) -> impl IntoView {
    let lang = state.lang;
    let (legend, bound, price) = match kind {
        Tiers::Egress => (K::Egress, K::UptoGb, K::PerGb),
        Tiers::Bandwidth => (K::Bandwidth, K::UptoMbps, K::PerMbpsMonth),
    };
    let count = Memo::new(move |_| with_offer(state, key, |o| o.map_or(0, |o| kind.rows(o).len())));
    let add = move |_| key.with_value(|id| edit_offer(state, id, |o| kind.add(o)));
    let row = move |i: usize| {
        let cell = move |is_bound: bool| {
            let name = kind.names()[usize::from(!is_bound)];
            let path = format!("{}[{i}].{name}", kind.path());
            let value = Signal::derive(move || {
                with_offer(state, key, |o| {
                    let row = o.and_then(|o| kind.rows(o).get(i).copied());
                    match (row, is_bound) {
                        (Some((bound, _)), true) => bound.map(|b| format!("{b}")).unwrap_or_default(),
                        (Some((_, price)), false) => format!("{price}"),
                        (None, _) => String::new(),
                    }
                })
            });
            let at = path.clone();
            let error = Signal::derive(move || key.with_value(|id| offer_error(state, id, &at)));
            let commit = Callback::new(move |text: String| {
                let mut typo = None;
                key.with_value(|id| {
                    edit_offer(state, id, |o| typo = kind.write(o, i, is_bound, &text).err())
                });
                typo
            });
            let label = if is_bound { bound } else { price };
            let placeholder = is_bound.then_some(K::NoBound);
            let id = key.with_value(|id| element_id(id, &path));
            view! { <TextInput state id label unit=None hint=None placeholder numeric=true value error commit/> }
        };
        let remove = move |_| key.with_value(|id| edit_offer(state, id, |o| kind.remove(o, i)));
        view! {
            <div class="tier-row">
                {cell(true)}
                {cell(false)}
                <button type="button" class="link" on:click=remove>{t(lang, K::RemoveRow)}</button>
            </div>
        }
    };
    view! {
        <fieldset class="offer-group tiers">
            <legend>{t(lang, legend)}</legend>
            {move || (0..count.get()).map(row).collect_view()}
            <button type="button" class="link" on:click=add>{t(lang, K::AddTier)}</button>
        </fieldset>
    }
}

/// The user's own line items: support, licences, backups.
#[component]
fn Items(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let count = Memo::new(move |_| state.plan.with(|p| p.cost.items.len()));
    let add = move |_| {
        state.plan.update(|p| {
            let currency = p.cost.currency;
            p.cost.items.push(Item {
                name: t(lang, K::ItemName).into(),
                currency,
                monthly: true,
                ..Item::default()
            });
        })
    };
    let row = move |i: usize| {
        let get = move |f: fn(&Item) -> String| {
            Signal::derive(move || state.plan.with(|p| p.cost.items.get(i).map(f).unwrap_or_default()))
        };
        let edit = move |e: &dyn Fn(&mut Item)| {
            state.plan.update(|p| {
                if let Some(item) = p.cost.items.get_mut(i) {
                    e(item)
                }
            })
        };
        let name = Callback::new(move |text: String| {
            edit(&|item| item.name = text.trim().to_string());
            None
        });
        let amount = Callback::new(move |text: String| match parse(&text, false, false) {
            Ok(v) => {
                edit(&|item| item.amount = v.unwrap_or_default());
                None
            }
            Err(k) => Some(k),
        });
        let amount_error = Signal::derive(move || {
            let path = format!("cost.items[{i}].amount");
            state.errors(|errs| core_error(errs.map_or(&[][..], Vec::as_slice), &path, lang))
        });
        let currency = move |ev| {
            let code = event_target_value(&ev);
            edit(&|item| item.currency = model::currency(&code));
        };
        let code = Memo::new(move |_| {
            state.plan.with(|p| p.cost.items.get(i).map(|x| x.currency.code()).unwrap_or_default())
        });
        let monthly = move |ev| {
            let on = event_target_checked(&ev);
            edit(&|item| item.monthly = on);
        };
        let remove = move |_| {
            state.plan.update(|p| {
                if i < p.cost.items.len() {
                    p.cost.items.remove(i);
                }
            });
        };
        let options = o::CURRENCY.iter().map(move |c| view! { <option value=c.value prop:selected=move || code.get() == c.value>{c.label(lang)}</option> }).collect_view();
        view! {
            <div class="item-row" data-testid="item-row">
                <TextInput state id=format!("it-{i}-name") label=K::ItemName unit=None hint=None placeholder=None numeric=false value=get(|x| x.name.clone()) error=Signal::derive(|| None::<String>) commit=name/>
                <TextInput state id=format!("it-{i}-amount") label=K::ItemAmount unit=None hint=None placeholder=None numeric=true value=get(|x| format!("{}", x.amount)) error=amount_error commit=amount/>
                <div class="field">
                    <label for=format!("it-{i}-currency")>{t(lang, K::Currency)}</label>
                    <div class="control"><select id=format!("it-{i}-currency") on:change=currency>{options}</select></div>
                </div>
                <div class="field check">
                    <input type="checkbox" id=format!("it-{i}-monthly") prop:checked=move || state.plan.with(|p| p.cost.items.get(i).is_some_and(|x| x.monthly)) on:change=monthly/>
                    <label for=format!("it-{i}-monthly")>{t(lang, K::ItemMonthly)}</label>
                </div>
                <button type="button" class="link" on:click=remove>{t(lang, K::RemoveRow)}</button>
            </div>
        }
    };
    view! {
        <fieldset class="offer-group items">
            <legend>{t(lang, K::ItemsTitle)}</legend>
            // Rows are by position, all redrawn when the count changes or a
            // plan loads, so no row keeps the text typed into another.
            {move || {
                state.loaded.track();
                (0..count.get()).map(row).collect_view()
            }}
            <button type="button" data-testid="item-add" on:click=add>{t(lang, K::ItemAdd)}</button>
        </fieldset>
    }
}
