// Issue 15's second reader, on the real page in headless Chromium: a LoRA and a QLoRA of
// Qwen2.5-7B at 4k tokens, then the time and the cost of 10M tokens of it on a rented A100
// (Lambda gpu_1x_a100: one A100 40GB, 312 TFLOPS dense BF16 by NVIDIA's datasheet, $1.48 an hour
// by Lambda's price list in the catalog), in English and in Japanese.
// Hand check: time = tokens × FLOPs per token ÷ (312e12 × MFU) — the MFU of LoRA/QLoRA from the
// Qwen-1 README's A100 runs (0.52 / 0.49, cited in the core) — and cost = hours × $1.48.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_training_cost.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, settled, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const A100_FLOPS = 312e12;  // NVIDIA A100 datasheet, BF16 tensor core, dense
const PRICE_PER_HOUR = 1.48;  // data/hardware: lambda-gpu_1x_a100
const TOKENS = 10_000_000;

const field = async (page, name) => {
  const dd = page.locator(`#summary-training dd[data-field="${name}"]`);
  return { value: Number(await dd.getAttribute('data-value')), text: ((await dd.textContent()) || '').trim() };
};

try {
  for (const [method, mfu] of [['lora', 0.52], ['qlora', 0.49]]) {
    for (const lang of ['en', 'ja']) {
      const url = `${b.url}index.html#model=qwen2.5-7b-instruct&task=training&method=${method}&seq_len=4096` +
        `&hardware=lambda-gpu_1x_a100&dataset_tokens=${TOKENS}&lang=${lang}`;
      const page = await open(b, url, { viewport: { width: 1280, height: 900 } });
      await settled(page);
      const flopsPerToken = await field(page, 'flops_per_token');
      const hours = await field(page, 'hours');
      const usd = await field(page, 'usd');
      // The page trains with gradient checkpointing (its default): a frozen base costs forward 2N,
      // the recomputed forward 2N and the activations' backward 2N = 6N (N = 7.62e9 parameters,
      // no weight gradients), plus attention over 4k tokens (under 1N at this length).
      const N = 7_615_616_512;
      t.check(flopsPerToken.value > 6 * N && flopsPerToken.value < 7 * N,
        `${method}: FLOPs per token between 6N and 7N (N = 7.62e9): ${flopsPerToken.value}`);
      const expectedHours = TOKENS * flopsPerToken.value / (A100_FLOPS * mfu) / 3600;
      t.check(Math.abs(hours.value - expectedHours) / expectedHours < 0.01,
        `${method} (${lang}): 10M tokens take ${hours.value} h on the A100, by hand ${expectedHours.toFixed(3)} h`);
      t.check(Math.abs(usd.value - hours.value * PRICE_PER_HOUR) < 0.01,
        `${method} (${lang}): they cost $${usd.value}, by hand ${hours.value.toFixed(3)} h × $${PRICE_PER_HOUR} = $${(hours.value * PRICE_PER_HOUR).toFixed(2)}`);
      const unit = lang === 'ja' ? '時間' : ' h';
      t.check(hours.text.endsWith(unit) && usd.text.includes('$'), `${method} (${lang}): shown as "${hours.text}" and "${usd.text}"`);
      const label = await text(page, '#summary-training summary');
      t.check(lang === 'en' ? /[A-Za-z]/.test(label) : /[\u3040-\u30ff\u4e00-\u9fff]/.test(label), `${method} (${lang}): the training section is titled in the page's language: "${label}"`);
      await page.close();
    }
  }
} catch (error) {
  t.check(false, `the page walk-through ran: ${error.stack || error}`);
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
