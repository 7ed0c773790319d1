// The shipped market on the page: fetched after the first result, priced for
// the default H100 plan, filtered, auction and marketplace prices marked,
// prices the catalog lacks never shown as zero.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './lib.mjs';

let server, browser, context, page;
const errors = [];
// What the page had shown when it asked for each market file.
const asked = [];

before(async () => {
  server = await serve();
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/market/**', async (route) => {
    const answer = await page.evaluate(() => document.querySelector('[data-testid="answer-gpus"]')?.textContent ?? '');
    asked.push({ url: route.request().url(), answer });
    await route.continue();
  });
  await page.goto(server.url);
  await page.getByTestId('market-table').locator('tbody tr').first().waitFor({ timeout: 30000 });
});
after(async () => { await context?.close(); await browser?.close(); await server?.close(); });

const table = () => page.getByTestId('market-table');
const column = (i) => table().locator(`tbody tr > :nth-child(${i})`).allInnerTexts();

// Picks a filter's value and waits for the table to follow.
async function pick(id, value) {
  const before = await table().locator('tbody').innerText();
  await page.locator(`#${id}`).selectOption(value);
  await page.waitForFunction((old) => document.querySelector('[data-testid="market-table"] tbody')?.innerText !== old, before);
}

test('the first result is on screen before the market is asked for', () => {
  assert.deepEqual(asked.map((a) => new URL(a.url).pathname), ['/market/offers.json']);
  for (const a of asked) assert.match(a.answer, /×/, `${a.url} was asked for before the first result`);
});

test('the default H100 plan sees offers from at least ten providers, cheapest named', async () => {
  const providers = new Set((await column(1)).map((p) => p.split('\n')[0].trim()));
  assert.ok(providers.size >= 10, `providers in the table: ${[...providers].join(', ')}`);
  assert.ok(await page.locator('#f-market-provider option').count() >= 11);
  assert.match(await page.getByTestId('market-best').innerText(), /\d/);
  assert.match(await page.getByTestId('answer-market').innerText(), /\d/);
  assert.ok((await column(9)).slice(1).every((why) => why.trim() !== ''), 'every dearer row says why it loses');
});

test('no NaN, and no zero for a price the catalog lacks', async () => {
  const text = await table().innerText();
  assert.doesNotMatch(text, /NaN/);
  assert.doesNotMatch(text, /(^|[^\d.])0\.00(?!\d)/);
  assert.match(text, /not in the catalog/);
});

test('Mithril is an auction and Vast.ai a marketplace', async () => {
  for (const [provider, mark] of [['Mithril', 'auction'], ['Vast.ai', 'marketplace']]) {
    await pick('f-market-provider', provider);
    const kinds = await column(4);
    assert.ok(kinds.length > 0, `no ${provider} rows`);
    assert.ok(kinds.every((k) => k.includes(mark)), `${provider}: ${kinds.join(' | ')}`);
  }
  await pick('f-market-provider', '');
});

test('the filters narrow the rows', async () => {
  const all = await page.getByTestId('market-shown').innerText();
  await pick('f-market-provider', 'AWS');
  assert.ok((await column(1)).every((p) => p.startsWith('AWS')));
  await pick('f-market-kind', 'spot');
  assert.ok((await column(4)).every((k) => k.startsWith('Spot')));
  await pick('f-market-provider', '');
  await pick('f-market-kind', '');
  await pick('f-market-currency', 'CNY');
  assert.ok((await column(5)).length > 0);
  assert.notEqual(await page.getByTestId('market-shown').innerText(), all);
  await pick('f-market-currency', '');
  await page.locator('#f-market-region').fill('eu-');
  const before = await table().locator('tbody').innerText();
  await page.locator('#f-market-region').press('Enter');
  await page.locator('#f-market-region').blur();
  await page.waitForFunction((old) => document.querySelector('[data-testid="market-table"] tbody')?.innerText !== old, before);
  assert.ok((await column(2)).every((r) => r.toLowerCase().includes('eu-')));
  assert.deepEqual(errors, [], 'console errors');
});
