// The user's own price sheet on the page: a SkyPilot CSV or gpuplan JSON,
// picked (or dropped), read in the browser's reader worker, ranked with the
// other offers, kept on the device; exported and read back; hostile files
// each get a notice and the plan stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { session } from './lib.mjs';

let s, page, errors;

before(async () => { s = await session(); ({ page, errors } = s); });
after(() => s?.close());

const CHEAP_H100 = [
  'provider,InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region',
  'TinyCloud,tc.h100x1,H100,1,0.05,,tiny-1',
  'TinyCloud,tc.bad,H100,1,-3,,tiny-1',
  'TinyCloud,tc.a40,A40,1,0.3,,tiny-1',
  '<img src=x onerror="window.__pwned=1">,tc.h100x8,H100,8,0.9,,tiny-2',
].join('\n');

// The price sheet is a part of the page that loads after the first result.
async function open(name, text, mimeType = 'text/csv') {
  await page.locator('.price-sheet').waitFor({ state: 'attached' });
  await page.evaluate(() => { document.querySelector('.price-sheet').open = true; });
  await page.getByTestId('price-sheet').setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
}

const notices = () => page.getByTestId('sheet-notices').innerText();

test('a SkyPilot CSV is read with line-numbered notices and its cheapest offer is ranked first', async () => {
  await open('tiny.csv', CHEAP_H100);
  await page.getByTestId('sheet-notices').waitFor({ timeout: 30000 });
  const said = await notices();
  assert.match(said, /2 offers and 0 own items read from tiny\.csv/);
  assert.match(said, /line 3: Price -3 is out of range/);
  assert.match(said, /A40 \(1\)/);
  assert.match(said, /markup or control characters/);
  await page.waitForFunction(() => /TinyCloud/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'a provider name ran as HTML');
  assert.match(await page.getByTestId('sheet-kept').innerText(), /2 offers/);
});

test('the sheet is kept on this device: a reload ranks it again', async () => {
  await page.reload();
  await page.getByTestId('answer-gpus').waitFor();
  await page.waitForFunction(() => /TinyCloud/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
  assert.match(await page.getByTestId('sheet-kept').innerText(), /2 offers/);
});

test('the JSON export reads back; the CSV export says what it leaves out', async () => {
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const exported = await readFile(await json.path(), 'utf8');
  assert.equal(JSON.parse(exported).offers.length, 2);
  await page.getByTestId('sheet-clear').click();
  await page.waitForFunction(() => !/TinyCloud/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
  await open('gpuplan-offers.json', exported, 'application/json');
  await page.waitForFunction(() => /2 offers and 0 own items read from gpuplan-offers\.json/.test(document.querySelector('[data-testid="sheet-notices"]')?.innerText ?? ''));
  await page.waitForFunction(() => /TinyCloud/.test(document.querySelector('[data-testid="answer"]')?.innerText ?? ''));
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const rows = (await readFile(await csv.path(), 'utf8')).trim().split('\n');
  assert.equal(rows.length, 3, rows.join('\n'));
  assert.match(rows[0], /^provider,InstanceType,AcceleratorName/);
});

test('hostile files get a notice each, and the plan and its sheet stay', async () => {
  const answer = await page.getByTestId('answer').innerText();
  await open('huge.csv', 'x'.repeat(17 * 1024 * 1024));
  await page.getByTestId('sheet-error').waitFor();
  assert.match(await page.getByTestId('sheet-error').innerText(), /huge\.csv is 17\.8 MB; sheets up to 16\.8 MB are read/);
  await open('photo.png', '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0', 'image/png');
  await page.waitForFunction(() => /photo\.png/.test(document.querySelector('[data-testid="sheet-notices"]')?.innerText ?? ''));
  assert.match(await notices(), /0 offers/);
  await open('yen.csv', 'InstanceType,AcceleratorName,AcceleratorCount,Price,Currency\nx,H100,1,2,JPY\n');
  await page.waitForFunction(() => /yen\.csv/.test(document.querySelector('[data-testid="sheet-notices"]')?.innerText ?? ''));
  assert.match(await notices(), /line 2: currency "JPY" is not USD or CNY/);
  assert.equal(await page.getByTestId('answer').innerText(), answer, 'a refused file changed the plan');
  assert.match(await page.getByTestId('sheet-kept').innerText(), /2 offers/);
  assert.deepEqual(errors, [], 'console errors');
});

test('a sheet dropped anywhere is read as a sheet, not as a model file', async () => {
  const opened = await page.evaluate((csv) => {
    const dt = new DataTransfer();
    dt.items.add(new File([csv], 'dropped.csv', { type: 'text/csv' }));
    return document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, CHEAP_H100);
  assert.equal(opened, false, 'the drop is the page\'s, not opened in the tab');
  await page.waitForFunction(() => /read from dropped\.csv/.test(document.querySelector('[data-testid="sheet-notices"]')?.innerText ?? ''));
  assert.equal(await page.getByTestId('model-file-read').count(), 0);
  assert.equal(await page.getByTestId('model-file-error').count(), 0);
  assert.deepEqual(errors, [], 'console errors');
});
