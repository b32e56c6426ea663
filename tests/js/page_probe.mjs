// "My machine": a probe file (data/measured/*.json, what llmsizer-probe writes) loaded through the
// page's hardware chooser is sent as the request's `hardware` object, and the page only renders the
// core's answer: the fit verdict, the required bytes and the decode speed shown are those of the
// same request answered by the same WASM module loaded here in Node. The probe stays out of the
// share link (with a notice saying so); a JSON file that is not a probe is refused by the field.
// usage: node page_probe.mjs WEB_DIR
import { readFileSync } from 'node:fs';
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, screenshot, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const index = JSON.parse(readFileSync('data/measured/index.json', 'utf8'));
const run = index.runs.find((r) => r.probe === 'llmsizer-probe');
const probePath = `data/measured/${run.file}`;
const probe = JSON.parse(readFileSync(probePath, 'utf8'));

/** The request the page sends for its defaults with `model` and this probe as the hardware (state.js toRequest). */
const requestFor = (model) => ({ model, task: 'inference', gpus: 1, weights: 'bf16', kv_cache: 'bf16', engine: 'generic',
  input_tokens: 1024, output_tokens: 1024, batch: 1, hardware: probe });

const b = await openBrowser(chromium, webDir);
try {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(b.url);
  await settled(page);
  await page.click('#my-machine summary');
  await page.setInputFiles('#probe-file', probePath);
  await page.waitForSelector('#probe-info:not([hidden])');
  await settled(page);

  const check = async (model, what) => {
    const expected = JSON.parse(core.estimate(JSON.stringify(requestFor(model))));
    t.check(!expected.error, `${what}: the core answers the probe request: ${JSON.stringify(expected.error)}`);
    t.check((await page.inputValue('#hardware')) === 'probe', `${what}: the hardware chooser shows the measured machine`);
    t.check((await page.getAttribute('#verdict-text', 'data-fits')) === String(expected.fit.fits), `${what}: the verdict is the core's fit.fits (${expected.fit.fits})`);
    t.check((await text(page, '#verdict-text')).includes(expected.hardware.name), `${what}: the verdict names the core's device "${expected.hardware.name}"`);
    t.check((await page.getAttribute('#total', 'data-bytes')) === String(expected.fit.required_bytes), `${what}: the total is the core's required_bytes (${expected.fit.required_bytes})`);
    const decode = await page.getAttribute('#summary-throughput dd[data-field="decode_tokens_per_s"]', 'data-value');
    t.check(decode === String(expected.throughput.decode_tokens_per_s), `${what}: the decode speed is the core's ${expected.throughput.decode_tokens_per_s} tokens/s (page: ${decode})`);
    t.check(await page.isVisible('#summary-throughput dd[data-field="decode_tokens_per_s"]'), `${what}: the decode speed is shown`);
    return expected;
  };

  const small = await check('qwen2.5-7b-instruct', 'Qwen2.5-7B bf16 on the measured CPU');
  // The probe's own measurement, shown beside the name: summary.cpu.memory_bandwidth_gb_per_s.
  const measured = await text(page, '#probe-info');
  t.check(measured.includes(small.hardware.name) && measured.includes(`${probe.summary.cpu.memory_bandwidth_gb_per_s.toPrecision(3)} GB/s`),
    `the measured device and its bandwidth are shown: ${measured}`);
  t.check(measured.includes(run.file), 'the probe file is named as the source');
  // Not in the link: the hash has no hardware key and no probe text; the notice says so.
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  t.check(!hash.has('hardware') && !hash.has('probe') && !page.url().includes('stream'), `the share link leaves the probe out: ${page.url()}`);
  t.check(measured.includes('not put in the share link'), 'a notice says the measured machine is not in the link');
  await screenshot(page, 'page-1280-probe');

  // A model that does not fit in the measured machine's memory: the verdict follows the core again.
  await page.fill('#model-filter', '72b');
  await page.waitForSelector('#model option[value="qwen2.5-72b-instruct"]', { state: 'attached' });
  await page.selectOption('#model', 'qwen2.5-72b-instruct');
  await settled(page);
  const big = await check('qwen2.5-72b-instruct', 'Qwen2.5-72B bf16 on the measured CPU');
  t.check(small.fit.fits !== big.fit.fits, 'the two models get different verdicts on this machine (7B fits, 72B does not)');

  // A JSON file that is not a probe: refused by the field, the measured machine stays.
  await page.setInputFiles('#probe-file', { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{"hidden_size": 4096}') });
  await page.waitForSelector('#probe-status.import-error');
  t.check((await text(page, '#probe-status')).includes('not a probe file'), `a non-probe JSON is refused: ${await text(page, '#probe-status')}`);
  t.check((await page.getAttribute('#probe-file', 'aria-invalid')) === 'true', 'the probe field is marked invalid');
  t.check((await page.inputValue('#hardware')) === 'probe', 'the measured machine stays chosen after a bad file');
  // A probe document the core cannot size against (no measured summary): the core's message by the field.
  await page.setInputFiles('#probe-file', { name: 'empty-probe.json', mimeType: 'application/json', buffer: Buffer.from('{"probe": {}, "summary": {}}') });
  await page.locator('#probe-status', { hasText: 'cannot use' }).waitFor();  // (waitForFunction polls with eval, which the page's CSP forbids)
  t.check((await text(page, '#probe-status')).includes('summary.cpu'), `the core's reason is shown: ${await text(page, '#probe-status')}`);

  // Measure this browser: headless Chromium here runs without a GPU, so WebGPU is absent or offers no adapter.
  await page.click('#probe-run');
  await page.locator('#probe-status', { hasText: /WebGPU|adapter|failed|Done/ }).waitFor();
  const probeRun = await text(page, '#probe-status');
  t.check(/WebGPU|adapter|probe|Done/.test(probeRun), `the WebGPU button answers: ${probeRun}`);

  // Choosing a catalog entry and coming back to the measured machine.
  await page.selectOption('#hardware', 'budget');
  await settled(page);
  t.check(await page.isHidden('#probe-info'), 'the measured-machine line goes with another hardware choice');
  await page.selectOption('#hardware', 'probe');
  await settled(page);
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === String(big.fit.fits), 'choosing the measured machine again gives its verdict');
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
