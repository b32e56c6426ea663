// The article's reader, end to end, in headless Chromium: they ran Qwen2.5-0.5B and now want
// Qwen2.5-7B-Instruct as the Q4_K_M file llama.cpp users download, on their own machine, typed in
// by its memory, in English and in Japanese:
//  1. a 16 GiB laptop with no GPU;
//  2. the same laptop with one 8 GiB GPU;
//  3. a 16 GB Mac typed in (unified memory, macOS);
//  4. the same Mac chosen from the catalog (MacBook Air M3) in its 16 GB configuration.
// Each shows a verdict, a speed with the figures it comes from, a total that is the verdict's figure
// (and on a CPU the parts that add up to it), a precision table that includes Q4_K_M and, on the
// machine typed in, a "yours" row in the cost table. The usable memory is checked by hand: 16 GiB
// less the 4 GiB kept for the OS = 12 GiB; 8 GiB less the 1.5 GiB display reserve = 6.5 GiB; macOS's
// 2/3 of 16 GiB = 17,179,869,184 / 3 × 2 = 11,453,246,122 B (core/include/llmsizer/hardware.hpp).
// usage: node page_reader.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, screenshot, settled } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const defaults = JSON.parse(core.listOptions()).defaults;
const t = checker();
const b = await openBrowser(chromium, webDir);
const GiB = 2 ** 30;

const SCENARIOS = [
  { name: 'laptop-no-gpu', machine: { ram: 16, gpus: 0 }, usable: 12 * GiB, placement: 'cpu', basis: 'speed.basis.typical_pc' },
  { name: 'laptop-8gib-gpu', machine: { ram: 16, gpus: 1, vram: 8 }, usable: 8 * GiB - 1.5 * GiB, placement: 'gpu', basis: 'speed.basis.typical_gpu' },
  { name: 'mac-typed', machine: { ram: 16, unified: true, os: 'macos' }, usable: Math.floor(16 * GiB / 3) * 2, placement: 'unified-memory', basis: 'speed.basis.typical_mac' },
  { name: 'mac-catalog', catalog: 'macbook-air-m3', option: '16', usable: Math.floor(16 * GiB / 3) * 2, placement: 'unified-memory', basis: 'speed.basis.datasheet' },
];

/** Sets the form as the reader would: the model by searching, the engine, the file, the machine. */
async function fill(page, s) {
  await page.fill('#model-filter', 'qwen2.5 7b');
  await page.waitForSelector('#model option[value="qwen2.5-7b-instruct"]', { state: 'attached' });
  await page.selectOption('#model', 'qwen2.5-7b-instruct');
  await settled(page);
  await page.selectOption('#engine', 'llama.cpp');
  await settled(page);
  await page.selectOption('#weights', 'q4_k_m');
  await settled(page);
  await page.waitForSelector(`#hardware option[value="${s.catalog || 'machine'}"]`, { state: 'attached' });
  if (s.catalog) {
    await page.selectOption('#hardware', s.catalog);
    await settled(page);
    t.check(await page.isVisible('#memory_option_gib'), `${s.name}: a device sold in several sizes asks which one is yours`);
    await page.selectOption('#memory_option_gib', s.option);
    await settled(page);
    return;
  }
  await page.selectOption('#hardware', 'machine');
  await settled(page);
  // Typed from nothing: no base device (the core takes a typical one of the class and says so).
  await page.selectOption('#machine_base', '');
  await page.setChecked('#machine_unified', Boolean(s.machine.unified));
  await settled(page);
  if (s.machine.os) await page.selectOption('#machine_os', s.machine.os);
  await page.fill('#machine_ram_gib', String(s.machine.ram));
  if (!s.machine.unified) {
    await page.fill('#machine_gpus', String(s.machine.gpus));
    if (s.machine.vram) await page.fill('#machine_vram_gib', String(s.machine.vram));
  }
  await page.dispatchEvent('#machine_ram_gib', 'change');
  await settled(page);
}

/** What the page shows of the answer. */
async function shown(page) {
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const number = (s) => (q(s) ? Number(q(s).dataset.value ?? q(s).dataset.bytes) : NaN);
    return {
      verdict: q('#verdict-level') ? q('#verdict-level').dataset.verdict : '',
      verdictText: q('#verdict-level') ? q('#verdict-level').textContent : '',
      total: Number(q('#total').dataset.bytes),
      parts: [...document.querySelectorAll('#parts [data-part]')].reduce((sum, c) => sum + Number(c.dataset.bytes), 0),
      device: q('#device-bytes') ? q('#device-bytes').textContent : '',
      speed: number('#summary-throughput [data-field="decode_tokens_per_s"]'),
      basis: q('#summary-throughput [data-field="basis"]') ? q('#summary-throughput [data-field="basis"]').textContent : '',
      precisions: [...document.querySelectorAll('#precisions tr[data-weights]')].map((r) => r.dataset.weights),
      mine: [...document.querySelectorAll('#costs tr[data-cost-kind="mine"]')].map((r) => r.textContent),
      lang: document.documentElement.lang,
    };
  });
}

try {
  for (const lang of ['en', 'ja']) {
    for (const s of SCENARIOS) {
      const page = await open(b, `${b.url}${lang === 'ja' ? '#lang=ja' : ''}`, { viewport: { width: 1280, height: 900 } });
      await fill(page, s);
      // The core's own answer to the reader's request, to compare the page's figures with.
      const request = { model: 'qwen2.5-7b-instruct', task: 'inference', weights: 'q4_k_m', engine: 'llama.cpp', kv_cache: defaults.kv_cache,
        input_tokens: defaults.input_tokens, output_tokens: defaults.output_tokens, batch: defaults.batch, gpus: defaults.gpus };
      if (s.catalog) Object.assign(request, { hardware: s.catalog, memory_option_bytes: `${s.option} GiB` });
      else {
        request.machine = { ram_bytes: `${s.machine.ram} GiB`, unified_memory: Boolean(s.machine.unified) };
        if (!s.machine.unified) Object.assign(request.machine, { gpus: s.machine.gpus, vram_bytes: s.machine.vram ? `${s.machine.vram} GiB` : 0 });
        if (s.machine.os) request.machine.os = s.machine.os;
      }
      const response = JSON.parse(core.estimate(JSON.stringify(request)));
      const v = await shown(page);
      const label = `${lang} ${s.name}`;
      t.check(v.lang === lang, `${label}: the page is in ${lang} (lang="${v.lang}")`);
      t.check(['comfortable', 'tight', 'offload', 'no_fit'].includes(v.verdict) && v.verdictText.length > 10, `${label}: a verdict (${v.verdict}): "${v.verdictText}"`);
      t.check(v.speed > 0, `${label}: a speed (${v.speed} tokens/s)`);
      t.check(v.basis.length > 20, `${label}: the speed says what it comes from: "${v.basis}"`);
      if (lang === 'ja') t.check(/[\u3040-\u30ff]/.test(v.basis), `${label}: the speed's basis is in Japanese: "${v.basis}"`);
      t.check(v.precisions.includes('q4_k_m'), `${label}: the precision table offers the Q4_K_M file (${v.precisions.join(', ')})`);
      if (!response.error) {
        t.check(response.fit.usable_bytes === s.usable, `${label}: usable ${response.fit.usable_bytes} B, by hand ${s.usable} B`);
        t.check(response.fit.placement === s.placement, `${label}: placed on ${response.fit.placement}`);
        t.check(response.throughput.basis_data && response.throughput.basis_data.id === s.basis, `${label}: basis ${response.throughput.basis_data && response.throughput.basis_data.id}`);
        t.check(v.total === response.fit.required_bytes, `${label}: the total shown (${v.total}) is the verdict's figure (${response.fit.required_bytes})`);
      } else {
        t.check(false, `${label}: the core answers the reader's request: ${response.error.message}`);
      }
      if (s.placement === 'cpu') t.check(v.parts === v.total, `${label}: on a CPU the parts add up to the total (${v.parts} = ${v.total})`);
      if (!s.catalog) {
        t.check(v.mine.length === 1, `${label}: the cost table has a row for the machine one has (${v.mine.length})`);
      }
      if (s.name === 'laptop-no-gpu' || s.name === 'mac-typed') await screenshot(page, `reader-${lang}-${s.name}`);
      await page.close();
    }
  }
  // A link the core refuses (more tokens than it takes): the notice gives its reason in the page's
  // language, from the message's data, not the core's English sentence.
  const refused = await open(b, `${b.url}#lang=ja&input_tokens=999999999`, { viewport: { width: 1280, height: 900 } });
  const notice = (await refused.textContent('#notice')) || '';
  t.check(notice.includes('input_tokens') || notice.length > 0, `a refused link is noticed: "${notice}"`);
  t.check(!/\bmust\b|\bgot\b/.test(notice), `the Japanese notice has the core's reason in Japanese: "${notice}"`);
  await refused.close();
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
