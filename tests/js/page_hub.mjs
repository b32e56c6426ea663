// "Load from Hugging Face by id" in headless Chromium, against the local Hub stand-in
// (hub_server.mjs: the Hub's URL layout, a 302 to a CDN host, Range, X-Error-Code errors). The page
// is opened with ?hub=<stand-in> and served with the stand-in's two origins added to its
// Content-Security-Policy (static_server.mjs connectSrc), in place of the shipped
// https://huggingface.co https://*.hf.co. Checks:
//  - nothing is asked of the hub until Load is pressed; what is sent: the id and file names, no
//    token, no cookie, no referrer; weights are read by Range only, at most 64 KiB (or twice a GGUF
//    header), never whole;
//  - single and sharded safetensors and a GGUF repository give the exact counts worked out by hand
//    in hub_server.mjs (TINY, LLAMA8B), and the estimate uses them;
//  - a GGUF repository lists its quantizations with the core's estimate and fit for each (an RTX
//    4090: F32 does not fit, Q4_K_M does); "Use" reads another one. The page asks the core which
//    files to read, how much of each header and what a failure means (the module's planRepository,
//    nextHeaderRead, validRepoId, hubFailure: the rules the CLI follows), so the same repositories
//    give the same expectations as in cli_hub.mjs;
//  - a missing repository, a gated model, a listed file that answers 404, truncated safetensors and
//    GGUF headers, a malformed id: each a clear error, the model and the result unchanged;
//  - offline: the page says so, Load says it cannot reach the hub, and the calculator keeps working;
//  - the shipped CSP: connect-src 'self' https://huggingface.co https://*.hf.co, and a page served
//    with it cannot reach any other host, even when told to (?hub=...).
// usage: node page_hub.mjs WEB_DIR
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, screenshot, settled, text } from './page_helpers.mjs';
import { LLAMA8B, TINY, bytesServed, llama8bGguf, startHub } from './hub_server.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const h = await startHub();
const FIRST_READ = 64 * 1024;

// ---------------------------------------------------------------- the shipped policy
const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(join(webDir, 'index.html'), 'utf8'));
const connect = csp && csp[1].split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'));
t.check(connect === "connect-src 'self' https://huggingface.co https://*.hf.co",
  `the page may connect to itself, the Hub and its CDN hosts under hf.co (huggingface.co/.well-known/meta.json) only: ${connect}`);

const b = await openBrowser(chromium, webDir, { connectSrc: [h.hub, h.cdn] });
const status = (page, key) => page.getAttribute('#hf-status', `data-${key}`);
/** Types `id`, presses Load and waits for the answer (a model, or an error). */
async function load(page, id) {
  await page.fill('#hf-id', id);
  await page.evaluate(() => { const s = document.getElementById('hf-status'); for (const k of Object.keys(s.dataset)) delete s.dataset[k]; });
  await page.click('#hf-load');
  await page.waitForSelector('#hf-status[data-params], #hf-status[data-error]', { state: 'attached', timeout: 60000 });
  await settled(page);
  return text(page, '#hf-status');
}
try {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${b.url}?hub=${encodeURIComponent(h.hub)}`);
  await settled(page);
  t.check(h.log.length === 0, `nothing is asked of the hub when the page opens (${h.log.length} requests)`);
  await page.click('#import summary');
  const sends = await text(page, '[data-i18n="hub.sends"]');
  t.check(sends.includes('huggingface.co') && /token/i.test(sends), `the page says what Load sends: ${sends}`);
  t.check(await page.isHidden('#hf-network'), 'online: no offline note');

  // ---------------------------------------------------------------- safetensors, one file
  let said = await load(page, 'test-org/tiny-llama');
  t.check((await status(page, 'params')) === String(TINY.params), `tiny-llama: ${TINY.params} parameters from the header (${said})`);
  t.check((await status(page, 'weight-bytes')) === String(TINY.bf16Bytes), `tiny-llama: ${TINY.bf16Bytes} bytes of BF16 weights`);
  t.check(said.includes('106,816') && said.includes('213,632'), `tiny-llama: the exact counts are written out: ${said}`);
  t.check((await page.getAttribute('[data-part="weights"]', 'data-bytes')) === String(TINY.bf16Bytes), 'tiny-llama: the estimate\'s weights are the header\'s bytes, exactly');
  t.check((await text(page, '#model-info')).startsWith('test-org/tiny-llama'), `tiny-llama: the model is named by its id: ${await text(page, '#model-info')}`);
  t.check((await page.inputValue('#weights')) === 'file', 'tiny-llama: the weights are "as stored"');
  t.check(h.log.some((e) => e.path === '/api/models/test-org/tiny-llama' && e.search === '?blobs=true'), 'tiny-llama: the listing is asked with blobs=true');
  let served = bytesServed(h.log);
  let cdnBytes = Object.values(served).reduce((a, c) => a + c, 0);
  t.check(cdnBytes > 0 && cdnBytes <= FIRST_READ, `tiny-llama: at most 64 KiB of the weights is read: ${cdnBytes} B`);
  const getsOf = (host) => h.log.filter((e) => e.host === host && e.method === 'GET');
  t.check(getsOf('cdn').length > 0 && getsOf('cdn').every((e) => e.range.startsWith('bytes=')), 'tiny-llama: every read of the weights is a Range request');
  t.check(h.log.every((e) => !e.auth && !e.cookie && !e.referer), `nothing but the id and file names is sent: no token, cookie or referrer (${JSON.stringify(h.log.find((e) => e.auth || e.cookie || e.referer) || {})})`);

  // ---------------------------------------------------------------- sharded
  h.log.length = 0;
  said = await load(page, 'test-org/tiny-llama-sharded');
  t.check((await status(page, 'params')) === String(TINY.params) && (await status(page, 'weight-bytes')) === String(TINY.bf16Bytes),
    `sharded: the two shards add up to ${TINY.params} parameters and ${TINY.bf16Bytes} bytes (${said})`);
  served = bytesServed(h.log);
  t.check(Object.keys(served).length === 2 && Object.values(served).every((n) => n <= FIRST_READ), `sharded: each shard's header read, at most 64 KiB each: ${JSON.stringify(served)}`);

  // ---------------------------------------------------------------- GGUF repository: the list with a fit each
  await page.selectOption('#hardware', 'nvidia-rtx-4090');
  await settled(page);
  h.log.length = 0;
  const q4 = llama8bGguf('Q4_K_M');
  said = await load(page, 'https://huggingface.co/test-org/Llama-8B-Test-GGUF');
  t.check((await status(page, 'params')) === String(LLAMA8B.params) && (await status(page, 'weight-bytes')) === String(q4.weightBytes),
    `GGUF (a huggingface.co address): the Q4_K_M file read, ${LLAMA8B.params} parameters, ${q4.weightBytes} B (${said})`);
  served = bytesServed(h.log);
  const q4Read = Object.entries(served).find(([p]) => p.endsWith('Q4_K_M.gguf'));
  t.check(Object.keys(served).length === 1 && q4Read && q4Read[1] >= q4.header.length && q4Read[1] <= 2 * q4.header.length,
    `GGUF: only the chosen file's header is read (${q4.header.length} B header, at most twice that): ${JSON.stringify(served)}`);
  const rows = await page.$$eval('#hf-quants tbody tr', (trs) => trs.map((r) => ({ ...r.dataset, text: r.textContent })));
  t.check(rows.map((r) => r.weights).join(',') === 'q2_k,q4_k_m,q8_0,gguf-f16,gguf-f32', `GGUF: five quantizations, smallest first, mmproj left out: ${rows.map((r) => r.weights)}`);
  const row = (w) => rows.find((r) => r.weights === w) || {};
  // An RTX 4090 has 24 GiB: F32 weights alone are 8.03e9 × 4 B = 32.1 GB; Q4_K_M's 4.65 GB fit.
  t.check(row('gguf-f32').fits === 'false' && row('q4_k_m').fits === 'true', `GGUF: F32 does not fit a 24 GiB RTX 4090, Q4_K_M does (${row('gguf-f32').fits}, ${row('q4_k_m').fits})`);
  t.check((await page.getAttribute('#total', 'data-bytes')) === row('q4_k_m').deviceBytes, 'GGUF: the row of the file read is the page\'s own estimate');
  const sizes = rows.map((r) => Number(r.deviceBytes));
  t.check(sizes.every((s, i) => i === 0 || s > sizes[i - 1]), `GGUF: memory grows with the format's bits: ${sizes}`);
  await screenshot(page, 'page-1280-hub-gguf');
  h.log.length = 0;
  await page.evaluate(() => { const s = document.getElementById('hf-status'); for (const k of Object.keys(s.dataset)) delete s.dataset[k]; });
  await page.click('#hf-quants tr[data-weights="q8_0"] button');
  await page.waitForSelector('#hf-status[data-params], #hf-status[data-error]', { state: 'attached', timeout: 60000 });
  await settled(page);
  const q8 = llama8bGguf('Q8_0');
  t.check((await status(page, 'weight-bytes')) === String(q8.weightBytes), `GGUF: "Use" on Q8_0 reads that file: ${q8.weightBytes} B (${await text(page, '#hf-status')})`);
  const q8Row = await page.$eval('#hf-quants tr[data-weights="q8_0"]', (r) => ({ ...r.dataset, text: r.textContent }));
  t.check((await page.getAttribute('#total', 'data-bytes')) === q8Row.deviceBytes && q8Row.text.includes('In use'), `GGUF: Q8_0 is now the model, its row marked in use (${q8Row.text})`);
  t.check(Object.keys(bytesServed(h.log)).every((p) => p.endsWith('Q8_0.gguf')), 'GGUF: only the Q8_0 file is read for it');

  // ---------------------------------------------------------------- errors: each clear, nothing changed
  const before = await page.getAttribute('#total', 'data-bytes');
  const errorCase = async (id, key, words) => {
    const msg = await load(page, id);
    t.check((await status(page, 'error')) === key && words.every((w) => msg.includes(w)), `${id}: ${key}, saying ${words.join(' / ')}: ${msg}`);
    t.check((await page.getAttribute('#total', 'data-bytes')) === before, `${id}: the model and the result stay as they were`);
    t.check((await page.getAttribute('#hf-id', 'aria-invalid')) === 'true', `${id}: the field is marked invalid`);
  };
  await errorCase('test-org/no-such-model', 'hub.notFound', ['test-org/no-such-model', 'no such model']);
  await errorCase('test-org/gated-llama', 'hub.gated', ['gated', 'HF_TOKEN', 'config.json']);
  await errorCase('test-org/vanishing-file', 'hub.noFile', ['has no file model.safetensors']);
  await errorCase('test-org/truncated-safetensors', 'hub.coreError', ['model.safetensors', 'truncated']);
  await errorCase('test-org/truncated-GGUF', 'hub.coreError', ['Llama-8B-Test-Q4_K_M.gguf', 'truncated']);
  await errorCase('test-org/Llama-8B-Test-GGUF/Llama-8B-Test-Q5_K_M.gguf', 'hub.noFile', ['has no file Llama-8B-Test-Q5_K_M.gguf']);
  const requestsBefore = h.log.length;
  await errorCase('../etc/passwd', 'hub.badId', ['meta-llama/Llama-3.1-8B']);
  t.check(h.log.length === requestsBefore, 'a malformed id is refused before any request');

  // ---------------------------------------------------------------- offline
  await page.context().setOffline(true);
  await page.waitForSelector('#hf-network:not([hidden])');
  t.check(/offline/i.test(await text(page, '#hf-network')), `offline: the page says so: ${await text(page, '#hf-network')}`);
  await errorCase('test-org/tiny-llama', 'hub.offline', ['Could not reach', 'Nothing else here needs the network']);
  await page.fill('#input_tokens', '8192');
  await page.dispatchEvent('#input_tokens', 'input');
  await settled(page);
  const after = await page.getAttribute('#total', 'data-bytes');
  t.check(after !== before && !(await page.getAttribute('#results', 'class') || '').includes('stale'), `offline: the calculator keeps working (${before} → ${after} B at 8192 input tokens)`);
  await screenshot(page, 'page-1280-hub-offline');
  await page.context().setOffline(false);
  await page.waitForSelector('#hf-network[hidden]', { state: 'attached' });
  // Chromium logs each 4xx answer and each refused fetch as a console error: the error cases above.
  const expected = b.consoleErrors.filter((e) => /Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e));
  b.consoleErrors.splice(0, b.consoleErrors.length, ...b.consoleErrors.filter((e) => !expected.includes(e)));
  finalChecks(t, b);
} finally {
  await b.close();
}

// ---------------------------------------------------------------- the shipped policy holds
const shipped = await openBrowser(chromium, webDir);
try {
  const page = await shipped.newPage();
  await page.goto(`${shipped.url}?hub=${encodeURIComponent(h.hub)}`);
  await settled(page);
  h.log.length = 0;
  await page.click('#import summary');
  const msg = await load(page, 'test-org/tiny-llama');
  t.check((await status(page, 'error')) === 'hub.offline' && h.log.length === 0,
    `with the shipped CSP, a hub other than huggingface.co is never reached (${h.log.length} requests): ${msg}`);
  t.check(shipped.consoleErrors.some((e) => /Content Security Policy/.test(e)), 'the browser reports the CSP refusal');
} finally {
  await shipped.close();
  await h.close();
}
t.finish();
