// dist/ on a host of one's own, under a sub-path (/tools/gpuplan/), with the
// headers of the example config docs/hosting/nginx.conf: the page shows its
// first result, the embed sizes its iframe on a page of the same site, and
// the hashed files are cached for a year. The node server applies the
// config's headers; where nginx is installed, the config itself serves too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, writeFile, symlink, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, dist, root } from './lib.mjs';

const SUB = '/tools/gpuplan/';
const NGINX = '/usr/sbin/nginx';
const wiki = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wiki</title><link rel="icon" href="data:,"></head>
<body><h1>A wiki page</h1>
<iframe id="planner" src="${SUB}?embed=1&v=1&m=llama-3.1-70b&w=fp8&lang=en" data-gpuplan title="gpuplan" style="width:100%;height:150px;border:0"></iframe>
<script src="${SUB}embed.js"></script>
<script>document.getElementById('planner').addEventListener('gpuplan:plan', (e) => { window.lastPlan = e.detail; });</script>
</body></html>`;

// (path) => headers, read from the config's add_header lines: the
// location's own, or those of its nested location for the hashed files.
function configHeaders(conf) {
  const [outer, inner] = conf.split(/location ~ /);
  const pick = (text) => Object.fromEntries(
    [...text.matchAll(/add_header ([\w-]+) ("[^"]*"|\S+) always;/g)].map(([, k, v]) => [k.toLowerCase(), v.replace(/^"|"$/g, '')]));
  const [, pattern, block] = inner.match(/^"([^"]+)"\s*\{([^}]*)\}/);
  const [hashed, plain, long] = [new RegExp(pattern), pick(outer), pick(block)];
  return (path) => (path.startsWith(SUB) ? (hashed.test(path) ? long : plain) : {});
}

const conf = await readFile(join(root, 'docs/hosting/nginx.conf'), 'utf8');
let scratch, browser;
const hosts = {};
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gpuplan-hosting-'));
  await mkdir(join(scratch, 'www/tools'), { recursive: true });
  await symlink(dist, join(scratch, 'www/tools/gpuplan'));
  await writeFile(join(scratch, 'www/wiki.html'), wiki);
  hosts.node = await serve(join(scratch, 'www'), { [SUB]: dist }, configHeaders(conf));
  if (existsSync(NGINX)) hosts.nginx = await nginx(scratch);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const host of Object.values(hosts)) await host.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function freePort() {
  const probe = createServer();
  await new Promise((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}

// The committed server block, on a loopback port and the scratch root, in a
// minimal main config; resolves once nginx answers.
async function nginx(dir) {
  const port = await freePort();
  const server = conf.replace('listen 80;', `listen 127.0.0.1:${port};`).replace('root /srv/www;', `root ${join(dir, 'www')};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join('\n');
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  await writeFile(join(dir, 'nginx.conf'), `${user}
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')};
events {}
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  ${temp}
  ${server}
}`);
  const proc = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/`;
  const close = () => new Promise((ok) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return ok();
    proc.once('exit', ok);
    proc.kill('SIGTERM');
  });
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then(() => true, () => false)) return { url, close };
    await new Promise((ok) => setTimeout(ok, 50));
  }
  await close();
  throw new Error(`nginx did not answer on ${url}: ${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
}

// The bundle names index.html's loader asks for.
async function bundles() {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  return [...new Set(html.match(/page-[a-z]+-[0-9a-f]+\/gpuplan-web/g))];
}

for (const name of ['node', 'nginx']) {
  const skip = name === 'nginx' && !existsSync(NGINX) ? 'nginx is not installed' : false;

  test(`${name}: under ${SUB} the wasm is application/wasm, the hashed files cached for a year, the rest revalidated`, { skip }, async () => {
    const at = (path) => fetch(new URL(path.slice(1), hosts[name].url));
    for (const bundle of await bundles()) {
      for (const [suffix, type] of [['_bg.wasm', 'application/wasm'], ['.js', /javascript/]]) {
        const res = await at(`${SUB}${bundle}${suffix}`);
        assert.equal(res.status, 200, bundle + suffix);
        assert.match(res.headers.get('content-type'), type instanceof RegExp ? type : new RegExp(`^${type}`));
        assert.match(res.headers.get('cache-control'), /max-age=31536000, immutable/);
      }
    }
    for (const path of [SUB, `${SUB}embed.js`, `${SUB}api/gpuplan.js`, `${SUB}prices.json`]) {
      const res = await at(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
      assert.match(res.headers.get('content-security-policy'), /frame-ancestors 'self'/, path);
    }
    assert.equal((await at(`${SUB}api/gpuplan_bg.wasm`)).headers.get('content-type'), 'application/wasm');
  });

  test(`${name}: the page under ${SUB} shows its first result and asks nothing outside it`, { skip }, async () => {
    const { page, errors, context } = await openPage(browser, `${hosts[name].url}${SUB.slice(1)}?lang=en`);
    await page.waitForSelector('[data-testid="peak-memory"]', { timeout: 15000 });
    const asked = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => u.protocol === 'http:').map((u) => u.pathname));
    assert.ok(asked.some((p) => p.endsWith('_bg.wasm')), 'the bundle came from the sub-path');
    assert.match(await page.locator('[data-testid="peak-memory"]').innerText(), /GB/);
    const iframe = await page.locator('[data-testid="snippet-iframe"]').inputValue();
    assert.ok(iframe.includes(`${hosts[name].url}${SUB.slice(1)}?`), 'the embed snippet points at the sub-path');
    assert.ok(iframe.includes(`${SUB.slice(1)}embed.js`), 'and loads embed.js from it');
    assert.deepEqual(asked.filter((p) => !p.startsWith(SUB)), []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${name}: ?embed=1 under ${SUB}, framed by a page of the site, sizes its iframe and reports its plan`, { skip }, async () => {
    const { page, errors, context } = await openPage(browser, `${hosts[name].url}wiki.html`);
    await page.waitForFunction(() => window.lastPlan?.summary?.per_gpu_bytes > 6e10, null, { timeout: 15000 });
    await page.waitForFunction(() => parseInt(document.getElementById('planner').style.height) > 150);
    assert.match(await page.evaluate(() => window.lastPlan.link), /m=llama-3\.1-70b/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
