// The whole page (HTML, JS, WASM, CSS, strings) stays under its download budget: every file in the
// built web folder, each compressed with gzip -9 as a server would send it, summed — in one language:
// a reader loads English or Japanese strings, never both (the Japanese files are listed, not counted).
// usage: node page_size.mjs WEB_DIR [BUDGET_BYTES]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const [webDir, budgetArg] = process.argv.slice(2);
const BUDGET = Number(budgetArg || 300_000);  // issue 8: under 300 KB gzipped (KB = 1000 bytes)
if (!existsSync(join(webDir, 'llmsizer.wasm'))) {
  console.error(`skipped: no WASM build in ${webDir}`);
  process.exit(process.env.LLMSIZER_REQUIRE_WASM ? 1 : 77);
}
function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}
let raw = 0;
let gz = 0;
const rows = [];
const otherLanguage = /^i18n\/(messages\.)?ja\.json$/;
for (const path of files(webDir)) {
  const body = readFileSync(path);
  const size = gzipSync(body, { level: 9 }).length;
  const name = relative(webDir, path);
  rows.push([otherLanguage.test(name) ? `${name} (other language)` : name, body.length, size]);
  if (otherLanguage.test(name)) continue;
  raw += body.length;
  gz += size;
}
rows.sort((a, b) => b[2] - a[2]);
for (const [name, r, g] of rows) console.log(`${String(g).padStart(8)} gz ${String(r).padStart(9)} raw  ${name}`);
console.log(`total: ${gz} bytes gzipped (${raw} raw) of a ${BUDGET}-byte budget`);
if (gz > BUDGET) {
  console.error(`FAILED: the page is ${gz} bytes gzipped, over the ${BUDGET}-byte budget`);
  process.exit(1);
}
console.log('1 passed, 0 failed');
