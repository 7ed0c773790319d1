//! Form controls bound to one plan field each. A control reads and writes
//! its field as text through the plan's table of fields (`plan::field`, the
//! one the share link and the CLI use), so no field has accessors of its own.
//! Numbers keep the raw text the user typed; the plan only changes when the
//! text parses.

use gpuplan_core::error::FieldError;
use gpuplan_core::plan::{self, Plan};
use leptos::prelude::*;

use crate::i18n::{t, Lang, K};
use crate::options::Opt;
use crate::state::{bare, AppState};

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
    /// Shown only for plans where this holds (a setting of some engines).
    pub only_if: Option<fn(&Plan) -> bool>,
}

/// A number field taking any number.
pub const fn real(label: K, path: &'static str) -> Num {
    Num { label, path, unit: None, hint: None, int: false, optional: false, only_if: None }
}

/// A number field taking whole numbers only.
pub const fn whole(label: K, path: &'static str) -> Num {
    Num { int: true, ..real(label, path) }
}

impl Num {
    pub const fn unit(self, unit: K) -> Num {
        Num { unit: Some(unit), ..self }
    }

    pub const fn hint(self, hint: K) -> Num {
        Num { hint: Some(hint), ..self }
    }

    pub const fn optional(self) -> Num {
        Num { optional: true, ..self }
    }

    pub const fn only_if(self, rule: fn(&Plan) -> bool) -> Num {
        Num { only_if: Some(rule), ..self }
    }
}

/// A choice among options, shown as a select or as radio buttons.
#[derive(Clone, Copy)]
pub struct Choice {
    pub label: K,
    pub path: &'static str,
    pub opts: &'static [Opt],
}

/// A checkbox.
#[derive(Clone, Copy)]
pub struct Check {
    pub label: K,
    pub path: &'static str,
}

/// One field of the column.
#[derive(Clone, Copy)]
pub enum Spec {
    Num(Num),
    Select(Choice),
    Check(Check),
}

pub const fn select(label: K, path: &'static str, opts: &'static [Opt]) -> Spec {
    Spec::Select(Choice { label, path, opts })
}

pub const fn check(label: K, path: &'static str) -> Spec {
    Spec::Check(Check { label, path })
}

impl Spec {
    /// The plan path the control is bound to.
    pub fn path(&self) -> &'static str {
        match self {
            Spec::Num(n) => n.path,
            Spec::Select(c) => c.path,
            Spec::Check(c) => c.path,
        }
    }
}

/// A field's value as text ("" when it does not apply or is not given).
pub fn read(plan: &Plan, path: &str) -> String {
    plan::field(path).and_then(|f| f.text(plan)).unwrap_or_default()
}

/// Sets a field from text; a field or text the core cannot use leaves the
/// plan as it was.
pub fn write(plan: &mut Plan, path: &str, text: &str) {
    if let Some(f) = plan::field(path) {
        f.write(plan, text);
    }
}

/// The measured throughputs: the column edits the chosen GPU's one entry.
pub const MEASURED: &str = "inference.measured";

/// The id the chosen GPU's measurement is filed under.
fn chosen_id(plan: &Plan) -> Option<String> {
    plan.hardware.chosen().map(|g| g.id.to_string())
}

/// What a number field shows: its value, or the chosen GPU's measurement.
pub fn shown(plan: &Plan, path: &str) -> String {
    if path != MEASURED {
        return read(plan, path);
    }
    let gpu = chosen_id(plan);
    let m = plan.inference.measured.iter().find(|m| Some(&m.gpu) == gpu.as_ref());
    m.map(|m| m.tok_s.to_string()).unwrap_or_default()
}

/// Sets a number field from text; for the measurement, the chosen GPU's
/// entry (empty text removes it), the other GPUs' entries kept.
pub fn set(plan: &mut Plan, path: &str, text: &str) {
    if path != MEASURED {
        return write(plan, path, text);
    }
    let Some(gpu) = chosen_id(plan) else { return };
    let list = &mut plan.inference.measured;
    list.retain(|m| m.gpu != gpu);
    if let Ok(tok_s) = text.parse::<f64>() {
        list.push(plan::Measured { gpu, tok_s });
    }
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

/// What the user last typed into a number field, with the field's value in
/// the plan right after (as text) and the plan load it was typed under.
#[derive(Clone, PartialEq)]
pub struct Typed {
    pub text: String,
    pub at: String,
    pub load: u32,
}

impl Typed {
    /// The typed text, while it still stands for the field: the plan's value
    /// is what the text left it, and no other plan was loaded since. So a
    /// half-typed, invalid or out-of-range number is never rewritten under
    /// the caret, and a value changed another way (a model kind switch, a
    /// loaded plan) shows as the plan has it.
    pub fn standing(&self, value: &str, load: u32) -> Option<&str> {
        (self.at == value && self.load == load).then_some(self.text.as_str())
    }
}

/// The core's messages for the field at `path`, without the path prefix.
pub fn core_error(errs: &[FieldError], path: &str, lang: Lang) -> Option<String> {
    let msgs: Vec<String> = errs.iter().filter(|e| e.field == path).map(|e| bare(e, lang)).collect();
    (!msgs.is_empty()).then(|| msgs.join("; "))
}

/// The page's current message for the field at `path`, if any.
fn plan_error(state: AppState, path: &'static str) -> Option<String> {
    state.errors(|errs| core_error(errs.map_or(&[][..], Vec::as_slice), path, state.lang))
}

/// One field of the column, by its kind.
pub fn field(state: AppState, spec: Spec) -> AnyView {
    match spec {
        Spec::Num(n) => view! { <NumField state spec=n/> }.into_any(),
        Spec::Select(c) => view! { <SelectField state spec=c/> }.into_any(),
        Spec::Check(c) => view! { <CheckField state spec=c/> }.into_any(),
    }
}

/// Fields laid out in a grid.
pub fn grid(state: AppState, specs: &'static [Spec]) -> impl IntoView {
    view! { <div class="grid">{specs.iter().map(|s| field(state, *s)).collect_view()}</div> }
}

/// Checkboxes in a row.
pub fn checks(state: AppState, specs: &'static [Spec]) -> impl IntoView {
    view! { <div class="checks">{specs.iter().map(|s| field(state, *s)).collect_view()}</div> }
}

/// A number field, or none while its rule says the plan has no use for it.
#[component]
pub fn NumField(state: AppState, spec: Num) -> impl IntoView {
    match spec.only_if {
        None => view! { <NumInput state spec/> }.into_any(),
        Some(rule) => {
            let applies = Memo::new(move |_| state.plan.with(rule));
            (move || applies.get().then(|| view! { <NumInput state spec/> })).into_any()
        }
    }
}

/// A number field of the plan: its text read as the spec says, then set
/// through the core's field table.
#[component]
fn NumInput(state: AppState, spec: Num) -> impl IntoView {
    let value = Memo::new(move |_| state.plan.with(|p| shown(p, spec.path)));
    let error = Signal::derive(move || plan_error(state, spec.path));
    let commit = Callback::new(move |text: String| {
        // Checked here for the field's message; the core reads the same text.
        let typo = parse(&text, spec.int, spec.optional).err();
        if typo.is_none() {
            state.plan.update(|p| set(p, spec.path, text.trim()));
        }
        typo
    });
    let id = field_id(spec.path);
    view! {
        <TextInput state id label=spec.label unit=spec.unit hint=spec.hint placeholder=None numeric=true value error commit/>
    }
}

/// A text input that keeps what was typed while it stands for the value
/// (see [`Typed`]): a half-typed, invalid or out-of-range entry is never
/// rewritten under the caret. Its message is the typo's, else `error`.
#[component]
pub fn TextInput(
    state: AppState,
    id: String,
    label: K,
    unit: Option<K>,
    hint: Option<K>,
    placeholder: Option<K>,
    /// A number: the phone shows its number keys.
    numeric: bool,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] error: Signal<Option<String>>,
    /// Sets the value from the text; the key of its typo, if any.
    commit: Callback<String, Option<K>>,
) -> impl IntoView {
    let lang = state.lang;
    // What was typed here before, also by a field this one replaces.
    let typed = RwSignal::new(state.typed.with_value(|all| all.get(&id).cloned()));
    // The text the field shows, and its typo while it is the user's.
    let text = Memo::new(move |_| {
        let load = state.loaded.get();
        value.with(|v| {
            typed.with(|t| {
                match t.as_ref().and_then(|(t, typo)| t.standing(v, load).map(|s| (s.to_string(), *typo))) {
                    Some(shown) => shown,
                    None => (v.clone(), None),
                }
            })
        })
    });
    let message = Memo::new(move |_| match text.with(|(_, typo)| *typo) {
        Some(k) => Some(t(lang, k).to_string()),
        None => error.get(),
    });
    let invalid = move || message.with(Option::is_some);
    let key = id.clone();
    let input = move |ev| {
        let text = event_target_value(&ev);
        let typo = commit.run(text.clone());
        let at = value.get_untracked();
        let entry = (Typed { text, at, load: state.loaded.get_untracked() }, typo);
        state.typed.update_value(|all| {
            all.insert(key.clone(), entry.clone());
        });
        typed.set(Some(entry));
    };
    let err_id = format!("{id}-err");
    let described = err_id.clone();
    view! {
        <div class=move || if invalid() { "field invalid" } else { "field" }>
            <label for=id.clone()>{t(lang, label)}</label>
            <div class="control">
                <input
                    id=id
                    type="text"
                    inputmode=numeric.then_some("decimal")
                    autocomplete="off"
                    spellcheck="false"
                    placeholder=placeholder.map(|k| t(lang, k))
                    prop:value=move || text.with(|(s, _)| s.clone())
                    aria-invalid=move || if invalid() { "true" } else { "false" }
                    aria-describedby=move || invalid().then(|| described.clone())
                    on:input=input
                />
                {unit.map(|u| view! { <span class="unit">{t(lang, u)}</span> })}
            </div>
            {hint.map(|k| view! { <p class="hint">{t(lang, k)}</p> })}
            {move || message.get().map(|m| view! { <ErrorText message=m id=err_id.clone()/> })}
        </div>
    }
}

/// A field's error message, announced as it appears.
#[component]
fn ErrorText(message: String, #[prop(optional)] id: Option<String>) -> impl IntoView {
    view! { <p class="error" data-testid="input-error" role="alert" id=id>{message}</p> }
}

#[component]
pub fn SelectField(state: AppState, spec: Choice) -> impl IntoView {
    let lang = state.lang;
    let id = field_id(spec.path);
    let current = Memo::new(move |_| state.plan.with(|p| read(p, spec.path)));
    let error = Memo::new(move |_| plan_error(state, spec.path));
    let options = spec.opts.iter().map(|o| {
        view! {
            <option value=o.value prop:selected=move || current.with(|c| c == o.value)>
                {o.label(lang)}
            </option>
        }
    });
    view! {
        <div class="field">
            <label for=id.clone()>{t(lang, spec.label)}</label>
            <div class="control">
                <select
                    id=id
                    on:change=move |ev| state.plan.update(|p| write(p, spec.path, &event_target_value(&ev)))
                >
                    {options.collect_view()}
                </select>
            </div>
            {move || error.get().map(|m| view! { <ErrorText message=m/> })}
        </div>
    }
}

/// Radio buttons as a segmented control, for short exclusive choices: `read`
/// gives the current option's value, `pick` sets the plan to another.
#[component]
pub fn Segmented(
    state: AppState,
    spec: Choice,
    read: fn(&Plan) -> String,
    pick: fn(&mut Plan, &str),
) -> impl IntoView {
    let lang = state.lang;
    let name = field_id(spec.path);
    let current = Memo::new(move |_| state.plan.with(read));
    let buttons = spec.opts.iter().map(|o| {
        let id = format!("{name}-{}", o.value);
        view! {
            <input
                type="radio"
                id=id.clone()
                name=name.clone()
                value=o.value
                prop:checked=move || current.with(|c| c == o.value)
                on:change=move |_| state.plan.update(|p| pick(p, o.value))
            />
            <label for=id>{o.label(lang)}</label>
        }
    });
    view! {
        <fieldset class="field segmented">
            <legend>{t(lang, spec.label)}</legend>
            <div class="segments">{buttons.collect_view()}</div>
        </fieldset>
    }
}

#[component]
pub fn CheckField(state: AppState, spec: Check) -> impl IntoView {
    let id = field_id(spec.path);
    let on = Memo::new(move |_| state.plan.with(|p| read(p, spec.path) == "1"));
    let toggle = move |ev| {
        let text = if event_target_checked(&ev) { "1" } else { "0" };
        state.plan.update(|p| write(p, spec.path, text));
    };
    view! {
        <div class="field check">
            <input type="checkbox" id=id.clone() prop:checked=move || on.get() on:change=toggle/>
            <label for=id>{t(state.lang, spec.label)}</label>
        </div>
    }
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

    const CONTEXT: Num = whole(K::Context, "inference.context");

    #[test]
    fn typed_text_shows_until_the_value_changes_another_way() {
        let typed = Typed { text: "8e3".into(), at: "8000".into(), load: 0 };
        assert_eq!(typed.standing("8000", 0), Some("8e3"));
        assert_eq!(typed.standing("4096", 0), None, "a value set another way shows");
        assert_eq!(typed.standing("8000", 1), None, "a loaded plan shows as it is");
        assert_eq!(
            typed.standing("8000", 0).map(|text| parse(text, CONTEXT.int, CONTEXT.optional)),
            Some(Ok(Some(8000.0)))
        );
    }

    #[test]
    fn a_typo_or_a_core_error_shows_next_to_its_field() {
        let plan = Plan::default();
        let now = plan.inference.context.to_string();
        let typed = Typed { text: "12x".into(), at: now.clone(), load: 0 };
        let shown = typed.standing(&now, 0);
        assert_eq!(shown, Some("12x"), "the typed text stays");
        assert_eq!(shown.map(|text| parse(text, CONTEXT.int, CONTEXT.optional)), Some(Err(K::NotNumber)));
        let mut bad = plan.clone();
        bad.inference.context = 0;
        let errs = bad.validate();
        let msg = core_error(&errs, CONTEXT.path, Lang::En).expect("the core's message");
        assert!(!msg.contains("inference.context"), "the message drops its path: {msg}");
        assert_eq!(core_error(&errs, "inference.concurrency", Lang::En), None);
    }

    /// Every control reads and writes through the core's table: a path it
    /// does not hold would be a field that never changes.
    #[test]
    fn fields_read_and_write_through_the_core() {
        let mut plan = Plan::default();
        write(&mut plan, "inference.context", "32768");
        assert_eq!(plan.inference.context, 32768);
        assert_eq!(read(&plan, "inference.context"), "32768");
        write(&mut plan, "training.loss", "1");
        assert_eq!(read(&plan, "training.loss"), "chunked", "v1's cce=1 reads as the chunked loss");
        write(&mut plan, "inference.engine", "transformers");
        assert_eq!(read(&plan, "inference.engine"), "transformers");
        write(&mut plan, "inference.context", "abc");
        assert_eq!(plan.inference.context, 32768, "unreadable text leaves the plan");
        assert_eq!(read(&plan, "model.arch.layers"), "", "a preset has no custom shape");
    }

    /// The measurement field edits the chosen GPU's entry only.
    #[test]
    fn the_measurement_is_the_chosen_gpu_s() {
        let mut plan = Plan::default();
        write(&mut plan, MEASURED, "l4:300");
        set(&mut plan, MEASURED, "900");
        assert_eq!(shown(&plan, MEASURED), "900");
        assert_eq!(read(&plan, MEASURED), "l4:300,h100-sxm:900");
        set(&mut plan, MEASURED, "");
        assert_eq!((shown(&plan, MEASURED), read(&plan, MEASURED)), (String::new(), "l4:300".into()));
        set(&mut plan, "inference.context", "4096");
        assert_eq!(plan.inference.context, 4096);
    }

    #[test]
    fn ids_from_paths() {
        assert_eq!(field_id("inference.context"), "f-inference-context");
        assert_eq!(field_id("model.arch.kv_heads"), "f-model-arch-kv_heads");
    }
}
