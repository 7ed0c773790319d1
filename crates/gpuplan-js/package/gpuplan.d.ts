// TypeScript declarations for gpuplan's JS API (crates/gpuplan-js). The
// shapes are the JSON the Rust core serialises: `null` where it has no value,
// numbers for byte counts and money (currency units, two decimals at most).
// Interfaces that end in `[key: string]: unknown` list the fields most
// callers read; the others are as in `gpuplan ... --format json`.
// tests/e2e/package.test.mjs checks every export has a declaration here and
// the returned objects against these shapes.

// ---------------------------------------------------------------- loading

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads the wasm module; call once before any other function. In a browser,
 * with no argument, it fetches `gpuplan_bg.wasm` next to `gpuplan.js`; under
 * Node (the package's `node` entry) it reads it from disk.
 */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<unknown>;

/** Loads the wasm module from bytes or a compiled module, synchronously. */
export function initSync(module: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module): unknown;

// ---------------------------------------------------------------- functions

/** The language of texts and messages: `'zh'` or `'en'` (the default; other tags fall back). */
export type LangTag = 'zh' | 'en' | string;

/**
 * The report for a (possibly partial) plan, priced against `offers` when
 * given (e.g. `market(...).offers`), else the built-in examples.
 * @throws {InvalidFields} when fields are invalid or of the wrong type (`context: "8k"`).
 */
export function estimate(plan: PlanInput, lang?: LangTag | null, offers?: OfferInput[] | null): Report;

/**
 * The compact answer for a host page's own widget, from the same report as
 * `estimate`: memory per GPU, GPUs to order, the cheapest option, the share link.
 * @throws {InvalidFields}
 */
export function summary(plan: PlanInput, lang?: LangTag | null, offers?: OfferInput[] | null): Summary;

/** A project's budget by month (`gpuplan budget --format json`). @throws {InvalidFields} */
export function budget(project: ProjectInput, lang?: LangTag | null, offers?: OfferInput[] | null): Budget;

/** Every workload's report and the budget. @throws {InvalidFields} */
export function project(project: ProjectInput, lang?: LangTag | null, offers?: OfferInput[] | null): ProjectReport;

/** The plan a share link (`?v=1&...`, a whole URL or the query) carries, and what was ignored. */
export function decodeLink(url: string): DecodedLink;

/** The share-link query string (`v=1&...`) for a plan. @throws {InvalidFields} for a value of the wrong type (messages in English). */
export function encodeLink(plan: PlanInput): string;

/** The project a share link carries (a version 1 link opens as one workload). */
export function decodeProjectLink(url: string, lang?: LangTag | null): DecodedProjectLink;

/** The share-link query string for a project. @throws {InvalidFields} for a value of the wrong type (messages in English). */
export function encodeProjectLink(project: ProjectInput): string;

/** A model from a Hugging Face `config.json`. @throws {FileFailure} */
export function importConfig(text: string, lang?: LangTag | null): ImportedModel;

/** A model from the first bytes of a `.gguf` file (`file.slice(0, n)`). @throws {FileFailure} */
export function importGguf(bytes: Uint8Array, lang?: LangTag | null): ImportedModel;

/** A model from the first 8 + header bytes of a `.safetensors` file. @throws {FileFailure} */
export function importSafetensors(bytes: Uint8Array, fileSize?: number | null, lang?: LangTag | null): ImportedModel;

/** A price sheet (SkyPilot catalog CSV or gpuplan offers JSON); `provider` names a CSV without a provider column. */
export function importOffers(text: string, provider?: string | null): MarketImport;

/** gpuplan's offers JSON, every field. @throws {InvalidFields} for a value of the wrong type (messages in English). */
export function exportOffers(offers: OfferInput[], items?: DeepPartial<CostItem>[] | null): string;

/** The offers as a CSV in SkyPilot's columns plus provider, currency and date, which `importOffers` reads back; `left_out` counts the offers without an hourly price. @throws {InvalidFields} for a value of the wrong type (messages in English). */
export function exportOffersCsv(offers: OfferInput[]): { csv: string; left_out: number };

/** The figures in what a benchmark or training run printed. @throws {MeasuredFailure} */
export function readMeasured(text: string, lang?: LangTag | null): Reading;

/** Measured figures beside the plan's expected ones, and the plan made again from them. @throws {MeasuredFailure | MismatchFailure} */
export function readback(plan: PlanInput, text: string, lang?: LangTag | null, offers?: OfferInput[] | null): Readback;

/** The market beside the plan: every option ranked, filtered as asked, with the cheapest that meets the plan and why each dearer one loses. @throws {InvalidFields} */
export function marketView(plan: PlanInput, offers?: OfferInput[] | null, query?: MarketQuery | null, lang?: LangTag | null): MarketView;

/** The shipped market from its two data files (`market/cloud-offers.csv`, `market/cn-offers.json`), built-in examples first. */
export function market(skypilotCsv: string, cnJson: string): MarketImport;

// ---------------------------------------------------------------- errors

/**
 * Thrown for invalid fields: each names the field by its path and says why,
 * in the language asked for. A value of the wrong type (text in a number
 * field, `null`, a JSON string for an object) is named the same way:
 * `{ field: 'inference.context', message: 'inference.context: must be a whole number, not "8k"' }`.
 */
export interface InvalidFields {
  errors: FieldMessage[];
}

export interface FieldMessage {
  field: string;
  message: string;
}

/** Thrown by the model-file readers. */
export interface FileFailure {
  error: FileError;
  message: string;
}

export type FileError =
  | { kind: 'truncated'; need_at_least: number; [key: string]: unknown }
  | { kind: 'not_this_format' }
  | { kind: 'unsupported' | 'absurd' | 'malformed'; what: string }
  | { kind: 'not_a_model'; missing: string[] }
  | { kind: 'missing_parts'; given: number; total: number };

/** Thrown for a paste the readers cannot use; `message` says what was expected. */
export interface MeasuredFailure {
  notice: { kind: 'too_long' | 'empty' | 'unknown' | 'incomplete' | 'other_unit' | 'bad_number'; [key: string]: unknown };
  message: string;
}

/** Thrown by `readback` when the figures do not apply to the plan. */
export interface MismatchFailure {
  mismatch: { kind: 'wrong_task' | 'no_gpu' | 'invalid'; [key: string]: unknown };
  message: string;
}

// ---------------------------------------------------------------- the plan

/** A plan as the functions take it: every field may be left out and takes its default. */
export type PlanInput = DeepPartial<Plan>;

export type DeepPartial<T> = T extends (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** A whole plan, as `decodeLink` and `readback` return it. */
export interface Plan {
  task: Task;
  model: ModelSpec;
  inference: Inference;
  training: Training;
  parallel: Parallel;
  hardware: Hardware;
  cost: CostInputs;
  cuda: CudaVersion | null;
  /** Ids of checklist items ticked. */
  ticks: string[];
  /** Benchmark figures read back beside the plan. */
  bench: Reading | null;
}

export type Task = 'infer' | 'train';

/** A preset by id (`gpuplan models` lists them), a custom architecture, or a generic non-LLM model. */
export type ModelSpec =
  | { kind: 'preset'; id: string }
  | { kind: 'custom'; arch: Arch }
  | { kind: 'generic'; generic: Generic };

export interface Arch {
  params: number | null;
  layers: number;
  hidden: number;
  heads: number;
  kv_heads: number;
  head_dim: number | null;
  intermediate: number;
  vocab: number;
  tied_embeddings: boolean;
  experts: number;
  experts_active: number;
  max_context: number;
  [key: string]: unknown;
}

export interface Generic {
  params: number;
  activation_gb: number;
  flops_per_item: number;
}

export type WeightFormat =
  | 'fp32' | 'bf16' | 'fp8' | 'int8' | 'nf4' | 'gptq_int4' | 'gptq_int8' | 'mxfp4' | 'nvfp4'
  | 'gguf_q2_k' | 'gguf_q3_k_s' | 'gguf_q3_k_l' | 'gguf_q4_k_s' | 'gguf_q4_k_m' | 'gguf_q5_k_s'
  | 'gguf_q5_k_m' | 'gguf_q6_k' | 'gguf_q8_0' | 'gguf_iq4_xs' | 'gguf_iq2_xxs';

export type KvDtype = 'fp32' | 'bf16' | 'fp8' | 'int8' | 'int4';

export type Engine = 'vllm' | 'sglang' | 'trtllm' | 'transformers' | 'llama_cpp';

export interface Inference {
  weights: WeightFormat;
  kv_dtype: KvDtype;
  context: number;
  concurrency: number;
  engine: Engine;
  gpu_mem_util: number;
  prompt_tokens: number;
  output_tokens: number;
  target_qps: number;
  response_kb: number;
  ttft_ms: number;
  tpot_ms: number;
  prefix_hit: number;
  measured: { gpu: string; tok_s: number }[];
  engine_release: string;
}

export interface Training {
  method: 'full' | 'lora' | 'qlora';
  lora_rank: number;
  lora_targets: 'qv' | 'attention' | 'all_linear';
  base_weights: WeightFormat | null;
  precision: 'mixed' | 'pure_bf16' | 'fp32';
  optimizer: 'adamw' | 'adamw8bit' | 'paged_adamw8bit' | 'sgd' | 'adafactor' | 'lion';
  opt_in_bwd: boolean;
  grad_accum: number;
  batch: number;
  seq: number;
  grad_ckpt: 'none' | 'selective' | 'full';
  act_offload: boolean;
  loss: 'hf_trainer' | 'chunked' | 'fused';
  flash_attn: boolean;
  dataset_tokens: number;
  epochs: number;
  mfu: number | null;
}

export type Shard = 'none' | 'zero1' | 'zero2' | 'zero3' | 'fsdp';

export interface Parallel {
  gpus: number;
  tp: number;
  pp: number;
  shard: Shard;
}

export interface Hardware {
  /** A catalog id (`gpuplan gpus`), or `'custom'` with `custom` set. */
  gpu: string;
  headroom_pct: number;
  gpus_per_node: number;
  custom: CustomGpu | null;
  /** Let the price choose the GPU among the offers. */
  cheapest: boolean;
}

/** A card of your own; missing fields take the catalog's defaults. */
export interface CustomGpu {
  id: string;
  name: string;
  memory_gb: number;
  bandwidth_tbs: number | null;
  bf16_tflops: number | null;
  [key: string]: unknown;
}

export interface CudaVersion {
  major: number;
  minor: number;
}

export type Currency = 'USD' | 'CNY';

export interface CostInputs {
  horizon: string;
  months: number;
  hours_per_day: number;
  storage_gb: number;
  ips: number;
  egress_gb: number;
  currency: Currency;
  cny_per_usd: number;
  /** Extra bill lines. */
  items: CostItem[];
  /** Offers of your own, priced beside the others. */
  offers: Offer[];
  [key: string]: unknown;
}

/** A bill line of your own (support, software, ...). */
export interface CostItem {
  name: string;
  amount: number;
  currency: Currency;
  monthly: boolean;
}

// ---------------------------------------------------------------- offers

/** A priced machine: one way or several to pay for `gpus` cards of type `gpu`. */
export interface Offer {
  id: string;
  provider: string;
  name: string;
  /** A region, or the cheapest of the `regions` a collapsed catalog row covers. */
  region: string;
  /** Regions a collapsed catalog row covers (absent: the one region). */
  regions?: number;
  /** A catalog GPU id. */
  gpu: string;
  gpus: number;
  currency: Currency;
  od: { hourly: number; step_s: number; min_s: number; keeps_billing: boolean } | null;
  spot: Record<string, unknown> | null;
  sp: Record<string, unknown> | null;
  ri: Record<string, unknown> | null;
  block: Record<string, unknown> | null;
  monthly: { price: number; egress_gb: number; min_months: number } | null;
  storage_gb_month: number;
  ip_hour: number;
  egress: Record<string, unknown>[];
  bandwidth: Record<string, unknown>[];
  source: string;
  date: string;
  host: boolean;
  note: string;
  /** Left out for a list price. */
  pricing?: Pricing;
  /** Side prices the offer's source does not give; left out when it gives them all. */
  unknown?: ('storage' | 'ip' | 'egress')[];
}

/** An offer as the functions take it: fields left out take their defaults (`docs/market.md`). */
export type OfferInput = DeepPartial<Offer>;

export interface MarketImport {
  offers: Offer[];
  items: CostItem[];
  notices: { line: number; message: string }[];
  unmapped: { name: string; rows: number }[];
}

export type Pricing = 'list' | 'marketplace' | 'auction';

export type PriceCategory = 'compute' | 'storage' | 'ip' | 'network' | 'other';

export interface MarketQuery {
  filter?: {
    providers?: string[];
    regions?: string[];
    currencies?: Currency[];
    gpus?: string[];
    buy?: ('on_demand' | 'spot' | 'commitment')[];
  };
  currency?: Currency | null;
  cny_per_usd?: number | null;
  fx_date?: string | null;
  /** YYYY-MM-DD: the day prices are aged against. */
  today?: string;
  limit?: number;
}

export interface MarketRow {
  id: string;
  /** The id of the offer this option is a way to buy. */
  offer: string;
  label: string;
  provider: string;
  /** Where it is sold, in the language asked for. */
  region: string;
  gpu: string;
  /** The GPU as the catalog names it. */
  gpu_name: string;
  kind: OptionKind;
  rank: number;
  /** Holds the plan's memory and meets its deadline or serving targets. */
  meets: boolean;
  total: number;
  per_gpu_hour: number | null;
  date: string;
  age: { age: 'dated'; months: number; stale: boolean } | { age: 'undated' };
  stale: boolean;
  pricing: Pricing;
  notes: string[];
  /** Why a dearer row loses to the best; null for the best. */
  loss: string | null;
}

export interface MarketView {
  currency: Currency;
  fx: { cny_per_usd: number; date: string | null };
  today: string;
  best: MarketRow | null;
  /** The cheapest list price, when the best is a marketplace or auction price. */
  best_list: MarketRow | null;
  rows: MarketRow[];
  options: number;
  skipped: string[];
  /** Offers per provider before filtering, for the filter choices. */
  providers: Record<string, number>;
}

// ---------------------------------------------------------------- the report

/** The same JSON as `gpuplan estimate --format json`. */
export interface Report {
  memory: Memory;
  fit: FitReport;
  cost: CostReport;
  /** What to order; null when no GPU is named. */
  selection: Selection | null;
  checklist: Checklist;
}

export interface Memory {
  /** Peak bytes on the busiest GPU: the sum of the components. */
  per_gpu_bytes: number;
  components: {
    weights: Component;
    gradients: Component;
    optimizer: Component;
    activations: Component;
    kv_cache: Component;
    workspace: Component;
  };
  peak_kind: 'allocated' | 'reserved';
  reserved_bytes: number | null;
  kv_pool_bytes: number | null;
  reserved_derivation: string;
  cuda_context_bytes: number;
  nvidia_smi: { allocated_bytes: number; varying_bytes: number; packed_bytes: number; derivation: string } | null;
  params: number;
  active_params: number;
  trainable_params: number;
  notes: { id: string; zh: string; en: string }[];
}

export interface Component {
  bytes: number;
  /** The formula with the plan's numbers substituted. */
  derivation: string;
  /** Where the formula comes from. */
  source: string;
}

export interface FitReport {
  single_gpu_bytes: number;
  max_gpus: number;
  /** One row per catalog GPU (and the plan's own card). */
  rows: GpuFit[];
}

export interface GpuFit {
  gpu_id: string;
  gpu_name: string;
  class: string;
  chosen: boolean;
  custom: boolean;
  unverified: boolean;
  usable: Usable;
  lower_bound: Record<string, unknown>;
  /** The smallest layout that fits, if any. */
  best: Record<string, unknown> | null;
  options: Record<string, unknown>[];
  network: Record<string, unknown> | null;
  flags: Record<string, unknown>[];
  speed: Record<string, unknown> | null;
}

/** What a card offers the plan: nominal memory less ECC and headroom. */
export interface Usable {
  nominal_bytes: number;
  ecc_bytes: number;
  headroom_bytes: number;
  bytes: number;
  derivation: string;
}

export type OptionKind = 'on_demand' | 'spot' | 'savings_plan' | 'reserved' | 'block' | 'monthly';

export interface CostReport {
  currency: Currency;
  /** The id of the cheapest option that meets the plan. */
  best: string | null;
  options: OptionCost[];
  skipped: Record<string, unknown>[];
  break_even: Record<string, unknown>[];
  /** The cheapest list-price option, when `best` is a marketplace or auction price. */
  best_list: string | null;
  /** The USD/CNY rate the totals use, and its day (null for a rate of the user's own). */
  fx: { cny_per_usd: number; date: string | null };
}

/** One purchase option priced over the horizon, in the report's currency. */
export interface OptionCost {
  id: string;
  name: string;
  offer: string;
  offer_name: string;
  kind: OptionKind;
  provider: string;
  region: string;
  /** Regions a collapsed catalog row covers (0 or 1: the one region). */
  regions: number;
  gpu: string;
  gpus_per_instance: number;
  instances: number;
  total: number;
  per_gpu_hour: number | null;
  currency: Currency;
  run_hours: number;
  horizon_hours: number;
  meets: boolean;
  rank: number;
  source: string;
  date: string;
  host: boolean;
  pricing: Pricing;
  /** Parts of the bill the offer's source has no price for: the total leaves them out. */
  unpriced: PriceCategory[];
  [key: string]: unknown;
}

/** One workload's configuration: what to order. */
export interface Selection {
  gpu: string;
  gpu_name: string;
  custom: boolean;
  /** `plan`: the plan's own layout; `fit`: the smallest that fits; `does_not_fit`. */
  basis: 'plan' | 'fit' | 'does_not_fit';
  /** Every GPU the workload runs on at once: tp × pp × replicas. */
  gpus: number;
  tp: number;
  pp: number;
  shard: Shard;
  replicas: number;
  nodes: number;
  per_gpu_bytes: number;
  usable_bytes: number;
  /** Training time, serving figures and the count for the targets. */
  speed: Record<string, unknown> | null;
  /** Null when no offer on this GPU meets the plan. */
  option: Purchase | null;
  llama_cpp_split: Record<string, unknown> | null;
  /** The longest training sequence (at the plan's micro-batch and method) or serving context (at its concurrency) that fits the card's usable memory on this layout; null when one token does not. */
  longest: Longest | null;
}

/** The longest sequence a plan runs on one layout (`memory::longest_on`). */
export interface Longest {
  tokens: number;
  /** `sequence` (training) or `context` (serving). */
  of: 'sequence' | 'context';
  budget_bytes: number;
  /** The model's trained context, which `tokens` is not capped at. */
  model_context: number;
  derivation: string;
}

/** The purchase option of a selection, as the bill prices it. */
export interface Purchase {
  /** The option's id in the cost report (`offer-id/option`). */
  id: string;
  kind: OptionKind;
  offer: string;
  offer_name: string;
  instances: number;
  gpus_per_instance: number;
  /** In the report's currency. */
  total: number;
  run_hours: number;
  horizon_hours: number;
  pricing: Pricing;
  unpriced: PriceCategory[];
}

export interface Checklist {
  lang: 'zh' | 'en';
  title: string;
  sections: { id: string; title: string; items: ChecklistItem[] }[];
}

export interface ChecklistItem {
  id: string;
  text: string;
  command: string | null;
  expect: string | null;
  risk: boolean;
  ticked: boolean;
}

// ---------------------------------------------------------------- summary

export interface Summary {
  /** Peak bytes per GPU of the plan as given. */
  per_gpu_bytes: number;
  /** The GPUs to order; null when no GPU is named. */
  gpus: {
    id: string;
    name: string;
    count: number;
    nodes: number;
    per_gpu_bytes: number;
    usable_bytes: number;
    fits: boolean;
  } | null;
  /** The cheapest option on the plan's GPU among the offers. */
  cheapest: Purchase | null;
  /** The share query (`v=1&...`) that opens the whole plan in the planner. */
  link: string;
  /** One line in the language asked for. */
  text: string;
}

// ---------------------------------------------------------------- links

export interface Ignored {
  key: string;
  value: string;
  reason: 'unknown_key' | 'bad_value' | 'out_of_range' | 'newer_version' | 'not_applicable' | 'no_such_workload' | 'too_many_workloads';
}

export interface DecodedLink {
  plan: Plan;
  lang: 'zh' | 'en' | null;
  /** `'gb'` or `'gib'`. */
  unit: string | null;
  embed: boolean;
  /** The origin allowed to post offers to an embedded page. */
  host: string | null;
  /** What the host asks of the embedded widget. */
  embed_options: EmbedOptions;
  ignored: Ignored[];
}

export interface EmbedOptions {
  show: ('memory' | 'fit' | 'cost' | 'serving' | 'checklist')[];
  /** Plan paths the host fixes. */
  lock: string[];
  theme: 'auto' | 'light' | 'dark';
  /** 3 or 6 hex digits, without `#`. */
  accent: string | null;
}

export interface DecodedProjectLink {
  project: Project;
  lang: 'zh' | 'en' | null;
  unit: string | null;
  embed: boolean;
  host: string | null;
  ignored: Ignored[];
  /** Each ignored key as a sentence. */
  notices: string[];
}

// ---------------------------------------------------------------- projects

export interface Project {
  workloads: Workload[];
  lines: CostItem[];
  currency: Currency;
  cny_per_usd: number;
}

export interface Workload {
  name: string;
  plan: Plan;
  /** The month it starts in (0 = the first). */
  start_month: number | null;
  /** The name of an earlier workload whose machines it reuses. */
  reuse: string | null;
  [key: string]: unknown;
}

export interface ProjectInput {
  workloads: { name: string; plan: PlanInput; start_month?: number | null; reuse?: string | null }[];
  lines?: DeepPartial<CostItem>[];
  currency?: Currency;
  cny_per_usd?: number;
}

export interface Budget {
  currency: Currency;
  months: number;
  workloads: Record<string, unknown>[];
  lines: Record<string, unknown>[];
  by_month: number[];
  total: number;
  by_line: Record<string, unknown>;
  by_month_line: Record<string, unknown>[];
  machines: Machine[];
}

/** Each machine once, with the workload whose selection it is. */
export interface Machine {
  workload: number;
  workloads: string[];
  gpu: string;
  gpu_name: string;
  gpus: number;
  layout: string;
  option: string | null;
  instances: number;
  selection: string;
}

export interface ProjectReport {
  reports: Report[];
  budget: Budget;
}

// ---------------------------------------------------------------- model files

export interface ImportedModel {
  /** The file the shape was read from. */
  kind: 'config' | 'gguf' | 'safetensors' | 'safetensors_index';
  /** Goes into a plan's custom model: `{ kind: 'custom', arch }`. */
  arch: Arch;
  format: WeightFormat | null;
  read: { key: string; value: string }[];
  assumed: Record<string, unknown>[];
  ignored: string[];
}

// ---------------------------------------------------------------- measured figures

export type Tool = 'vllm' | 'sglang' | 'llama_bench' | 'torchtune' | 'hf_trainer';

export interface Reading {
  tool: Tool;
  format: 'text' | 'json' | 'markdown' | 'csv';
  serving: {
    output_tok_s: number;
    ttft_ms: number | null;
    tpot_ms: number | null;
    requests_per_s: number | null;
    max_concurrency: number | null;
    prompt_tok_s: number | null;
  } | null;
  training: {
    tokens_per_s_per_gpu: number | null;
    samples_per_s: number | null;
    peak_allocated_bytes: number | null;
    peak_reserved_bytes: number | null;
  } | null;
}

export interface Readback {
  tool: Tool;
  rows: {
    metric: 'output_tok_s' | 'decode_tok_s' | 'ttft_ms' | 'tpot_ms' | 'tokens_per_s_per_gpu' | 'peak_memory';
    unit: string;
    expected: number;
    low: number;
    high: number;
    measured: number;
    deviation_pct: number;
    inside: boolean;
  }[];
  verdict: 'delivers' | 'worse' | 'better' | 'nothing_to_compare';
  verdict_text: string;
  causes: ('power_cap' | 'pcie_width' | 'thermal' | 'engine_settings' | 'quantisation')[];
  cause_texts: string[];
  /** The plan to use from then on (its `bench` travels in the share link). */
  plan: Plan;
  before: Outcome | null;
  after: Outcome | null;
}

export interface Outcome {
  gpus: number;
  run_hours: number | null;
  /** In the bill's currency. */
  total: number | null;
}
