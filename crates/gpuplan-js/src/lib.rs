//! The JavaScript API: the core's numbers for pages that want them without
//! the UI. Plans and reports have the same JSON shape as the CLI's
//! `--plan FILE` and `--format json`.

use gpuplan_core::cost::Item;
use gpuplan_core::decode::{self, FromJson};
use gpuplan_core::error::FieldError;
use gpuplan_core::lang::Lang;
use gpuplan_core::market::{self, Defaults};
use gpuplan_core::offers::Offer;
use gpuplan_core::project::Project;
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(JsValue::from)
}

/// `value` as a `T`, or `{ errors: [{ field, message }] }` naming the value
/// of the wrong type by its path (`name` for the value as a whole), as
/// invalid fields are named. Only a value that does not read is read again,
/// as JSON data, to find that path.
fn read<T: FromJson>(value: JsValue, name: &str, lang: Lang) -> Result<T, JsValue> {
    match serde_wasm_bindgen::from_value(value.clone()) {
        Ok(read) => Ok(read),
        Err(_) => read_json(serde_wasm_bindgen::from_value(value).ok(), name, lang)
            .map_err(|e| to_js(&e).unwrap_or_else(|e| e)),
    }
}

/// The same, from the value as JSON data (None: not JSON data, such as a function).
pub fn read_json<T: FromJson>(json: Option<serde_json::Value>, name: &str, lang: Lang) -> Result<T, Errors> {
    let read = match &json {
        Some(json) => T::from_json(json, name),
        None => Err(decode::not_json(name)),
    };
    read.map_err(|e| Errors { errors: vec![Invalid { message: e.message(lang), field: e.field }] })
}

/// What the API throws for invalid fields: `{ errors: [{ field, message }] }`.
#[derive(Debug, Serialize)]
pub struct Errors {
    pub errors: Vec<Invalid>,
}

impl Errors {
    pub fn new(errs: &[FieldError], lang: Lang) -> Errors {
        Errors {
            errors: errs
                .iter()
                .map(|e| Invalid { field: e.field.clone(), message: e.message(lang) })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Invalid {
    pub field: String,
    pub message: String,
}

/// `estimate(plan, lang, offers)`: the report for a (possibly partial) plan
/// object, priced against `offers` when given (e.g. `market(...).offers`),
/// else the built-in examples. Throws `{ errors: [{ field, message }] }`
/// when fields are invalid.
#[wasm_bindgen]
pub fn estimate(plan: JsValue, lang: Option<String>, offers: Option<JsValue>) -> Result<JsValue, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let plan = read(plan, "plan", lang)?;
    let offers = offers_from(offers, lang)?;
    match gpuplan_core::report::evaluate_with(&plan, &offers, lang) {
        Ok(report) => to_js(&report),
        Err(errs) => Err(invalid(&errs, lang)),
    }
}

/// `summary(plan, lang, offers)`: the compact answer for a host page that
/// draws its own widget: `{ per_gpu_bytes, gpus: { id, name, count, nodes,
/// per_gpu_bytes, usable_bytes, fits }, cheapest, link, text }`, read from
/// the same report as `estimate`. With a host's `offers`, `cheapest` is the
/// cheapest of them on the plan's GPU; set `hardware.cheapest: true` in the
/// plan to choose the GPU by price among them too.
#[wasm_bindgen]
pub fn summary(plan: JsValue, lang: Option<String>, offers: Option<JsValue>) -> Result<JsValue, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let plan = read(plan, "plan", lang)?;
    let offers = offers_from(offers, lang)?;
    match gpuplan_core::report::evaluate_with(&plan, &offers, lang) {
        Ok(report) => to_js(&gpuplan_core::summary::summarize(&plan, &report, lang)),
        Err(errs) => Err(invalid(&errs, lang)),
    }
}

/// The offers given, else the built-in examples named in `lang`.
fn offers_from(offers: Option<JsValue>, lang: Lang) -> Result<Vec<Offer>, JsValue> {
    match given(offers) {
        Some(o) => read(o, "offers", lang),
        None => Ok(gpuplan_core::offers::defaults_in(lang)),
    }
}

/// An optional argument that is there: neither missing, undefined nor null.
fn given(value: Option<JsValue>) -> Option<JsValue> {
    value.filter(|v| !v.is_undefined() && !v.is_null())
}

/// `{ errors: [{ field, message }] }` for invalid fields.
fn invalid(errs: &[FieldError], lang: Lang) -> JsValue {
    to_js(&Errors::new(errs, lang)).unwrap_or_else(|e| e)
}

/// `budget(project, lang, offers)`: a project's budget by month, the same
/// JSON as `gpuplan budget --format json`. `project` is
/// `{ workloads: [{ name, plan, start_month, reuse }], lines, currency }`;
/// throws `{ errors: [{ field, message }] }` naming fields by their path
/// in the project (`workloads[1].plan.model`).
#[wasm_bindgen]
pub fn budget(project: JsValue, lang: Option<String>, offers: Option<JsValue>) -> Result<JsValue, JsValue> {
    to_js(&project_report(project, lang, offers)?.budget)
}

/// A project object's reports and budget, or its invalid fields as `budget` throws them.
fn project_report(
    project: JsValue,
    lang: Option<String>,
    offers: Option<JsValue>,
) -> Result<gpuplan_core::budget::ProjectReport, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let project: Project = read(project, "project", lang)?;
    let offers = offers_from(offers, lang)?;
    gpuplan_core::budget::evaluate(&project, &offers, lang).map_err(|errs| invalid(&errs, lang))
}

/// `project(project, lang, offers)`: every workload's report (each with
/// its checklist) and the budget, whose `machines` name each machine once
/// with the workload whose checklist is its own: `{ reports, budget }`.
/// Throws as `budget` does.
#[wasm_bindgen]
pub fn project(project: JsValue, lang: Option<String>, offers: Option<JsValue>) -> Result<JsValue, JsValue> {
    to_js(&project_report(project, lang, offers)?)
}

/// `decodeProjectLink(url, lang)`: the project a share link carries (a
/// version 1 link opens as one workload), what was ignored, and each
/// ignored key as a sentence in `lang` (`notices`).
#[wasm_bindgen(js_name = decodeProjectLink)]
pub fn decode_project_link(url: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Decoded {
        #[serde(flatten)]
        link: gpuplan_core::share::ProjectLink,
        notices: Vec<String>,
    }
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let link = gpuplan_core::share::decode_project(url);
    let notices = link.ignored.iter().map(|i| i.describe(lang)).collect();
    to_js(&Decoded { link, notices })
}

/// `encodeProjectLink(project)`: the share-link query string for a project.
#[wasm_bindgen(js_name = encodeProjectLink)]
pub fn encode_project_link(project: JsValue) -> Result<String, JsValue> {
    let project: Project = read(project, "project", Lang::En)?;
    Ok(gpuplan_core::share::encode_project(&project, None, None))
}

/// `decodeLink(url)`: the plan a share link carries, and what was ignored.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link(url: &str) -> Result<JsValue, JsValue> {
    to_js(&gpuplan_core::share::decode(url))
}

/// `encodeLink(plan)`: the share-link query string for a plan.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(plan: JsValue) -> Result<String, JsValue> {
    Ok(gpuplan_core::share::encode(&read(plan, "plan", Lang::En)?, None, None))
}

/// A file that could not be read: `{ error: { kind, ... }, message }`; a
/// truncated header's error says `need_at_least` bytes.
fn file_error(e: &gpuplan_core::model_files::FileError, lang: Option<String>) -> JsValue {
    #[derive(Serialize)]
    struct Failed<'a> {
        error: &'a gpuplan_core::model_files::FileError,
        message: String,
    }
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    to_js(&Failed { error: e, message: e.message(lang) }).unwrap_or_else(|e| e)
}

/// `importConfig(text)`: a model from a Hugging Face `config.json`, with what
/// was read, assumed and ignored; `model.arch` goes into a plan's custom model.
#[wasm_bindgen(js_name = importConfig)]
pub fn import_config(text: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    gpuplan_core::model_files::config::import(text).map_err(|e| file_error(&e, lang)).and_then(|m| to_js(&m))
}

/// `importGguf(bytes)`: a model from the first bytes of a `.gguf` file
/// (`file.slice(0, n)`); a truncated header's error names the bytes needed.
#[wasm_bindgen(js_name = importGguf)]
pub fn import_gguf(bytes: &[u8], lang: Option<String>) -> Result<JsValue, JsValue> {
    gpuplan_core::model_files::import_gguf(bytes).map_err(|e| file_error(&e, lang)).and_then(|m| to_js(&m))
}

/// `importSafetensors(bytes, fileSize)`: a model from the first 8 + header
/// bytes of a `.safetensors` file.
#[wasm_bindgen(js_name = importSafetensors)]
pub fn import_safetensors(
    bytes: &[u8],
    file_size: Option<f64>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let size = file_size.filter(|s| s.is_finite() && *s >= 0.0).map(|s| s as u64);
    gpuplan_core::model_files::import_safetensors(bytes, size)
        .map_err(|e| file_error(&e, lang))
        .and_then(|m| to_js(&m))
}

/// `importOffers(text, provider)`: a price sheet (SkyPilot catalog CSV or
/// gpuplan offers JSON) as `{ offers, items, notices: [{ line, message }],
/// unmapped: [{ name, rows }] }`; `provider` names a CSV without a provider column.
#[wasm_bindgen(js_name = importOffers)]
pub fn import_offers(text: &str, provider: Option<String>) -> Result<JsValue, JsValue> {
    let provider = provider.unwrap_or_default();
    to_js(&market::import(text, &Defaults { provider: &provider, date: "", source: "imported sheet" }))
}

/// `exportOffers(offers, items)`: gpuplan's offers JSON, every field.
#[wasm_bindgen(js_name = exportOffers)]
pub fn export_offers(offers: JsValue, items: Option<JsValue>) -> Result<String, JsValue> {
    let offers: Vec<Offer> = read(offers, "offers", Lang::En)?;
    let items: Vec<Item> = match given(items) {
        Some(i) => read(i, "items", Lang::En)?,
        None => Vec::new(),
    };
    Ok(market::export(&offers, &items))
}

/// `exportOffersCsv(offers)`: the offers as a CSV in SkyPilot's columns
/// (plus provider, currency and date), which `importOffers` reads back:
/// `{ csv, left_out }`, `left_out` the offers without an hourly price.
#[wasm_bindgen(js_name = exportOffersCsv)]
pub fn export_offers_csv(offers: JsValue) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Csv {
        csv: String,
        left_out: usize,
    }
    let offers: Vec<Offer> = read(offers, "offers", Lang::En)?;
    let (csv, left_out) = market::export_csv(&offers);
    to_js(&Csv { csv, left_out })
}

/// A paste the readers cannot use: `{ notice: { kind, ... }, message }`,
/// the message saying what was expected.
fn notice(n: &gpuplan_core::measured::Notice, lang: Lang) -> JsValue {
    #[derive(Serialize)]
    struct Failed<'a> {
        notice: &'a gpuplan_core::measured::Notice,
        message: String,
    }
    to_js(&Failed { notice: n, message: n.message(lang) }).unwrap_or_else(|e| e)
}

/// `readMeasured(text, lang)`: the figures in what a benchmark or a training
/// run printed (`vllm bench serve`'s summary or saved JSON, SGLang's
/// `bench_serving`, `llama-bench` Markdown/CSV/JSON, torchtune or Trainer
/// log lines): `{ tool, format, serving: { output_tok_s, ttft_ms, tpot_ms,
/// requests_per_s, max_concurrency, prompt_tok_s } | null, training: {
/// tokens_per_s_per_gpu, samples_per_s, peak_allocated_bytes,
/// peak_reserved_bytes } | null }`. Throws `{ notice, message }`.
#[wasm_bindgen(js_name = readMeasured)]
pub fn read_measured(text: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    gpuplan_core::measured::read(text).map_err(|n| notice(&n, lang)).and_then(|r| to_js(&r))
}

/// `readback(plan, text, lang, offers)`: the figures in `text` beside the
/// plan's expected ones, and the plan made again from them: `{ tool, rows:
/// [{ metric, unit, expected, low, high, measured, deviation_pct, inside }],
/// verdict, verdict_text, causes, cause_texts, plan, before, after }` (`before`
/// and `after`: `{ gpus, run_hours, total }`, total in the bill's currency). `plan` is the
/// plan to use from then on (its `bench` travels in the share link). Throws
/// `{ notice, message }` for an unreadable paste, or `{ mismatch, message }`.
#[wasm_bindgen]
pub fn readback(
    plan: JsValue,
    text: &str,
    lang: Option<String>,
    offers: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(flatten)]
        back: &'a gpuplan_core::readback::Readback,
        verdict_text: String,
        cause_texts: Vec<String>,
    }
    #[derive(Serialize)]
    struct Failed<'a> {
        mismatch: &'a gpuplan_core::readback::Mismatch,
        message: String,
    }
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let plan = read(plan, "plan", lang)?;
    let offers = offers_from(offers, lang)?;
    let reading = gpuplan_core::measured::read(text).map_err(|n| notice(&n, lang))?;
    match gpuplan_core::readback::readback(&plan, &reading, &offers, lang) {
        Ok(back) => to_js(&Out {
            verdict_text: back.verdict_text(lang),
            cause_texts: back.cause_texts(lang),
            back: &back,
        }),
        Err(m) => Err(to_js(&Failed { mismatch: &m, message: m.message(lang) })?),
    }
}

/// `market(skypilotCsv, cnJson)`: the shipped market from its two data files
/// (`market/cloud-offers.csv` and `market/cn-offers.json`, fetched by the
/// caller so the API's download stays small), with the built-in examples
/// first: `{ offers, items, notices, unmapped }`.
#[wasm_bindgen]
pub fn market(skypilot_csv: &str, cn_json: &str) -> Result<JsValue, JsValue> {
    let mut all = market::Import { offers: gpuplan_core::offers::defaults(), ..market::Import::default() };
    all.extend(market::shipped(skypilot_csv, cn_json));
    to_js(&all)
}

/// `marketView(plan, offers, query, lang)`: the market beside the plan, for
/// a market table and an answer block. `query` is `{ filter: { providers,
/// regions, currencies, gpus, buy: ["on_demand" | "spot" | "commitment"] },
/// currency, cny_per_usd, fx_date, today: "YYYY-MM-DD", limit }` (every
/// part optional); the answer is `{ currency, fx: { cny_per_usd, date },
/// today, best, best_list, rows, options, skipped, providers }`, each row
/// `{ id, label, provider, region, gpu, kind, rank, meets, total,
/// per_gpu_hour, date, age, stale, pricing, notes, loss }`.
#[wasm_bindgen(js_name = marketView)]
pub fn market_view(
    plan: JsValue,
    offers: Option<JsValue>,
    query: Option<JsValue>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = Lang::from_tag(lang.as_deref().unwrap_or("en"));
    let plan = read(plan, "plan", lang)?;
    let offers = offers_from(offers, lang)?;
    let query: gpuplan_core::market_view::Query = match given(query) {
        Some(q) => read(q, "query", lang)?,
        None => gpuplan_core::market_view::Query::default(),
    };
    match gpuplan_core::market_view::view(&plan, &offers, &query, lang) {
        Ok(view) => to_js(&view),
        Err(errs) => Err(invalid(&errs, lang)),
    }
}
