// A draft model for speculative decoding on the real page, in English and Japanese:
// - choosing a draft in "Add a draft" shows the core's `draft` answer for the same request (the page
//   only renders): its GPU bytes, the speed with and without it, and llama-server's -md command line;
// - the link keeps the draft and opens with it, showing the same answer;
// - in Japanese the section and its labels are Japanese and the numbers the same;
// - a bad draft length is named by its field, the rest kept.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_draft.mjs WEB_DIR
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
const base = { model: 'qwen2.5-32b-instruct', task: 'inference', gpus: 1, weights: 'q4_k_m', kv_cache: 'q8_0', engine: 'llama.cpp',
  input_tokens: 15360, output_tokens: 1024, batch: 1, hardware: 'nvidia-rtx-4090' };
const draft = { model: 'qwen2.5-0.5b-instruct', weights: 'q8_0', draft_max: 8, acceptance_rate: 0.7 };
const answer = JSON.parse(core.estimate(JSON.stringify({ ...base, draft })));
const shown = async (page, field) => Number(await page.getAttribute(`#summary-draft [data-field="${field}"]`, 'data-value'));

try {
  const start = `${b.url}index.html#model=qwen2.5-32b-instruct&weights=q4_k_m&kv_cache=q8_0&engine=llama.cpp&input_tokens=15360&output_tokens=1024&hardware=nvidia-rtx-4090`;
  const page = await open(b, start, { viewport: { width: 1280, height: 900 } });
  t.check((await page.$('#summary-draft')) === null, 'no draft section before a draft is chosen');
  await page.click('#draft-settings summary');
  await page.selectOption('#draft_model', draft.model);
  await settled(page);
  await page.selectOption('#draft_weights', draft.weights);
  await settled(page);
  await page.fill('#draft_max', String(draft.draft_max));
  await settled(page);
  await page.fill('#draft_acceptance', String(draft.acceptance_rate));
  await settled(page);
  await page.waitForSelector('#summary-draft');
  const d = answer.draft;
  t.check((await shown(page, 'device_bytes')) === d.device_bytes, `the draft's GPU bytes are the core's (${await shown(page, 'device_bytes')} vs ${d.device_bytes})`);
  t.check((await shown(page, 'kv_cache_bytes')) === d.kv_cache_bytes, 'its KV cache is the core\'s');
  t.check((await shown(page, 'speedup')) === d.speedup, `the speed-up is the core's (${d.speedup})`);
  t.check((await shown(page, 'decode_tokens_per_s')) === d.decode_tokens_per_s && (await shown(page, 'decode_tokens_per_s_without')) === d.decode_tokens_per_s_without,
    'the speed with and without the draft are the core\'s');
  const command = await text(page, '#draft-command');
  t.check(command === d.command_line && command.includes('-md DRAFT.gguf --draft-max 8'), `the command line loads the draft: ${command}`);

  // The link carries the draft; opening it restores it.
  const link = await page.inputValue('#share-url');
  t.check(link.includes('draft_model=qwen2.5-0.5b-instruct') && link.includes('draft_weights=q8_0') && link.includes('draft_max=8') && link.includes('draft_acceptance=0.7'),
    `the link keeps the draft: ${link}`);
  const again = await open(b, link, { viewport: { width: 1280, height: 900 } });
  t.check((await again.inputValue('#draft_model')) === draft.model && (await again.inputValue('#draft_max')) === '8', 'the link opens with the draft');
  t.check((await shown(again, 'device_bytes')) === d.device_bytes, 'the link shows the same answer');

  // Japanese: the same numbers under Japanese labels.
  const ja = await open(b, `${link}&lang=ja`, { viewport: { width: 1280, height: 900 } });
  t.check((await ja.getAttribute('html', 'lang')) === 'ja', 'the page is Japanese');
  const title = await text(ja, '#summary-draft > summary');
  t.check(title === JA['section.draft'], `the draft section is titled in Japanese: ${title}`);
  const label = await text(ja, '#draft-settings summary');
  t.check(label === JA['section.draftSettings'], `"add a draft" is Japanese: ${label}`);
  t.check((await shown(ja, 'speedup')) === d.speedup, 'the same speed-up in Japanese');

  // A bad value: the core names the field; the page shows it by the field and keeps the rest.
  await again.fill('#draft_max', '-3');
  await again.waitForSelector('#draft_max-error');
  const error = await text(again, '#draft_max-error');
  t.check(/\d/.test(error), `a draft length of -3 is named with its range: ${error}`);
  t.check((await again.inputValue('#draft_model')) === draft.model && (await again.inputValue('#input_tokens')) === '15360', 'the other inputs are kept');
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
