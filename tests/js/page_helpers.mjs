// Helpers shared by the page's browser tests (page_*.mjs): waiting for the page to settle, reading
// shown values, screenshots into test-artifacts/, and the checks every test ends with.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = process.env.LLMSIZER_ARTIFACTS || 'test-artifacts';

/** Waits until the page has drawn its first result and its deferred parts (chart, tables). */
export async function settled(page) {
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('body[data-ready]:not([data-busy])', { state: 'attached' });
}

/** Opens `url` in a fresh page and waits for it to settle. */
export async function open(b, url, contextOptions = {}) {
  const page = await b.newPage(contextOptions);
  await page.goto(url);
  await settled(page);
  return page;
}

export const text = async (page, selector) => ((await page.textContent(selector)) || '').trim();

/** Full-page screenshot to test-artifacts/NAME.png. */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

/** The closing checks of every page test: nothing left 127.0.0.1, nothing went to the console as an error. */
export function finalChecks(t, b) {
  t.check(b.foreignRequests().length === 0, `no request left 127.0.0.1: ${b.foreignRequests().join(', ')}`);
  t.check(b.consoleErrors.length === 0, `no console errors: ${b.consoleErrors.join(' | ')}`);
  console.log(`requests made: ${b.requests.length}`);
}
