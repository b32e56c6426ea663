// docs/performance.md from a benchmark record (bench/results/<UTC time>.json, written by bench/run.mjs):
// the method, then the record's tables. bench/run.mjs calls it after each run; by hand,
// `node bench/report.mjs [RECORD]` writes it again from RECORD (default: the latest record).
// usage: node bench/report.mjs [bench/results/<time>.json]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const f = (x) => (x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(1));
const spread = (s) => `${f(s.min)} / **${f(s.median)}** / ${f(s.max)}`;

const METHOD = `How the figures are made (\`node bench/run.mjs\`, after building \`llmsizer-edge-bench\` natively and the
\`wasm\` preset; \`--no-page\` leaves out the browser part, \`--note TEXT\` records a remark with the run):

- **Steady state.** The same requests through the JSON edge, natively (bench/edge_bench.cpp) and in the
  page's WASM module under Node (loaded as the tests load it), alternated round by round in one run so
  that both meet the same machine load. Each WASM case first runs untimed for 1.5 s, so that V8 has
  optimized the functions it calls (TurboFan) before it is timed. Process CPU time is the figure to
  read on a shared machine (a preempted call's wall clock counts other programs' time); min / median /
  max over every timed call of every round.
- **First call.** Each case's first call in a Node process of its own (bench/cold.mjs), once per round,
  wall clock: what a visitor's first request meets (V8 compiles a function the first time it runs, and
  shares compiled code between instances within a process, hence a fresh process each time).
- **The page's scenarios.** Each view the page offers, asked exactly as the page asks it: the request
  is made by the page's own code (web/lib/state.js \`toRequest\`, \`recommendRequest\`) over the core's
  defaults (listOptions), with the settings named in the row. The dropped GGUF file is the benchmark's
  3.9 MB fixture (tests/js/gguf_fixture.mjs), its header read by \`inspectModelFile\`.
- **The page** (bench/page.mjs, headless Chromium): the default page's answer painted against static
  reference pages, and an edit's time to the next frame.
- **Offline after the first visit** (web/sw.js) is checked by bytes, not time: tests/js/page_offline.mjs
  counts what the server sends for a second visit (at most 5 KB) and reloads the page with the network
  off.

Every run is recorded as it came out in bench/results/ (one JSON file per run, named by its UTC time);
this page is written from the latest (bench/report.mjs) and is not edited by hand.`;

export function writeReport(recordPath, docPath = join(root, 'docs', 'performance.md')) {
  const r = JSON.parse(readFileSync(recordPath, 'utf8'));
  const out = [];
  out.push('# Performance', '');
  out.push(`<!-- Written by bench/report.mjs from ${relative(root, recordPath)}; run \`node bench/run.mjs\` to renew it. -->`, '');
  out.push('## Method', '', METHOD, '');
  out.push('## Latest run', '');
  out.push(`${r.date}, ${r.cpu} (${r.cores} cores), Node ${r.node}, ${r.rounds} alternated rounds; record ${relative(dirname(docPath), recordPath)}.`);
  if (r.note) out.push('', `Note: ${r.note}`);
  out.push('', '### The page\'s scenarios', '');
  out.push('| scenario | WASM steady state, CPU ms min / **median** / max | first call in a fresh process, ms min / **median** / max | native, CPU ms median |');
  out.push('|---|---:|---:|---:|');
  const rows = r.cases.filter((x) => x.scenario);
  for (const c of [...rows.filter((x) => x.call !== 'inspect'), ...rows.filter((x) => x.call === 'inspect')]) {
    const name = c.call === 'inspect' ? `a dropped GGUF file (${(c.request.bytes / 1e6).toFixed(1)} MB): its header read` : c.name.replace(/^scenario: /, '');
    out.push(`| ${name} | ${spread(c.wasm_cpu_ms)} | ${spread(c.wasm_first_call_ms)} | ${f(c.native_cpu_ms.median)} |`);
  }
  out.push('', '### Every case', '');
  out.push('| call (JSON edge) | native CPU ms min / **median** / max | WASM CPU ms min / **median** / max | WASM/native (medians) | WASM first call, ms min / **median** / max |');
  out.push('|---|---:|---:|---:|---:|');
  for (const c of r.cases) {
    out.push(`| ${c.name} | ${spread(c.native_cpu_ms)} | ${spread(c.wasm_cpu_ms)} | ${(c.wasm_cpu_ms.median / c.native_cpu_ms.median).toFixed(2)} | ${spread(c.wasm_first_call_ms)} |`);
  }
  if (r.page && r.page.length) out.push('', '### The page in headless Chromium', '', ...r.page);
  const records = readdirSync(dirname(recordPath)).filter((n) => n.endsWith('.json')).sort().reverse();
  out.push('', '## Records', '', ...records.map((n) => `- [${basename(n, '.json')}](${relative(dirname(docPath), join(dirname(recordPath), n))})`));
  mkdirSync(dirname(docPath), { recursive: true });
  writeFileSync(docPath, `${out.join('\n')}\n`);
  return docPath;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let record = process.argv[2];
  if (!record) {
    const dir = join(root, 'bench', 'results');
    const latest = readdirSync(dir).filter((n) => n.endsWith('.json')).sort().pop();
    if (!latest) { console.error('no record in bench/results (node bench/run.mjs makes one)'); process.exit(1); }
    record = join(dir, latest);
  }
  console.log(`wrote ${writeReport(record)}`);
}
