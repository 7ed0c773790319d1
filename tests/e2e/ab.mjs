// Two release bundles timed back to back, for ratios this shared machine's
// load cannot skew: `node tests/e2e/ab.mjs DIST_A DIST_B` serves both and
// alternates page loads between them (RUNS loads each, RATE = CPU
// throttling, default 4), then prints the medians of navigation -> first
// result and of one input change -> the new peak in the DOM, the painted
// headline and the painted whole report. LOCALE picks the language (en-US).
import { serve, launch } from './lib.mjs';
import { firstResult, inputLatency } from './timing.mjs';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node tests/e2e/ab.mjs DIST_A DIST_B');
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 5);
const RATE = Number(process.env.RATE ?? 4);
const LOCALE = process.env.LOCALE ?? 'en-US';
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

const dirs = [a, b];
const servers = await Promise.all(dirs.map((d) => serve(d)));
const browser = await launch();
const runs = dirs.map(() => ({ first: [], wrote: [], head: [], full: [] }));
for (let i = 0; i < RUNS; i++) {
  for (const [k, server] of servers.entries()) {
    const r = await firstResult(browser, server.url, RATE, LOCALE);
    const edit = await inputLatency(r.page);
    runs[k].first.push(r.ms);
    runs[k].wrote.push(...edit.wrote);
    runs[k].head.push(...edit.head);
    runs[k].full.push(...edit.full);
    await r.context.close();
  }
}
console.log(`CPU x${RATE}, ${RUNS} loads each, medians in ms (B / A in brackets)`);
for (const key of ['first', 'wrote', 'head', 'full']) {
  const [x, y] = runs.map((r) => median(r[key]));
  console.log(`${key.padEnd(6)} A ${x.toFixed(1).padStart(8)}  B ${y.toFixed(1).padStart(8)}  (${(y / x).toFixed(2)})`);
}
await browser.close();
for (const s of servers) await s.close();
