//! Form controls bound to one plan field each, built as plain data for the
//! inputs column's patched block. Numbers keep the raw text the user typed;
//! the plan only changes when the text parses. A control reads and writes
//! its field as text through the plan's table of fields (`plan::field`, the
//! one the share link and the CLI use), so no field has accessors of its own.

use gpuplan_core::error::FieldError;
use gpuplan_core::plan::{self, Plan};

use crate::dom::{h, El};
use crate::i18n::{t, Lang, K};
use crate::options::Opt;
use crate::state::bare;

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

/// One field of the column, as its events find it by path.
#[derive(Clone, Copy)]
pub enum Spec {
    Num(Num),
    Choice(Choice),
    Check(Check),
}

impl Spec {
    pub fn path(&self) -> &'static str {
        match self {
            Spec::Num(n) => n.path,
            Spec::Choice(c) => c.path,
            Spec::Check(c) => c.path,
        }
    }
}

/// Builds the column's fields from the plan and records each one it shows,
/// so that an event on a control finds the setter of its field by path.
pub struct Form<'a> {
    pub lang: Lang,
    pub plan: &'a Plan,
    /// Text typed into number fields, by path (see [`Typed`]).
    typed: &'a Typed,
    /// The plan's problems, from the core.
    errs: &'a [FieldError],
    pub specs: Vec<Spec>,
}

/// What the user typed into number fields: path, text, and the field's
/// value in the plan right after (as text). The text is shown instead of the plan's
/// value while that value is unchanged, so a half-typed, invalid or
/// out-of-range number is never rewritten under the caret; a value changed
/// another way (a model kind switch) shows as the plan has it.
pub type Typed = Vec<(&'static str, String, String)>;

impl<'a> Form<'a> {
    pub fn new(lang: Lang, plan: &'a Plan, typed: &'a Typed, errs: &'a [FieldError]) -> Self {
        Form { lang, plan, typed, errs, specs: Vec::new() }
    }

    /// The core's messages for the field at `path`, without the path prefix.
    fn core_error(&self, path: &str) -> Option<String> {
        let msgs: Vec<String> =
            self.errs.iter().filter(|e| e.field == path).map(|e| bare(e, self.lang)).collect();
        (!msgs.is_empty()).then(|| msgs.join("; "))
    }

    pub fn num(&mut self, spec: Num) -> El {
        self.specs.push(Spec::Num(spec));
        let lang = self.lang;
        let id = field_id(spec.path);
        let value = shown(self.plan, spec.path);
        let typed =
            self.typed.iter().find(|(p, _, at)| *p == spec.path && *at == value).map(|(_, t, _)| t.as_str());
        let text = typed.map_or(value.as_str(), |t| t);
        let typo = typed.and_then(|t| parse(t, spec.int, spec.optional).err());
        let error = typo.map(|k| t(lang, k).to_string()).or_else(|| self.core_error(spec.path));
        let err_id = format!("{id}-err");
        let mut input = h("input")
            .a("id", &id)
            .a("type", "text")
            .a("inputmode", "decimal")
            .a("autocomplete", "off")
            .a("spellcheck", "false")
            .a("value", text)
            .a("data-act", "num")
            .a("data-arg", spec.path)
            .a("aria-invalid", if error.is_some() { "true" } else { "false" });
        if error.is_some() {
            input = input.a("aria-describedby", &err_id);
        }
        let control =
            h("div").c("control").k(input).opt(spec.unit.map(|u| h("span").c("unit").t(t(lang, u))));
        h("div")
            .c(if error.is_some() { "field invalid" } else { "field" })
            .k(h("label").a("for", &id).t(t(lang, spec.label)))
            .k(control)
            .opt(spec.hint.map(|k| h("p").c("hint").t(t(lang, k))))
            .opt(error.map(|m| error_p(&m).a("id", &err_id)))
    }

    pub fn select(&mut self, spec: Choice) -> El {
        self.specs.push(Spec::Choice(spec));
        let current = read(self.plan, spec.path);
        let options = spec.opts.iter().map(|o| option(o.value, o.label(self.lang), o.value == current));
        let id = field_id(spec.path);
        let select = h("select").a("id", &id).a("data-act", "choice").a("data-arg", spec.path).ks(options);
        labelled(&id, t(self.lang, spec.label), select).opt(self.core_error(spec.path).map(|m| error_p(&m)))
    }

    /// Radio buttons as a segmented control, for short exclusive choices.
    pub fn radios(&mut self, spec: Choice) -> El {
        self.specs.push(Spec::Choice(spec));
        self.segmented(spec, &read(self.plan, spec.path), "choice")
    }

    /// Radio buttons for `current`, each change sent to the column's `act`.
    pub fn segmented(&self, spec: Choice, current: &str, act: &str) -> El {
        let name = field_id(spec.path);
        let buttons = spec.opts.iter().flat_map(|o| {
            let id = format!("{name}-{}", o.value);
            let radio = h("input")
                .a("type", "radio")
                .a("id", &id)
                .a("name", &name)
                .a("value", o.value)
                .a("data-act", act)
                .a("data-arg", spec.path);
            [radio.flag("checked", o.value == current), h("label").a("for", &id).t(o.label(self.lang))]
        });
        h("fieldset")
            .c("field segmented")
            .k(h("legend").t(t(self.lang, spec.label)))
            .k(h("div").c("segments").ks(buttons))
    }

    pub fn check(&mut self, spec: Check) -> El {
        self.specs.push(Spec::Check(spec));
        let id = field_id(spec.path);
        let input =
            h("input").a("type", "checkbox").a("id", &id).a("data-act", "check").a("data-arg", spec.path);
        let input = input.flag("checked", read(self.plan, spec.path) == "1");
        h("div").c("field check").k(input).k(h("label").a("for", &id).t(t(self.lang, spec.label)))
    }
}

/// A field's error message, announced as it appears.
fn error_p(message: &str) -> El {
    h("p").c("error").a("data-testid", "input-error").a("role", "alert").t(message)
}

/// An `<option>`, selected or not.
pub fn option(value: &str, label: &str, selected: bool) -> El {
    h("option").a("value", value).t(label).flag("selected", selected)
}

/// A labelled control in the column's field layout.
pub fn labelled(id: &str, label: &str, control: El) -> El {
    h("div").c("field").k(h("label").a("for", id).t(label)).k(h("div").c("control").k(control))
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

    const CONTEXT: Num = Num {
        label: K::Context,
        path: "inference.context",
        unit: None,
        hint: None,
        int: true,
        optional: false,
    };

    #[test]
    fn typed_text_shows_until_the_value_changes_another_way() {
        let mut plan = Plan {
            inference: gpuplan_core::plan::Inference { context: 8000, ..Default::default() },
            ..Default::default()
        };
        let typed: Typed = vec![("inference.context", "8e3".into(), "8000".into())];
        let el = Form::new(Lang::En, &plan, &typed, &[]).num(CONTEXT);
        assert_eq!(el.find("input", "value"), Some("8e3"));
        assert_eq!(el.find("input", "aria-invalid"), Some("false"));
        plan.inference.context = 4096;
        let el = Form::new(Lang::En, &plan, &typed, &[]).num(CONTEXT);
        assert_eq!(el.find("input", "value"), Some("4096"));
    }

    #[test]
    fn a_typo_or_a_core_error_shows_next_to_its_field() {
        let plan = Plan::default();
        let now = plan.inference.context.to_string();
        let typed: Typed = vec![("inference.context", "12x".into(), now)];
        let mut form = Form::new(Lang::En, &plan, &typed, &[]);
        let el = form.num(CONTEXT);
        assert_eq!(el.find("input", "value"), Some("12x"), "the typed text stays");
        assert_eq!(el.find("input", "aria-invalid"), Some("true"));
        assert_eq!(el.find("input", "aria-describedby"), Some("f-inference-context-err"));
        assert!(el.text().contains(t(Lang::En, K::NotNumber)));
        assert!(matches!(form.specs.as_slice(), [Spec::Num(n)] if n.path == "inference.context"));
        let mut bad = plan.clone();
        bad.inference.context = 0;
        let errs = bad.validate();
        let el = Form::new(Lang::En, &bad, &Vec::new(), &errs).num(CONTEXT);
        assert_eq!(el.find("input", "value"), Some("0"));
        assert_eq!(el.find("p", "role"), Some("alert"));
        assert!(!el.text().contains("inference.context"), "the message drops its path: {}", el.text());
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
