// Issue 15's second reader, on the real page in headless Chromium: a LoRA and a QLoRA of
// Qwen2.5-7B at 4k tokens, then the time and the cost of 10M tokens of it on a rented A100
// (Lambda gpu_1x_a100: one A100 40GB, 312 TFLOPS dense BF16 by NVIDIA's datasheet, $1.48 an hour
// by Lambda's price list in the catalog), in English and in Japanese.
// Hand check: time = tokens × FLOPs per token ÷ (312e12 × MFU) — the MFU of LoRA/QLoRA from the
// Qwen-1 README's A100 runs (0.52 / 0.49, cited in the core) — and cost = hours × $1.48.
// Then the ranking and the buy-or-rent card for training: rented instances ranked per run (owned
// cards only in the card), the run's time as a column, nothing assumed without a dataset size,
// "Cheapest" and "Best value" sorting by different rules, and a verdict whose longest sequence is
// the one its first fix sets.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_training_cost.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, settled, text } from './page_helpers.mjs';

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

  // Training's ranking and buy-or-rent card, without a dataset size first.
  const page = await open(b, `${b.url}index.html#model=qwen2.5-7b-instruct&task=training&method=lora&seq_len=2048&goal=cheapest`,
    { viewport: { width: 1280, height: 900 } });
  t.check(!(await page.locator('#costs-card').isHidden()), 'training has the buy-or-rent card');
  const rows = async () => page.$$eval('#options tbody tr', (trs) => trs.map((r) => ({
    kind: r.dataset.kind, name: r.cells[1].firstChild.textContent,
    time: r.querySelector('td[data-col="key.hours"]').textContent, total: r.querySelector('td[data-col="key.usd_total"]').textContent })));
  const cheapest = await rows();
  t.check(cheapest.length > 2 && cheapest.every((r) => r.kind === 'instance'), `the ranking lists rented instances only: ${cheapest.map((r) => r.kind).join(',')}`);
  t.check(cheapest.every((r) => r.time === 'needs the dataset size' && r.total === 'needs the dataset size'),
    `without a dataset size the run's time and total say what they need: ${cheapest[0].time} / ${cheapest[0].total}`);
  const note = await text(page, '#options-note');
  t.check(note.includes('cheapest run first') && note.includes('need the dataset size'), `the note says the rule and what is missing: ${note}`);
  const card = await page.$$eval('#costs tbody tr', (trs) => trs.map((r) => r.dataset.costKind));
  t.check(card.includes('cloud') && card.includes('desktop-gpu'), `the card compares rented runs with owned cards: ${card.join(',')}`);
  t.check((await text(page, '#costs-summary')).startsWith('Per million tokens trained'), `no run is made up: ${await text(page, '#costs-summary')}`);
  await page.selectOption('#goal', 'best-value');
  await settled(page);
  const best = await rows();
  t.check(best[0].name !== cheapest[0].name, `"Best value" and "Cheapest" lead with different instances: ${best[0].name} / ${cheapest[0].name}`);
  t.check((await text(page, '#options-note')).includes("the run's cost × its time"), 'best value says its rule');
  // With the dataset size: the run's time and total in the ranking and the card.
  await page.fill('#dataset_tokens', '100000000');
  await page.dispatchEvent('#dataset_tokens', 'input');
  await settled(page);
  const run = await rows();
  t.check(/h$/.test(run[0].time) && run[0].total.startsWith('$'), `with 100M tokens: ${run[0].time}, ${run[0].total}`);
  const summary = await text(page, '#costs-summary');
  t.check(summary.startsWith('For one run of 100M tokens:') && /renting .* costs \$[\d.,]+ \([\d.]+ h\)/.test(summary), `the card prices a run: ${summary}`);
  const perRun = await page.$$eval('#costs tbody tr', (trs) => trs.map((r) => r.querySelector('td[data-col="costs.perRun"]').textContent));
  t.check(perRun.every((x) => x.startsWith('$')), `each row prices the run: ${perRun.join(' ')}`);
  await screenshot(page, 'page-1280-training-costs');
  await page.close();

  // The verdict's longest sequence and the first fix agree (it said 2,936, the fix 1,792).
  const fit = await open(b, `${b.url}index.html#model=qwen2.5-7b-instruct&task=training&method=lora&seq_len=4096&hardware=nvidia-rtx-4090`,
    { viewport: { width: 1280, height: 900 } });
  const sentence = await text(fit, '[data-field="fit-note"]');
  const firstFix = await text(fit, '#fixes li');
  const longest = (sentence.match(/at this micro-batch is ([\d,]+) tokens/) || [])[1];
  t.check(Boolean(longest) && firstFix.startsWith(`sequences of ${longest} tokens`), `the sentence (${sentence}) and the first fix (${firstFix}) name the same length`);
  await fit.close();
} catch (error) {
  t.check(false, `the page walk-through ran: ${error.stack || error}`);
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
