// My machine and the verdict levels on the real page, in headless Chromium:
//  1. my machine typed in: 16 GiB of RAM with unified memory, started from a MacBook Air M3 — the page
//     sends "16 GiB", the core applies macOS's 2/3 share (16 GiB / 3 × 2 = 11,453,246,122 B usable)
//     and the page shows the core's verdict sentence and what it assumed; then a PC with an 8 GiB card;
//  2. a LoRA and a QLoRA of Qwen2.5-7B on a 24 GB card at 4k tokens: the core's verdict level, its
//     re-estimated fixes listed cheapest first, each one the core's own answer when applied;
//  3. the same on the Japanese page: no English in the verdict, the fixes or the assumptions.
// usage: node page_machine.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const GiB = 2 ** 30;

async function chooseModel(page, filter, id) {
  await page.fill('#model-filter', filter);
  await page.waitForSelector(`#model option[value="${id}"]`, { state: 'attached' });
  await page.selectOption('#model', id);
  await settled(page);
}

const shownFixes = (page) => page.$$eval('#fixes li', (xs) => xs.map((x) => ({ text: x.textContent, cost: x.dataset.cost, verdict: x.dataset.verdict, changes: JSON.parse(x.dataset.changes) })));

try {
  // ---------------------------------------------------------------- 1. my machine
  const page = await open(b, b.url, { viewport: { width: 1280, height: 900 } });
  await chooseModel(page, '7b', 'qwen2.5-7b-instruct');
  await page.selectOption('#weights', 'bf16');
  await page.waitForSelector('#hardware option[value="macbook-air-m3"]', { state: 'attached' });
  await page.selectOption('#hardware', 'macbook-air-m3');
  await settled(page);
  const assumedMac = await text(page, '#assumptions');
  t.check(/Assumed the .+ configuration/.test(assumedMac), `a MacBook named without memory says which configuration it assumed: "${assumedMac.slice(0, 160)}"`);
  await page.selectOption('#hardware', 'machine');
  await settled(page);
  t.check(await page.isVisible('#machine-row'), 'choosing "my machine" shows its memory fields');
  t.check(await page.isChecked('#machine_unified'), 'started from the MacBook: unified memory is ticked');
  t.check((await text(page, '#machine-base')).includes('MacBook Air'), 'it says whose speed figures it keeps');
  await page.fill('#machine_ram_gib', '16');
  await settled(page);
  const base = JSON.parse(core.listOptions()).defaults;
  const mine = JSON.parse(core.estimate(JSON.stringify({ model: 'qwen2.5-7b-instruct', task: 'inference', gpus: base.gpus, weights: 'bf16', kv_cache: base.kv_cache,
    engine: base.engine, input_tokens: base.input_tokens, output_tokens: base.output_tokens, batch: base.batch,
    machine: { ram_bytes: '16 GiB', unified_memory: true, base: 'macbook-air-m3' } })));
  t.check(mine.fit.usable_bytes === Math.floor(16 * GiB / 3) * 2, `16 GiB unified: 2/3 usable (${mine.fit.usable_bytes})`);
  t.check((await page.getAttribute('#verdict-level', 'data-verdict')) === mine.fit.verdict, `the page shows the core's verdict level (${mine.fit.verdict})`);
  t.check((await text(page, '#verdict-level')) === mine.fit.summary, `the verdict sentence is the core's: "${await text(page, '#verdict-level')}"`);
  t.check((await text(page, '#assumptions')).includes('2/3 of unified memory'), 'it says it applied macOS\'s 2/3 share');
  t.check(new URL(page.url()).hash.includes('machine_ram_gib=16'), 'the link keeps the machine');
  // A PC: 32 GiB RAM, one 8 GiB card that also draws the desktop (1.5 GiB kept for it).
  await page.uncheck('#machine_unified');
  await page.fill('#machine_gpus', '1');
  await page.fill('#machine_vram_gib', '8');
  await page.fill('#machine_ram_gib', '32');
  await settled(page);
  t.check((await text(page, '#assumptions')).includes('kept for the desktop'), 'an 8 GiB desktop card keeps memory for the display');
  const pcFixes = await shownFixes(page);
  t.check(pcFixes.length > 0 && pcFixes.every((f) => f.verdict === 'comfortable' || f.verdict === 'tight'), `the 7B bf16 on an 8 GiB card gets fixes that fit (${pcFixes.length})`);

  // ---------------------------------------------------------------- 2. LoRA / QLoRA on a 24 GB card at 4k
  await page.selectOption('#hardware', 'nvidia-rtx-4090');
  await page.check('#task-training');
  await settled(page);
  for (const method of ['lora', 'qlora']) {
    await page.selectOption('#method', method);
    await page.fill('#seq_len', '4096');
    await settled(page);
    // The request the page sends (state.js toRequest): the core's training defaults with this method and length.
    const d = base.training || {};
    const training = { method, optimizer: d.optimizer, precision: d.precision, seq_len: 4096, micro_batch: d.micro_batch,
      gradient_checkpointing: d.gradient_checkpointing, zero_stage: d.zero_stage, offload_optimizer: d.offload_optimizer,
      lora_rank: d.lora_rank, lora_targets: d.lora_targets };
    if (method === 'qlora') training.quantization = d.quantization;
    const request = { model: 'qwen2.5-7b-instruct', task: 'training', gpus: 1, weights: await page.inputValue('#weights'), hardware: 'nvidia-rtx-4090', training };
    const expected = JSON.parse(core.estimate(JSON.stringify(request)));
    t.check(!expected.error && (await text(page, '#total')) === `${(expected.memory.device_bytes / 1e9).toFixed(2)} GB`,
      `${method}: the page's total is the core's for this request (${expected.error ? expected.error.message : expected.memory.device_bytes})`);
    const shownVerdict = await page.getAttribute('#verdict-level', 'data-verdict');
    t.check(['comfortable', 'tight', 'no_fit'].includes(shownVerdict), `${method} 7B at 4k on a 4090: a verdict level (${shownVerdict})`);
    const fixes = await shownFixes(page);
    const ranks = ['setting', 'near_lossless', 'less', 'lossy', 'money'];
    t.check(fixes.every((f, i) => i === 0 || ranks.indexOf(f.cost) >= ranks.indexOf(fixes[i - 1].cost)), `${method}: fixes listed cheapest first (${fixes.map((f) => f.cost).join(', ')})`);
    if (shownVerdict !== 'comfortable') t.check(fixes.length > 0, `${method}: a fit that is not comfortable offers fixes`);
    {
      for (const fix of fixes) {
        const changed = structuredClone(request);
        for (const [field, value] of Object.entries(fix.changes)) {
          const [a, bKey] = field.split('.');
          if (bKey) changed[a] = { ...(changed[a] || {}), [bKey]: value };
          else changed[a] = value;
        }
        const r = JSON.parse(core.estimate(JSON.stringify(changed)));
        t.check(!r.error && r.fit.verdict === fix.verdict, `${method}: "${fix.text}" is what the core answers when applied (${r.error ? r.error.message : r.fit.verdict})`);
      }
    }
  }

  // ---------------------------------------------------------------- 3. Japanese
  const ja = await open(b, `${b.url}index.html#lang=ja`, { viewport: { width: 1280, height: 900 } });
  await ja.waitForSelector('#hardware option[value="machine"]', { state: 'attached' });
  await ja.selectOption('#hardware', 'machine');
  await ja.fill('#machine_ram_gib', '16');
  await ja.check('#machine_unified');
  await settled(ja);
  const jaVerdict = await text(ja, '#verdict');
  t.check(!/\b(fits|spare|margin|assumed|unified memory|short)\b/i.test(jaVerdict), `the Japanese verdict has no English: "${jaVerdict.slice(0, 200)}"`);
  t.check((await ja.textContent('label[for="machine_ram_gib"]')).includes('GiB'), 'the Japanese RAM field names its unit');
} catch (error) {
  t.check(false, `walk-through ran to the end: ${error.stack || error}`);
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
