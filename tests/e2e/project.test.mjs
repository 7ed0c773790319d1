// Projects on the page, as a user meets them: a second workload with its
// span gives a budget, whose share link reopens to the same numbers; the
// gallery's seed project names one machine in its checklist, its bill and
// the answer; the last workload cannot be removed, and says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot } from './lib.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const text = (page, id) => page.getByTestId(id).innerText();
// The budget's numbers: its total, the split by workload and line, every month.
const budget = async (page) => [
  await text(page, 'budget-total'),
  await page.getByTestId('budget-by-workload').innerText(),
  await page.getByTestId('budget-by-month').evaluate((t) => t.textContent),
];

test('a second workload with its span reopens from its link with the same budget', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.waitForSelector('[data-testid="peak-memory"]');
  assert.equal(await page.getByTestId('budget').count(), 0, 'one workload: no budget');
  const single = await page.getByTestId('share-url').inputValue();
  assert.ok(!single.includes('wl='), `one workload keeps the version 1 link: ${single}`);
  await page.getByTestId('wl-add-serve').click();
  await page.getByTestId('wl-start-1').fill('2');
  await page.getByTestId('wl-start-1').press('Tab');
  await page.waitForFunction(() => document.querySelector('[data-testid="share-url"]')?.value.includes('1.sm=2'));
  await page.getByTestId('budget-total').waitFor();
  const url = await page.getByTestId('share-url').inputValue();
  assert.match(url, /[?&]v=2&wl=/);
  assert.ok(page.url().includes('1.sm=2'), 'the address bar follows the project');
  const numbers = await budget(page);
  assert.match(numbers[0], /\d/);
  await screenshot(page, 'project-budget');
  const fresh = await openPage(browser, url);
  await fresh.page.getByTestId('budget-total').waitFor();
  assert.deepEqual(await budget(fresh.page), numbers);
  assert.equal(await fresh.page.getByTestId('wl-start-1').inputValue(), '2');
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
  await context.close();
});

test('the gallery project: checklist, bill and answer name the same machines', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.waitForSelector('[data-testid="peak-memory"]');
  await page.getByTestId('example-law-saas-project').click();
  await page.getByTestId('budget-total').waitFor();
  assert.match(page.url(), /wl=train,serve/);
  assert.ok((await text(page, 'seed-note')).length > 100, 'its figures against the seed');
  const machines = page.getByTestId('project-machine-selection');
  assert.equal(await machines.count(), 1, 'the training card is the service\'s first: one machine');
  const machine = await machines.innerText();
  const rows = {};
  for (const [i, name] of [[1, 'serve'], [0, 'train']]) {
    await page.getByTestId(`wl-pick-${i}`).click();
    await page.waitForFunction((i) => document.querySelector(`[data-testid="wl-pick-${i}"]`).getAttribute('aria-pressed') === 'true', i);
    await page.waitForFunction((n) => document.querySelector('[data-testid="checklist"] h3')?.textContent
      && document.querySelector('[data-testid="answer-gpus"]')?.textContent, name);
    const gpus = await text(page, 'answer-gpus');
    const title = await page.locator('[data-testid="checklist"] h3').innerText();
    assert.ok(title.includes(gpus), `${name}: checklist "${title}" names ${gpus}`);
    const row = await page.getByTestId('budget-by-workload').locator('tbody tr')
      .filter({ has: page.locator('th', { hasText: new RegExp(`^${name}$`) }) }).innerText();
    rows[name] = row;
    assert.ok(row.includes(gpus), `${name}: the bill's row "${row}" names ${gpus}`);
    // The bill's option (offer · kind), as the answer names it.
    const [, offer, kind] = row.match(/· ([^·]+) · ([^·,]+), \d+ instance/) ?? [];
    assert.ok(offer && kind, row);
    assert.ok((await text(page, 'answer')).includes(`${offer} · ${kind}`), `${name}: the answer names ${offer} · ${kind}`);
  }
  // The one machine ordered is the service's selection, which carries the training's card on.
  assert.ok(rows.serve.includes(machine), `the machine "${machine}" is the service's bill`);
  assert.match(await page.getByTestId('project-machine').innerText(), /train, serve/);
  await screenshot(page, 'project-gallery');
  assert.deepEqual(errors, []);
  await context.close();
});

test('removing the last workload says why, and keeps it', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.waitForSelector('[data-testid="peak-memory"]');
  await page.getByTestId('wl-remove-0').click();
  const message = page.getByTestId('wl-message');
  await message.waitFor();
  assert.match(await message.innerText(), /at least one workload/);
  assert.equal(await page.locator('[data-testid^="wl-pick-"]').count(), 1);
  assert.match(await text(page, 'peak-memory'), /\d/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a hand-edited project link opens with its notices and its refusals', async () => {
  const q = '?v=2&wl=a,b&0.m=qwen2.5-7b&1.re=nobody&7.ctx=4096&1.sm=soon';
  const { page, context, errors } = await openPage(browser, server.url + q);
  await page.getByTestId('notice').waitFor();
  const notice = await text(page, 'notice');
  assert.match(notice, /7\.ctx/);
  assert.match(notice, /1\.sm/);
  const message = await text(page, 'wl-message');
  assert.match(message, /b · plan\.model/, 'the workload without a model');
  assert.match(message, /b · reuse/, 'the unknown reuse');
  const names = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(',');
  const many = await openPage(browser, `${server.url}?v=2&wl=${names}&0.m=qwen2.5-7b`);
  await many.page.getByTestId('notice').waitFor();
  assert.match(await text(many.page, 'notice'), /16/);
  await many.page.getByTestId('wl-pick-15').waitFor();
  assert.equal(await many.page.locator('[data-testid^="wl-pick-"]').count(), 16);
  assert.deepEqual(errors, []);
  assert.deepEqual(many.errors, []);
  await many.context.close();
  await context.close();
});
