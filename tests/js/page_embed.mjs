// The embed view (web/embed.html) as documentation pages use it: inside an <iframe> on another
// page, the model and settings from its URL, a compact result, a link to the full page with the same
// settings, Japanese on request, and a hostile parameter falling back to defaults with a notice.
// The iframes of web/EMBED.md as written there (its ```html blocks, the host replaced by this test's
// server) and the HTML the full page's "Copy embed code" button writes: each loads with every
// parameter read (no notice), keeps the training micro-batch (`&micro_batch` in HTML was read as
// `µ_batch`), and fits its documented height without scrolling.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_embed.mjs WEB_DIR
import { readFileSync } from 'node:fs';
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);

/** Frames whose parts table did not fit and scrolled inside them. */
const scrolled = [];

/** Puts `html` (one iframe) on a page, at 800 and at 320 pixels wide, and checks the frame. */
async function checkFrame(html, what, { lang = 'en', micro = '' } = {}) {
  for (const width of [800, 320]) {
    const host = await b.newPage({ viewport: { width, height: 700 } });
    await host.setContent(`<!doctype html><body style="margin:8px">${html}</body>`);
    const frameEl = await host.waitForSelector('iframe');
    const frame = await frameEl.contentFrame();
    await frame.waitForSelector('body[data-ready]', { state: 'attached' });
    t.check(!(await frame.isVisible('#notice')), `${what} at ${width}px: every parameter is read (no notice)`);
    t.check(/\d/.test(await frame.textContent('#total')), `${what} at ${width}px: shows a total`);
    t.check((await frame.evaluate(() => document.documentElement.lang)) === lang, `${what}: language ${lang}`);
    if (micro) {
      const href = await frame.getAttribute('#open-full', 'href');
      t.check(href.includes(`training_micro_batch=${micro}`), `${what}: the micro-batch ${micro} arrives: ${href}`);
    }
    // The page does not scroll; the title, the verdict and the link to the full page are in view (the
    // parts table may scroll inside it).
    const m = await frame.evaluate(() => {
      const bottom = (sel) => document.querySelector(sel).getBoundingClientRect().bottom;
      return { scroll: document.documentElement.scrollHeight, client: document.documentElement.clientHeight,
        link: bottom('#open-full'), verdict: bottom('#verdict'), partsTop: document.querySelector('#parts').getBoundingClientRect().top };
    });
    const declared = Number(await frameEl.getAttribute('height'));
    t.check(m.client === declared && m.scroll <= m.client, `${what} at ${width}px: the ${declared} px frame does not scroll (content ${m.scroll} px)`);
    t.check(m.link <= m.client && m.verdict <= m.client && m.partsTop < m.client - 40,
      `${what} at ${width}px: verdict, parts and link in view (${JSON.stringify(m)})`);
    // A table cut by the frame says so: a line under it, and a fade at its cut edge until it is scrolled to the end.
    const cue = () => frame.evaluate(() => {
      const s = document.querySelector('.parts-scroll');
      const line = document.getElementById('parts-more');
      return { overflows: s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1, line: !line.hidden && line.getBoundingClientRect().height > 0,
        text: line.textContent, fade: getComputedStyle(s).maskImage !== 'none', bottom: line.getBoundingClientRect().bottom, client: document.documentElement.clientHeight };
    });
    const c = await cue();
    t.check(c.line === c.overflows && (!c.overflows || (c.fade && c.text.trim() && c.bottom <= c.client)),
      `${what} at ${width}px: a cut table is signalled, an uncut one not (${JSON.stringify(c)})`);
    if (c.overflows) {
      scrolled.push(`${what} at ${width}px`);
      await frame.evaluate(() => { const s = document.querySelector('.parts-scroll'); s.scrollTop = s.scrollHeight; s.dispatchEvent(new Event('scroll')); });
      const end = await cue();
      t.check(!end.fade && end.line, `${what} at ${width}px: scrolled to its end, the fade goes and the line stays (${JSON.stringify(end)})`);
    }
    await host.close();
  }
}

try {
  const query = 'model=qwen2.5-0.5b-instruct&weights=int4&hardware=budget&budget_gb=8&input_tokens=2048&output_tokens=512';
  const page = await open(b, `${b.url}embed.html?${query}`, { viewport: { width: 420, height: 520 } });
  t.check((await text(page, '#embed-title')) === 'Qwen2.5-0.5B-Instruct', 'the embed names the model from its URL');
  // 494,032,768 params × 0.5 B (int4) = 247,016,384 B = 0.25 GB.
  t.check((await text(page, '[data-part="weights"]')) === '0.25 GB', `int4 weights 0.25 GB, got ${await text(page, '[data-part="weights"]')}`);
  t.check((await page.getAttribute('#verdict-text', 'data-fits')) === 'true', 'fits the 8 GB budget');
  t.check((await text(page, '#embed-settings')).includes('2,560 tokens'), `settings line shows the context: ${await text(page, '#embed-settings')}`);
  const href = await page.getAttribute('#open-full', 'href');
  t.check(href.startsWith('index.html#') && href.includes('model=qwen2.5-0.5b-instruct') && href.includes('weights=int4') && href.includes('budget_gb=8'),
    `the link to the full page keeps the settings: ${href}`);
  t.check((await page.getAttribute('#open-full', 'rel')).includes('noopener'), 'the link opens without an opener');
  await screenshot(page, 'embed-420');
  const full = await open(b, new URL(href, page.url()).href);
  t.check((await text(full, '#total')) === (await text(page, '#total')), 'the full page shows the same total as the embed');

  // Inside an iframe on a page of another origin (about:blank here), as documentation embeds it.
  const host = await b.newPage({ viewport: { width: 800, height: 600 } });
  await host.setContent(`<h1>Docs</h1><iframe title="LLM Sizer" width="100%" height="460" src="${b.url}embed.html?${query}&lang=ja"></iframe>`);
  const frame = host.frameLocator('iframe');
  await frame.locator('body[data-ready]').waitFor({ state: 'attached' });
  t.check((await frame.locator('.total-label').textContent()) === '必要なメモリ', 'the embed speaks Japanese with lang=ja');
  t.check((await frame.locator('[data-part="weights"]').textContent()) === '0.25 GB', 'the iframe shows the result');
  await host.screenshot({ path: 'test-artifacts/embed-iframe-ja.png' });
  console.log('screenshot: test-artifacts/embed-iframe-ja.png');

  const hostile = await open(b, `${b.url}embed.html?model=${encodeURIComponent('"><svg onload=alert(1)>')}&input_tokens=1e999`);
  t.check(await hostile.isVisible('#notice'), 'a hostile embed URL shows a notice');
  t.check((await text(hostile, '#embed-title')) === 'Qwen2.5-7B-Instruct', 'and falls back to the default model');
  t.check((await hostile.locator('main svg').count()) === 1, 'no markup from the URL was inserted (only the bar\'s svg)');

  // EMBED.md's examples, as written.
  const embedMd = readFileSync(new URL('../../web/EMBED.md', import.meta.url), 'utf8');
  const examples = [...embedMd.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]);
  t.check(examples.length === 2, `EMBED.md has two iframe examples, got ${examples.length}`);
  for (const [i, html] of examples.entries()) {
    t.check(!/&(?!amp;)/.test(html), `EMBED.md example ${i + 1} escapes every & in its HTML`);
    await checkFrame(html.replaceAll('https://YOUR-HOST/llmsizer/', b.url), `EMBED.md example ${i + 1}`, i === 1 ? { lang: 'ja', micro: '1' } : {});
  }

  // The old parameter name in a share link still reads; the copy button writes the new, escaped.
  const page2 = await open(b, `${b.url}index.html#model=qwen2.5-7b-instruct&task=training&method=qlora&weights=nf4&seq_len=4096&micro_batch=2&hardware=nvidia-rtx-4090`,
    { viewport: { width: 1280, height: 900 } });
  t.check((await page2.inputValue('#micro_batch')) === '2', 'an old link\'s micro_batch=2 is read');
  t.check(!(await page2.isVisible('#notice')), 'with no notice');
  await page2.click('#copy-embed');
  await page2.waitForFunction(() => document.getElementById('embed-code').value !== '');
  const code = await page2.inputValue('#embed-code');
  t.check(await page2.isVisible('#embed-code'), 'the embed code is shown');
  t.check(code.startsWith(`<iframe src="${b.url}embed.html?`) && code.includes('&amp;training_micro_batch=2&amp;') && !/&(?!amp;|quot;|lt;|gt;)/.test(code),
    `the copied embed escapes & and names the micro-batch training_micro_batch: ${code}`);
  t.check(code.includes('height="420"') && code.includes('title="LLM Sizer: Qwen2.5-7B-Instruct"'), `documented height and a title: ${code}`);
  await checkFrame(code, 'the copied embed code', { micro: '2' });
  // A QLoRA run's parts at 320 px do not fit the 420 px frame: at least that frame scrolled (so the cue was checked).
  t.check(scrolled.length > 0, `some frame's parts table was cut and signalled: ${scrolled.join(', ')}`);
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
