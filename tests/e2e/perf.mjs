// Browser timings for `cargo xtask bench` (not part of the test suite:
// timings are noisy, sizes are the budget the tests hold). Prints one table:
// navigation -> first result, unthrottled and at 4x CPU throttling; one
// input change -> updated result; and the full report in wasm via the JS API.
import { serve, launch, openPage } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function firstResult(browser, url, rate) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  // Stamped in the page when the peak first shows a number: performance.now()
  // counts from navigation start, and no test-driver round trip is included.
  await page.addInitScript(() => {
    const stamp = () => {
      const el = document.querySelector('[data-testid="peak-memory"]');
      if (el && /\d/.test(el.textContent) && !window.__firstResult) window.__firstResult = performance.now();
    };
    new MutationObserver(stamp).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__firstResult);
  const ms = await page.evaluate(() => window.__firstResult);
  const t = await page.evaluate(() => {
    const e = performance.getEntriesByType('navigation')[0];
    return e ? e.domContentLoadedEventEnd : 0;
  });
  return { ms, dcl: t, page, context, cdp };
}

// Edits the context field five times. For each: the time to the painted frame
// that shows the new peak (the headline), and to the painted frame that shows
// the whole report (the share link follows it). "After paint" is a
// user-blocking task posted from requestAnimationFrame: it runs before the
// page's own deferred work, which is a plain timer; `early` counts edits where
// the report had already landed at the headline stamp (it would be included).
async function inputLatency(page) {
  return page.evaluate(async () => {
    const input = document.querySelector('#f-inference-context');
    const out = document.querySelector('[data-testid="peak-memory"]');
    const link = document.querySelector('[data-testid="share-url"]');
    const painted = () => new Promise((ok) => requestAnimationFrame(() => scheduler.postTask(ok, { priority: 'user-blocking' })));
    // Checked on every DOM change and every frame (an input's value is no DOM change).
    const changed = (test) => new Promise((ok) => {
      const obs = new MutationObserver(() => check());
      const check = () => (test() ? (obs.disconnect(), ok()) : requestAnimationFrame(check));
      obs.observe(document.body, { subtree: true, childList: true, characterData: true });
      check();
    });
    const head = [], full = [];
    let early = 0;
    for (const value of ['16384', '32768', '65536', '12288', '131072']) {
      const peak = out.textContent, url = link.value;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await changed(() => out.textContent !== peak);
      await painted();
      head.push(performance.now() - t0);
      if (link.value !== url) early++;
      await changed(() => link.value !== url);
      await painted();
      full.push(performance.now() - t0);
      await new Promise((ok) => setTimeout(ok, 50));
    }
    return { head, full, early };
  });
}

async function wasmReport(browser, url) {
  const { page, context } = await openPage(browser, url + 'examples/api.html');
  await page.waitForFunction(() => window.gpuplanExample);
  const ms = await page.evaluate(async () => {
    const api = await import('../api/gpuplan.js');
    const plan = { task: 'infer', model: { kind: 'preset', id: 'llama-3.1-70b' }, inference: { weights: 'fp8' } };
    for (let i = 0; i < 5; i++) api.estimate(plan);
    const n = 50, t0 = performance.now();
    for (let i = 0; i < n; i++) api.estimate(plan);
    return (performance.now() - t0) / n;
  });
  await context.close();
  return ms;
}

const server = await serve();
const browser = await launch();
const rows = [];
for (const rate of [1, 4]) {
  const first = [], dcl = [], head = [], full = [];
  let early = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await firstResult(browser, server.url, rate);
    first.push(r.ms); dcl.push(r.dcl);
    if (await r.page.locator('#f-inference-context').count()) {
      const edit = await inputLatency(r.page);
      head.push(median(edit.head)); full.push(median(edit.full)); early += edit.early;
    }
    await r.context.close();
  }
  rows.push([`first result, CPU x${rate}`, median(first)]);
  rows.push([`DOMContentLoaded, CPU x${rate}`, median(dcl)]);
  if (head.length) {
    rows.push([`edit -> headline painted, CPU x${rate}`, median(head)]);
    rows.push([`edit -> whole report painted, CPU x${rate}`, median(full)]);
    if (early) rows.push([`  (headline stamps that included the report)`, early]);
  }
}
rows.push(['full report in wasm (JS API), per call', await wasmReport(browser, server.url)]);
console.log(`\n${'browser timing (median of ' + RUNS + ')'.padEnd(10)}`);
for (const [name, ms] of rows) console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms`);
await browser.close();
await server.close();
