// SPDX-License-Identifier: MIT
// Runs web/probe-webgpu.js in headless Chromium on the SwiftShader WebGPU adapter, from a tiny harness
// page served on 127.0.0.1, and checks that it yields a measured-data file: structure here, and the full
// schema and consistency checks by running `llmsizer_tests [measured]` on the written file (--validator).
// Any request not to 127.0.0.1 fails the test. Exit 77 (CTest: skipped) without playwright-core or Chromium,
// exit 1 instead when LLMSIZER_REQUIRE_BROWSER is set.
//
//   node tests/browser/webgpu_probe.mjs [--out DIR] [--validator PATH/llmsizer_tests] [--chromium PATH]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Skipped (77) without prerequisites, unless LLMSIZER_REQUIRE_BROWSER is set (scripts/test.sh): then a failure.
const SKIP = process.env.LLMSIZER_REQUIRE_BROWSER ? 1 : 77;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function argValue(flag, fallback) {
  const i = process.argv.indexOf(flag);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const outDir = path.resolve(argValue('--out', path.join(repoRoot, 'test-artifacts', 'webgpu-probe')));
const validator = argValue('--validator', '');
const chromiumPath = argValue('--chromium', '/usr/bin/chromium');

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.log('SKIP: playwright-core is not installed (run `npm ci` at the repository root)');
  process.exit(SKIP);
}
if (!fs.existsSync(chromiumPath)) {
  console.log(`SKIP: no Chromium at ${chromiumPath}`);
  process.exit(SKIP);
}

// WebGPU on the CPU (SwiftShader's Vulkan), nothing fetched from outside.
const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--enable-unsafe-webgpu', '--enable-features=Vulkan',
  '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const HARNESS = `<!doctype html>
<meta charset="utf-8">
<title>WebGPU probe harness</title>
<script type="module">
  import { runWebGpuProbe, toJsonText } from '/web/probe-webgpu.js';
  window.probeDone = runWebGpuProbe(navigator.gpu, { quick: true, id: 'webgpu-ci' })
    .then((doc) => ({ ok: true, text: toJsonText(doc) }), (e) => ({ ok: false, error: String(e && e.stack || e) }));
</script>`;

const server = http.createServer((req, res) => {
  if (req.url === '/' || req.url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(HARNESS);
  } else if (req.url === '/web/probe-webgpu.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(fs.readFileSync(path.join(repoRoot, 'web', 'probe-webgpu.js')));
  } else {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const failures = [];
const fail = (message) => failures.push(message);
const outside = [];
let doc = null;
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS, headless: true });
try {
  const context = await browser.newContext();
  // Every request the page makes, including ones the route below aborts.
  context.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') outside.push(request.url());
  });
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.probeDone !== undefined, null, { timeout: 30_000 });
  const outcome = await page.evaluate(() => window.probeDone);
  if (!outcome.ok) fail(`runWebGpuProbe failed: ${outcome.error}`);
  else doc = JSON.parse(outcome.text);
  if (doc) checkText(outcome.text);
} finally {
  await browser.close();
  server.close();
}
if (outside.length) fail(`requests left 127.0.0.1: ${outside.join(', ')}`);

function checkText(text) {
  // Stable key order and layout, like the native probe: re-serialising sorted gives the same text.
  const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
  if (text !== `${JSON.stringify(sorted(JSON.parse(text)), null, 2)}\n`) fail('file text is not sorted, 2-space, newline-terminated JSON');
}

if (doc) {
  for (const key of ['schema_version', 'id', 'probe', 'timestamp_utc', 'host', 'devices', 'results', 'skipped', 'summary']) {
    if (!(key in doc)) fail(`missing top-level key ${key}`);
  }
  if (doc.schema_version !== 1) fail(`schema_version is ${doc.schema_version}, expected 1`);
  const device = (doc.devices || [])[0] || {};
  if (device.kind !== 'webgpu' || !(device.limits && device.limits.maxBufferSize > 0 && device.limits.maxStorageBufferBindingSize > 0)) {
    fail(`first device is not a WebGPU adapter with its buffer limits: ${JSON.stringify(device)}`);
  }
  const names = (doc.results || []).map((r) => r.name);
  for (const name of ['webgpu.copy_kernel', 'webgpu.copy_buffer', 'webgpu.matmul.fp32']) {
    if (!names.includes(name)) fail(`result ${name} missing (skipped: ${JSON.stringify(doc.skipped)})`);
  }
  for (const r of doc.results || []) {
    const s = r.summary || {};
    if (!r.samples.length || r.samples.some((x) => !(x > 0))) fail(`${r.name}: samples must be positive and non-empty`);
    if (!(s.min <= s.median && s.median <= s.max)) fail(`${r.name}: median outside [min, max]`);
  }
  const summary = (doc.summary || {}).webgpu || {};
  if (doc.summary.primary !== 'webgpu' || !(summary.memory_bandwidth_gb_per_s > 0) || !(summary.matmul_tflops.fp32 > 0)) {
    fail(`summary.webgpu lacks bandwidth or matmul: ${JSON.stringify(summary)}`);
  }
  console.log(`SwiftShader: ${summary.name}, bandwidth ${summary.memory_bandwidth_gb_per_s} GB/s `
    + `(${summary.memory_bandwidth_source}), fp32 matmul ${summary.matmul_tflops.fp32 * 1e3} GFLOP/s, `
    + `maxBufferSize ${summary.max_buffer_size_bytes}`);

  // Written as a measured-data folder (file plus index), then checked by the C++ schema tests.
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, `${doc.id}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  const index = {
    runs: [{ file: `${doc.id}.json`, id: doc.id, name: summary.name, primary: 'webgpu', probe: doc.probe.name, timestamp_utc: doc.timestamp_utc }],
    schema_version: 1,
  };
  fs.writeFileSync(path.join(outDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  if (validator) {
    const run = spawnSync(validator, ['[measured]'], { env: { ...process.env, LLMSIZER_MEASURED_DIR: outDir }, encoding: 'utf8' });
    if (run.status !== 0) fail(`llmsizer_tests [measured] rejected ${outDir}:\n${run.stdout}${run.stderr}`);
  }
}

if (failures.length) {
  for (const f of failures) console.error(`FAIL: ${f}`);
  process.exit(1);
}
console.log(`ok: ${path.join(outDir, `${doc.id}.json`)}`);
