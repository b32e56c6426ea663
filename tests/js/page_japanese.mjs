// The Japanese page says nothing in English: the result panel, the explanations, the
// warnings, the model's features and the errors are written from the Japanese strings, the core's
// sentences from its messages (ids and numbers, web/i18n/messages.ja.json), in four scenarios:
// the default view, a LoRA fine-tune, llama.cpp on a GPU (fit, speed, CPU or GPU, cost) and "my
// machine" typed in (16 GiB of RAM, no GPU: the page names it "お使いのマシン", never by its id
// "machine"). The form's labels and the page's accessible names (aria-label) are Japanese too; the
// catalog's kinds of price ("launch MSRP") are translated, a citation of a source keeps its language.
// Then the same page switched back to English says it in English. The language of a link: the last
// lang= of the query and the hash (the hash after the query), in the text and in html lang alike.
// A text is English when it holds a common English word (the, of, with, fits, ...) as a word of its
// own; code names (q_proj, torch.cat, n_ubatch), units (GB, MiB), model and device names are not
// words of that list.
// usage: node page_japanese.mjs WEB_DIR
import { readFileSync } from 'node:fs';
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, settled } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);

// Words that only English prose holds (the core's English templates are built of them).
const ENGLISH = new Set(`the and of with for to in on at by from is are be not than only each every per which that this its
as or an all when without into over under fits fit does layers layer tokens token params parameters weights memory cache model
batch prompt context keeps kept held shared used sequence step peak below above more less use would give given must should can
will has have spare short unknown none yes no while one two once whole size sizes bytes device devices fits head heads query
value values window sliding table input output copy copies during part parts budget machine task launch price list demand storage
excludes listed else announced starting laptops cheapest`.split(/\s+/));

/** English words in `text`: whole words of letters only (code names with _ . - or digits are not words). */
function englishWords(text) {
  const words = String(text).split(/[\s,;:()[\]{}"'“”「」、。・=÷×+<>/|~≈→—–!?]+/).filter(Boolean);
  return words.filter((w) => /^[A-Za-z]+$/.test(w) && ENGLISH.has(w.toLowerCase()));
}

/** Every visible text line of the given parts of the page, with where it came from. */
async function shownTexts(page, selectors) {
  return page.evaluate((sels) => {
    const out = [];
    for (const sel of sels) {
      for (const root of document.querySelectorAll(sel)) {
        if (root.closest('[hidden]')) continue;
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          // A price's source is cited as its data file gives it (cite lang=en): a citation, not the page's prose;
          // a command line (code) is typed as it is in any language.
          if (!el || el.closest('[hidden], script, style, option, select, .visually-hidden, cite[lang="en"], code')) continue;
          const text = n.textContent.trim();
          if (text) out.push({ where: sel, text });
        }
        // Accessible names that are no text of the page (a radio group's label).
        for (const e of [root, ...root.querySelectorAll('[aria-label]')]) {
          if (e.hasAttribute('aria-label') && !e.closest('[hidden]')) out.push({ where: `${sel} [aria-label]`, text: e.getAttribute('aria-label') });
        }
      }
    }
    return out;
  }, selectors);
}

const PANELS = ['#form', '#verdict', '#parts', '#summary', '#model-info', '#model-features', '#explain', '#warnings', '#status', '.field-error', '#precisions', '#options', '#near-misses', '#chart-table', '#costs-card'];

async function noEnglish(page, scenario, minExplained = 4) {
  for (const d of await page.$$('#summary details, #costs details')) await d.evaluate((e) => { e.open = true; });
  const texts = await shownTexts(page, PANELS);
  const english = texts.map((x) => ({ ...x, words: englishWords(x.text) })).filter((x) => x.words.length);
  t.check(texts.length > 20, `${scenario}: the result panel shows text (${texts.length} lines)`);
  t.check(english.length === 0, `${scenario}: no English on the Japanese page; found ${english.length}: ${english.slice(0, 6).map((x) => `${x.where}: "${x.text.slice(0, 120)}" [${x.words.join(' ')}]`).join(' | ')}`);
  const explained = await page.locator('#explain dt').count();
  t.check(explained >= minExplained, `${scenario}: the explanations are shown (${explained} parts)`);
  // The catalog's kinds of price have Japanese strings (keyed by the English text): none is cited in English.
  const cited = await page.$$eval('#costs cite[lang="en"]', (cs) => cs.map((c) => c.textContent));
  const untranslated = cited.filter((c) => `priceSource.${c}` in JA);
  t.check(untranslated.length === 0, `${scenario}: the kinds of price are in Japanese; in English: ${untranslated.join(' | ')}`);
}

const JA = JSON.parse(readFileSync(new URL('../../web/i18n/ja.json', import.meta.url), 'utf8'));

/** The language a link opens the page in: html lang and its text (the total's label) agree. */
async function linkLanguage(url, lang) {
  const page = await open(b, `${b.url}${url}`, { viewport: { width: 1280, height: 900 } });
  const label = await page.textContent('.total-label');
  const want = lang === 'ja' ? JA['result.total'] : 'Memory needed';
  t.check((await page.getAttribute('html', 'lang')) === lang && label === want, `${url}: html lang="${await page.getAttribute('html', 'lang')}" and "${label}", want ${lang} and "${want}"`);
  await page.close();
}

try {
  // 1. The default view (Qwen2.5-7B, bf16, 24 GB budget), then a bad value: the core's error.
  const page = await open(b, `${b.url}index.html#lang=ja`, { viewport: { width: 1280, height: 900 } });
  t.check((await page.getAttribute('html', 'lang')) === 'ja', 'the page is Japanese');
  await noEnglish(page, 'default view');
  await page.fill('#input_tokens', '-5');
  await page.dispatchEvent('#input_tokens', 'input');
  await page.waitForSelector('#input_tokens-error');
  await noEnglish(page, 'default view with an error');
  await page.fill('#input_tokens', '1024');
  await page.dispatchEvent('#input_tokens', 'input');
  await settled(page);

  // 2. A LoRA fine-tune (the core's starting training form: LoRA, all linear layers).
  await page.check('#task-training');
  await settled(page);
  await noEnglish(page, 'LoRA training');
  const trainingWarnings = await page.locator('#warnings li').count();
  t.check(trainingWarnings >= 1, `training shows its warnings (${trainingWarnings}), in Japanese`);
  await screenshot(page, 'page-1280-ja-training');

  // 3. llama.cpp on an RTX 4090: Q4_K_M weights, a q8_0 cache, 16k context.
  await page.check('#task-inference');
  await page.selectOption('#engine', 'llama.cpp');
  await page.selectOption('#weights', 'q4_k_m');
  await page.selectOption('#kv_cache', 'q8_0');
  await page.fill('#input_tokens', '16384');
  await page.dispatchEvent('#input_tokens', 'input');
  await settled(page);
  await page.selectOption('#hardware', 'nvidia-rtx-4090');
  await settled(page);
  await page.selectOption('#cpu', 'intel-core-ultra-9-185h');
  await settled(page);
  await noEnglish(page, 'llama.cpp on an RTX 4090');
  // Issue 14: the llama-server line that reproduces the estimate, with the chosen q8_0 cache as -ctk/-ctv.
  const command = await page.textContent('#llama_cpp-command');
  t.check(/^llama-server -m MODEL\.gguf -c \d+ .*-ctk q8_0 -ctv q8_0/.test(command || ''), `the llama.cpp command line is shown: ${command}`);
  t.check(await page.locator('#costs tbody tr').count() >= 4, 'the buy, rent or use table is shown in Japanese');
  t.check(await page.locator('#summary-throughput').count() === 1 && await page.locator('#summary-cpu_vs_gpu').count() === 1,
    'the llama.cpp scenario shows speed and CPU or GPU');
  await screenshot(page, 'page-1280-ja-llama-cpp');

  // 4. My machine: 16 GiB of RAM, no GPU (the article's reader with a 16 GB laptop).
  const mine = await open(b, `${b.url}index.html#lang=ja&hardware=machine&machine_ram_gib=16&machine_gpus=0`, { viewport: { width: 1280, height: 900 } });
  // On the CPU alone: weights, KV cache and activations are explained (no GPU, so no CUDA context).
  await noEnglish(mine, 'my machine, 16 GiB, no GPU', 3);
  const verdict = await mine.textContent('#verdict-text');
  t.check(verdict.includes('お使いのマシン') && !/machine/i.test(verdict), `my machine is named in Japanese: ${verdict}`);
  const capacity = await mine.evaluate(() => (document.querySelector('#chart .capacity-text') || {}).textContent || '');
  t.check(capacity.includes('お使いのマシン'), `the chart's capacity line names my machine in Japanese: ${capacity}`);
  await mine.close();

  // The language of a link: the query's lang= holds unless the hash names one; of two, the last.
  await linkLanguage('index.html?lang=ja#model=qwen2.5-7b-instruct', 'ja');
  await linkLanguage('index.html?lang=ja#model=qwen2.5-7b-instruct&lang=en', 'en');
  await linkLanguage('index.html#lang=ja&lang=en', 'en');
  await linkLanguage('index.html#lang=en&lang=ja', 'ja');

  // Back to English: the same messages in English.
  await page.click('#lang-switch');
  await page.waitForSelector('html[lang="en"]', { state: 'attached' });
  await settled(page);
  const english = (await shownTexts(page, ['#explain', '#model-features'])).map((x) => x.text).join(' ');
  t.check(/KV cache|layers/.test(english), `switched back, the explanations are English: ${english.slice(0, 160)}`);
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
