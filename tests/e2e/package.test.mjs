// The JS API as an npm package: dist/api packed with `npm pack`, installed
// offline into a scratch folder, called from Node (the package's `node`
// entry) and from a page that imports it by name. Its declarations cover
// every export and describe what the functions return.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, launch, openPage, dist, root } from './lib.mjs';
import { readDeclarations, conforms } from './dts.mjs';

const plans = {
  infer: { task: 'infer', model: { kind: 'preset', id: 'llama-3.1-70b' }, inference: { weights: 'fp8', context: 32768, concurrency: 4 } },
  train: { task: 'train', model: { kind: 'preset', id: 'llama-3.1-8b' }, training: { method: 'lora' } },
};

let scratch, pkg, api, decl, server, browser;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gpuplan-package-'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', join(dist, 'api'), '--json', '--pack-destination', scratch], { cwd: scratch }));
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', `./${packed.filename}`, '--offline', '--no-audit', '--no-fund'], { cwd: scratch });
  pkg = join(scratch, 'node_modules/gpuplan');
  // Imported by name from the scratch folder, as a project that installed it would.
  await writeFile(join(scratch, 'use.mjs'), "export * from 'gpuplan';\nexport { default } from 'gpuplan';\n");
  api = await import(pathToFileURL(join(scratch, 'use.mjs')).href);
  await api.default();
  decl = readDeclarations(await readFile(join(pkg, 'gpuplan.d.ts'), 'utf8'));
  await writeFile(join(scratch, 'index.html'), `<!doctype html><meta charset="utf-8"><title>uses gpuplan</title><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "gpuplan": "./node_modules/gpuplan/gpuplan.js" } }</script>
<script type="module">
  import init, { estimate, summary } from 'gpuplan';
  await init();
  const plan = ${JSON.stringify(plans.infer)};
  window.used = { report: estimate(plan, 'en'), summary: summary(plan, 'en') };
</script>`);
  server = await serve(scratch);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const fits = (type, value) => assert.deepEqual(conforms(decl, type, value), [], `${type} as declared`);

test('the package carries the workspace version, an ES module entry for browsers and Node, and its types', async () => {
  const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
  const [, version] = (await readFile(join(root, 'Cargo.toml'), 'utf8')).match(/\[workspace\.package\][^[]*?version = "([^"]+)"/);
  assert.equal(manifest.name, 'gpuplan');
  assert.equal(manifest.version, version);
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.types, './gpuplan.d.ts');
  assert.deepEqual(Object.keys(manifest.exports['.']), ['types', 'node', 'default']);
  for (const file of manifest.files) await readFile(join(pkg, file));
});

test('every function the module exports has a declaration, and every declaration an export', async () => {
  const functions = (module) => Object.keys(module).filter((k) => typeof module[k] === 'function').sort();
  const generated = await import(pathToFileURL(join(pkg, 'gpuplan.js')).href);
  assert.deepEqual(functions(generated), [...decl.functions].sort(), 'gpuplan.js, as wasm-bindgen wrote it');
  assert.deepEqual(functions(api), [...decl.functions].sort(), 'the Node entry');
});

test('from Node: estimate and summary return the declared shapes and agree', () => {
  for (const plan of Object.values(plans)) {
    const report = api.estimate(plan, 'en');
    const brief = api.summary(plan, 'zh');
    fits('Report', report);
    fits('Summary', brief);
    assert.equal(brief.per_gpu_bytes, report.memory.per_gpu_bytes);
    assert.equal(brief.gpus.count, report.selection.gpus);
    assert.match(brief.text, /每卡/);
  }
  assert.ok(api.estimate(plans.infer).memory.per_gpu_bytes > 35e9, '70B FP8 weights alone are 70 GB, split over two GPUs or held by one');
  assert.throws(() => api.estimate({ inference: { context: 0 } }, 'en'), (e) => conforms(decl, 'InvalidFields', e).length === 0);
});

test('from Node: the other functions return the declared shapes', async () => {
  const decoded = api.decodeLink('?v=1&m=llama-3.1-70b&w=fp8&ctx=abc');
  fits('DecodedLink', decoded);
  assert.equal(decoded.ignored[0].key, 'ctx');
  assert.match(api.encodeLink(decoded.plan), /^v=1&/);
  const shipped = api.market(await readFile(join(dist, 'market/cloud-offers.csv'), 'utf8'), await readFile(join(dist, 'market/cn-offers.json'), 'utf8'));
  fits('MarketImport', shipped);
  fits('Report', api.estimate(plans.infer, 'en', shipped.offers));
  const sheet = JSON.parse(await readFile(join(dist, 'prices.json'), 'utf8'));
  const imported = api.importOffers(JSON.stringify(sheet), 'Example');
  fits('MarketImport', imported);
  assert.ok(api.exportOffers(imported.offers, imported.items).startsWith('{'));
  const csv = api.exportOffersCsv(imported.offers);
  assert.match(csv.csv, /^provider,InstanceType,AcceleratorName/);
  assert.equal(api.importOffers(csv.csv).offers.length + csv.left_out, imported.offers.length);
  const printed = await readFile(join(root, 'crates/gpuplan-core/tests/fixtures/measured/vllm_summary.txt'), 'utf8');
  fits('Reading', api.readMeasured(printed, 'en'));
  fits('Readback', api.readback(plans.infer, printed, 'en'));
  const linked = api.decodeProjectLink('?v=1&m=llama-3.1-8b', 'en');
  fits('DecodedProjectLink', linked);
  fits('ProjectReport', api.project(linked.project, 'en'));
  fits('Budget', api.budget(linked.project, 'en'));
  assert.match(api.encodeProjectLink(linked.project), /^v=/);
  const config = await readFile(join(root, 'crates/gpuplan-core/tests/fixtures/configs/gpt-oss-20b.json'), 'utf8');
  const model = api.importConfig(config, 'en');
  fits('ImportedModel', model);
  fits('Report', api.estimate({ model: { kind: 'custom', arch: model.arch } }, 'en'));
  assert.throws(() => api.importConfig('{}', 'en'), (e) => conforms(decl, 'FileFailure', e).length === 0);
  assert.throws(() => api.readMeasured('', 'en'), (e) => conforms(decl, 'MeasuredFailure', e).length === 0);
});

test('from a page that imports the installed package: the same report and summary as Node', async () => {
  const { page, errors, foreign, context } = await openPage(browser, server.url);
  await page.waitForFunction(() => window.used, null, { timeout: 15000 });
  const used = await page.evaluate(() => window.used);
  assert.deepEqual(used.summary, api.summary(plans.infer, 'en'));
  assert.equal(used.report.memory.per_gpu_bytes, api.estimate(plans.infer, 'en').memory.per_gpu_bytes);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await context.close();
});
