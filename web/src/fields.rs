//! Form controls bound to one plan field each. Numbers keep the raw text the
//! user typed; the plan only changes when the text parses. Specs hold plain
//! function pointers so that each control is compiled once, not per field.

use gpuplan_core::plan::Plan;
use leptos::prelude::*;

use crate::fmt;
use crate::i18n::{t, Lang, K};
use crate::options::Opt;
use crate::state::use_app;

/// A number input.
#[derive(Clone, Copy)]
pub struct Num {
    pub label: K,
    /// Dotted plan path, as the core names it in validation errors.
    pub path: &'static str,
    pub unit: Option<K>,
    pub hint: Option<K>,
    /// Whole numbers only.
    pub int: bool,
    /// Empty text means "not given" (None).
    pub optional: bool,
    pub get: fn(&Plan) -> Option<f64>,
    pub set: fn(&mut Plan, Option<f64>),
}

/// A choice among options, shown as a select or as radio buttons.
#[derive(Clone, Copy)]
pub struct Choice {
    pub label: K,
    pub path: &'static str,
    pub opts: &'static [Opt],
    pub get: fn(&Plan) -> &'static str,
    pub set: fn(&mut Plan, &str),
}

/// A checkbox.
#[derive(Clone, Copy)]
pub struct Check {
    pub label: K,
    pub path: &'static str,
    pub get: fn(&Plan) -> bool,
    pub set: fn(&mut Plan, bool),
}

/// Reads the text of a number field: Ok(None) for an allowed empty field.
pub fn parse(text: &str, int: bool, optional: bool) -> Result<Option<f64>, K> {
    let s = text.trim();
    if s.is_empty() {
        return if optional { Ok(None) } else { Err(K::NotNumber) };
    }
    let v: f64 = s.parse().map_err(|_| K::NotNumber)?;
    if !v.is_finite() {
        return Err(K::NotNumber);
    }
    if int && (v < 0.0 || v.fract() != 0.0) {
        return Err(K::NotWhole);
    }
    Ok(Some(v))
}

/// Element id for a plan path: "inference.context" -> "f-inference-context".
pub fn field_id(path: &str) -> String {
    format!("f-{}", path.replace('.', "-"))
}

pub fn num(lang: Lang, spec: Num) -> AnyView {
    let app = use_app();
    let raw: RwSignal<Option<String>> = RwSignal::new(None);
    let typo: RwSignal<Option<K>> = RwSignal::new(None);
    let id = field_id(spec.path);
    let err_id = format!("{id}-err");
    // A memo, so an edit elsewhere leaves this field's DOM value alone.
    let text = Memo::new(move |_| {
        raw.get().unwrap_or_else(|| app.plan.with(|p| (spec.get)(p).map(fmt::field).unwrap_or_default()))
    });
    let on_input = move |ev: leptos::ev::Event| {
        let s = event_target_value(&ev);
        match parse(&s, spec.int, spec.optional) {
            Ok(v) => {
                typo.set(None);
                app.plan.update(|p| (spec.set)(p, v));
            }
            Err(k) => typo.set(Some(k)),
        }
        raw.set(Some(s));
    };
    let error = Memo::new(move |_| {
        typo.get().map(|k| t(lang, k).to_string()).or_else(|| app.field_error(lang, spec.path))
    });
    let described = err_id.clone();
    view! {
        <div class="field" class:invalid=move || error.with(Option::is_some)>
            <label for=id.clone()>{t(lang, spec.label)}</label>
            <div class="control">
                <input
                    id=id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=text
                    on:input=on_input
                    aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                    aria-describedby=move || error.with(Option::is_some).then(|| described.clone())
                />
                {spec.unit.map(|u| view! { <span class="unit">{t(lang, u)}</span> })}
            </div>
            {spec.hint.map(|h| view! { <p class="hint">{t(lang, h)}</p> })}
            {move || {
                error
                    .get()
                    .map(|m| {
                        view! {
                            <p class="error" data-testid="input-error" id=err_id.clone() role="alert">
                                {m}
                            </p>
                        }
                    })
            }}
        </div>
    }
    .into_any()
}

pub fn select(lang: Lang, spec: Choice) -> AnyView {
    let app = use_app();
    let id = field_id(spec.path);
    let current = Memo::new(move |_| app.plan.with(spec.get));
    let on_change = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        app.plan.update(|p| (spec.set)(p, &v));
    };
    let error = Memo::new(move |_| app.field_error(lang, spec.path));
    view! {
        <div class="field">
            <label for=id.clone()>{t(lang, spec.label)}</label>
            <div class="control">
                <select id=id on:change=on_change>
                    {spec
                        .opts
                        .iter()
                        .map(|o| {
                            view! {
                                <option value=o.value prop:selected=move || current.get() == o.value>
                                    {o.label(lang)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            {move || {
                error.get().map(|m| view! { <p class="error" data-testid="input-error" role="alert">{m}</p> })
            }}
        </div>
    }
    .into_any()
}

/// Radio buttons as a segmented control, for short exclusive choices.
pub fn radios(lang: Lang, spec: Choice) -> AnyView {
    let app = use_app();
    let name = field_id(spec.path);
    let current = Memo::new(move |_| app.plan.with(spec.get));
    view! {
        <fieldset class="field segmented">
            <legend>{t(lang, spec.label)}</legend>
            <div class="segments">
                {spec
                    .opts
                    .iter()
                    .map(|o| {
                        let id = format!("{name}-{}", o.value);
                        view! {
                            <input
                                type="radio"
                                id=id.clone()
                                name=name.clone()
                                value=o.value
                                prop:checked=move || current.get() == o.value
                                on:change=move |_| app.plan.update(|p| (spec.set)(p, o.value))
                            />
                            <label for=id>{o.label(lang)}</label>
                        }
                    })
                    .collect_view()}
            </div>
        </fieldset>
    }
    .into_any()
}

pub fn check(lang: Lang, spec: Check) -> AnyView {
    let app = use_app();
    let id = field_id(spec.path);
    let on = Memo::new(move |_| app.plan.with(spec.get));
    view! {
        <div class="field check">
            <input
                type="checkbox"
                id=id.clone()
                prop:checked=move || on.get()
                on:change=move |ev| {
                    let v = event_target_checked(&ev);
                    app.plan.update(|p| (spec.set)(p, v));
                }
            />
            <label for=id>{t(lang, spec.label)}</label>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_numbers() {
        assert_eq!(parse(" 8192 ", true, false), Ok(Some(8192.0)));
        assert_eq!(parse("0.9", false, false), Ok(Some(0.9)));
        assert_eq!(parse("1e9", true, false), Ok(Some(1e9)));
        assert_eq!(parse("", false, true), Ok(None));
        assert_eq!(parse("", false, false), Err(K::NotNumber));
        assert_eq!(parse("abc", false, false), Err(K::NotNumber));
        assert_eq!(parse("inf", false, false), Err(K::NotNumber));
        assert_eq!(parse("1.5", true, false), Err(K::NotWhole));
        assert_eq!(parse("-2", true, false), Err(K::NotWhole));
        assert_eq!(parse("-2", false, false), Ok(Some(-2.0)));
    }

    #[test]
    fn ids_from_paths() {
        assert_eq!(field_id("inference.context"), "f-inference-context");
        assert_eq!(field_id("model.arch.kv_heads"), "f-model-arch-kv_heads");
    }
}
