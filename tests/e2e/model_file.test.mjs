// A model from the user's own files: a config.json dropped anywhere (not a
// price sheet), a GGUF header, hostile files, the share link of an imported
// model, a model saved on the device.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, screenshot, root } from './lib.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PEAK = '[data-testid="peak-memory"]';
const peak = (page) => page.locator(PEAK).innerText();
const gb = (text) => Number(text.replace(/[^\d.]/g, ''));
const config = (id) => readFile(join(root, 'crates/gpuplan-core/tests/fixtures/configs', `${id}.json`));

async function ready(page) {
  await page.waitForFunction((sel) => /\d/.test(document.querySelector(sel)?.textContent ?? ''), PEAK, { timeout: 20000 });
}

async function changed(page, before) {
  await page.waitForFunction(([sel, b]) => document.querySelector(sel).textContent !== b, [PEAK, before]);
}

// Files as the picker hands them over; the panel opens once something is read.
async function give(page, files) {
  await page.getByTestId('model-file').setInputFiles(files);
}

// ---------------------------------------------------------------- GGUF writer
// A GGUF v3 header as llama.cpp writes it: metadata, then tensor infos.
function gguf({ metadata, tensors }) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(Object.keys(metadata).length);
  for (const [k, v] of Object.entries(metadata)) {
    str(k);
    if (typeof v === 'string') { u32(8); str(v); } else { u32(4); u32(v); }
  }
  for (const t of tensors) {
    str(t.name);
    u32(t.dims.length);
    for (const d of t.dims) u64(d);
    u32(t.type);
    u64(0);
  }
  return Buffer.concat(parts);
}

// A two-layer Llama in F16 (ggml type 1) with F32 (type 0) norms; bytes are exact.
function tinyLlama() {
  const h = 512, ffn = 1536, vocab = 4096, layers = 2;
  const metadata = {
    'general.architecture': 'llama', 'general.file_type': 1,
    'llama.block_count': layers, 'llama.embedding_length': h, 'llama.feed_forward_length': ffn,
    'llama.attention.head_count': 8, 'llama.attention.head_count_kv': 4, 'llama.context_length': 4096,
  };
  const tensors = [{ name: 'token_embd.weight', dims: [h, vocab], type: 1 }, { name: 'output.weight', dims: [h, vocab], type: 1 }];
  for (let l = 0; l < layers; l++) {
    for (const [n, dims, type] of [['attn_q', [h, h], 1], ['attn_k', [h, h / 2], 1], ['attn_v', [h, h / 2], 1],
      ['attn_output', [h, h], 1], ['ffn_gate', [h, ffn], 1], ['ffn_up', [h, ffn], 1], ['ffn_down', [ffn, h], 1],
      ['attn_norm', [h], 0], ['ffn_norm', [h], 0]]) {
      tensors.push({ name: `blk.${l}.${n}.weight`, dims, type });
    }
  }
  const bytes = tensors.reduce((sum, t) => sum + t.dims.reduce((a, b) => a * b, 1) * (t.type === 0 ? 4 : 2), 0);
  return { file: gguf({ metadata, tensors }), bytes };
}

// ---------------------------------------------------------------- the tests

test('a dropped config.json gives the same figures as its preset', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  const presetText = await peak(page); // Llama 3.1 8B, the default plan
  const preset = gb(presetText);
  await page.getByTestId('model-select').selectOption('llama-3.1-70b');
  await changed(page, presetText);
  const big = await peak(page);
  // Dropped on the page, as a user drags it from the file manager.
  const text = (await config('llama-3.1-8b')).toString();
  // The page's own listener takes it (the panel reads it once there), and
  // keeps the browser from opening the file in the tab.
  const opened = await page.evaluate((json) => {
    const dt = new DataTransfer();
    dt.items.add(new File([json], 'config.json', { type: 'application/json' }));
    return document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  assert.equal(opened, false, 'the drop is the page\'s');
  await page.getByTestId('model-file-read').waitFor();
  assert.equal(await page.getByTestId('sheet-error').count(), 0, 'a model file is not read as a price sheet');
  await changed(page, big);
  const imported = gb(await peak(page));
  assert.ok(Math.abs(imported - preset) / preset <= 0.01, `config.json ${imported} GB vs preset ${preset} GB`);
  const account = await page.getByTestId('model-file-read').innerText();
  assert.match(account, /config\.json/);
  assert.match(account, /Layers\s+32/);
  assert.match(account, /Architecture\s+llama/);
  await screenshot(page, 'model-file-config-en');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a GGUF header shows its exact weight bytes, and the link reopens the same plan', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  const before = await peak(page);
  const { file, bytes } = tinyLlama();
  await give(page, { name: 'tiny-llama-f16.gguf', mimeType: 'application/octet-stream', buffer: file });
  await page.getByTestId('model-file-read').waitFor();
  await changed(page, before);
  const grouped = bytes.toLocaleString('en-US');
  const account = await page.getByTestId('model-file-read').innerText();
  assert.match(account, new RegExp(`Weight bytes \\(exact\\)\\s+${grouped} B`), account);
  assert.match(account, /tiny-llama-f16\.gguf/);
  const figure = await peak(page);
  // The link carries the shape and the bytes, not the file.
  await page.waitForFunction(() => /a\.file=/.test(location.search));
  const link = page.url();
  assert.ok(link.length < 2000, `a short link: ${link.length}`);
  const fresh = await openPage(browser, link);
  await ready(fresh.page);
  assert.equal(await peak(fresh.page), figure);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.context.close();
  await context.close();
});

test('hostile files each get a notice and the plan stays', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  await ready(page);
  const before = await peak(page);
  const { file } = tinyLlama();
  const length = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };
  const counts = Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), length(1_000_000), length(0)]);
  const hostile = [
    ['a truncated GGUF header', { name: 'cut.gguf', buffer: file.subarray(0, file.length - 40) }, /ends inside its header/],
    ['a 2 GB safetensors header', { name: 'big.safetensors', buffer: Buffer.concat([length(2 ** 31), Buffer.from('{}')]) }, /impossible sizes/],
    ['a GGUF with a million tensors', { name: 'million.gguf', buffer: counts }, /ends inside its header|impossible sizes/],
    ['a PNG renamed .gguf', { name: 'photo.gguf', buffer: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') }, /not a file of this format/],
    ['a config.json without a shape', { name: 'config.json', buffer: Buffer.from('{"model_type": "llama"}') }, /missing the model's shape fields/],
  ];
  for (const [what, f, notice] of hostile) {
    await give(page, { mimeType: 'application/octet-stream', ...f });
    const error = page.getByTestId('model-file-error');
    await error.waitFor();
    assert.match(await error.innerText(), notice, what);
    assert.match(await error.innerText(), new RegExp(f.name.replace('.', '\\.')), `${what}: names the file`);
    assert.equal(await peak(page), before, `${what}: the plan stays`);
    await page.getByTestId('model-file').setInputFiles([]);
  }
  // An unknown model_type with script in it: read from its fields, shown as text.
  const script = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
  const unknown = { model_type: script, hidden_size: 2048, num_hidden_layers: 16, num_attention_heads: 16,
    num_key_value_heads: 8, intermediate_size: 8192, vocab_size: 32000 };
  await give(page, { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(unknown)) });
  await page.getByTestId('model-file-read').waitFor();
  const account = await page.getByTestId('model-file-read').innerText();
  assert.ok(account.includes(script), 'the script is shown as text');
  assert.match(account, /unknown model_type|model_type/i);
  assert.equal(await page.locator('[data-testid="model-file-read"] img, [data-testid="model-file-read"] script').count(), 0);
  assert.equal(dialogs, 0, 'nothing ran');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pasted config.json joins the plan and a saved model comes back after a reload', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  const before = await peak(page);
  await page.locator('.model-file summary').click();
  await page.getByTestId('model-paste').fill((await config('qwen2.5-7b')).toString());
  await page.getByTestId('model-paste-read').click();
  await page.getByTestId('model-file-read').waitFor();
  await changed(page, before);
  const qwen = await peak(page);
  assert.match(await page.getByTestId('model-file-read').innerText(), /pasted text/);
  await page.getByTestId('model-save-name').fill('my qwen');
  await page.getByTestId('model-save').click();
  // Back to a preset, reload, then the saved model again.
  await page.goto(server.url + '?v=1&m=llama-3.1-70b');
  await ready(page);
  await page.locator('.model-file summary').click();
  const saved = page.getByTestId('saved-models').getByRole('button', { name: 'my qwen' });
  await saved.click();
  await page.waitForFunction(([sel, q]) => document.querySelector(sel).textContent === q, [PEAK, qwen]);
  assert.deepEqual(errors, []);
  await context.close();
});

// A safetensors header (8-byte length, JSON) of a Llama-shaped model (13B's
// widths) with layers enough for `gib` GiB of BF16, as a sparse file of that
// whole size: the page must read its header, never the weights.
async function sparseSafetensors(gib) {
  const tensors = {};
  const [h, ffn, vocab] = [5120, 13824, 32000];
  let at = 0;
  const add = (name, shape) => {
    const bytes = shape[0] * shape[1] * 2;
    tensors[name] = { dtype: 'BF16', shape, data_offsets: [at, at + bytes] };
    at += bytes;
  };
  add('model.embed_tokens.weight', [vocab, h]);
  add('lm_head.weight', [vocab, h]);
  for (let l = 0; at < gib * 2 ** 30; l++) {
    for (const n of ['q_proj', 'k_proj', 'v_proj', 'o_proj']) add(`model.layers.${l}.self_attn.${n}.weight`, [h, h]);
    for (const n of ['gate_proj', 'up_proj']) add(`model.layers.${l}.mlp.${n}.weight`, [ffn, h]);
    add(`model.layers.${l}.mlp.down_proj.weight`, [h, ffn]);
  }
  const json = Buffer.from(JSON.stringify(tensors));
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(json.length));
  const dir = await mkdtemp(join(tmpdir(), 'gpuplan-st-'));
  const path = join(dir, 'model.safetensors');
  await writeFile(path, Buffer.concat([head, json]));
  await truncate(path, 8 + json.length + at);
  return { path, size: 8 + json.length + at, dir };
}

test('a 20 GB safetensors file is read by its header: under 2 MB sliced, the panel in under 1 s', async () => {
  const { path, size, dir } = await sparseSafetensors(20);
  const { page, context, errors } = await openPage(browser, server.url);
  await page.addInitScript(() => {
    window.slicedBytes = 0;
    const slice = Blob.prototype.slice;
    Blob.prototype.slice = function (start = 0, end = this.size, type) {
      window.slicedBytes += Math.max(0, Math.min(end, this.size) - start);
      return slice.call(this, start, end, type);
    };
  });
  await page.reload();
  await ready(page);
  await page.getByTestId('model-file').waitFor({ state: 'attached' });
  const t0 = Date.now();
  await page.getByTestId('model-file').setInputFiles(path);
  await page.getByTestId('model-file-read').waitFor();
  const ms = Date.now() - t0;
  const sliced = await page.evaluate(() => window.slicedBytes);
  assert.ok(size > 20e9, `the file is ${size} bytes`);
  assert.ok(sliced > 0 && sliced < 2e6, `${sliced} bytes sliced of ${size}`);
  assert.ok(ms < 1000, `the panel showed after ${ms} ms`);
  assert.deepEqual(errors, []);
  await context.close();
  await rm(dir, { recursive: true, force: true });
});

test('a config.json of a shape no preset has: its link, read by the CLI, gives the weights of --config', async () => {
  const shape = JSON.parse((await config('llama-3.1-8b')).toString());
  Object.assign(shape, { num_hidden_layers: 27, intermediate_size: 12800 });
  const dir = await mkdtemp(join(tmpdir(), 'gpuplan-cfg-'));
  const file = join(dir, 'config.json');
  await writeFile(file, JSON.stringify(shape));
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  const before = page.url();
  await page.getByTestId('model-file').setInputFiles(file);
  await page.getByTestId('model-file-read').waitFor();
  await page.waitForFunction((b) => location.href !== b, before);
  const cli = join(root, 'target/debug/gpuplan');
  const weights = (args) => JSON.parse(execFileSync(cli, ['estimate', ...args, '--format', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] })).memory.components.weights.bytes;
  const viaLink = weights(['--url', '?' + new URL(page.url()).search.slice(1)]);
  const viaConfig = weights(['--config', file]);
  assert.ok(Math.abs(viaLink - viaConfig) / viaConfig <= 0.01, `link ${viaLink} B, --config ${viaConfig} B`);
  assert.deepEqual(errors, []);
  await context.close();
  await rm(dir, { recursive: true, force: true });
});
