// The embed view (web/embed.html) as documentation pages use it: inside an <iframe> on another
// page, the model and settings from its URL, a compact result, a link to the full page with the same
// settings, Japanese on request, and a hostile parameter falling back to defaults with a notice.
// Fails on any console error or any request leaving 127.0.0.1.
// usage: node page_embed.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';
import { finalChecks, open, screenshot, text } from './page_helpers.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
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
} finally {
  finalChecks(t, b);
  await b.close();
}
t.finish();
