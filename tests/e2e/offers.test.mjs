// The user's own offers on the page: typed by hand and ranked at once,
// edited, duplicated and deleted; a listed offer changed shows its changes
// and resets; own items; bad prices named next to their field; all of it
// in the share link and kept on the device.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { session, openPage } from './lib.mjs';

let s, page, errors;

before(async () => { s = await session(); ({ page, errors } = s); });
after(() => s?.close());

const answer = () => page.getByTestId('answer').innerText();
const cards = () => page.getByTestId('offer-card');
const field = (id, path) => page.locator(`#of-${id}-${path.replace(/[.[\]]/g, '-')}`);
const answerSays = (re) =>
  page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''), re.source);

test('an offer typed by hand is ranked at once, and the answer follows it', async () => {
  await page.getByTestId('offer-add').click();
  await cards().first().waitFor();
  assert.equal(await field('own-1', 'storage_gb_month').getAttribute('placeholder'), 'not in the catalog: fill in');
  await field('own-1', 'provider').fill('QuoteCo');
  await field('own-1', 'od.hourly').fill('0.05');
  await answerSays(/QuoteCo/);
  await field('own-1', 'od.hourly').fill('900');
  await page.waitForFunction(() => !/QuoteCo/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
  await field('own-1', 'od.hourly').fill('0.05');
  await answerSays(/QuoteCo/);
});

test('a bad price is named next to its field and the answer stays', async () => {
  const before = await answer();
  await field('own-1', 'od.hourly').fill('-5');
  const error = cards().first().getByTestId('input-error');
  await error.waitFor();
  assert.match(await error.innerText(), /0|range/i);
  await field('own-1', 'od.hourly').fill('1,5');
  assert.match(await cards().first().getByTestId('input-error').innerText(), /number/i);
  assert.equal(await field('own-1', 'od.hourly').inputValue(), '1,5', 'the typed text stays');
  assert.match(await answer(), /QuoteCo/);
  await field('own-1', 'od.hourly').fill('0.05');
  await page.waitForFunction(() => !document.querySelector('[data-testid="offer-card"] [data-testid="input-error"]'));
  assert.equal(await answer(), before);
});

test('duplicate and delete', async () => {
  await cards().first().getByTestId('offer-duplicate').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="offer-card"]').length === 2);
  assert.equal(await field('own-2', 'od.hourly').inputValue(), '0.05');
  assert.match(await field('own-2', 'name').inputValue(), /\(copy\)$/);
  await page.locator('[data-testid="offer-card"][data-id="own-2"] [data-testid="offer-remove"]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="offer-card"]').length === 1);
});

test('a changed listed offer shows what changed, and resets', async () => {
  await page.getByTestId('offer-edit-listed').selectOption('aws-p5');
  const card = page.locator('[data-testid="offer-card"][data-id="aws-p5"]');
  await card.waitFor();
  assert.equal(await field('aws-p5', 'od.hourly').inputValue(), '55.04');
  await field('aws-p5', 'od.hourly').fill('40');
  await card.getByTestId('offer-changes').waitFor();
  assert.match(await card.getByTestId('offer-changes').innerText(), /On-demand price: 55\.04 → 40/);
  await card.getByTestId('offer-remove').click();
  await card.waitFor({ state: 'detached' });
});

test('a market offer the catalog lacks prices for opens as an own offer to fill in', async () => {
  const row = page.getByTestId('market-table').locator('tbody tr', { hasText: 'not in the catalog', hasNotText: 'QuoteCo' }).first();
  await row.waitFor({ timeout: 30000 });
  const before = await cards().count();
  await row.locator('button.pick').click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="offer-card"]').length === n + 1, before);
  const card = cards().last();
  const id = await card.getAttribute('data-id');
  assert.equal(await page.evaluate(() => document.activeElement?.id), `of-${id}-provider`, 'the card has the focus');
  const storage = card.locator(`[id="of-${id}-storage_gb_month"]`);
  assert.equal(await storage.inputValue(), '');
  await storage.fill('0.1');
  await card.getByTestId('offer-changes').waitFor();
  assert.match(await card.getByTestId('offer-changes').innerText(), /Block storage price: — → 0\.1/);
  await card.getByTestId('offer-remove').click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="offer-card"]').length === n, before);
});

test('own items join the bill', async () => {
  await page.getByTestId('item-add').click();
  await page.locator('#it-0-amount').fill('300');
  await page.waitForFunction(() => /it=/.test(document.querySelector('[data-testid="share-url"]')?.value ?? ''));
});

test('the share link carries the offers: a fresh page ranks them the same', async () => {
  await page.waitForFunction(() => /of=/.test(document.querySelector('[data-testid="share-url"]')?.value ?? ''));
  const link = await page.getByTestId('share-url').inputValue();
  const shown = await answer();
  const fresh = await openPage(s.browser, link);
  try {
    await fresh.page.getByTestId('answer-gpus').waitFor();
    await fresh.page.waitForFunction(() => /QuoteCo/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
    assert.equal(await fresh.page.getByTestId('answer').innerText(), shown);
    assert.equal(await fresh.page.locator('#of-own-1-od-hourly').inputValue(), '0.05');
    assert.equal(await fresh.page.locator('#it-0-amount').inputValue(), '300');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.context.close();
  }
});

test('a reload keeps the own offers', async () => {
  await page.goto(s.server.url);
  await page.getByTestId('answer-gpus').waitFor();
  await answerSays(/QuoteCo/);
  assert.equal(await cards().count(), 1);
  assert.deepEqual(errors, [], 'console errors');
});
