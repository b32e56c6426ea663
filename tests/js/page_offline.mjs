// The page offline after its first visit (web/sw.js, a service worker), in headless
// Chromium against a copy of the built page served from 127.0.0.1:
//  1. a first visit, after which the worker controls the page and holds the default page's files;
//  2. a second visit: the bytes the server sent for it (every response's headers and body, counted on
//     its sockets: the page's requests, the worker's and the browser's check for a new worker) are at
//     most 5 KB; printed beside what the same second visit costs with no worker (blocked);
//  3. the network off (the context offline and the server stopped): a reload still shows the verdict,
//     the core loaded from the cache, and so does an embed (web/embed.html) visited once before;
//  4. a changed build (one file of the copy changed and its list rewritten, scripts/precache.mjs) is
//     what the next visit runs, and what the visit after it runs offline.
// No request may leave 127.0.0.1.
// usage: node page_offline.mjs WEB_DIR
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS, checker, prerequisites } from './browser.mjs';
import { serve } from './static_server.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const BUDGET = 5000;  // a second visit transfers at most 5 KB (revalidation only)
const workerSource = fileURLToPath(new URL('../../web/sw.js', import.meta.url));
const precache = fileURLToPath(new URL('../../scripts/precache.mjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'llmsizer-offline-'));
cpSync(webDir, dir, { recursive: true });

// The server, with the bytes it has written (headers and bodies) and the paths it was asked for.
let server;
let port = 0;
let written = 0;
const asked = [];
const open = new Set();
async function startServer() {
  ({ server } = await serve(dir, port));
  port = server.address().port;
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => { written += socket.bytesWritten; open.delete(socket); });
  });
  server.on('request', (req) => asked.push(req.url));
}
const sent = () => written + [...open].reduce((sum, s) => sum + s.bytesWritten, 0);
async function stop() {
  for (const s of open) s.destroy();
  await new Promise((ok) => server.close(ok));
}
await startServer();
const url = `http://127.0.0.1:${port}/`;

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const foreign = [];
const errors = [];
function watch(page) {
  page.on('request', (r) => { if (!/^(data|blob|about):/.test(r.url()) && new URL(r.url()).hostname !== '127.0.0.1') foreign.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return page;
}
const ready = (page) => page.waitForSelector('body[data-ready]', { state: 'attached', timeout: 60000 });
// Until the server has sent nothing for 3 s: the worker's requests and the browser's own check for a
// new worker (which Chromium makes about a second after a visit's last request) count too.
async function quiet() {
  let last = -1;
  while (sent() !== last) {
    last = sent();
    await new Promise((ok) => { setTimeout(ok, 3000); });
  }
}
const verdict = (page) => page.evaluate(() => (document.getElementById('verdict-text') || {}).textContent || '');
// The listed files the worker holds, as "path?sha=hash".
const kept = (page) => page.evaluate(async () => (await (await caches.open('llmsizer-files')).keys()).map((r) => r.url.slice(location.origin.length + 1)));

try {
  // A second visit with no worker at all, for comparison (the browser's HTTP cache only).
  {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = watch(await context.newPage());
    await page.goto(url);
    await ready(page);
    await quiet();
    const before = sent();
    await page.goto(url);
    await ready(page);
    await quiet();
    console.log(`second visit without the worker: ${sent() - before} bytes sent by the server`);
    await context.close();
  }

  /** Waits until `fn(arg)` holds in `p`, asking it every 250 ms: Playwright's own wait polls with eval
   *  when its predicate is not true at once, which the page's Content-Security-Policy forbids. */
  const until = async (p, fn, arg, what, timeout = 30000) => {
    const end = Date.now() + timeout;
    while (!(await p.evaluate(fn, arg))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const context = await browser.newContext();
  let page = watch(await context.newPage());
  // ---------------------------------------------------------------- 1. the first visit
  let from = sent();
  await page.goto(url);
  await ready(page);
  await until(page, () => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller), null, 'the worker to control the page');
  // app.js: the page's modules and the core's loader, bundled (wasm/CMakeLists.txt).
  const core = ['index.html', 'llmsizer.wasm', 'app.js', 'i18n/en.json'];
  await until(page, async (names) => {
    const keys = (await (await caches.open('llmsizer-files')).keys()).map((r) => new URL(r.url).pathname.slice(1));
    return names.every((n) => keys.includes(n));
  }, core, "the page's files in the cache");
  await quiet();
  console.log(`first visit: ${sent() - from} bytes sent by the server`);
  const firstVerdict = await verdict(page);
  t.check(firstVerdict.length > 0, 'the first visit shows a verdict');

  // ---------------------------------------------------------------- 2. the second visit
  asked.length = 0;
  from = sent();
  await page.goto(url);
  await ready(page);
  await quiet();
  const second = sent() - from;
  console.log(`second visit with the worker: ${second} bytes sent by the server, for ${asked.join(' ') || 'nothing'}`);
  t.check(second <= BUDGET, `a second visit transfers at most ${BUDGET} bytes, got ${second}`);
  t.check(!asked.some((p) => /\.(wasm|js|json|css)$/.test(p) && !p.startsWith('/sw.js')), `the second visit fetches none of the page's files, asked ${asked.join(' ')}`);

  // An embed (web/embed.html), visited once online, gets the same: its own files are kept as it loads.
  const embed = watch(await context.newPage());
  await embed.goto(`${url}embed.html`);
  await ready(embed);
  await until(embed, async () => {
    const keys = (await (await caches.open('llmsizer-files')).keys()).map((r) => new URL(r.url).pathname.slice(1));
    return ['embed.html', 'embed.js', 'boot.js', 'style.css'].every((n) => keys.includes(n));
  }, null, "the embed's files in the cache");
  const embedVerdict = await embed.textContent('#verdict');

  // ---------------------------------------------------------------- 3. the network off
  await stop();
  await context.setOffline(true);
  await page.reload();
  await ready(page);
  const offlineVerdict = await verdict(page);
  t.check(offlineVerdict === firstVerdict, `offline, the reload shows the verdict ("${offlineVerdict}")`);
  t.check(await page.evaluate(() => document.body.dataset.ready === 'true' && !document.getElementById('status').textContent.match(/error|failed/i)),
    'offline, the core loads from the cache');
  await embed.reload();
  await ready(embed);
  t.check((await embed.textContent('#verdict')) === embedVerdict && embedVerdict.length > 0, `offline, the embed shows its verdict ("${embedVerdict}")`);
  await embed.close();
  await context.setOffline(false);
  await startServer();

  // ---------------------------------------------------------------- 4. a changed build
  appendFileSync(join(dir, 'app.js'), '\nglobalThis.llmsizerChangedBuild = true;\n');
  execFileSync(process.execPath, [precache, workerSource, dir]);
  const oldKey = (await kept(page)).find((k) => k.startsWith('app.js?'));
  t.check(Boolean(oldKey), 'the worker holds app.js');
  // A new tab for the next visits (the last one's network was switched off and on).
  await page.close();
  page = watch(await context.newPage());
  asked.length = 0;
  await page.goto(url);
  await ready(page);
  t.check(await page.evaluate(() => globalThis.llmsizerChangedBuild === true), `the visit after a new build runs the changed file (asked ${asked.join(' ')})`);
  // The new worker takes over and keeps the changed file under its new hash, the others as they were.
  await until(page, async (old) => {
    const keys = (await (await caches.open('llmsizer-files')).keys()).map((r) => r.url.slice(location.origin.length + 1));
    return keys.some((k) => k.startsWith('app.js?') && k !== old) && !keys.includes(old);
  }, oldKey, 'the changed file kept under its new hash');
  await quiet();
  const keys = await kept(page);
  t.check(keys.some((k) => k.startsWith('llmsizer.wasm?')) && keys.some((k) => k.startsWith('index.html?')),
    `the new worker keeps the unchanged files: ${keys.join(' ')}`);
  await stop();
  await context.setOffline(true);
  await page.goto(url);
  await ready(page);
  t.check(await page.evaluate(() => globalThis.llmsizerChangedBuild === true), 'offline, the changed build is what loads');
  t.check((await verdict(page)).length > 0, 'offline after the new build, the verdict is shown');
  await context.close();
} finally {
  await browser.close();
  if (server.listening) await stop();
  rmSync(dir, { recursive: true, force: true });
}
t.check(foreign.length === 0, `no request leaves 127.0.0.1: ${foreign.join(' ')}`);
t.check(errors.length === 0, `no page errors: ${errors.join(' | ')}`);
t.finish();
