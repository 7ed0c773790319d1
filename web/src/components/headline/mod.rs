//! The headline blocks: peak memory, its breakdown against the plan's GPU,
//! the answer, and why each part is what it is. The peak and the "why"
//! follow `head_shown`, so they change in the frame of the keystroke; each
//! figure is its own text node or style, not a redrawn block.

mod model;

use gpuplan_core::plan::Task;
use leptos::prelude::*;

use crate::components::market::top;
use crate::i18n::{t, K};
use crate::state::AppState;
use model::{Answer, Head, OptionRow, WhyItem};

/// The peak, what kind it is, and the stacked bar with its verdict and legend.
#[component]
pub fn Headline(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let head = Memo::new(move |_| {
        let unit = state.unit.get();
        state.head_shown.with(|r| r.as_deref().map(|r| model::head(r, lang, unit)))
    });
    let read = move |f: fn(&Head) -> String| move || head.with(|h| h.as_ref().map(f).unwrap_or_default());
    view! {
        <div>
            <div class="peak">
                <p class="peak-label">{t(lang, K::PeakMemory)}</p>
                <p class="peak-value" data-testid="peak-memory">{read(|h| h.peak.clone())}</p>
                <p class="peak-kind">{read(|h| h.kind.clone())}</p>
            </div>
            <div class="breakdown">
                <h3>{t(lang, K::Breakdown)}</h3>
                <Show when=move || head.with(Option::is_some)>
                    <Breakdown head/>
                </Show>
            </div>
        </div>
    }
}

/// The bar, keyed by component, each segment's width and each legend's size
/// bound to the headline.
#[component]
fn Breakdown(head: Memo<Option<Head>>) -> impl IntoView {
    let style = move |f: fn(&Head) -> String| move || head.with(|h| h.as_ref().map(f).unwrap_or_default());
    let classes =
        move || head.with(|h| h.iter().flat_map(|h| h.parts.iter().map(|p| p.class)).collect::<Vec<_>>());
    let part = move |class: &'static str, f: fn(&model::Part) -> String| {
        move || {
            head.with(|h| {
                h.iter().flat_map(|h| &h.parts).find(|p| p.class == class).map(f).unwrap_or_default()
            })
        }
    };
    let verdict = move |f: fn(&model::Verdict) -> String| {
        move || head.with(|h| h.as_ref().and_then(|h| h.verdict.as_ref()).map(f).unwrap_or_default())
    };
    view! {
        <div>
            <div class="bar" aria-hidden="true">
                <div class="fill" style=style(|h| h.fill.clone())>
                    <For each=classes key=|c| *c let:class>
                        <div
                            class=format!("seg {class}")
                            style=part(class, |p| p.width.clone())
                            title=part(class, |p| p.title.clone())
                        ></div>
                    </For>
                </div>
                <div class="headroom" style=style(|h| h.headroom.clone())></div>
                <div class="limit" style=style(|h| h.limit.clone())></div>
            </div>
            <Show when=move || head.with(|h| h.as_ref().is_some_and(|h| h.verdict.is_some()))>
                <p class="verdict">
                    <strong class=verdict(|v| v.class.into()) data-testid="fit-verdict">
                        {verdict(|v| v.word.into())}
                    </strong>
                    {verdict(|v| v.of.clone())}
                </p>
            </Show>
            <ul class="legend">
                <For each=classes key=|c| *c let:class>
                    <li>
                        <span class=format!("swatch {class}") aria-hidden="true"></span>
                        {part(class, |p| p.name.into())}
                        " "
                        <strong>{part(class, |p| p.size.clone())}</strong>
                    </li>
                </For>
            </ul>
        </div>
    }
}

/// The answer beside the peak: the GPUs to order and the cheapest option
/// that meets the plan. It follows the whole report, once an edit settles.
#[component]
pub fn AnswerBlock(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let answer = Memo::new(move |_| {
        let span = state.settled.with(|p| match p.task {
            Task::Train => t(lang, K::AnswerRun).to_string(),
            Task::Infer => t(lang, K::AnswerMonths).replace("{}", &gpuplan_core::money::num(p.cost.months)),
        });
        let market = state.market_view.with(|v| v.as_deref().and_then(|v| top(v, lang)));
        let answer = state.shown.with(|r| r.as_deref().and_then(|r| model::answer(r, &span, lang)));
        answer.map(|a| model::Answer { market: model::market_rows(market, lang), ..a })
    });
    move || answer.get().map(|a| answer_view(a, lang))
}

fn answer_view(a: Answer, lang: crate::i18n::Lang) -> impl IntoView {
    let cost = match a.cost {
        Some(row) => option_row(row).into_any(),
        None => view! { <p class="answer-note">{t(lang, K::AnswerNoOffer)}</p> }.into_any(),
    };
    view! {
        <div class="answer" class:over=a.over data-testid="answer">
            <p>
                <span class="answer-label">{t(lang, K::AnswerGpus)}</span>
                <strong data-testid="answer-gpus">{a.gpus}</strong>
                <span class="answer-note">{a.note}</span>
            </p>
            {cost}
            {a.best.map(option_row)}
            {a.market.into_iter().map(option_row).collect_view()}
        </div>
    }
}

fn option_row(row: OptionRow) -> impl IntoView {
    view! {
        <p>
            <span class="answer-label">{row.label}</span>
            <strong data-testid=row.testid>{row.total}</strong>
            <span class="answer-note">{row.note}</span>
        </p>
    }
}

/// "Why this number": per component, the formula with numbers and its
/// source, then the engine's remarks. The seven items stay in place, hidden
/// when they do not apply, so one the reader opened stays open.
#[component]
pub fn Why(state: AppState) -> impl IntoView {
    let lang = state.lang;
    let items = Memo::new(move |_| {
        let unit = state.unit.get();
        state.head_shown.with(|r| model::why(r.as_deref(), lang, unit))
    });
    let notes = Memo::new(move |_| state.head_shown.with(|r| model::notes(r.as_deref(), lang)));
    let labels = items.with_untracked(|all| all.iter().map(|i| i.label).collect::<Vec<_>>());
    let rows = labels.into_iter().enumerate().map(|(i, label)| {
        let read = move |f: fn(&WhyItem) -> String| move || items.with(|all| all.get(i).map(f).unwrap_or_default());
        view! {
            <details class="why-item" hidden=move || items.with(|all| all.get(i).is_none_or(|w| w.shown.is_none()))>
                <summary>{label}" · "{read(|w| w.shown.as_ref().map(|e| e.size.clone()).unwrap_or_default())}</summary>
                <dl>
                    <dt>{t(lang, K::Formula)}</dt>
                    <dd class="formula">{read(|w| w.shown.as_ref().map(|e| e.formula.clone()).unwrap_or_default())}</dd>
                    <dt>{t(lang, K::Source)}</dt>
                    <dd>{read(|w| w.shown.as_ref().map(|e| e.source.clone()).unwrap_or_default())}</dd>
                </dl>
            </details>
        }
    });
    view! {
        <div class="why">
            <h3>{t(lang, K::Why)}</h3>
            {rows.collect_view()}
            <ul class="notes">
                <For each=move || notes.get() key=|n| n.clone() let:note>
                    <li>{note}</li>
                </For>
            </ul>
        </div>
    }
}
