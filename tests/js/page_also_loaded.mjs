// Models kept loaded side by side on the real page, with a draft, in English and Japanese:
// - "Also loaded" under the hardware adds a row of model and weights; the page shows the core's
//   `models` and `fit.set` for the same request (it only renders): each model's GPU bytes, one
//   stacked bar with a segment per model, the set's verdict and the command lines;
// - the draft's section stays beside it;
// - the link keeps the models and opens with them, showing the same answer;
// - in Japanese the section and its labels are Japanese and the numbers the same;
// - removing the row removes the set's section.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_also_loaded.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { loadPageCore } from './load_core.mjs';
import { finalChecks, open, settled, text } from './page_helpers.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const core = await loadPageCore(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const JA = JSON.parse(readFileSync(join(webDir, 'i18n', 'ja.json'), 'utf8'));
const base = { model: 'llama-3.1-8b-instruct', task: 'inference', gpus: 1, weights: 'q4_k_m', kv_cache: 'fp16', engine: 'llama.cpp',
  input_tokens: 7168, output_tokens: 1024, batch: 1, hardware: 'nvidia-rtx-4090', draft: { model: 'llama-3.2-1b-instruct', weights: 'q8_0' } };
const also = [{ model: 'qwen3-0.6b', weights: 'q8_0' }];
const answer = JSON.parse(core.estimate(JSON.stringify({ ...base, also_loaded: also })));
const set = answer.fit.set;
const deviceBytes = async (page, i) => Number(await page.getAttribute(`#also-models li[data-model-index="${i}"]`, 'data-device-bytes'));
const view = { viewport: { width: 1280, height: 900 } };

try {
  t.check(Array.isArray(answer.models) && answer.models.length === 2 && set, 'the core answers the set (models and fit.set)');
  const start = `${b.url}index.html#model=llama-3.1-8b-instruct&weights=q4_k_m&kv_cache=fp16&engine=llama.cpp&input_tokens=7168&output_tokens=1024` +
    '&hardware=nvidia-rtx-4090&draft_model=llama-3.2-1b-instruct&draft_weights=q8_0';
  const page = await open(b, start, view);
  t.check((await page.$('#summary-also')) === null, 'no set section before a model is added');
  t.check((await page.$('#summary-draft')) !== null, 'the draft is shown');
  await page.click('#also-settings summary');
  await page.click('#also-add');
  await settled(page);
  await page.selectOption('#also .also-row .also-model', also[0].model);
  await settled(page);
  await page.selectOption('#also .also-row .also-weights', also[0].weights);
  await settled(page);
  await page.waitForSelector('#summary-also');
  t.check((await deviceBytes(page, 0)) === answer.models[0].device_bytes, `the model's GPU bytes are the core's (${answer.models[0].device_bytes})`);
  t.check((await deviceBytes(page, 1)) === answer.models[1].device_bytes, `the loaded model's GPU bytes are the core's (${answer.models[1].device_bytes})`);
  t.check((await page.getAttribute('#also-verdict', 'data-verdict')) === set.verdict, `the set's verdict is the core's (${set.verdict})`);
  t.check((await text(page, '#also-verdict')) === set.summary, `the verdict reads as the core's sentence: ${await text(page, '#also-verdict')}`);
  t.check((await page.$$('#summary-also svg.stacked-bar rect')).length === 2, 'one bar segment per model');
  t.check((await text(page, '#also-command')) === set.command_line && set.command_line.includes('llama-server -m qwen3-0.6b.gguf'),
    `the command lines start each model: ${set.command_line}`);
  t.check((await page.$('#summary-draft')) !== null, 'the draft stays beside the set');

  // The link carries the models; opening it restores them and the same answer.
  const link = await page.inputValue('#share-url');
  t.check(new URL(link).hash.includes(`also=${encodeURIComponent('qwen3-0.6b:q8_0')}`), `the link keeps the loaded model: ${link}`);
  const again = await open(b, link, view);
  await again.waitForSelector('#summary-also');
  t.check((await again.inputValue('#also .also-model')) === also[0].model && (await again.inputValue('#also .also-weights')) === also[0].weights,
    'the link opens with the loaded model and its weights');
  t.check((await deviceBytes(again, 1)) === answer.models[1].device_bytes, 'the link shows the same answer');
  t.check((await again.inputValue('#draft_model')) === base.draft.model, 'and the same draft');

  // Japanese: the same numbers under Japanese labels.
  const ja = await open(b, `${link}&lang=ja`, view);
  await ja.waitForSelector('#summary-also');
  t.check((await ja.getAttribute('html', 'lang')) === 'ja', 'the page is Japanese');
  t.check((await text(ja, '#summary-also > summary')) === JA['section.alsoResult'], 'the set section is titled in Japanese');
  t.check((await text(ja, '#also-settings summary')) === JA['section.alsoLoaded'], '"also loaded" is Japanese');
  t.check((await ja.textContent('#also-add')).trim() === JA['also.add'], 'the add button is Japanese');
  t.check((await deviceBytes(ja, 1)) === answer.models[1].device_bytes, 'the same bytes in Japanese');
  t.check(/[\u3040-\u30ff]/.test(await text(ja, '#also-verdict')), `the verdict is Japanese: ${await text(ja, '#also-verdict')}`);

  // Removing the row removes the set.
  await again.click('#also .also-remove');
  await settled(again);
  t.check((await again.$('#summary-also')) === null, 'without a loaded model there is no set section');
  t.check(!(await again.inputValue('#share-url')).includes('also='), 'and the link no longer carries one');
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
