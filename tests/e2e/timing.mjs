// Browser timings shared by perf.mjs (one bundle) and ab.mjs (two bundles
// side by side): navigation -> first result, and one input change -> the
// painted headline and the painted whole report.

// A 10 Mbit/s link with 50 ms of latency, the slow network the page is held to.
export const SLOW_NETWORK = { offline: false, latency: 50, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };

// `locale` picks the page's language, so its bundle (each language has its own);
// `network`, when given, throttles the connection (CDP's emulateNetworkConditions).
export async function firstResult(browser, url, rate, locale = 'en-US', network = null) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
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

// Edits the context field five times. For each: the time until the new peak
// is in the DOM (the page's script), to the painted frame that shows it (the
// headline), and to the painted frame that shows the whole report (the share
// link follows it). "After paint" is a user-blocking task posted from
// requestAnimationFrame: it runs before the page's own deferred work, which is
// a plain timer; `early` counts edits where the report had already landed at
// the headline stamp (it would be included).
export async function inputLatency(page) {
  // The share link is a part of the page that loads after the first result.
  await page.locator('[data-testid="share-url"]').waitFor({ state: 'attached' });
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
    const wrote = [], head = [], full = [];
    let early = 0;
    for (const value of ['16384', '32768', '65536', '12288', '131072']) {
      const peak = out.textContent, url = link.value;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await changed(() => out.textContent !== peak);
      wrote.push(performance.now() - t0);
      await painted();
      head.push(performance.now() - t0);
      if (link.value !== url) early++;
      await changed(() => link.value !== url);
      await painted();
      full.push(performance.now() - t0);
      await new Promise((ok) => setTimeout(ok, 50));
    }
    return { wrote, head, full, early };
  });
}
