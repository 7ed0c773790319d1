// The parts of the page that load on demand (web/src/parts.rs): each is a
// file of its own in the language's page folder, fetched after the first
// result; each loads and works in both languages, and each refused in turn
// fails alone: its place says so with a retry, the answer and the other
// parts go on, and the link in the address bar stays as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch, openPage, dist } from './lib.mjs';

// What each part shows once loaded.
const shown = {
  fit: '[data-testid="fit-table"]',
  cost: '[data-testid="cost-table"]',
  workloads: '[data-testid="workloads"]',
  offers: '#offers-h',
  'price-sheet': '[data-testid="price-sheet"]',
  market: '#market-h',
  checklist: '[data-testid="checklist"]',
  compare: '#compare-h',
  gallery: '#gallery-h',
  share: '#share-h',
  'model-file': '[data-testid="model-file"]',
  readback: '[data-testid="measured"]',
};

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// The language's page folder and the files split off its main module.
async function lazyFiles(lang) {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const folder = html.match(new RegExp(`page-${lang}-[0-9a-f]+`))[0];
  const names = await readdir(join(dist, folder));
  return { folder, files: names.filter((n) => /^(split|chunk)_.*\.wasm$/.test(n)) };
}

async function allParts(page) {
  for (const selector of Object.values(shown)) await page.locator(selector).first().waitFor({ state: 'attached', timeout: 15000 });
}

for (const [lang, locale] of [['zh', 'zh-CN'], ['en', 'en-US']]) {
  test(`${lang}: every part loads after the first result, from its own files, and works`, async () => {
    const { folder, files } = await lazyFiles(lang);
    assert.ok(files.length >= Object.keys(shown).length, `split files: ${files}`);
    const { page, context, errors } = await openPage(browser, server.url, { locale });
    const fetched = [];
    page.on('request', (r) => { if (r.url().includes(`/${folder}/`)) fetched.push(r.url().split('/').pop()); });
    await page.reload();
    await page.getByTestId('answer-gpus').waitFor();
    await allParts(page);
    for (const file of fetched.filter((f) => f.endsWith('.wasm') && f !== 'gpuplan-web_bg.wasm')) {
      assert.ok(files.includes(file), `${file} is one of the split files`);
    }
    assert.equal(await page.locator('[data-part-failed]').count(), 0);
    // A part works: the checklist follows an edit made after it loaded.
    const before = await page.getByTestId('checklist').innerText();
    await page.fill('#f-inference-context', '65536');
    await page.waitForFunction((b) => document.querySelector('[data-testid="checklist"]')?.innerText !== b, before);
    assert.deepEqual(errors, [], 'console errors');
    await context.close();
  });

  // Each part's own file in turn, three pages at a time; then, in Chinese,
  // every shared chunk at once (one page: there are dozens of them, each
  // refused fails the parts that share it the same way, and the suite's
  // time is budgeted).
  test(`${lang}: each part's file refused in turn costs only its part, and a retry brings it`, async () => {
    const { folder, files } = await lazyFiles(lang);
    const parts = files.filter((f) => f.startsWith('split_'));
    for (let i = 0; i < parts.length; i += 3) {
      await Promise.all(parts.slice(i, i + 3).map((file) => refuseOne(folder, [file], lang, locale)));
    }
    if (lang === 'zh') await refuseOne(folder, files.filter((f) => f.startsWith('chunk_')), lang, locale);
  });
}

// Opens the page with `refused` files refused: their parts fail alone, the
// answer and the link follow an edit, and once the files are back a retry
// brings every part.
async function refuseOne(folder, refused, lang, locale) {
  const file = refused.length === 1 ? refused[0] : `${refused.length} chunks`;
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  let refuse = true;
  const blocked = (url) => url.pathname.includes(`/${folder}/`) && refused.includes(url.pathname.split('/').pop());
  await context.route(blocked, (route) => (refuse ? route.abort() : route.continue()));
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.url}?lang=${lang}`);
  await page.getByTestId('answer-gpus').waitFor();
  const failed = page.locator('[data-part-failed]');
  await failed.first().waitFor({ timeout: 15000 });
  const link = page.url();
  const peak = await page.getByTestId('peak-memory').innerText();
  await page.fill('#f-inference-context', '65536');
  await page.waitForFunction((p) => document.querySelector('[data-testid="peak-memory"]')?.innerText !== p, peak);
  await page.waitForFunction((l) => location.href !== l, link);
  assert.deepEqual(pageErrors, [], `${file}: no page error`);
  refuse = false;
  const ids = await failed.evaluateAll((els) => els.map((e) => e.dataset.partFailed));
  // Each retry that succeeds takes its notice away: click the first left until none is.
  for (let left = ids.length; left > 0; left = await failed.count()) {
    await failed.first().getByRole('button').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-part-failed]').length < n, left);
  }
  await allParts(page);
  assert.equal(await page.locator('[data-part-failed]').count(), 0, `${file}: ${ids} came back`);
  await context.close();
}

test('the files come compressed when the browser asks, as the wasm type', async () => {
  const { folder, files } = await lazyFiles('zh');
  for (const name of ['gpuplan-web_bg.wasm', files[0]]) {
    const res = await fetch(`${server.url}${folder}/${name}`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.headers.get('content-type'), 'application/wasm', name);
    assert.equal(res.headers.get('content-encoding'), 'br', name);
    const plain = await fetch(`${server.url}${folder}/${name}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null, name);
  }
});

for (const locale of ['zh-CN', 'en-US']) {
  test(`${locale}: a project link opens into its project, its part fetched at start`, async () => {
    const { page, context, errors } = await openPage(browser, server.url, { locale });
    await page.getByTestId('example-law-saas-project').click();
    await page.getByTestId('budget-total').waitFor();
    const link = page.url();
    await context.close();
    const fresh = await openPage(browser, link, { locale });
    await fresh.page.getByTestId('budget-total').waitFor();
    await fresh.page.getByTestId('wl-pick-1').waitFor();
    assert.deepEqual([...errors, ...fresh.errors], []);
    await fresh.context.close();
  });
}
