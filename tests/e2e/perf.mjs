// Browser timings for `cargo xtask bench` (not part of the test suite:
// timings are noisy, sizes are the budget the tests hold). Prints one table:
// navigation -> first result, unthrottled, at 4x CPU throttling and on a
// slow network; one input change -> updated result; and the full report in
// wasm via the JS API.
import { serve, launch, openPage } from './lib.mjs';
import { firstResult, inputLatency, SLOW_NETWORK } from './timing.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
for (const [rate, locale] of [[1, 'zh-CN'], [1, 'en-US'], [4, 'zh-CN'], [4, 'en-US']]) {
  const first = [], dcl = [], wrote = [], head = [], full = [];
  let early = 0;
  const lang = locale.slice(0, 2);
  for (let i = 0; i < RUNS; i++) {
    const r = await firstResult(browser, server.url, rate, locale);
    first.push(r.ms); dcl.push(r.dcl);
    if (await r.page.locator('#f-inference-context').count()) {
      const edit = await inputLatency(r.page);
      wrote.push(median(edit.wrote)); head.push(median(edit.head)); full.push(median(edit.full)); early += edit.early;
    }
    await r.context.close();
  }
  rows.push([`first result, CPU x${rate}, ${lang}`, median(first)]);
  rows.push([`DOMContentLoaded, CPU x${rate}, ${lang}`, median(dcl)]);
  if (head.length) {
    rows.push([`edit -> headline in the DOM, CPU x${rate}, ${lang}`, median(wrote)]);
    rows.push([`edit -> headline painted, CPU x${rate}, ${lang}`, median(head)]);
    rows.push([`edit -> whole report painted, CPU x${rate}, ${lang}`, median(full)]);
    if (early) rows.push([`  (headline stamps that included the report)`, early]);
  }
}
for (const locale of ['zh-CN', 'en-US']) {
  const first = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await firstResult(browser, server.url, 1, locale, SLOW_NETWORK);
    first.push(r.ms);
    await r.context.close();
  }
  rows.push([`first result, 10 Mbit/s + 50 ms, ${locale.slice(0, 2)}`, median(first)]);
}
rows.push(['full report in wasm (JS API), per call', await wasmReport(browser, server.url)]);
console.log(`\n${'browser timing (median of ' + RUNS + ')'.padEnd(10)}`);
for (const [name, ms] of rows) console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms`);
await browser.close();
await server.close();
