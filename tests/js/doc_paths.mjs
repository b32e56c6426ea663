// SPDX-License-Identifier: MIT
// Every path of this repository that the README, docs/, data/ READMEs and the code's comments cite
// exists. A path counts as the project's own when it starts with one of the project's folders that
// upstream projects' paths (cited beside ours: llama.cpp's tools/ and docs/, vLLM's docs/, ...) do
// not share: core/, wasm/, web/, bench/, scripts/, cmake/, fuzz/, probe/, data/, tests/js/.
import fs from 'node:fs';
import path from 'node:path';

const root = process.argv[2] || '.';
const own = ['core', 'wasm', 'web', 'bench', 'scripts', 'cmake', 'fuzz', 'probe', 'data', 'tests/js'];
const scanned = ['core', 'wasm', 'web', 'tests', 'data', 'probe', 'docs', 'bench', 'scripts', 'cmake', 'fuzz', 'tools', '.ci'];
// Written as patterns, not paths: a message table per language, a page test per name, a probe's
// output file the reader chooses.
const patterns = [/^web\/i18n\/messages$/, /^tests\/js\/page_$/, /^data\/measured\/my-machine\.json$/, /^data\/validation\/measured$/];

const files = ['README.md', 'CMakeLists.txt'];
const walk = (dir) => {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'build', 'corpus', 'results'].includes(e.name)) walk(rel);
    } else if (/\.(cpp|hpp|h|cu|js|mjs|md|cmake|txt|sh|html|css)$/.test(e.name)) files.push(rel);
  }
};
for (const d of scanned) if (fs.existsSync(path.join(root, d))) walk(d);

const cited = new RegExp(`(?<![\\w./-])((?:${own.join('|')})/[A-Za-z0-9_./-]*[A-Za-z0-9_])`, 'g');
const missing = [];
for (const f of files) {
  const text = fs.readFileSync(path.join(root, f), 'utf8');
  for (const m of text.matchAll(cited)) {
    const p = m[1].replace(/\.+$/, '');
    if (patterns.some((re) => re.test(p))) continue;
    if (!fs.existsSync(path.join(root, p))) missing.push(`${f}: ${p}`);
  }
}
for (const line of missing) console.log(`missing: ${line}`);
console.log(`${files.length} files scanned, ${missing.length} cited paths missing`);
process.exit(missing.length ? 1 : 0);
