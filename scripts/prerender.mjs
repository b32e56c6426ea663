// Build step (wasm/CMakeLists.txt): writes the default view's answer into the page. Runs the built
// WASM core (the same file the page loads): its starting view (listOptions `defaults`), the request
// the page makes of it (web/lib/state.js, as in the browser) and the core's answer go into index.html
// as a JSON data block, which the page reads before the core has loaded (web/lib/session.js: the
// defaults always, the answer only for exactly that request). The block is data, never executed: the
// page's Content-Security-Policy is unchanged.
// usage: node scripts/prerender.mjs SOURCE_HTML OUTPUT_HTML WEB_OUT_DIR STATE_JS
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';

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
const PLACEHOLDER = '<!-- prerendered -->';
const html = await readFile(sourceHtml, 'utf8');
if (!html.includes(PLACEHOLDER)) throw new Error(`${sourceHtml} has no ${PLACEHOLDER}`);
// "<" escaped, so no text in the response can close the <script> element.
const block = `<script type="application/json" id="prerendered">${JSON.stringify({ defaults: coreDefaults, request, response }).replace(/</g, '\\u003c')}</script>`;
await writeFile(outputHtml, html.replace(PLACEHOLDER, block));
console.log(`prerendered the default view into ${outputHtml} (${block.length} bytes)`);
