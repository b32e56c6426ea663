// What the article's reader (a 16 GB laptop or Mac) sees first, on a phone or a desktop, and how they
// find their device and model:
// - On a 375 × 800 phone the answer comes first: the verdict's level line (#verdict-level) is on the
//   first screen, in English and Japanese, on the default page and from a share link; the form
//   follows the verdict and comes before the other cards, and a tap on it reaches it.
// - On a 1280 × 900 desktop the Hardware section (where a person says "16 GB") is on the first screen.
// - The device menu shows memory as the vendor prints it: the catalog reads an RTX 4090's "24 GB" as
//   24 GiB = 25,769,803,776 bytes (data/hardware/README.md), which is "24 GiB", not "25.77 GB".
// - The preset search ignores case, width and separators: "llama3" finds Llama-3.x, "ｑｗｅｎ" Qwen.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_first_screen.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, settled } from './page_helpers.mjs';
import { formatter, translator } from '../../web/lib/i18n.js';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
const phone = { viewport: { width: 375, height: 800 } };
const desktop = { viewport: { width: 1280, height: 900 } };

/** Top and bottom (document coordinates, px) of each selector's first element. */
const boxes = (page, selectors) => page.evaluate((sels) => Object.fromEntries(sels.map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY) }];
})), selectors);

// Device sizes: a whole number of GiB as the vendor prints it, in either unit; any other size in the unit chosen.
const en = translator({ 'unit.gb': 'GB', 'unit.gib': 'GiB' });
t.check(formatter('en', 'gb', en).deviceBytes(24 * 2 ** 30) === '24 GiB', `24 × 2^30 bytes is "24 GiB": ${formatter('en', 'gb', en).deviceBytes(24 * 2 ** 30)}`);
t.check(formatter('en', 'gib', en).deviceBytes(24 * 2 ** 30) === '24 GiB', '24 × 2^30 bytes is "24 GiB" with GiB chosen too');
// 25e9 B is not whole GiB: 25.00 GB, or 25e9 / 2^30 = 23.283 GiB.
t.check(formatter('en', 'gb', en).deviceBytes(25e9) === '25.00 GB', `25e9 bytes in GB: ${formatter('en', 'gb', en).deviceBytes(25e9)}`);
t.check(formatter('en', 'gib', en).deviceBytes(25e9) === '23.28 GiB', `25e9 bytes in GiB: ${formatter('en', 'gib', en).deviceBytes(25e9)}`);

try {
  // ---------------------------------------------------------------- a phone: the answer first
  const links = [
    ['English, default page', 'index.html'],
    ['Japanese, default page', 'index.html#lang=ja'],
    ['English, a share link', 'index.html#model=qwen2.5-32b-instruct&weights=bf16&kv_cache=bf16&engine=generic&input_tokens=8192&output_tokens=1024&hardware=nvidia-rtx-4090'],
    ['Japanese, a share link (lang in the query)', 'index.html?lang=ja#model=qwen2.5-7b-instruct&hardware=machine&machine_ram_gib=16&machine_gpus=0'],
  ];
  for (const [what, url] of links) {
    const page = await open(b, `${b.url}${url}`, phone);
    const m = await boxes(page, ['#verdict', '#verdict-level', '#form', '#fs-hardware', '#summary']);
    t.check(m['#verdict-level'].bottom <= 800, `${what} at 375 × 800: the verdict's level is on the first screen (${JSON.stringify(m['#verdict-level'])})`);
    t.check(m['#verdict'].bottom <= m['#form'].top && m['#form'].bottom <= m['#summary'].top,
      `${what}: the verdict, then the form, then the other results (${JSON.stringify(m)})`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.check(overflow <= 0, `${what}: nothing overflows sideways (${overflow} px)`);
    await page.close();
  }
  // A tap on the form reaches the form (the results' box spans the form's row: the form is above it).
  const tap = await open(b, `${b.url}index.html`, phone);
  await tap.click('#budget_gb', { timeout: 5000 });
  await tap.keyboard.press('Control+A');
  await tap.keyboard.type('16');
  await settled(tap);
  t.check((await tap.inputValue('#budget_gb')) === '16', 'a tap on the budget field types into it');
  const verdict = (await tap.textContent('#verdict-text')) || '';
  t.check(verdict.includes('16.00 GB'), `and the verdict is the one for a 16 GB budget: ${verdict}`);
  await screenshot(tap, 'page-375-first-screen');

  // ---------------------------------------------------------------- a desktop: Hardware on the first screen
  const page = await open(b, `${b.url}index.html`, desktop);
  const d = await boxes(page, ['#fs-hardware', '#hardware', '#verdict']);
  t.check(d['#hardware'].bottom <= 900, `at 1280 × 900 the Hardware section's device menu is on the first screen (${JSON.stringify(d)})`);
  t.check(d['#verdict'].top <= 300, `and the verdict at the top (${d['#verdict'].top} px)`);

  // ---------------------------------------------------------------- the device menu
  const option = (id) => page.$eval(`#hardware option[value="${id}"]`, (o) => o.textContent);
  t.check(/· 24 GiB$/.test(await option('nvidia-rtx-4090')), `RTX 4090 as the vendor prints it: "${await option('nvidia-rtx-4090')}"`);
  // H100 SXM: "80 GB" = 80 GiB.
  t.check(/· 80 GiB$/.test(await option('nvidia-h100-sxm')), `H100 SXM: "${await option('nvidia-h100-sxm')}"`);
  // Every catalog size is a whole number of GiB; a machine's measured memory (a probe file the catalog
  // holds, "measured: …") is what its probe read, in the unit chosen.
  const decimals = await page.$$eval('#hardware option', (os) => os.map((o) => o.textContent).filter((x) => /\d\.\d\d GB$/.test(x) && !x.startsWith('measured:')));
  t.check(decimals.length === 0, `no catalog device shows a decimal GB size: ${decimals.slice(0, 5).join(' | ')}`);
  await page.click('#unit-gib');
  await settled(page);
  t.check(/· 24 GiB$/.test(await option('nvidia-rtx-4090')), 'with GiB chosen, still "24 GiB"');

  // ---------------------------------------------------------------- the preset search
  const found = async (query) => {
    await page.fill('#model-filter', query);
    return page.$$eval('#model option', (os) => os.map((o) => o.value));
  };
  const llama3 = await found('llama3');
  for (const id of ['llama-3.1-8b-instruct', 'llama-3.2-1b-instruct', 'llama-3.3-70b-instruct', 'meta-llama-3-8b-instruct']) {
    t.check(llama3.includes(id), `"llama3" finds ${id} (${llama3.length} found)`);
  }
  t.check(!llama3.includes('llama-2-7b-hf') && !llama3.includes('qwen2.5-0.5b-instruct'), '"llama3" does not find Llama 2 or another Qwen');
  const qwen = await found('ｑｗｅｎ');
  t.check(qwen.includes('qwen2.5-0.5b-instruct') && qwen.includes('qwen2.5-72b-instruct') && !qwen.includes('llama-3.1-8b-instruct'),
    `full-width "ｑｗｅｎ" finds the Qwen presets (${qwen.length} found)`);
  const spaced = await found('Llama 3.1 8B');
  t.check(spaced.includes('llama-3.1-8b-instruct') && spaced.includes('llama-3.1-8b') && !spaced.includes('llama-3.1-70b'),
    `"Llama 3.1 8B" finds Llama-3.1-8B and not 70B (${spaced.join(', ')})`);
  finalChecks(t, b);
} finally {
  await b.close();
}
t.finish();
