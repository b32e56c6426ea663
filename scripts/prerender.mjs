// Build step (wasm/CMakeLists.txt): writes the default view's answer into the page. Runs the built
// WASM core (the same file the page loads): its starting view (listOptions `defaults`), the request
// the page makes of it (web/lib/state.js, as in the browser) and the core's answer go into index.html
// as a JSON data block, which the page reads before the core has loaded (web/lib/session.js: the
// defaults always, the answer only for exactly that request). The block is data, never executed: the
// page's Content-Security-Policy is unchanged. The verdict (total, fit, assumptions) is also written as
// HTML, in English, by the page's own rendering code (web/lib/view.js over scripts/mini_dom.mjs), so
// the first paint shows the answer before any script has run; the page renders it again, in the
// reader's language, once its scripts are in. style.css and boot.js are written inline, each with its
// hash in the policy, so that the first paint waits for no request (boot.js then loads the rest).
// usage: node scripts/prerender.mjs SOURCE_HTML OUTPUT_HTML WEB_OUT_DIR STATE_JS
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { miniDocument } from './mini_dom.mjs';

const [sourceHtml, outputHtml, webDir, stateJs] = process.argv.slice(2);
// The factory is ES module syntax in a .js file: a .mjs copy imports wherever the build folder is.
const tmp = await mkdtemp(join(tmpdir(), 'llmsizer-prerender-'));
await copyFile(join(webDir, 'llmsizer.js'), join(tmp, 'llmsizer.mjs'));
const { default: createCore } = await import(pathToFileURL(join(tmp, 'llmsizer.mjs')).href);
await rm(tmp, { recursive: true, force: true });
const { defaults, toRequest } = await import(pathToFileURL(resolve(stateJs)).href);
const core = await createCore({ wasmBinary: await readFile(join(webDir, 'llmsizer.wasm')) });
const coreDefaults = JSON.parse(core.listOptions()).defaults;
const request = JSON.stringify(toRequest(defaults(coreDefaults)));
const response = JSON.parse(core.estimate(request));
if (response.error) throw new Error(`the default request fails: ${JSON.stringify(response.error)}`);
// The verdict as HTML: the page's code, its English strings and number formats.
const webSource = dirname(dirname(resolve(stateJs)));
globalThis.document = miniDocument;
const { translator, withMessages, formatter } = await import(pathToFileURL(join(webSource, 'lib/i18n.js')).href);
const { renderVerdict, verdictOf } = await import(pathToFileURL(join(webSource, 'lib/view.js')).href);
const readJson = async (file) => JSON.parse(await readFile(join(webSource, 'i18n', file), 'utf8'));
const t = translator(withMessages(await readJson('en.json'), await readJson('messages.en.json')));
const f = formatter('en', 'gb', t);
const box = miniDocument.createElement('div');
renderVerdict(box, response, verdictOf(response, defaults(coreDefaults), null), { t, f });
const EMPTY_VERDICT = '<div id="verdict" class="verdict" aria-live="polite"></div>';
const PLACEHOLDER = '<!-- prerendered -->';
let html = await readFile(sourceHtml, 'utf8');
// The first paint waits for no request: style.css and boot.js go into the page (both stay files too,
// for embed.html), each allowed by its hash in the Content-Security-Policy (no 'unsafe-inline').
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const STYLE_LINK = '<link rel="stylesheet" href="style.css">';
const BOOT_SCRIPT = /<script src="boot\.js"((?: data-[a-z-]+="[^"]*")*)><\/script>/;
const CSP = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self')([^"]*style-src 'self')/;
for (const [what, found] of [[STYLE_LINK, html.includes(STYLE_LINK)], ['<script src="boot.js">', BOOT_SCRIPT.test(html)], ['its policy', CSP.test(html)]]) {
  if (!found) throw new Error(`${sourceHtml} has no ${what}`);
}
// As built (minified when esbuild is there, wasm/CMakeLists.txt), the same bytes as the files.
const css = await readFile(join(webDir, 'style.css'), 'utf8');
const boot = await readFile(join(webDir, 'boot.js'), 'utf8');
if (/<\/style/i.test(css) || /<\/script|<!--/i.test(boot)) throw new Error('style.css or boot.js cannot be written inline');
// boot.js preloads the modules the page's start module (data-start) imports, as built: the bundle and
// its shared chunk when esbuild bundled them (their names carry a content hash), each file of lib/
// when they are served as written. Found by following each built file's static imports.
function preloads(start) {
  const seen = new Set();
  const visit = (path) => {
    const text = readFileSync(join(webDir, path), 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      const next = posix.normalize(posix.join(posix.dirname(path), m[1]));
      if (!seen.has(next)) { seen.add(next); visit(next); }
    }
  };
  visit(start);
  return [...seen].join(' ');
}
const withPreload = (attrs) => {
  const start = /data-start="([^"]*)"/.exec(attrs);
  if (!start) return attrs;
  return attrs.replace(/ data-preload="[^"]*"/, '') + ` data-preload="${preloads(start[1])}"`;
};
html = html.replace(CSP, (m, script, style) => `${script} ${sha256(boot)}${style} ${sha256(css)}`)
  .replace(STYLE_LINK, () => `<style>${css}</style>`)
  .replace(BOOT_SCRIPT, (m, attrs) => `<script${withPreload(attrs)}>${boot}</script>`);
if (!html.includes(PLACEHOLDER)) throw new Error(`${sourceHtml} has no ${PLACEHOLDER}`);
// "<" escaped, so no text in the response can close the <script> element.
const block = `<script type="application/json" id="prerendered">${JSON.stringify({ defaults: coreDefaults, request, response }).replace(/</g, '\\u003c')}</script>`;
if (!html.includes(EMPTY_VERDICT)) throw new Error(`${sourceHtml} has no ${EMPTY_VERDICT}`);
const verdictHtml = `<div id="verdict" class="${box.className}" aria-live="polite">${box.innerHTML}</div>`;
await writeFile(outputHtml, html.replace(PLACEHOLDER, block).replace(EMPTY_VERDICT, verdictHtml));
console.log(`prerendered the default view into ${outputHtml} (${block.length} bytes)`);
