// The default view's answer written into index.html at build time (scripts/prerender.mjs) is what
// the WASM core answers now for the page's default request: the same request text the page builds
// (web/lib/state.js), and the same response, key for key and number for number.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaults, toRequest } from '../../web/lib/state.js';
import { loadCore } from './load_core.mjs';

const webDir = process.argv[2];
if (!existsSync(join(webDir, 'llmsizer.wasm'))) {
  console.error(`skipped: no WASM build in ${webDir}`);
  process.exit(process.env.LLMSIZER_REQUIRE_WASM ? 1 : 77);
}
let passed = 0;
let failed = 0;
const check = (ok, message) => { if (ok) passed++; else { failed++; console.error(`FAIL ${message}`); } };

const html = await readFile(join(webDir, 'index.html'), 'utf8');
const m = /<script type="application\/json" id="prerendered">([^<]*)<\/script>/.exec(html);
check(m !== null, 'index.html has the prerendered block');
if (m) {
  const block = JSON.parse(m[1]);
  const core = await loadCore(webDir);
  const coreDefaults = JSON.parse(core.listOptions()).defaults;
  check(JSON.stringify(block.defaults) === JSON.stringify(coreDefaults), 'the block\'s starting view is the core\'s (listOptions defaults)');
  const request = JSON.stringify(toRequest(defaults(coreDefaults)));
  check(block.request === request, `the block's request is the page's default request: ${block.request} vs ${request}`);
  const now = JSON.parse(core.estimate(request));
  check(JSON.stringify(block.response) === JSON.stringify(now), 'the block\'s response equals the core\'s answer now');
  check(!now.error && now.memory && now.memory.device_bytes > 0, 'the default request has a real answer');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
