// Shared harness for the browser suite: a loopback static server over dist/
// (plus test fixtures), Debian's Chromium through playwright-core, and a page
// wrapper that records console errors and every request to another origin.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');
export const dist = process.env.GPUPLAN_DIST ?? join(root, 'dist');
export const outDir = join(here, 'output');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
};

// The precompressed copy `cargo xtask build` wrote beside a file, in the
// first encoding the request accepts, as nginx's gzip_static and
// brotli_static serve it: [body, encoding], or null.
async function precompressed(file, req) {
  const accepts = req.headers['accept-encoding'] ?? '';
  for (const [suffix, encoding] of [['.br', 'br'], ['.gz', 'gzip']]) {
    if (!accepts.includes(encoding)) continue;
    const body = await readFile(file + suffix).catch(() => null);
    if (body) return [body, encoding];
  }
  return null;
}

// Serves `dir` on 127.0.0.1 at a free port, each file compressed when the
// browser asks and dist/ has the copy, as real hosts serve it. `mounts`
// maps a URL prefix to another folder (e.g. '/host/' -> fixtures) so a test
// host page shares the origin or not. `headers(path)` gives extra response
// headers for a file's URL path.
export async function serve(dir = dist, mounts = {}, headers = () => ({})) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let base = dir, rel = path;
    for (const [prefix, folder] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) { base = folder; rel = path.slice(prefix.length); }
    }
    const file = normalize(join(base, rel === '' || rel.endsWith('/') ? rel + 'index.html' : rel));
    if (!file.startsWith(normalize(base))) { res.writeHead(403).end(); return; }
    try {
      const packed = await precompressed(file, req);
      const body = packed ? packed[0] : await readFile(file);
      const encoding = packed ? { 'content-encoding': packed[1] } : {};
      const type = types[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, vary: 'accept-encoding', ...encoding, ...headers(path) });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { url, close: () => new Promise((ok) => server.close(ok)) };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A fresh page that records console errors, page errors and foreign requests.
export async function openPage(browser, url, { viewport = { width: 1280, height: 900 }, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  const errors = [];
  const foreign = [];
  const origin = new URL(url).origin;
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
  });
  await page.goto(url);
  return { page, context, errors, foreign };
}

// One server, browser and page for a whole test file, the page opened on
// its first result; `close()` ends all three.
export async function session(query = '') {
  const server = await serve();
  const browser = await launch();
  const opened = await openPage(browser, server.url + query);
  await opened.page.getByTestId('answer-gpus').waitFor();
  const close = async () => { await opened.context.close(); await browser.close(); await server.close(); };
  return { server, browser, ...opened, close };
}

export async function screenshot(page, name) {
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// Clicks the language switch, which reopens the page in the other language's
// bundle on the same plan, and waits for that navigation; returns the new
// language. The caller waits for the page's first result.
export async function switchLanguage(page) {
  const to = (await page.locator('html').getAttribute('lang')) === 'en' ? 'zh' : 'en';
  await Promise.all([page.waitForURL(new RegExp(`[?&]lang=${to}(&|$)`)), page.getByTestId('lang-toggle').click()]);
  return to;
}
