// The planner page (issue 6): first result without interaction, presets,
// validation next to the field, language switch, tables, layout, accessibility.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serve, launch, openPage, screenshot, switchLanguage, root } from './lib.mjs';

const require = createRequire(import.meta.url);
let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const peak = (page) => page.getByTestId('peak-memory');

async function ready(page) {
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="peak-memory"]');
    return el && /\d/.test(el.textContent);
  }, null, { timeout: 15000 });
}

test('first result shows without interaction, in GB', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  assert.match(await peak(page).innerText(), /^\d[\d,.]* GB$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('changing the preset changes peak memory', async () => {
  const { page, context } = await openPage(browser, server.url);
  await ready(page);
  const before = await peak(page).innerText();
  const select = page.getByTestId('model-select');
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  const current = await select.inputValue();
  const other = values.find((v) => v !== current && /70b/i.test(v)) ?? values.find((v) => v !== current);
  assert.ok(other, `only one preset: ${values}`);
  await select.selectOption(other);
  await page.waitForFunction((b) => document.querySelector('[data-testid="peak-memory"]').textContent !== b, before);
  assert.notEqual(await peak(page).innerText(), before);
  await context.close();
});

test('invalid input shows an error next to the field and keeps the last result', async () => {
  const { page, context } = await openPage(browser, server.url);
  await ready(page);
  const before = await peak(page).innerText();
  const ctx = page.locator('#f-inference-context');
  await ctx.fill('abc');
  const field = page.locator('.field', { has: ctx });
  await field.getByTestId('input-error').waitFor();
  assert.equal(await peak(page).innerText(), before, 'unparseable text must not change the result');
  assert.equal(await ctx.inputValue(), 'abc', 'the typed text stays');
  // A number out of range: the core's validation message, result kept.
  await ctx.fill('0');
  await field.getByTestId('input-error').waitFor();
  assert.match(await field.getByTestId('input-error').innerText(), /1/);
  assert.equal(await peak(page).innerText(), before);
  assert.equal(await ctx.getAttribute('aria-invalid'), 'true');
  // Fixing it clears the error.
  await ctx.fill('4096');
  await page.waitForFunction(() => !document.querySelector('[data-testid="input-error"]'));
  await context.close();
});

// The toggle reopens the page in the other language's bundle, on the same plan.
async function toggleLang(page, to) {
  assert.equal(await switchLanguage(page), to);
  await ready(page);
}

// A reader does not know our reference files: the page states rules plainly
// or names an article by its title, never "seed 002" (closed details included).
async function noSourceNumbers(page) {
  const text = await page.locator('body').textContent();
  assert.doesNotMatch(text, /种子|\bseeds? \d/i);
}

test('language toggle switches every label, keeps the plan and persists', async () => {
  const { page, context } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await ready(page);
  const label = page.locator('label[for="f-inference-context"]');
  assert.equal(await label.innerText(), '上下文长度');
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  await noSourceNumbers(page);
  await screenshot(page, 'planner-zh');
  await page.fill('#f-inference-context', '65536');
  await page.waitForFunction(() => /[?&]ctx=65536(&|$)/.test(location.search));
  await toggleLang(page, 'en');
  assert.equal(await label.innerText(), 'Context length');
  assert.equal(await page.locator('#f-inference-context').inputValue(), '65536', 'the plan survives the switch');
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  await noSourceNumbers(page);
  // The unit switch changes the peak's unit.
  await page.getByTestId('unit-toggle').getByRole('button', { name: 'GiB' }).click();
  assert.match(await peak(page).innerText(), / GiB$/);
  await screenshot(page, 'planner-en');
  await page.reload();
  await ready(page);
  assert.equal(await label.innerText(), 'Context length', 'language persists across reloads');
  assert.match(await peak(page).innerText(), / GiB$/, 'unit persists across reloads');
  await context.close();
});

// Each language is its own bundle (issue 10): a page fetches one of them only,
// chosen by the link, else the saved choice, else the browser's language.
test('each language loads its own bundle and never the other', async () => {
  const cases = [
    ['', 'zh-CN', 'zh'], ['', 'en-US', 'en'], ['?lang=en', 'zh-CN', 'en'], ['?lang=zh', 'en-US', 'zh'],
    ['?lang=fr', 'zh-TW', 'zh'],
  ];
  for (const [query, locale, want] of cases) {
    const { page, context } = await openPage(browser, server.url + query, { locale });
    const bundles = [];
    page.on('request', (r) => {
      const m = /page-(\w+)-[0-9a-f]+\/gpuplan-web(\.js|_bg\.wasm)$/.exec(r.url());
      if (m) bundles.push(m[1] + m[2]);
    });
    await page.reload();
    await ready(page);
    assert.deepEqual(bundles.sort(), [`${want}.js`, `${want}_bg.wasm`], `${query} in ${locale}`);
    assert.equal(await page.locator('html').getAttribute('lang'), want === 'zh' ? 'zh-CN' : 'en');
    await context.close();
  }
});

test('a throwing localStorage does not break the page', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await ready(page);
  await toggleLang(page, 'zh');
  assert.equal(await page.locator('label[for="f-inference-context"]').innerText(), '上下文长度');
  assert.deepEqual(errors, []);
  await context.close();
});

// Transformers allocates as it goes: vLLM's gpu_memory_utilization means
// nothing there, so the field shows for the engines that reserve by it only.
test('the memory fraction shows only for engines that reserve by it', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  const util = page.locator('#f-inference-gpu_mem_util');
  assert.equal(await util.count(), 1, 'vLLM reserves a fraction of the card');
  await page.locator('#f-inference-engine').selectOption('transformers');
  await util.waitFor({ state: 'detached' });
  await page.locator('#f-inference-engine').selectOption('sglang');
  await util.waitFor();
  assert.equal(await util.inputValue(), '0.9', 'the plan kept its fraction');
  assert.deepEqual(errors, []);
  await context.close();
});

test('training inputs replace inference inputs', async () => {
  const { page, context } = await openPage(browser, server.url);
  await ready(page);
  await page.locator('label[for="f-task-train"]').click();
  await page.locator('#f-training-seq').waitFor();
  assert.equal(await page.locator('#f-inference-context').count(), 0);
  await screenshot(page, 'planner-train-en');
  await context.close();
});

// Every kind of control writes the plan through the core's table of fields:
// model-source radios, a number, a select, the GPU list and a checkbox; each
// changes the link.
test('each kind of control changes the plan and the link', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  // The link follows the settled plan, a frame after the headline: wait for it.
  const changed = async (act) => {
    const url = page.url();
    await act();
    await page.waitForFunction((u) => location.href !== u, url);
  };
  await page.locator('label[for="f-model-custom"]').click();
  assert.equal(await page.locator('#f-model-arch-layers').inputValue(), '32', 'the preset shape carries over');
  await changed(() => page.fill('#f-model-arch-layers', '64'));
  assert.match(page.url(), /a\.l=64/);
  await changed(() => page.locator('#f-model-arch-mlp').selectOption('gelu'));
  assert.match(page.url(), /a\.mlp=gelu/);
  await changed(() => page.getByTestId('gpu-select').selectOption('h200-sxm'));
  assert.match(page.url(), /gpu=h200-sxm/);
  await page.locator('label[for="f-task-train"]').click();
  await page.waitForSelector('#f-training-flash_attn');
  await changed(() => page.locator('#f-training-flash_attn').click());
  assert.match(page.url(), /fa=0/);
  await page.locator('label[for="f-model-generic"]').click();
  await page.waitForSelector('#f-model-generic-params');
  assert.ok(Number(await page.locator('#f-model-generic-params').inputValue()) > 1e9, 'the parameter count carries over');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the first screen shows the answer, on a phone and on a desktop', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const { page, context } = await openPage(browser, server.url, { viewport });
    await ready(page);
    const peak = await page.getByTestId('peak-memory').boundingBox();
    assert.ok(peak && peak.y + peak.height <= viewport.height, `${viewport.width} px: peak memory at ${peak?.y}px`);
    for (const id of ['answer-gpus', 'answer-cost']) {
      const box = await page.getByTestId(id).boundingBox();
      assert.ok(box && box.y + box.height <= viewport.height, `${viewport.width} px: ${id} at ${box?.y}px`);
    }
    const examples = await page.locator('.examples').boundingBox();
    assert.ok(examples.y > peak.y, `${viewport.width} px: the examples come after the answer`);
    // The answer quotes the bill's rows, never a figure of its own: the
    // chosen GPU's cheapest, and the bill's cheapest when it is elsewhere.
    const totals = await page.locator('tr span.strong').allTextContents();
    assert.ok(totals.includes(await page.getByTestId('answer-cost').textContent()));
    const best = await page.locator('tr.best span.strong').first().textContent();
    const answers = await page.getByTestId('answer').locator('strong').allTextContents();
    assert.ok(answers.includes(best), `${answers} names the bill's cheapest, ${best}`);
    await context.close();
  }
});

test('fits a 360 px wide screen without horizontal scrolling', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 360, height: 780 } });
  await ready(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide`);
  await screenshot(page, 'planner-360-en');
  await context.close();
});

test('axe-core finds no serious or critical violation', async () => {
  const axe = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(browser, server.url);
    await page.emulateMedia({ colorScheme: scheme });
    await ready(page);
    await page.evaluate(axe);
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    assert.deepEqual(bad, [], `${scheme} scheme`);
    await context.close();
  }
});

// The serving block: the chosen GPU's expected figures, the GPUs the targets
// need (the count the bill prices) and the charts' target lines, all the core's.
const serving = (page, id) => page.getByTestId(id).innerText();
const fieldError = (page, id) => page.locator('.field', { has: page.locator(id) }).getByTestId('input-error');

test('the serving block shows expected figures, the GPUs for the targets and the target lines', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  await page.getByTestId('serving-tpot').waitFor();
  for (const id of ['serving-ttft', 'serving-tpot']) assert.match(await serving(page, id), /^≈ [\d,.]+ ms$/, id);
  assert.match(await serving(page, 'serving-tps-total'), /^≈ [\d,.]+ token\/s$/);
  assert.match(await serving(page, 'serving-rps'), /^≈ [\d,.]+ req\/s$/);
  assert.equal(await page.getByTestId('serving-gpus').count(), 0, 'no target, no count');
  await page.fill('#f-inference-target_qps', '20');
  await page.fill('#f-inference-tpot_ms', '30');
  await page.getByTestId('serving-gpus').waitFor();
  await page.waitForFunction(() => /TPOT target 30\.0 ms/.test(
    document.querySelector('[data-testid="tpot-chart"] .limit-label')?.textContent ?? ''));
  const gpus = Number(await serving(page, 'serving-gpus'));
  assert.ok(gpus >= 2, `20 req/s at a 30 ms TPOT needs more than one H100: ${gpus}`);
  assert.equal(await serving(page, 'serving-binds'), 'TPOT target');
  // The memory headline counts the sequences the targets keep in flight, not the 1 typed.
  await page.waitForFunction(() => document.querySelector('[data-testid="peak-memory"]').textContent === '25.7 GB');
  assert.match(await page.locator('.why .notes').innerText(), /count 38, rounded up to whole sequences/);
  const tpot = Number((await serving(page, 'serving-tpot')).replace(/[^\d.]/g, ''));
  assert.ok(tpot > 0 && tpot <= 30, `the expected TPOT meets the target: ${tpot}`);
  // The bill buys the count on the chosen GPU: each H100 option's instances × GPUs holds it.
  const h100 = await page.locator('[data-testid="cost-table"] tbody tr', { hasText: 'H100 SXM' }).allInnerTexts();
  assert.ok(h100.length > 0);
  for (const row of h100) {
    const [, n, per] = /(\d+) × (\d+)/.exec(row);
    assert.ok(Number(n) * Number(per) >= gpus && (Number(n) - 1) * Number(per) < gpus, row);
  }
  // The answer, the fit table's chosen row and the bill name one count.
  assert.match(await page.getByTestId('answer-gpus').innerText(), new RegExp(`^${gpus} × H100 SXM`));
  const chosen = await page.locator('[data-testid="fit-table"] tbody tr', { has: page.locator('.chip.chosen') }).locator('td').first().innerText();
  assert.match(chosen, new RegExp(`^${gpus}\\b`), `the fit table's chosen row: ${chosen}`);
  // Both charts draw their target line and keep the numbers in a table.
  assert.match(await page.locator('[data-testid="tput-chart"] .limit-label').textContent(), /needed for the target QPS/);
  assert.ok(await page.locator('[data-testid="tpot-chart"] table tbody tr').count() >= 5);
  const cells = await page.locator('[data-testid="serving"] table td').allTextContents();
  assert.ok(cells.length > 0 && cells.every((c) => /^[\d,.]+$/.test(c)), `no NaN: ${cells}`);
  await screenshot(page, 'planner-serving-en');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a TTFT target below the minimum, or a measurement of 0, shows the core message and keeps the result', async () => {
  const { page, context } = await openPage(browser, server.url);
  await ready(page);
  await page.getByTestId('serving-tpot').waitFor();
  const before = await serving(page, 'serving-ttft');
  await page.fill('#f-inference-ttft_ms', '0.001');
  await fieldError(page, '#f-inference-ttft_ms').waitFor();
  assert.match(await fieldError(page, '#f-inference-ttft_ms').innerText(), /cannot be below [\d.]+/);
  assert.equal(await serving(page, 'serving-ttft'), before, 'the last valid result stays');
  await page.locator('.stale-note').waitFor();
  await page.fill('#f-inference-ttft_ms', '0');
  await page.waitForFunction(() => !document.querySelector('[data-testid="input-error"]'));
  // The measured output replaces the model in the count, for the chosen GPU only.
  await page.fill('#f-inference-measured', '0');
  await fieldError(page, '#f-inference-measured').waitFor();
  await page.fill('#f-inference-target_qps', '20');
  await page.fill('#f-inference-measured', '2560');
  await page.waitForFunction(() => /meas=h100-sxm:2560/.test(location.search));
  await page.getByTestId('serving-gpus').waitFor();
  assert.equal(await serving(page, 'serving-binds'), 'your measurement');
  assert.equal(await serving(page, 'serving-gpus'), '2', '⌈20 req/s ÷ (2560 token/s ÷ 256 tokens)⌉');
  assert.ok(!/NaN/.test(await page.getByTestId('serving').innerText()));
  await context.close();
});

test('a pasted vllm bench serve summary sits beside the plan, and the GPUs and the bill follow it', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  await page.fill('#f-inference-target_qps', '60');
  await page.getByTestId('serving-gpus').waitFor();
  const planned = await serving(page, 'serving-gpus');
  // A summary from vLLM's own pull request (crates/gpuplan-core/tests/fixtures/measured/SOURCES.md).
  const summary = await readFile(join(root, 'crates/gpuplan-core/tests/fixtures/measured/vllm_summary.txt'), 'utf8');
  await page.getByTestId('measured-paste').fill(summary);
  await page.getByTestId('measured-read').click();
  await page.getByTestId('readback').waitFor();
  const text = await page.getByTestId('readback').innerText();
  assert.match(text, /vllm bench serve/);
  assert.match(text, /Output tok\/s \(one replica\)\s+≈ [\d,.]+ tok\/s \([\d,.]+–[\d,.]+ tok\/s\)\s+= 6,583 tok\/s\s+[+-]\d+ %/);
  const cells = (name) => page.locator('[data-testid="readback-changes"] tbody tr', { hasText: name }).locator('td').allInnerTexts();
  const [before, after] = await cells('GPUs');
  assert.equal(before, planned, 'before is the plan as it was');
  assert.notEqual(after, before, 'the measurement changes the count for 60 req/s');
  await page.waitForFunction((n) => document.querySelector('[data-testid="answer-gpus"]')?.textContent.startsWith(`${n} ×`), after);
  assert.equal(await serving(page, 'serving-gpus'), after, 'the serving block counts from the measurement');
  const [billBefore, billAfter] = await cells('Bill');
  assert.notEqual(billBefore, billAfter);
  assert.equal(await page.getByTestId('answer-cost').innerText(), billAfter, 'the answer quotes the bill as planned again');
  // The measurement travels: a colleague opening the link sees the same comparison.
  await page.waitForFunction(() => /[?&]bench=vllm/.test(location.search));
  const fresh = await openPage(browser, page.url());
  await fresh.page.getByTestId('readback').waitFor();
  assert.equal(await fresh.page.getByTestId('readback').innerText(), text);
  // Another tool's output: a notice, and the plan stays.
  await page.getByTestId('measured-paste').fill('hello, this is not a benchmark');
  await page.getByTestId('measured-read').click();
  await page.getByTestId('measured-error').waitFor();
  assert.equal(await serving(page, 'serving-gpus'), after);
  await screenshot(page, 'planner-readback-en');
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.context.close();
  await context.close();
});
