// The JS API gives numbers without the UI, with the same shape as the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { serve, launch, openPage, root } from './lib.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('estimate(plan) on the example page matches the CLI', async () => {
  const { page, errors, foreign, context } = await openPage(browser, server.url + 'examples/api.html');
  await page.waitForFunction(() => window.gpuplanExample, null, { timeout: 15000 });
  const ex = await page.evaluate(() => window.gpuplanExample);
  assert.ok(ex.report.memory.per_gpu_bytes > 0);
  assert.ok(ex.link.startsWith('v=1'));
  assert.equal(ex.decoded.ignored[0].key, 'ctx');
  const cli = join(root, 'target/debug/gpuplan');
  const plan = JSON.stringify({ task: 'infer', model: { kind: 'preset', id: 'llama-3.1-8b' }, inference: { context: 8192 } });
  const out = JSON.parse(execFileSync(cli, ['estimate', '--plan', '-', '--format', 'json'], { input: plan }));
  assert.equal(out.memory.per_gpu_bytes, ex.report.memory.per_gpu_bytes);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await context.close();
});

test('summary(plan) names the same GPUs, price and plan as estimate(plan)', async () => {
  const api = await openPage(browser, server.url + 'examples/api.html');
  await api.page.waitForFunction(() => window.gpuplanExample, null, { timeout: 15000 });
  const got = await api.page.evaluate(async () => {
    const m = await import('../api/gpuplan.js');
    const plan = m.decodeLink('v=1&m=llama-3.1-70b&w=fp8&ctx=32768&conc=4').plan;
    return { s: m.summary(plan, 'en'), r: m.estimate(plan, 'en') };
  });
  assert.equal(got.s.gpus.count, got.r.selection.gpus);
  assert.equal(got.s.gpus.id, got.r.selection.gpu);
  assert.deepEqual(got.s.cheapest, got.r.selection.option);
  assert.equal(got.s.per_gpu_bytes, got.r.memory.per_gpu_bytes);
  assert.match(got.s.text, /per GPU/);
  assert.match(got.s.link, /^v=1&.*m=llama-3\.1-70b/);
  assert.deepEqual(api.errors, []);
  await api.context.close();
});

test('the page, the JS API and the CLI give the same peak for one plan', async () => {
  const link = 'v=1&m=llama-3.1-70b&w=fp8&ctx=32768&conc=4&g=2&tp=2';
  const cli = join(root, 'target/debug/gpuplan');
  const viaCli = JSON.parse(execFileSync(cli, ['estimate', '--url', `?${link}`, '--format', 'json'])).memory.per_gpu_bytes;

  const api = await openPage(browser, server.url + 'examples/api.html');
  await api.page.waitForFunction(() => window.gpuplanExample, null, { timeout: 15000 });
  const viaApi = await api.page.evaluate(async (link) => {
    const m = await import('../api/gpuplan.js');
    return m.estimate(m.decodeLink(link).plan).memory.per_gpu_bytes;
  }, link);
  await api.context.close();

  const { page, errors, context } = await openPage(browser, `${server.url}?${link}&lang=en`);
  const md = page.locator('[data-testid="snippet-markdown"]');
  await page.waitForFunction(() => /Peak per GPU/.test(document.querySelector('[data-testid="snippet-markdown"]')?.value ?? ''));
  const [, viaPage] = (await md.inputValue()).match(/\*\*Peak per GPU\*\* \| \*\*[\d.]+ GB \((\d+) B\)/);

  assert.ok(viaCli > 35e9, `70B FP8 split over two GPUs holds 35 GB of weights each: ${viaCli}`);
  assert.equal(viaApi, viaCli);
  assert.equal(Number(viaPage), viaCli);
  assert.deepEqual(errors, []);
  await context.close();
});
