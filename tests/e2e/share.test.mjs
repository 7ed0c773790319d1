// Share links and embedding, as a user meets them: edit, copy the link,
// open it fresh; a broken link opens with a notice; hostile text stays text;
// the embedded page sizes its iframe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serve, launch, openPage, screenshot } from './lib.mjs';

let server, browser;
before(async () => {
  server = await serve(undefined, { '/host/': join(import.meta.dirname, 'fixtures') });
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const peak = (page) => page.locator('[data-testid="peak-memory"]').innerText();

test('an edited plan reopens from its link with the same numbers', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.waitForSelector('[data-testid="peak-memory"]');
  await page.fill('#f-inference-context', '32768');
  await page.waitForFunction(() => document.querySelector('[data-testid="share-url"]').value.includes('ctx=32768'));
  const url = await page.locator('[data-testid="share-url"]').inputValue();
  assert.ok(url.length < 2000, `link is ${url.length} characters`);
  assert.ok(page.url().includes('ctx=32768'), 'address bar follows the plan');
  const before = await peak(page);
  const fresh = await openPage(browser, url);
  await fresh.page.waitForSelector('[data-testid="peak-memory"]');
  assert.equal(await peak(fresh.page), before);
  assert.equal(await fresh.page.inputValue('#f-inference-context'), '32768');
  assert.deepEqual(errors, []);
  await fresh.context.close();
  await context.close();
});

test('a malformed link opens with a notice and keeps what it could read', async () => {
  const { page, context } = await openPage(browser, server.url + '?v=1&m=llama-3.1-70b&ctx=abc&zzz=1&conc=4');
  const notice = page.locator('[data-testid="notice"]');
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, /ctx=abc/);
  assert.match(text, /zzz=1/);
  assert.equal(await page.inputValue('#f-inference-concurrency'), '4');
  await screenshot(page, 'notice');
  await context.close();
});

test('script in a link is shown as text and never runs', async () => {
  const evil = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
  const q = `?v=1&tick=${encodeURIComponent(evil)}&${encodeURIComponent(evil)}=${encodeURIComponent(evil)}`;
  const { page, context, foreign } = await openPage(browser, server.url + q);
  let dialog = false;
  page.on('dialog', (d) => { dialog = true; d.dismiss(); });
  await page.locator('[data-testid="notice"]').waitFor();
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.ok((await page.locator('[data-testid="notice"]').innerText()).includes('<script>'));
  assert.equal(dialog, false);
  assert.deepEqual(foreign, []);
  await context.close();
});

test('embedded in a host page, it sizes its iframe and reports its plan', async () => {
  const { page, context, errors } = await openPage(browser, server.url + 'host/host.html');
  await page.waitForFunction(() => parseInt(document.getElementById('planner').style.height) > 400, null, { timeout: 15000 });
  await page.waitForFunction(() => window.lastPlan && window.lastPlan.summary.per_gpu_bytes > 6e10);
  const link = await page.evaluate(() => window.lastPlan.link);
  assert.match(link, /m=llama-3.1-70b/);
  await screenshot(page, 'embedded');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the checklist is filled from the plan and its ticks travel in the link', async () => {
  const { page, context } = await openPage(browser, server.url + '?v=1&m=llama-3.1-70b&w=fp8&g=4&tp=4');
  const list = page.locator('[data-testid="checklist"]');
  await list.waitFor();
  assert.ok(await list.locator('li').count() > 20, 'checklist has items');
  assert.match(await list.innerText(), /nvidia-smi topo -m/);
  const first = list.locator('input[type="checkbox"]').first();
  const id = (await first.getAttribute('id')).replace(/^tick-/, '');
  await first.check();
  await page.waitForFunction((id) => document.querySelector('[data-testid="share-url"]').value.includes('tick=' + id), id);
  const url = await page.locator('[data-testid="share-url"]').inputValue();
  const fresh = await openPage(browser, url);
  await fresh.page.locator('[data-testid="checklist"]').waitFor();
  assert.ok(await fresh.page.locator(`#tick-${id}`).isChecked());
  const md = await fresh.page.locator('[data-testid="checklist-md"]').inputValue();
  assert.match(md, /^- \[x\] /m, 'the ticked item exports as done');
  await fresh.context.close();
  await context.close();
});
