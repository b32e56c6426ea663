// How soon the page shows its first result, over N fresh loads (new browser context each: no
// cache), for the full page and the embed view: from navigation start to the first paint of the
// total (Element Timing: the `elementtiming="total"` element's renderTime, what the reader sees), and
// to the page's `llmsizer:first-result` mark (the total and breakdown are in the DOM, before paint).
// A measurement, not a test (timings belong in benchmarks): prints the numbers, always exits 0
// unless the page fails to load. usage: node page_timing.mjs WEB_DIR [LOADS]
// The pages are opened without the request and console listeners the tests use: each event they
// subscribe to crosses to this Node process, which shares the 2 cores with the browser (about 10 ms
// on the median here), and no reader has them. Three views: the default page (its answer is
// prerendered at build time by the same core, scripts/prerender.mjs), a shared link (a state that
// must be computed in the browser), and the embed view.
import { cpus, loadavg } from 'node:os';
import { openBrowser, prerequisites } from './browser.mjs';

const [webDir, loadsArg = '7'] = process.argv.slice(2);
const chromium = await prerequisites(webDir);
const b = await openBrowser(chromium, webDir, { record: false });
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
try {
  const views = [['default page', ''],
    ['shared link', '#model=llama-3.1-8b-instruct&weights=q4_k_m&input_tokens=4096&output_tokens=512&hardware=nvidia-rtx-4090'],
    ['embed view', 'embed.html?model=qwen2.5-7b-instruct&weights=int4']];
  for (const [view, path] of views) {
    const marks = [];
    const painted = [];
    const wasm = [];
    for (let i = 0; i < Number(loadsArg); i++) {
      const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(b.url + path);
      await page.waitForSelector('body[data-ready]', { state: 'attached' });
      const m = await page.evaluate(() => new Promise((resolve) => {
        const mark = performance.getEntriesByName('llmsizer:first-result')[0];
        const w = performance.getEntriesByType('resource').find((r) => r.name.endsWith('llmsizer.wasm'));
        const done = (painted) => resolve({ first: mark ? mark.startTime : NaN, painted, wasmEnd: w ? w.responseEnd : NaN });
        // Element Timing entries are only handed to observers (buffered: the paint is already past).
        new PerformanceObserver((list, observer) => {
          const total = list.getEntries().find((e) => e.identifier === 'total');
          if (total) { observer.disconnect(); done(total.renderTime || total.loadTime); }
        }).observe({ type: 'element', buffered: true });
        setTimeout(() => done(NaN), 2000);
      }));
      marks.push(m.first);
      painted.push(m.painted);
      wasm.push(m.wasmEnd);
      await page.context().close();
    }
    const range = (xs) => `${median(xs).toFixed(0)} ms median (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
    console.log(`${view} (${path || 'index.html'}): first result painted ${range(painted)}, in the DOM ${range(marks)} `
      + `over ${marks.length} loads; llmsizer.wasm downloaded by ${median(wasm).toFixed(0)} ms`);
  }
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
} finally {
  await b.close();
}
