// The JS API gives numbers without the UI, with the same shape as the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { serve, launch, openPage, root } from './lib.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('estimate(plan) on the example page matches the CLI', async () => {
  const { page, errors, foreign, context } = await openPage(browser, server.url + 'examples/api.html');
  await page.waitForFunction(() => window.gpuplanExample, null, { timeout: 15000 });
  const ex = await page.evaluate(() => window.gpuplanExample);
  assert.ok(ex.report.memory.per_gpu_bytes > 0);
  assert.ok(ex.link.startsWith('v=1'));
  assert.equal(ex.decoded.ignored[0].key, 'ctx');
  const cli = join(root, 'target/debug/gpuplan');
  const plan = JSON.stringify({ task: 'infer', model: { kind: 'preset', id: 'llama-3.1-8b' }, inference: { context: 8192 } });
  const out = JSON.parse(execFileSync(cli, ['estimate', '--plan', '-', '--format', 'json'], { input: plan }));
  assert.equal(out.memory.per_gpu_bytes, ex.report.memory.per_gpu_bytes);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await context.close();
});
