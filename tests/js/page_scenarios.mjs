// The page walked through as people use it, in headless Chromium:
//  1. the article's scenario: Qwen2.5-0.5B, then 7B, on a 16 GB laptop — which precision fits?
//  2. a QLoRA fine-tune on a 24 GB card (or, while the core has no QLoRA, its error shown by the field);
//  3. the language switched to Japanese and back, and a Japanese browser getting Japanese at once;
//  4. screenshots at 1280 px and 375 px.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_scenarios.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, screenshot, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);

// A 16 GB laptop from the catalog when the catalog has one, else a 16 GB memory budget.
const catalog = JSON.parse(core.listHardware()).hardware || [];
const memoryOf = (h) => h.memory_bytes ?? h.gpu_memory_bytes;
const laptop16 = catalog.find((h) => h.kind === 'laptop' && memoryOf(h) >= 16e9 && memoryOf(h) <= 17.2e9);
const card24 = catalog.find((h) => h.id === 'nvidia-rtx-4090') || catalog.find((h) => h.kind === 'gpu' && memoryOf(h) >= 24e9 && memoryOf(h) <= 25.8e9);

async function chooseHardware(page, entry, budgetGb) {
  if (entry) {
    await page.selectOption('#hardware', entry.id);
  } else {
    await page.selectOption('#hardware', 'budget');
    await page.fill('#budget_gb', String(budgetGb));
  }
  await settled(page);
}

async function chooseModel(page, filter, id) {
  await page.fill('#model-filter', filter);
  await page.waitForSelector(`#model option[value="${id}"]`, { state: 'attached' });
  await page.selectOption('#model', id);
  await settled(page);
}

try {
  // ---------------------------------------------------------------- 1. the article's scenario
  const page = await open(b, b.url, { viewport: { width: 1280, height: 900 } });
  t.check((await page.getAttribute('html', 'lang')) === 'en', 'an English browser gets the English page');
  await chooseHardware(page, laptop16, 16);
  await chooseModel(page, 'qwen2.5 0.5b', 'qwen2.5-0.5b-instruct');
  // Qwen2.5-0.5B-Instruct: 494,032,768 params (published) × 2 B = 0.988 GB at bf16.
  t.check((await text(page, '[data-part="weights"]')) === '0.99 GB', `0.5B bf16 weights are 0.99 GB, got ${await text(page, '[data-part="weights"]')}`);
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === 'true', 'Qwen2.5-0.5B at bf16 fits in 16 GB');
  await chooseModel(page, '7b', 'qwen2.5-7b-instruct');
  // Qwen2.5-7B-Instruct: 7,615,616,512 params × 2 B = 15.23 GB of weights alone.
  t.check((await text(page, '[data-part="weights"]')) === '15.23 GB', 'Qwen2.5-7B bf16 weights are 15.23 GB');
  // Which precision fits? The table holds one core answer per format.
  const row = async (w) => ({
    weights: (await text(page, `#precisions tr[data-weights="${w}"] td:nth-of-type(1)`)),
    fits: await page.getAttribute(`#precisions tr[data-weights="${w}"] td:nth-of-type(3)`, 'data-fits'),
  });
  const fp32 = await row('fp32');
  const int8 = await row('int8');
  const int4 = await row('int4');
  // Weights: 7,615,616,512 × 4 B = 30.46 GB; × 1 B = 7.62 GB; × 0.5 B = 3.81 GB.
  t.check(fp32.weights === '30.46 GB' && fp32.fits === 'false', `fp32 (30.46 GB of weights) does not fit 16 GB: ${JSON.stringify(fp32)}`);
  t.check(int8.weights === '7.62 GB' && int8.fits === 'true', `int8 (7.62 GB of weights) fits 16 GB: ${JSON.stringify(int8)}`);
  t.check(int4.weights === '3.81 GB' && int4.fits === 'true', `int4 (3.81 GB of weights) fits 16 GB: ${JSON.stringify(int4)}`);
  // The table starts with the plain formats (and the chosen one); every format the core lists on request.
  const groups = JSON.parse(core.listOptions()).weight_groups;
  const formatCount = groups.reduce((n, g) => n + g.formats.length, 0);
  const plainRows = await page.locator('#precisions tbody tr').count();
  await page.click('#precisions-more');
  const allRows = await page.locator('#precisions tbody tr').count();
  t.check(plainRows === groups.find((g) => g.ecosystem === 'generic').formats.length && allRows === formatCount,
    `the precision table shows ${plainRows} plain formats, then all ${allRows} of the core's ${formatCount}`);
  t.check((await page.getAttribute('#precisions tr[data-weights="q4_k_m"] td:nth-of-type(3)', 'data-fits')) === 'true', 'GGUF Q4_K_M is in the full table and fits');
  await page.click('#precisions-more');
  // The verdict for bf16 is whatever the core's total says against 16 GB (or the laptop's fit).
  const bf16Total = JSON.parse(core.estimate(JSON.stringify({ model: 'qwen2.5-7b-instruct', weights: 'bf16', kv_cache: 'bf16', engine: 'generic', input_tokens: 1024, output_tokens: 1024, batch: 1, gpus: 1, ...(laptop16 ? { hardware: laptop16.id } : {}) })));
  const expectFits = laptop16 ? bf16Total.fit.fits : bf16Total.memory.device_bytes <= 16e9;
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === String(expectFits), `bf16 verdict matches the core's total (${bf16Total.memory.device_bytes} B)`);
  t.check((await text(page, '#total')) === `${(bf16Total.memory.device_bytes / 1e9).toFixed(2)} GB`, 'the total is the core\'s device_bytes in GB');
  await page.selectOption('#weights', 'int4');
  await settled(page);
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === 'true', 'the 7B model at int4 fits the 16 GB laptop');
  t.check(await page.isVisible('#chart svg circle.current'), 'the context chart marks the current setting');
  t.check((await page.locator('#chart svg .capacity-line').count()) === 1, 'the context chart draws the device memory as a line');
  t.check((await page.locator('#explain [data-explain="weights"]').textContent()).includes('parameters × bytes per parameter'),
    'the explain panel gives the weights formula in the article\'s terms');
  // GiB switch: 7,615,616,512 × 0.5 B = 3,807,808,256 B = 3.55 GiB.
  await page.click('#unit-gib');
  await settled(page);
  t.check((await text(page, '[data-part="weights"]')) === '3.55 GiB', `GiB switch shows 3.55 GiB, got ${await text(page, '[data-part="weights"]')}`);
  await page.click('#unit-gb');
  await settled(page);
  await screenshot(page, 'page-1280-article');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  t.check(overflow <= 0, `nothing overflows sideways at 375 px (${overflow} px)`);
  await screenshot(page, 'page-375-article');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Keyboard: Tab reaches the model filter, and the focused element is outlined.
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  t.check(outline !== 'none', `the focused element has a visible outline (${outline})`);

  // ---------------------------------------------------------------- 2. QLoRA on a 24 GB card
  await page.check('#task-training');
  await settled(page);
  t.check(await page.isVisible('#fs-training'), 'training options appear for the training task');
  const nf4 = (await page.locator('#weights option[value="nf4"]').count()) > 0;
  await page.selectOption('#weights', nf4 ? 'nf4' : 'int4');
  await chooseHardware(page, card24, 24);
  await page.selectOption('#method', 'qlora');
  await settled(page);
  t.check(await page.isVisible('#lora_rank'), 'LoRA rank shows for QLoRA');
  await page.click('#targets-attention');
  await settled(page);
  const targets = await page.$$eval('#target-boxes input:checked', (xs) => xs.map((x) => x.value).join(','));
  t.check(targets === 'q_proj,k_proj,v_proj,o_proj', `"attention only" preset checks q,k,v,o (${targets})`);
  const qloraRequest = {
    model: 'qwen2.5-7b-instruct', task: 'training', weights: nf4 ? 'nf4' : 'int4', gpus: 1,
    training: { method: 'qlora', optimizer: 'adamw', precision: 'mixed-bf16', seq_len: 2048, micro_batch: 1, gradient_checkpointing: true,
      zero_stage: 0, offload_optimizer: false, lora_rank: 16, lora_targets: ['q_proj', 'k_proj', 'v_proj', 'o_proj'] },
    ...(card24 ? { hardware: card24.id } : {}),
  };
  const qlora = JSON.parse(core.estimate(JSON.stringify(qloraRequest)));
  if (qlora.error) {
    // The core does not estimate QLoRA yet: the page shows the core's message by the field it names.
    const field = qlora.error.field.split('.').pop();
    const shown = await text(page, `#${field}-error`);
    t.check(shown.includes(qlora.error.message), `the core's QLoRA error is shown by #${field}: "${shown}"`);
    t.check(shown.startsWith('Check “Method”'), `the error has a lead-in naming the field: "${shown}"`);
    t.check((await page.getAttribute('#method', 'aria-invalid')) === 'true', 'the field is marked invalid');
  } else {
    t.check((await text(page, '#total')) === `${(qlora.memory.device_bytes / 1e9).toFixed(2)} GB`, 'the QLoRA total is the core\'s device_bytes');
    t.check(await page.isVisible('[data-part="adapters"]'), 'the QLoRA breakdown lists the adapters');
    const expect = card24 ? qlora.fit.fits : qlora.memory.device_bytes <= 24e9;
    t.check((await page.getAttribute('#verdict-text', 'data-fits')) === String(expect), 'the QLoRA verdict matches the core');
  }
  await screenshot(page, 'page-1280-qlora');
  // Full fine-tuning of the same model is estimated today: the page recovers from the error.
  await page.selectOption('#method', 'full');
  await settled(page);
  t.check((await page.locator('.field-error').count()) === 0, 'the error clears when the input is fixed');
  t.check(await page.isVisible('[data-part="optimizer"]'), 'full fine-tuning shows optimizer states');

  // ---------------------------------------------------------------- 3. language
  await page.click('#lang-switch');
  await page.waitForSelector('html[lang="ja"]', { state: 'attached' });
  await settled(page);
  t.check((await text(page, '.total-label')) === '必要なメモリ', 'the result is labelled in Japanese');
  t.check((await text(page, '#verdict-text')).includes('収まり'), `the verdict is in Japanese: ${await text(page, '#verdict-text')}`);
  t.check((await text(page, 'label[for="input_tokens"]')) === '入力トークン数', 'labels are in Japanese');
  t.check(page.url().includes('lang=ja'), 'the link keeps the language');
  await page.check('#task-inference');
  await page.fill('#input_tokens', '-5');
  await page.dispatchEvent('#input_tokens', 'input');
  const jaError = await text(page, '#input_tokens-error');
  // The core's message comes as data (message_data) and is written from the Japanese strings.
  t.check(jaError.startsWith('「入力トークン数」(input_tokens)を確認してください') && jaError.includes('1 から 10000000 までの整数') && !jaError.includes('must be'),
    `a core error has a Japanese lead-in and the core's message in Japanese: ${jaError}`);
  await page.fill('#input_tokens', '32768');
  await page.dispatchEvent('#input_tokens', 'input');
  await settled(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'page-375-ja');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'page-1280-ja');
  await page.click('#lang-switch');
  await page.waitForSelector('html[lang="en"]', { state: 'attached' });
  t.check((await text(page, 'label[for="input_tokens"]')) === 'Input tokens', 'switched back to English');

  const ja = await open(b, b.url, { locale: 'ja-JP', viewport: { width: 1280, height: 900 } });
  t.check((await ja.getAttribute('html', 'lang')) === 'ja', 'a Japanese browser gets the Japanese page without switching');
  // 1,234,567,890 formatted for ja-JP keeps the digits; "15.23 GB" is the same in both locales.
  t.check((await text(ja, '[data-part="weights"]')) === '15.23 GB', 'numbers carry their unit in Japanese too');

  // ---------------------------------------------------------------- 4. a weights file: header only, nothing sent
  const imp = await open(b, b.url, { viewport: { width: 1280, height: 900 } });
  await imp.click('#import summary');
  const requestsBefore = b.requests.length;
  await imp.setInputFiles('#model-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  t.check((await text(imp, '#import-status')).includes('.gguf, .safetensors or .json'), 'a file of another kind is refused by name');
  // A truncated GGUF: magic, version 3, then nothing. The core asks for more bytes or says what is wrong.
  const gguf = Buffer.alloc(64);
  gguf.write('GGUF', 0, 'latin1');
  gguf.writeUInt32LE(3, 4);
  await imp.setInputFiles('#model-file', { name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: gguf });
  await imp.waitForSelector('#import-status:not(:empty)', { state: 'attached' });
  const importStatus = await text(imp, '#import-status');
  t.check(importStatus.length > 0, `a .gguf file gets an answer: ${importStatus}`);
  // The first model file loads the core's module for model files (lib/model_files.js and its
  // llmsizer-files.wasm, wasm/bindings_model_files.cpp) from the page's own folder; the file itself
  // goes nowhere.
  const sent = b.requests.slice(requestsBefore).map((u) => new URL(u).pathname.replace(/^\//, ''));
  t.check(sent.every((p) => /^(llmsizer-files\.wasm|lib\/model_files-[A-Z0-9]+\.js)$/.test(p)),
    `reading a model file requests only the page's module for model files: ${sent.join(' ') || 'nothing'}`);
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
