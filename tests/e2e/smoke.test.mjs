// The release bundle renders the app in real Chromium, quietly and offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot } from './lib.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('page renders the app, logs no error, asks no other host', async () => {
  const { page, errors, foreign, context } = await openPage(browser, server.url);
  await page.waitForSelector('[data-testid="peak-memory"]', { timeout: 15000 });
  const text = (await page.locator('body').innerText()).trim();
  assert.ok(text.length > 20, `body looks blank: ${JSON.stringify(text)}`);
  assert.ok(await page.locator('main').count() > 0, 'no <main> rendered');
  await screenshot(page, 'smoke');
  assert.deepEqual(errors, [], 'console errors');
  assert.deepEqual(foreign, [], 'requests to other hosts');
  await context.close();
});

test('the built page carries a Content Security Policy', async () => {
  const { page, context } = await openPage(browser, server.url);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /base-uri 'none'/);
  await context.close();
});

test('a bundle that fails to load says so instead of leaving the page blank', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.route(/_bg\.wasm$/, (route) => route.abort());
  await page.reload();
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 15000 });
  assert.match(await alert.innerText(), /failed to load; reload the page/);
  assert.match(await alert.innerText(), /未能加载/);
  await context.close();
});
