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
  // The verdict is in the HTML too, so the first paint shows it before any script runs: the device
  // total in GB (10^9 B) with two decimals, the same bytes as the block, and the fit sentence.
  const verdict = /<div id="verdict" class="verdict ([^"]*)" aria-live="polite">(.*?)<\/div>/.exec(html);
  check(verdict !== null, 'index.html has the verdict as HTML');
  if (verdict) {
    const bytes = now.memory.device_bytes;
    const total = /<p class="total" id="total" data-bytes="(\d+)" elementtiming="total">([^<]*)<\/p>/.exec(verdict[2]);
    check(total !== null && Number(total[1]) === bytes, `the prerendered total carries the core's bytes (${bytes})`);
    check(total !== null && total[2] === `${(bytes / 1e9).toFixed(2)} GB`, `the prerendered total reads ${total && total[2]}`);
    check(verdict[1].includes(now.fit.fits ? 'fits' : 'nofit'), 'the verdict class says whether it fits');
    check(!/<script|on\w+=/i.test(verdict[2]), 'the prerendered verdict holds no script and no handler');
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
