// Robustness (issue 9): the user's plan survives reloads, bad links and broken
// storage; hostile text through every text field, every share-link key, the
// price sheet and postMessage stays text, never runs, never shows NaN.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch, openPage, screenshot, root, outDir, switchLanguage } from './lib.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PEAK = '[data-testid="peak-memory"]';
const peak = (page) => page.locator(PEAK).innerText();
// Words that must never reach the page's text: a leaked float or JS value.
const LEAK = /NaN|Infinity|undefined|\binf\b/;

async function ready(page) {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return el && /\d/.test(el.textContent);
  }, PEAK, { timeout: 20000 });
}

// A page whose init script runs before the app (storage faults), recording
// page errors and dialogs.
async function faultyPage(init, arg) {
  const context = await browser.newContext({ locale: 'en-US' });
  if (init) await context.addInitScript(init, arg);
  const page = await context.newPage();
  const errors = [];
  let dialogs = 0;
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  return { context, page, errors, dialogs: () => dialogs };
}

const saved = (page) => page.evaluate(() => localStorage.getItem('gpuplan.plan'));

async function editContext(page, value) {
  await page.fill('#f-inference-context', value);
  await page.waitForFunction((v) => (localStorage.getItem('gpuplan.plan') ?? '').includes(`ctx=${v}`), value);
}

// ---------------------------------------------------------------- the plan is kept

test('an edited plan reopens on a bare visit, from localStorage', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  assert.equal(await saved(page), null, 'nothing is saved before an edit');
  await page.getByTestId('model-select').selectOption('llama-3.1-70b');
  await editContext(page, '32768');
  const before = await peak(page);
  const stored = await saved(page);
  assert.match(stored, /^v=1&/, 'stored as a share-link query');
  assert.match(stored, /m=llama-3\.1-70b/);
  await page.goto(server.url); // the bare address, not the replaced one
  await ready(page);
  assert.equal(await peak(page), before);
  assert.equal(await page.inputValue('#f-inference-context'), '32768');
  assert.equal(await page.getByTestId('model-select').inputValue(), 'llama-3.1-70b');
  // Display-only keys are still a bare visit.
  await page.goto(server.url + '?lang=en&unit=gb');
  await ready(page);
  assert.equal(await peak(page), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a malformed or foreign link never replaces the saved plan until edited', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await ready(page);
  await editContext(page, '32768');
  const mine = await peak(page);
  const stored = await saved(page);

  // A broken link: shown with its notice, saved plan untouched.
  await page.goto(server.url + '?v=1&m=no-such-model&ctx=abc&zzz=%3Cb%3Ex%3C%2Fb%3E&g=0');
  await page.getByTestId('notice').waitFor();
  await ready(page);
  assert.equal(await page.inputValue('#f-inference-context'), '8192', 'the link shows, not the saved plan');
  assert.equal(await saved(page), stored);
  await page.goto(server.url);
  await ready(page);
  assert.equal(await page.inputValue('#f-inference-context'), '32768');
  assert.equal(await peak(page), mine);

  // A valid foreign link, only looked at: still not saved.
  await page.goto(server.url + '?v=1&m=llama-3.1-70b&w=fp8&ctx=1024');
  await ready(page);
  assert.equal(await page.inputValue('#f-inference-context'), '1024');
  await page.waitForTimeout(300);
  assert.equal(await saved(page), stored);
  // Embedded, edited: an embed is the host's page and never writes the plan.
  await page.goto(server.url + '?embed=1&v=1&ctx=2048');
  await ready(page);
  await page.fill('#f-inference-context', '4096');
  await page.waitForFunction(() => location.search.includes('ctx=4096'));
  assert.equal(await saved(page), stored);
  // Edited after opening: now it is the user's plan.
  await page.goto(server.url + '?v=1&m=llama-3.1-70b&w=fp8&ctx=1024');
  await ready(page);
  await editContext(page, '2048');
  await page.goto(server.url);
  await ready(page);
  assert.equal(await page.inputValue('#f-inference-context'), '2048');
  assert.equal(await page.getByTestId('model-select').inputValue(), 'llama-3.1-70b');
  assert.deepEqual(errors, []);
  await context.close();
});

// ---------------------------------------------------------------- storage faults

// Edits, language and unit switches, a reload: the page keeps working.
async function exercise(page) {
  await ready(page);
  const before = await peak(page);
  await page.fill('#f-inference-context', '65536');
  await page.waitForFunction((b) => document.querySelector('[data-testid="peak-memory"]').textContent !== b, before);
  await switchLanguage(page);
  await ready(page);
  await page.getByTestId('unit-toggle').getByRole('button', { name: 'GiB' }).click();
  assert.match(await peak(page), / GiB$/);
  await page.reload();
  await ready(page);
}

const FAULTS = {
  'full (setItem throws QuotaExceededError)': () => {
    Storage.prototype.setItem = function () { throw new DOMException('quota', 'QuotaExceededError'); };
  },
  'disabled (the localStorage getter throws)': () => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
  },
  'missing (localStorage is null)': () => {
    Object.defineProperty(window, 'localStorage', { get() { return null; } });
  },
  'unreadable (getItem throws)': () => {
    Storage.prototype.getItem = function () { throw new DOMException('denied', 'SecurityError'); };
  },
};

for (const [name, init] of Object.entries(FAULTS)) {
  test(`storage ${name}: the page works`, async () => {
    const { page, context, errors, dialogs } = await faultyPage(init);
    await page.goto(server.url);
    await exercise(page);
    assert.deepEqual(errors, []);
    assert.equal(dialogs(), 0);
    assert.doesNotMatch(await page.locator('body').innerText(), LEAK);
    await context.close();
  });
}

const CORRUPT = [
  '', '%', '%E0%A4%A', '\u0000\uFFFF\uD800', 'null', 'undefined', '{"plan":1}', '[object Object]',
  'v=999&m=future-model&zz=1', 'v=1&ctx=-5&g=0&tp=99999&util=NaN&mo=Infinity',
  'v=1&m=custom&a.l=0&a.h=1e400&a.mla=1,2', '<img src=x onerror=window.__pwned=1>',
  '"><script>window.__pwned=1</script>', 'x'.repeat(300_000),
];

test('corrupted values in every gpuplan.* key are ignored', async () => {
  const keys = ['gpuplan.plan', 'gpuplan.lang', 'gpuplan.unit'];
  const { page, context, errors, dialogs } = await faultyPage();
  await page.goto(server.url);
  await ready(page);
  for (const value of CORRUPT) {
    await page.evaluate(([keys, value]) => keys.forEach((k) => localStorage.setItem(k, value)), [keys, value]);
    await page.goto(server.url);
    await ready(page);
    const what = `value ${JSON.stringify(value.slice(0, 40))}`;
    assert.equal(await page.locator('[data-testid="notice"]').count(), 0, `${what}: no notice for a stored value`);
    assert.doesNotMatch(await page.locator('body').innerText(), LEAK, what);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, what);
  }
  // A stored plan with one bad part keeps the rest.
  await page.evaluate(() => localStorage.setItem('gpuplan.plan', 'v=1&m=llama-3.1-70b&ctx=abc&conc=4'));
  await page.goto(server.url);
  await ready(page);
  assert.equal(await page.getByTestId('model-select').inputValue(), 'llama-3.1-70b');
  assert.equal(await page.inputValue('#f-inference-concurrency'), '4');
  // The next edit replaces the corrupt value with a clean one.
  await editContext(page, '16384');
  assert.equal(await saved(page), 'v=1&m=llama-3.1-70b&ctx=16384&conc=4');
  assert.deepEqual(errors, []);
  assert.equal(dialogs(), 0);
  await context.close();
});

// ---------------------------------------------------------------- hostile strings

const SCRIPTY = [
  '<img src=x onerror=window.__pwned=1>',
  '"><script>window.__pwned=1</script>',
  "'><svg/onload=window.__pwned=1>",
  'javascript:window.__pwned=1//',
  '<a href="javascript:window.__pwned=1">x</a>',
  '{{constructor.constructor("window.__pwned=1")()}}${window.__pwned=1}',
  '\u202Egnp.exe\u202C \u200B\u200D\uFEFF \u05D0\u05D1 \u0627\u0644',
  '%3Cscript%3Ewindow.__pwned=1%3C%2Fscript%3E &amp; &lt;b&gt;',
];
// Not numbers: every number field must say so next to itself.
const NOT_NUMBERS = [
  ...SCRIPTY, 'NaN', 'Infinity', '-Infinity', 'inf', '1e400', '-1e400', '9'.repeat(400), '0x10', '1_000',
  '1,5', '١٢٣', '\u202E123', '12\u200B34', 'A'.repeat(10000),
];
// Numbers at the edges: accepted or refused with a message, never NaN.
const EDGES = ['1e308', '-1e308', '1e-320', '-0', '0', '-1', '0.5', '4294967296', '18446744073709551616', '1e15'];

// Types each string into every text input of the inputs column, in the page
// itself (an input event, as typing sends); returns what went wrong.
function typeEverywhere([notNumbers, edges, leak]) {
  const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const until = async (cond) => {
    for (let i = 0; i < 100 && !cond(); i += 1) await settle();
    return cond();
  };
  const type = (el, s) => { el.value = s; el.dispatchEvent(new Event('input', { bubbles: true })); };
  const problems = [];
  const covered = [];
  const leakRe = new RegExp(leak);
  const inputs = [...document.querySelectorAll('.inputs input[type="text"], .inputs input[type="search"]')];
  return (async () => {
    for (const el of inputs) {
      const field = el.closest('.field');
      const error = () => field.querySelector('[data-testid="input-error"]');
      // Number fields say what is wrong; free text (a saved model's name) takes anything.
      const number = el.inputMode === 'decimal';
      const original = el.value;
      covered.push(el.id);
      for (const s of [...notNumbers, ...edges]) {
        type(el, s);
        const label = `${el.id} <- ${JSON.stringify(s.slice(0, 30))}`;
        await settle();
        if (number && notNumbers.includes(s)) {
          const shown = await until(() => error() && error().textContent.trim() && el.getAttribute('aria-invalid') === 'true');
          if (!shown) problems.push(`${label}: no message next to the field`);
        }
        await settle();
        if (el.value !== s) problems.push(`${label}: typed text not kept`);
        const text = document.body.innerText;
        if (leakRe.test(text)) problems.push(`${label}: body shows ${text.match(leakRe)[0]}`);
        if (window.__pwned !== undefined) problems.push(`${label}: script ran`);
        if (document.querySelector('img[src="x"], svg[onload], script:not([src]):not([type]):not(#loader)'))
          problems.push(`${label}: markup was inserted`);
      }
      type(el, original);
      if (!(await until(() => !document.querySelector('[data-testid="input-error"]')))) {
        problems.push(`${el.id}: error stays after restoring ${JSON.stringify(original)}`);
      }
    }
    return { problems, covered };
  })();
}

test('hostile text in every text field stays text, numbers say what is wrong', async () => {
  const { page, context, errors, dialogs } = await faultyPage();
  await page.goto(server.url);
  await ready(page);
  const inlineScripts = await page.locator('script:not([src])').count();
  const covered = new Set();
  const problems = [];
  const run = async (setup) => {
    await page.goto(server.url + setup);
    await ready(page);
    // Every part of the page loaded (they come after the first result), so their fields are typed in too.
    await page.getByTestId('share-url').waitFor({ state: 'attached' });
    await page.waitForFunction(() => !document.querySelector('[data-part]'));
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const r = await page.evaluate(typeEverywhere, [NOT_NUMBERS, EDGES, LEAK.source]);
    r.covered.forEach((id) => covered.add(id));
    problems.push(...r.problems);
  };
  await run('?v=1&lang=en&m=llama-3.1-8b');     // preset model, inference, hardware, cost
  await run('?v=1&lang=en&t=train&m=custom');     // training and the custom shape
  await run('?v=1&lang=en&t=train&m=generic&meth=full'); // the generic model
  assert.deepEqual(problems, []);
  // Left typed, for the record: text stays text, each field says what is wrong.
  await page.goto(server.url + '?v=1&lang=en&m=llama-3.1-8b');
  await ready(page);
  await page.fill('#f-model-search', SCRIPTY[1]);
  await page.fill('#f-inference-context', SCRIPTY[0]);
  await page.fill('#f-inference-concurrency', '1e400');
  await page.fill('#f-inference-gpu_mem_util', SCRIPTY[6]);
  await page.fill('#f-parallel-gpus', '18446744073709551616');
  await page.fill('#f-cost-months', 'NaN');
  await page.locator('#f-cost-months').blur();
  assert.equal(await page.getByTestId('input-error').count(), 5);
  await screenshot(page, 'robust-hostile-fields');
  // Every number field of the plan, and the model search.
  const expected = [
    'f-model-search', 'f-inference-context', 'f-inference-concurrency', 'f-inference-gpu_mem_util',
    'f-inference-prompt_tokens', 'f-inference-output_tokens', 'f-inference-target_qps',
    'f-inference-response_kb', 'f-training-lora_rank', 'f-training-batch', 'f-training-seq',
    'f-training-dataset_tokens', 'f-training-epochs', 'f-training-mfu', 'f-parallel-gpus', 'f-parallel-tp',
    'f-parallel-pp', 'f-hardware-headroom_pct', 'f-hardware-gpus_per_node', 'f-cost-months',
    'f-cost-hours_per_day', 'f-cost-storage_gb', 'f-cost-ips', 'f-cost-egress_gb', 'f-cost-debug_pct',
    'f-cost-contingency_pct', 'f-cost-deadline_h', 'f-cost-cny_per_usd', 'f-cost-starts',
    'f-cost-stopped_days', 'f-cost-spot_per_day', 'f-cost-ckpt_min', 'f-cost-restart_min',
    'f-cost-sp_commit', 'f-cost-block_days', 'f-model-arch-params', 'f-model-arch-layers',
    'f-model-arch-hidden', 'f-model-arch-heads', 'f-model-arch-kv_heads', 'f-model-arch-head_dim',
    'f-model-arch-intermediate', 'f-model-arch-vocab', 'f-model-arch-experts',
    'f-model-arch-experts_active', 'f-model-arch-max_context', 'f-model-generic-params',
    'f-model-generic-activation_gb', 'f-model-generic-flops_per_item', 'f-model-save',
  ];
  assert.deepEqual(expected.filter((id) => !covered.has(id)), [], 'fields not reached');
  console.log(`# hostile fields: ${covered.size} text fields x ${NOT_NUMBERS.length + EDGES.length} strings`);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('script:not([src])').count(), inlineScripts);
  assert.deepEqual(errors, []);
  assert.equal(dialogs(), 0);
  assert.equal(await saved(page) === null, false, 'typing saved the plan');
  await context.close();
});

// Every share-link key, read from the plan's field table so new keys are covered.
async function linkKeys() {
  const src = await readFile(join(root, 'crates/gpuplan-core/src/plan/fields.rs'), 'utf8');
  const start = src.indexOf('const FIELDS');
  const table = src.slice(start, src.indexOf('\n];', start));
  return [...table.matchAll(/(?:named|plain|arch|generic)!\("([^"]+)"|key: "([^"]+)"/g)].map((m) => m[1] ?? m[2]);
}

const enc = encodeURIComponent;
// A part of a list value (items, offers): escaped once as a part, once as a value.
const part = (s) => enc(s);

async function noHarm(page, what, errors, foreign, dialogs) {
  assert.equal(await page.evaluate(() => window.__pwned), undefined, `${what}: script ran`);
  assert.equal(await page.locator('img[src="x"], svg[onload]').count(), 0, `${what}: markup inserted`);
  assert.equal(dialogs(), 0, `${what}: dialog`);
  assert.deepEqual(errors, [], what);
  assert.deepEqual(foreign, [], what);
  // The notice echoes link values on purpose; everything else must not leak.
  const text = await page.evaluate(() => {
    const n = document.querySelector('[data-testid="notice"]');
    return document.body.innerText.replace(n ? n.innerText : '', '');
  });
  assert.doesNotMatch(text, LEAK, what);
}

test('hostile values in every share-link key show as text in the notice', async () => {
  const keys = await linkKeys();
  assert.ok(keys.length >= 80, `only ${keys.length} keys found in plan/fields.rs`);
  const arch = keys.filter((k) => k.startsWith('a.'));
  const generic = keys.filter((k) => k.startsWith('g.'));
  const plain = keys.filter((k) => !arch.includes(k) && !generic.includes(k));
  const values = [...SCRIPTY, 'NaN', 'Infinity', '-1', '1e400', '1e308', '18446744073709551616', ''];
  const { page, context, errors, foreign } = await openPage(browser, server.url + '?lang=en');
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  await ready(page);
  let loads = 0;
  for (const s of values) {
    const all = (ks) => ks.map((k) => `${k}=${enc(s)}`).join('&');
    const urls = [
      `?${all(plain)}&v=${enc(s)}&lang=${enc(s)}&unit=${enc(s)}&${enc(s)}=${enc(s)}`,
      `?v=1&lang=en&m=custom&${all(arch)}&${enc(s)}=${enc(s)}`,
      `?v=1&lang=en&m=generic&${all(generic)}&${enc(s)}=${enc(s)}`,
      `?embed=${enc(s)}&host=${enc(s)}&v=1&lang=en&m=${enc(s)}&${enc(s)}=${enc(s)}`,
    ];
    for (const q of urls) {
      const what = `${JSON.stringify(s.slice(0, 30))} in ${q.slice(0, 60)}`;
      await page.goto(server.url + q);
      loads += 1;
      await ready(page);
      const notice = await page.getByTestId('notice').textContent();
      if (s !== '') assert.ok(notice.includes(s), `${what}: the notice shows the value literally`);
      if (q.includes('m=custom') || q.includes('m=generic')) {
        assert.ok(!notice.includes('does not apply'), `${what}: the shape keys apply to the chosen model`);
      }
      await noHarm(page, what, errors, foreign, () => dialogs);
    }
  }
  // Values the page shows outside the notice: an item's and an offer's names.
  for (const s of SCRIPTY) {
    const items = enc(`100:USD:0:${part(s)}`);
    const offers = enc(`mine:${part(s)}:${part(s)}:h100-sxm:1:USD:2.5:`);
    await page.goto(server.url + `?v=1&lang=en&it=${items}&of=${offers}`);
    loads += 1;
    await ready(page);
    assert.equal(await page.getByTestId('notice').count(), 0, `${s}: a valid link`);
    const text = await page.locator('body').textContent();
    assert.ok(text.includes(s), `${JSON.stringify(s)} shown literally`);
    await noHarm(page, s, errors, foreign, () => dialogs);
  }
  // Very long values.
  const long = '<b>x</b>'.repeat(150);
  await page.goto(server.url + `?v=1&lang=en&it=${enc(`1:USD:0:${part(long)}`)}&tick=${enc(long)}&${'z'.repeat(2000)}=${enc(long)}`);
  await ready(page);
  assert.ok((await page.locator('body').textContent()).includes(long));
  await noHarm(page, 'long values', errors, foreign, () => dialogs);
  await screenshot(page, 'robust-hostile-link');
  assert.equal(await saved(page), null, 'opening links saved nothing');
  console.log(`# hostile links: ${keys.length + 5} keys, ${values.length} values, ${loads + 1} page loads`);
  await context.close();
});

const hostileOffer = (s, id = 'evil') => ({
  id: `${id}${s}`, provider: s, name: s, gpu: 'h100-sxm', gpus: 8, currency: 'USD',
  od: { hourly: 20 }, source: s, date: s, note: s,
});

test('a hostile price sheet is text; a malformed one is ignored', async () => {
  const hostRows = (page) => page.getByText("host's offer").count();
  const plain = await faultyPage();
  await plain.page.goto(server.url + '?lang=en');
  await ready(plain.page);
  const builtIn = await hostRows(plain.page); // the built-in host-page offers
  await plain.context.close();
  for (const s of SCRIPTY) {
    const { page, context, errors, dialogs } = await faultyPage();
    const foreign = [];
    page.on('request', (r) => { if (!r.url().startsWith(server.url)) foreign.push(r.url()); });
    await page.route('**/prices.json', (route) => route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ version: 1, provider: s, offers: [hostileOffer(s)] }),
    }));
    await page.goto(server.url + '?lang=en');
    await ready(page);
    await page.waitForFunction((s) => document.body.textContent.includes(s), s, { timeout: 10000 });
    await noHarm(page, `sheet ${s}`, errors, foreign, dialogs);
    await context.close();
  }
  const broken = [
    '<script>window.__pwned=1</script>', '{"version":1,"offers":"<img src=x onerror=window.__pwned=1>"}',
    '{"version":1,"offers":[{"gpus":"NaN","od":{"hourly":"Infinity"}}]}',
    '{"version":1,"offers":[{"gpu":"h100-sxm","gpus":8,"od":{"hourly":1e308}}]}',
    '{"version":1,"offers":[{"gpu":"<b>no-such-gpu</b>","gpus":4294967296}]}', 'x'.repeat(100000),
  ];
  for (const body of broken) {
    const { page, context, errors, dialogs } = await faultyPage();
    await page.route('**/prices.json', (route) => route.fulfill({ contentType: 'application/json', body }));
    await page.goto(server.url + '?lang=en');
    await ready(page);
    await page.waitForTimeout(200);
    await noHarm(page, `sheet ${body.slice(0, 40)}`, errors, [], dialogs);
    assert.equal(await hostRows(page), builtIn, 'no offer from the broken sheet');
    await context.close();
  }
});

test('hostile posted offers are text; other origins and shapes are dropped', async () => {
  const origin = new URL(server.url).origin;
  const { page, context, errors, dialogs } = await faultyPage();
  await page.goto(server.url + `?embed=1&host=${origin}&v=1&lang=en&show=cost`);
  await ready(page);
  const post = (msg) => page.evaluate((m) => window.postMessage(m, '*'), msg);
  // Wrong shapes first: nothing changes, nothing breaks.
  for (const msg of [
    '<script>window.__pwned=1</script>', null, 42,
    { source: 'gpuplan-host', type: 'offers', offers: '<img src=x onerror=window.__pwned=1>' },
    { source: 'gpuplan-host', type: 'offers', offers: [{ gpus: 'NaN', od: { hourly: 'x' } }] },
    { source: 'gpuplan-host', type: 'offers', offers: [{ ...hostileOffer('<i>bad</i>'), gpus: 0 }] },
    { source: 'other', type: 'offers', offers: [hostileOffer('<i>wrong source</i>')] },
  ]) await post(msg);
  await page.waitForTimeout(300);
  assert.ok(!(await page.locator('body').textContent()).includes('<i>'), 'a wrong message was applied');
  for (const s of SCRIPTY) {
    await post({ source: 'gpuplan-host', type: 'offers', offers: [hostileOffer(s)] });
    await page.waitForFunction((s) => document.body.textContent.includes(s), s, { timeout: 10000 });
    await noHarm(page, `posted ${s}`, errors, [], dialogs);
  }
  await page.getByTestId('cost-table').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, 'robust-hostile-posted.png') });
  await context.close();
  // From an origin the link did not name: ignored.
  const other = await faultyPage();
  await other.page.goto(server.url + '?embed=1&host=https://elsewhere.example&v=1&lang=en');
  await ready(other.page);
  await other.page.evaluate((m) => window.postMessage(m, '*'),
    { source: 'gpuplan-host', type: 'offers', offers: [hostileOffer('<i>foreign</i>')] });
  await other.page.waitForTimeout(300);
  assert.ok(!(await other.page.locator('body').textContent()).includes('<i>foreign</i>'));
  assert.deepEqual(other.errors, []);
  await other.context.close();
});
