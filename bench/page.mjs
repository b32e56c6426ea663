// The page's paired figures, in headless Chromium on this machine, loads alternated round by
// round so that both sides see the same load:
// - first paint of the answer: the default page's total (`elementtiming="total"`, its renderTime)
//   against the paragraph of a one-paragraph static HTML page served by the same server code, each load
//   in a fresh browser context (no cache); and, for reference, the same kind of static page set in the
//   default page's fonts;
// - an edit of the input tokens: from the `input` event to the next animation frame (the browser can
//   paint the edited answer then), and to the frame after the page is idle again (`body[data-busy]`
//   cleared: the chart, weight formats and ranking drawn, the link written after the answer's frame);
// - the same edit in each of the page's scenarios (bench/scenarios.mjs), each view opened by its share
//   link (web/lib/state.js toParams as the URL's hash) in a fresh browser context: the input tokens,
//   or for training the sequence length, from the `input` event to the next frame. An edit's one core
//   call (pageAnswer) answers the view's estimate, chart, formats and ranking together, so the two
//   ranking scenarios are timed as the edits of the views they rank for.
// Prints Markdown tables with min / median / max; returns them for bench/run.mjs.
// usage: node bench/page.mjs [--rounds N] [build/wasm/web]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/js/browser.mjs';
import { serve } from '../tests/js/static_server.mjs';
import { pageScenarios } from './scenarios.mjs';

const STATIC_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Static</title></head>
<body><p elementtiming="paragraph">Qwen2.5-7B-Instruct in int4 at 1,024 tokens needs 6.1 GB of GPU memory.</p></body></html>
`;

// The same paragraph in the fonts the default page's first frame uses (style.css: system-ui, the
// title and the total bold, the verdict semibold, tabular figures): how much of the ratio is only the
// fonts. In a fresh renderer each face is loaded before its first text is laid out; measured
// 2026-12-05 (25 alternated rounds), the plain paragraph in system-ui instead of the default serif
// painted 1.20x later, with a bold 2 rem part and two more sizes 1.27x.
const FONTS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Static</title>
<style>body{font-family:system-ui,sans-serif;margin:0;line-height:1.45}h1{margin:0;font-size:1.4rem}.total{font-size:1.6rem;font-weight:700;font-variant-numeric:tabular-nums}.verdict{font-weight:600}.label{font-size:.9rem;color:#4b5563}</style></head>
<body><h1>LLM Sizer</h1><p class="label">Memory needed</p><p class="total" elementtiming="paragraph">6.1 GB</p><p class="verdict">Qwen2.5-7B-Instruct in int4 at 1,024 tokens fits.</p></body></html>
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stats = (xs) => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs) });
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const row = (name, s, extra = '') => `| ${name} | ${ms(s.min)} / **${ms(s.median)}** / ${ms(s.max)} |${extra}`;

/** renderTime of the element timing entry `id`, read in the page (buffered: the paint is past). */
function paintOf(id) {
  return new Promise((resolve) => {
    new PerformanceObserver((list, observer) => {
      const e = list.getEntries().find((x) => x.identifier === id);
      if (e) { observer.disconnect(); resolve(e.renderTime || e.loadTime); }
    }).observe({ type: 'element', buffered: true });
    setTimeout(() => resolve(NaN), 3000);
  });
}

/** In the page: `edits` edits of the field `id` (the input tokens unless told), each timed to the
 *  next frame and to the frame after the extras are drawn (`body[data-busy]` cleared). */
async function timeEdits([edits, id = 'input_tokens']) {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const settle = async () => { await frame(); await new Promise((r) => setTimeout(r, 30)); };
  const input = document.getElementById(id);
  const next = [];
  const extras = [];
  for (let i = 0; i < edits; i++) {
    while (document.body.dataset.busy) await settle();
    await settle();
    const t0 = performance.now();
    input.value = String(1024 + 512 * ((i % 7) + 1));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
    next.push(performance.now() - t0);
    while (document.body.dataset.busy) await new Promise((r) => setTimeout(r, 1));
    await frame();
    extras.push(performance.now() - t0);
  }
  return { next, extras };
}

export async function pageBench(webDir, rounds = 7, edits = 10) {
  const { chromium } = await import('playwright-core');
  const staticDir = mkdtempSync(join(tmpdir(), 'llmsizer-static-'));
  writeFileSync(join(staticDir, 'index.html'), STATIC_PAGE);
  const fontsDir = mkdtempSync(join(tmpdir(), 'llmsizer-fonts-'));
  writeFileSync(join(fontsDir, 'index.html'), FONTS_PAGE);
  const app = await serve(webDir, 0);
  const plain = await serve(staticDir, 0);
  const fonts = await serve(fontsDir, 0);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const viewport = { width: 1280, height: 900 };
  const staticPaint = [];
  const fontsPaint = [];
  const pagePaint = [];
  const ratios = [];
  const fontsRatios = [];
  const editNext = [];
  const editExtras = [];
  // The scenarios other than the default view (timed above), each with the views its ranking
  // scenario shares, by the URL hash that opens it.
  const { scenarios } = await pageScenarios(webDir);
  const { toParams } = await import('../web/lib/state.js');
  const views = new Map();
  for (const { name, state } of scenarios.slice(1)) {
    const hash = toParams(state).toString();
    if (views.has(hash)) views.get(hash).names.push(name);
    else views.set(hash, { names: [name], field: state.task === 'training' ? 'seq_len' : 'input_tokens', next: [] });
  }
  try {
    for (let r = 0; r < rounds; r++) {
      // Alternate which side loads first, so that neither always follows the other.
      const order = r % 2 === 0 ? ['static', 'fonts', 'page'] : ['page', 'fonts', 'static'];
      const round = {};
      for (const side of order) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        if (side === 'static' || side === 'fonts') {
          await page.goto((side === 'static' ? plain : fonts).url);
          round[side] = await page.evaluate(paintOf, 'paragraph');
        } else {
          await page.goto(app.url);
          round.page = await page.evaluate(paintOf, 'total');
          await page.waitForSelector('body[data-ready]', { state: 'attached' });
          const t = await page.evaluate(timeEdits, [edits]);
          editNext.push(...t.next);
          editExtras.push(...t.extras);
        }
        await context.close();
      }
      for (const [hash, v] of views) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(`${app.url}#${hash}`);
        await page.waitForSelector('body[data-ready]', { state: 'attached' });
        v.next.push(...(await page.evaluate(timeEdits, [edits, v.field])).next);
        await context.close();
      }
      staticPaint.push(round.static);
      fontsPaint.push(round.fonts);
      pagePaint.push(round.page);
      ratios.push(round.page / round.static);
      fontsRatios.push(round.fonts / round.static);
    }
  } finally {
    await browser.close();
    app.server.close();
    plain.server.close();
    fonts.server.close();
  }
  const lines = [
    '| page (headless Chromium) | ms min / **median** / max | ratio to the static page (per-round range) |',
    '|---|---:|---:|',
    row('static one-paragraph page: paragraph painted', stats(staticPaint), ' 1 |'),
    row('static page in the default page\'s fonts: paragraph painted', stats(fontsPaint),
        ` ${(median(fontsPaint) / median(staticPaint)).toFixed(2)} (${Math.min(...fontsRatios).toFixed(2)}–${Math.max(...fontsRatios).toFixed(2)}) |`),
    row('default page: answer (total) painted', stats(pagePaint),
        ` **${(median(pagePaint) / median(staticPaint)).toFixed(2)}** (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`),
    row(`edit of the input tokens → next frame (${editNext.length} edits)`, stats(editNext), ' |'),
    row('edit → frame after the page is idle again (extras drawn, link written)', stats(editExtras), ' |'),
    ...[...views.values()].map((v) => row(`${v.names.join('; ')}: edit of the ${v.field === 'seq_len' ? 'sequence length' : 'input tokens'} → next frame (${v.next.length} edits)`,
                                          stats(v.next), ' |')),
  ];
  const scenarioNext = Object.fromEntries([...views.values()].flatMap((v) => v.names.map((n) => [n, stats(v.next)])));
  return { lines, staticPaint, fontsPaint, pagePaint, editNext, editExtras, scenarioNext };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  let rounds = 7;
  const at = args.indexOf('--rounds');
  if (at >= 0) { rounds = Number(args[at + 1]); args.splice(at, 2); }
  const { lines } = await pageBench(args[0] || 'build/wasm/web', rounds);
  console.log(lines.join('\n'));
}
