// What the default page transfers stays under its download budget: index.html loaded in headless
// Chromium from a local static server (tests/js/static_server.mjs), every request it makes recorded
// until the page is ready and the network has been idle (the menus' catalogs, the deferred extras
// and the chart included), each response body compressed with gzip -9 as a server would send it,
// and summed. A request that leaves the page's origin fails the test. The folder's other files (the
// embed view, the other language, what loads only on demand) are listed, not counted, so their sizes
// stay visible.
// usage: node page_size.mjs WEB_DIR [BUDGET_BYTES]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openBrowser, prerequisites } from './browser.mjs';

const [webDir, budgetArg] = process.argv.slice(2);
const BUDGET = Number(budgetArg || 300_000);  // the target: under 300 KB gzipped (KB = 1000 bytes)
const chromium = await prerequisites(webDir);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}
const gz = (body) => gzipSync(body, { level: 9 }).length;
const line = (g, r, name) => `${String(g).padStart(8)} gz ${String(r).padStart(9)} raw  ${name}`;

const b = await openBrowser(chromium, webDir, { record: false });
const origin = new URL(b.url).origin;
const transfers = [];   // {name, raw, gz}
const foreign = [];
const pending = [];
let failed = 0;
try {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => {
    const u = r.url();
    if (/^(data|blob|about):/.test(u)) return;  // in the page, nothing is sent
    if (new URL(u).origin !== origin) foreign.push(u);
  });
  page.on('response', (r) => {
    const u = r.url();
    if (/^(data|blob|about):/.test(u) || new URL(u).origin !== origin) return;
    pending.push(r.body().then((body) => {
      transfers.push({ name: decodeURIComponent(new URL(u).pathname.slice(1)) || 'index.html', raw: body.length, gz: gz(body) });
    }, () => {}));
  });
  await page.goto(b.url);
  await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: 60000 });
  // The catalogs (listModels, listHardware) and the extras come after data-ready; whatever they load
  // is part of the default page.
  await page.waitForFunction(() => !document.body.dataset.busy && document.getElementById('model').options.length > 1, null, { timeout: 60000 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  // The service worker's script (web/sw.js), which the page registers once it is ready: the browser
  // fetches it outside the page's own requests, so it is counted here. Installing, the worker takes the
  // page's files from the HTTP cache and requests nothing (tests/js/page_offline.mjs counts the
  // server's bytes).
  const worker = await page.evaluate(() => navigator.serviceWorker && Promise.race([
    navigator.serviceWorker.ready.then((r) => r.active && r.active.scriptURL),
    new Promise((ok) => { setTimeout(ok, 10000, null); })]));
  if (worker) {
    const name = decodeURIComponent(new URL(worker).pathname.slice(1));
    const body = readFileSync(join(webDir, name));
    transfers.push({ name, raw: body.length, gz: gz(body) });
  }
} finally {
  await b.close();
}

transfers.sort((x, y) => y.gz - x.gz);
let total = 0;
let raw = 0;
const counted = new Set();
console.log('Transferred by the default page (index.html, headless Chromium), gzip -9 per response:');
for (const { name, raw: r, gz: g } of transfers) {
  console.log(line(g, r, name));
  total += g;
  raw += r;
  counted.add(name);
}
console.log(`${String(total).padStart(8)} gz ${String(raw).padStart(9)} raw  total of ${transfers.length} requests`);
console.log('Not transferred by the default page (the embed view, the other language, on demand only):');
const others = [];
for (const path of files(webDir)) {
  const name = relative(webDir, path);
  if (counted.has(name)) continue;
  const body = readFileSync(path);
  others.push([gz(body), body.length, name]);
}
others.sort((x, y) => y[0] - x[0]);
for (const [g, r, name] of others) console.log(line(g, r, name));

if (foreign.length) {
  failed++;
  console.error(`FAILED: the default page sent ${foreign.length} requests away from ${origin}: ${foreign.join(', ')}`);
}
if (!counted.has('index.html') || !counted.has('llmsizer.wasm')) {
  failed++;
  console.error(`FAILED: the page's own files were not all recorded: ${[...counted].join(', ')}`);
}
console.log(`total: ${total} bytes gzipped (${raw} raw) of a ${BUDGET}-byte budget`);
if (total > BUDGET) {
  failed++;
  console.error(`FAILED: the default page transfers ${total} bytes gzipped, over the ${BUDGET}-byte budget`);
}
console.log(`${failed ? 0 : 1} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
