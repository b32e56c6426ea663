// Build step (wasm/CMakeLists.txt), after every other file of the page is written: the service
// worker (web/sw.js) with the list of the files it keeps for offline use, each with a hash of its
// content, and the build's id (a hash of that list), written as WEB_OUT_DIR/sw.js, and the id alone
// as WEB_OUT_DIR/sw-version.txt (what the worker asks the server on each visit). Listed: every file
// of the folder but the worker itself, its version file, source maps and EMBED.md (for people).
// usage: node scripts/precache.mjs WORKER_JS WEB_OUT_DIR
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const [workerJs, webDir] = process.argv.slice(2);
if (!workerJs || !webDir) {
  console.error('usage: node scripts/precache.mjs WORKER_JS WEB_OUT_DIR');
  process.exit(2);
}
const SKIP = new Set(['sw.js', 'sw-version.txt', 'EMBED.md']);

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

// The first 64 bits of SHA-256, as web/sw.js computes it for what it keeps.
const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const files = {};
for (const path of walk(webDir)) {
  const rel = relative(webDir, path).split(sep).join('/');
  if (SKIP.has(rel) || rel.endsWith('.map')) continue;
  files[rel] = hash(readFileSync(path));
}
const build = hash(JSON.stringify(files));

let worker = readFileSync(workerJs, 'utf8');
for (const [name, value] of [['@PRECACHE@', JSON.stringify(files)], ['@BUILD@', JSON.stringify(build)]]) {
  const placeholder = new RegExp(`(["'])${name}\\1`, 'g');
  const found = worker.match(placeholder) || [];
  if (found.length !== 1) throw new Error(`${workerJs}: expected the string "${name}" once, found it ${found.length} times`);
  worker = worker.replace(placeholder, () => value);
}
writeFileSync(join(webDir, 'sw.js'), worker);
writeFileSync(join(webDir, 'sw-version.txt'), `${build}\n`);
