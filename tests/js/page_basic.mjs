// The built page end to end: it loads the WASM core, shows an estimate, changing the precision
// changes the weights, a bad input shows an error naming the field, and no request leaves 127.0.0.1.
// usage: node page_basic.mjs WEB_DIR
import { checker, openBrowser, prerequisites } from './browser.mjs';

const webDir = process.argv[2];
const chromium = await prerequisites(webDir);
const t = checker();
const b = await openBrowser(chromium, webDir);
try {
  const page = await b.newPage();
  await page.goto(b.url);
  await page.waitForSelector('[data-part="weights"]');
  const weightsText = async () => (await page.textContent('[data-part="weights"]')).trim();
  const bf16 = await weightsText();
  // Qwen2.5-7B-Instruct: 7,615,616,512 params × 2 B = 15.23 GB; × 0.5 B = 3.81 GB.
  t.check(bf16.includes('15.23'), `bf16 weights show 15.23 GB, got "${bf16}"`);
  await page.selectOption('#weights', 'int4');
  await page.waitForFunction(() => !document.querySelector('[data-part="weights"]').textContent.includes('15.23'));
  const int4 = await weightsText();
  t.check(int4.includes('3.81'), `int4 weights show 3.81 GB, got "${int4}"`);
  await page.fill('#input_tokens', '-5');
  await page.dispatchEvent('#input_tokens', 'input');
  await page.waitForFunction(() => document.querySelector('#input_tokens-error, .field-error, #status.error') !== null);
  const errorText = await page.evaluate(() => (document.querySelector('#input_tokens-error, .field-error, #status.error') || {}).textContent || '');
  t.check(errorText.includes('input_tokens') || errorText.toLowerCase().includes('input'), `error names the field, got "${errorText}"`);
  t.check((await page.inputValue('#weights')) === 'int4', 'other input is kept after an error');
  t.check(b.foreignRequests().length === 0, `no request left 127.0.0.1: ${b.foreignRequests().join(', ')}`);
  t.check(b.consoleErrors.length === 0, `no console errors: ${b.consoleErrors.join(' | ')}`);
  console.log(`requests made: ${b.requests.length}, all to 127.0.0.1`);
} finally {
  await b.close();
}
t.finish();
