// The Serve task on the real page, in English and Japanese:
// - choosing Serve with 20 people at once, Llama 3.1 8B in FP8 on an H100 shows the core's `serving`
//   answer for the same request (the page only renders): the GPUs needed, each person's speed, the
//   curve with one point per concurrency and the target speed marked;
// - Copy puts the core's launch line on the clipboard;
// - a bad load is named by its field and the other inputs are kept;
// - the link keeps the serve inputs and opens with the same answer; so does the embed;
// - in Japanese the labels and the core's sentence are Japanese, the numbers the same;
// - "Which GPUs to buy or rent" for 20 people on Qwen2.5-32B AWQ (2000 in / 500 out, first token
//   within 3 s, 16 tokens/s each) lists the core's recommend for the same request without a device,
//   cheapest a month first, each first token within the target; a row's Use button puts its device
//   and GPUs per replica in the inputs and the serve answer follows; its headers are Japanese in Japanese.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_serve.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, screenshot, settled, text } from './page_helpers.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const JA = JSON.parse(readFileSync(join(webDir, 'i18n', 'ja.json'), 'utf8'));
// The request the page sends for these inputs (lib/state.js toRequest): tpot_ms = 1000 / 20 tokens/s.
const request = { model: 'llama-3.1-8b-instruct', task: 'serve', weights: 'fp8', engine: 'vllm', layout: { tp: 1 },
  workload: { input_tokens: 1000, output_tokens: 1000, concurrency: 20 }, slo: { ttft_ms: 2000, tpot_ms: 50 }, hardware: 'nvidia-h100-sxm' };
const answer = JSON.parse(core.estimate(JSON.stringify(request)));
const serving = answer.serving;
const VIEW = { viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] };
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Polls `fn` in the page (page.evaluate: the page's CSP forbids waitForFunction's eval) until it is truthy. */
async function until(page, fn, arg, what, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The serve answer as shown: the GPUs needed and each figure's number, once drawn and not busy. */
async function shownServe(page) {
  await until(page, () => !document.body.dataset.busy && document.querySelector('#serve-gpus') && !document.querySelector('#serve-card').hidden
    && document.querySelector('#serve-figures'), null, 'the serve answer');
  return page.evaluate(() => {
    const value = (field) => {
      const cell = document.querySelector(`#serve-figures tr[data-field="${field}"] td`);
      return cell && cell.dataset.value !== undefined ? Number(cell.dataset.value) : null;
    };
    return {
      gpus: Number(document.querySelector('#serve-gpus').dataset.gpus),
      perUser: value('per_user_output_tokens_per_s'),
      ttft: value('ttft_ms'),
      perGpu: value('output_tokens_per_s_per_gpu'),
      points: document.querySelectorAll('.serve-chart circle').length,
      target: Number((document.querySelector('.serve-chart [data-target]') || { dataset: {} }).dataset.target),
      summary: document.querySelector('#serve-summary').textContent,
      command: (document.querySelector('#serve-command') || {}).textContent,
    };
  });
}

try {
  t.check(!answer.error && serving && serving.gpus_needed >= 1, `the core answers the serve request (${JSON.stringify(answer.error || serving.summary)})`);
  const page = await open(b, b.url, VIEW);
  await page.check('#task-serve');
  await until(page, () => !document.querySelector('#fs-serve').hidden, null, 'the serve inputs');
  t.check(await page.isHidden('#fs-inference'), 'Serve hides the single-run inputs');
  await page.fill('#model-filter', '3.1 8b');
  await until(page, () => [...document.querySelector('#model').options].some((o) => o.value === 'llama-3.1-8b-instruct'), null, 'the Llama 3.1 8B preset');
  await page.selectOption('#model', 'llama-3.1-8b-instruct');
  await page.selectOption('#weights', 'fp8');
  await until(page, () => [...document.querySelector('#hardware').options].some((o) => o.value === 'nvidia-h100-sxm'), null, 'the hardware list');
  await page.selectOption('#hardware', 'nvidia-h100-sxm');
  await page.fill('#concurrency', '20');
  const shown = await shownServe(page);
  t.check(shown.gpus === serving.gpus_needed, `the GPUs needed are the core's (${shown.gpus} vs ${serving.gpus_needed})`);
  t.check(shown.perUser === serving.per_user_output_tokens_per_s, `each person's speed is the core's (${shown.perUser} vs ${serving.per_user_output_tokens_per_s})`);
  t.check(shown.ttft === serving.ttft_ms.p90, `the first token at p90 is the core's (${shown.ttft})`);
  t.check(shown.perGpu === serving.output_tokens_per_s_per_gpu, 'the throughput per GPU is the core\'s');
  t.check(/\d/.test(shown.summary) && shown.summary.includes('NVIDIA H100'), `the core's sentence names the GPU and its numbers: ${shown.summary}`);
  t.check(shown.points === serving.curve.length && shown.points > 1, `the curve has a point per concurrency (${shown.points})`);
  t.check(shown.target === 20, `the target speed is marked at 20 tokens/s (${shown.target})`);
  const explained = await page.$$eval('#serve-explain li', (items) => items.map((i) => i.textContent));
  t.check(explained.length === serving.explain.length && explained.every((x) => /\d/.test(x)),
    `every explain line is rendered (${explained.length})`);
  t.check(await page.isHidden('#options-card') && await page.isHidden('#chart-card'), 'the ranking and the memory chart give way to the serve card');
  await screenshot(page, 'serve-en');

  // Copy: the core's launch line on the clipboard.
  t.check(shown.command === serving.command_line && shown.command.startsWith('vllm serve'), `the launch line is the core's: ${shown.command}`);
  await page.click('#serve-copy');
  await until(page, () => document.querySelector('#serve-copy').dataset.copied === 'true', null, 'the copy');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  t.check(copied === serving.command_line, `Copy puts the launch line on the clipboard: ${copied}`);

  // The link keeps the serve inputs and opens with the same answer.
  await until(page, () => document.querySelector('#share-url').value.includes('concurrency=20'), null, 'the link');
  const link = await page.inputValue('#share-url');
  for (const part of ['task=serve', 'concurrency=20', 'serve_input_tokens=1000', 'serve_output_tokens=1000', 'ttft_ms=2000', 'tokens_per_s=20',
    'serve_engine=vllm', 'tp=1', 'hardware=nvidia-h100-sxm', 'weights=fp8', 'model=llama-3.1-8b-instruct']) {
    t.check(link.includes(part), `the link keeps ${part}`);
  }
  const again = await open(b, link, VIEW);
  t.check(await again.isChecked('#task-serve'), 'the link opens on the Serve task');
  t.check((await again.inputValue('#concurrency')) === '20' && (await again.inputValue('#weights')) === 'fp8'
    && (await again.inputValue('#hardware')) === 'nvidia-h100-sxm' && (await again.inputValue('#tokens_per_s')) === '20', 'the link opens with the same inputs');
  const reopened = await shownServe(again);
  t.check(JSON.stringify(reopened) === JSON.stringify(shown), `the link shows the same answer\n  ${JSON.stringify(reopened)}\n  ${JSON.stringify(shown)}`);

  // The embed carries it too.
  const embed = await b.newPage(VIEW);
  await embed.goto(`${b.url}embed.html?${new URL(link).hash.slice(1)}`);
  await until(embed, () => document.body.dataset.ready && document.querySelector('#serve-gpus'), null, 'the embed');
  t.check(Number(await embed.getAttribute('#serve-gpus', 'data-gpus')) === serving.gpus_needed, 'the embed shows the same GPUs needed');

  // A bad load: the core names the field, the rest is kept.
  await page.fill('#concurrency', '-3');
  await until(page, () => document.querySelector('#concurrency-error'), null, 'the error by the field');
  const error = await text(page, '#concurrency-error');
  t.check(error.includes('workload.concurrency') && /100000|100,000/.test(error), `a load of -3 is named with its field and range: ${error}`);
  t.check((await page.inputValue('#serve_input_tokens')) === '1000' && (await page.inputValue('#hardware')) === 'nvidia-h100-sxm'
    && (await page.inputValue('#weights')) === 'fp8', 'the other inputs are kept');
  await page.fill('#concurrency', '20');
  await until(page, () => !document.querySelector('#concurrency-error'), null, 'the error to clear');

  // Requests per second in place of people at once.
  await page.selectOption('#serve_load', 'request_rate');
  await until(page, () => !document.querySelector('#request-rate-row').hidden, null, 'the rate input');
  await page.fill('#request_rate', '2');
  const rated = JSON.parse(core.estimate(JSON.stringify({ ...request, workload: { input_tokens: 1000, output_tokens: 1000, request_rate: 2 } })));
  await until(page, (v) => Number((document.querySelector('#serve-figures tr[data-field="output_tokens_per_s"] td') || { dataset: {} }).dataset.value) === v,
    rated.serving.output_tokens_per_s, 'the answer at 2 requests/s');
  await until(page, () => document.querySelector('#share-url').value.includes('request_rate=2'), null, 'the link with the rate');
  t.check(!(await page.inputValue('#share-url')).includes('concurrency='), 'the link names one load');
  await page.selectOption('#serve_load', 'concurrency');
  await shownServe(page);

  // A priced device: the month's cost and the cost per million answer tokens are the core's.
  const owned = JSON.parse(core.estimate(JSON.stringify({ ...request, hardware: 'nvidia-rtx-4090' }))).serving.cost;
  await page.selectOption('#hardware', 'nvidia-rtx-4090');
  const costOf = () => {
    const value = (field) => Number((document.querySelector(`#serve-figures tr[data-field="${field}"] td`) || { dataset: {} }).dataset.value);
    return { month: value('per_month_usd'), million: value('per_million_output_tokens_usd') };
  };
  await until(page, (v) => Number((document.querySelector('#serve-figures tr[data-field="per_month_usd"] td') || { dataset: {} }).dataset.value) === v,
    owned.per_month_usd, 'the month\'s cost on an RTX 4090');
  const cost = await page.evaluate(costOf);
  t.check(owned.basis === 'owned' && cost.million === owned.per_million_output_tokens_usd, `the cost per million answer tokens is the core's (${cost.million})`);
  await page.selectOption('#hardware', 'nvidia-h100-sxm');
  await shownServe(page);

  // Japanese: Japanese labels and sentence, the same numbers.
  await page.click('#lang-switch');
  await until(page, () => document.documentElement.lang === 'ja', null, 'the Japanese page');
  const ja = await shownServe(page);
  t.check(JAPANESE.test(ja.summary) && ja.summary !== shown.summary, `the core's sentence is Japanese: ${ja.summary}`);
  t.check((await text(page, '#serve-card h3')) === JA['section.serve'], 'the serve card is titled in Japanese');
  t.check((await page.$eval('#task-serve', (i) => i.parentElement.textContent.trim())) === JA['task.serve'], `the task is named ${JA['task.serve']}`);
  t.check(ja.gpus === shown.gpus && ja.perUser === shown.perUser && ja.points === shown.points, 'the same numbers in Japanese');
  const explainedJa = await page.$$eval('#serve-explain li', (items) => items.map((i) => i.textContent));
  t.check(explainedJa.length === explained.length && explainedJa.every((x) => JAPANESE.test(x)), 'the explanations are Japanese');
  await screenshot(page, 'serve-ja');
  const viaLink = await open(b, `${link}&lang=ja`, VIEW);
  const jaLink = await shownServe(viaLink);
  t.check(JAPANESE.test(jaLink.summary) && jaLink.gpus === shown.gpus, '?lang=ja opens the Serve task in Japanese');
  await settled(page);

  // Which GPUs to buy or rent: the core's ranking for the same request without a device.
  const rank = await open(b, b.url, VIEW);
  await rank.check('#task-serve');
  await until(rank, () => !document.querySelector('#fs-serve').hidden, null, 'the serve inputs');
  await rank.fill('#model-filter', '2.5 32b');
  await until(rank, () => [...document.querySelector('#model').options].some((o) => o.value === 'qwen2.5-32b-instruct'), null, 'the Qwen2.5 32B preset');
  await rank.selectOption('#model', 'qwen2.5-32b-instruct');
  await until(rank, () => [...document.querySelector('#weights').options].some((o) => o.value === 'awq-int4'), null, 'AWQ');
  await rank.selectOption('#weights', 'awq-int4');
  for (const [id, value] of [['#concurrency', '20'], ['#serve_input_tokens', '2000'], ['#serve_output_tokens', '500'], ['#ttft_ms', '3000'], ['#tokens_per_s', '16']]) await rank.fill(id, value);
  const rankBase = { model: 'qwen2.5-32b-instruct', task: 'serve', weights: 'awq-int4', engine: 'vllm',
    workload: { input_tokens: 2000, output_tokens: 500, concurrency: 20 }, slo: { ttft_ms: 3000, tpot_ms: 1000 / 16 } };
  const started = performance.now();
  const ranked = JSON.parse(core.recommend(JSON.stringify({ ...rankBase, english_text: false, max_options: 10 })));
  console.log(`recommend (task serve) in Node's WebAssembly: ${(performance.now() - started).toFixed(0)} ms`);
  t.check(!ranked.error && ranked.options.length >= 3, `the core ranks at least 3 options (${ranked.error ? JSON.stringify(ranked.error) : ranked.options.length})`);
  const expected = ranked.options.map((o) => `${o.hardware}/${o.layout.tp}`).join(' ');
  await until(rank, (v) => !document.body.dataset.busy && [...document.querySelectorAll('#serve-ranking-table tbody tr')]
    .map((r) => `${r.dataset.hardware}/${r.dataset.tp}`).join(' ') === v, expected, `the ranking ${expected}`);
  const rows = await rank.$$eval('#serve-ranking-table tbody tr', (trs) => trs.map((r) => {
    const value = (field) => Number(r.querySelector(`td[data-field="${field}"]`).dataset.value);
    return { hardware: r.dataset.hardware, tp: Number(r.dataset.tp), gpus: Number(r.dataset.gpus), ttft: value('ttft_ms'), month: value('per_month_usd'),
      perUser: value('per_user_output_tokens_per_s'), layout: r.querySelector('td[data-field="layout"]').textContent, use: Boolean(r.querySelector('button.use')) };
  }));
  t.check(rows.length >= 3, `the ranking shows at least 3 rows for 20 people on Qwen2.5-32B AWQ (${rows.length})`);
  // No device chosen yet: the rest waits for one (dimmed), the ranking that helps choose it does not.
  const opacity = await rank.evaluate(() => [getComputedStyle(document.querySelector('#serve-ranking')).opacity,
    getComputedStyle(document.querySelector('#results')).opacity]);
  t.check(opacity[0] === '1' && opacity[1] === '1', `without a device the ranking is not dimmed (ranking ${opacity[0]}, results ${opacity[1]})`);
  t.check(rows.every((r, i) => i === 0 || rows[i - 1].month <= r.month), `the rows are sorted by the month's cost (${rows.map((r) => r.month).join(', ')})`);
  t.check(rows.every((r) => r.ttft <= 3000), `every row's first token at p90 is within 3000 ms (${rows.map((r) => r.ttft).join(', ')})`);
  t.check(rows.every((r, i) => r.ttft === ranked.options[i].ttft_ms.p90 && r.perUser === ranked.options[i].per_user_output_tokens_per_s
    && r.month === ranked.options[i].cost.per_month_usd && r.gpus === ranked.options[i].gpus_needed), 'each row\'s numbers are the core\'s');
  t.check(rows.every((r, i) => r.layout.startsWith(`${r.tp} × ${ranked.options[i].layout.replicas} = ${r.gpus}`)), `the layout reads GPUs per replica × replicas = GPUs: ${rows[0].layout}`);
  const misses = await rank.$$eval('#serve-near-misses li', (items) => items.map((i) => i.textContent));
  t.check(misses.length === ranked.near_misses.length && misses.every((x) => /: \S/.test(x) && !x.includes('serve.miss')),
    `the near misses say why, from the core's reason (${misses[0] || 'none'})`);
  // Use: the device and its GPUs per replica go into the inputs; the serve answer is for them.
  const pick = rows.find((r) => r.use && r.tp > 1 && r.hardware !== 'nvidia-h100-sxm') || rows.find((r) => r.use);
  await rank.click(`#serve-ranking-table tr[data-hardware="${pick.hardware}"] button.use`);
  await until(rank, (v) => document.querySelector('#hardware').value === v.hardware && document.querySelector('#tp').value === String(v.tp)
    && document.querySelector(`#serve-ranking-table tr.current[data-hardware="${v.hardware}"]`), pick, `${pick.hardware} chosen`);
  const chosen = JSON.parse(core.estimate(JSON.stringify({ ...rankBase, layout: { tp: pick.tp }, hardware: pick.hardware }))).serving;
  const picked = await shownServe(rank);
  t.check(picked.gpus === chosen.gpus_needed && picked.ttft === chosen.ttft_ms.p90 && picked.command === chosen.command_line,
    `Use puts ${pick.hardware} with ${pick.tp} GPUs per replica in the inputs and the serve answer is the core's for it (${picked.gpus} GPUs, ${picked.command})`);
  t.check((await rank.$$eval('#serve-ranking-table tbody tr', (trs) => trs.length)) === rows.length, 'the ranking stays (its request has no device)');
  await screenshot(rank, 'serve-ranking-en');
  await rank.click('#lang-switch');
  await until(rank, () => document.documentElement.lang === 'ja' && !document.body.dataset.busy, null, 'the Japanese page');
  await until(rank, (v) => (document.querySelector('#serve-ranking h3') || {}).textContent === v, JA['serve.rankTitle'], 'the Japanese ranking');
  const heads = await rank.$$eval('#serve-ranking-table th[scope="col"]', (ths) => ths.map((h) => h.textContent));
  t.check(heads.length === 6 && heads.every((h) => JAPANESE.test(h)) && heads[0] === JA['table.device'] && heads[1] === JA['serve.layout'],
    `the ranking's headers are Japanese: ${heads.join(' | ')}`);
  const missesJa = await rank.$$eval('#serve-near-misses li', (items) => items.map((i) => i.textContent));
  t.check(missesJa.every((x) => JAPANESE.test(x)), `the near misses' reasons are Japanese (${missesJa[0] || 'none'})`);
  await screenshot(rank, 'serve-ranking-ja');
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
