// The paired benchmark: the same requests through the JSON edge natively (bench/edge_bench.cpp)
// and in the page's WASM module under Node (loaded as the tests load it, with `wasmBinary`),
// alternated round by round in one run so that both see the same machine load. Prints, per call,
// the min/median/max milliseconds of each side and the WASM/native ratio of the medians (with the
// range of the per-round ratios), as Markdown tables (the README's performance table): by process
// CPU time (what a call costs, even when a loaded machine preempts it), then by wall-clock time.
// The WASM side is timed at its steady state: V8 runs a module first as baseline code (Liftoff) and
// compiles each function again, optimized (TurboFan), once it has run often enough, on background
// threads that the process CPU clock counts too. Measured 2026-12-05: the page's module under Node 20
// reaches its steady estimate time after about 1,200 calls (0.2-0.3 ms before, 0.08 ms after), more
// calls than the rounds make, so each case first runs untimed for 1.5 s (at least 5 calls). What a
// visitor's first calls meet is the cold table: each case's first call in a fresh process, one per
// round.
// The case "recommend (catalog ×10)" runs against the catalog grown ten-fold (bench/grown_catalog.hpp):
// natively in the same program, in WASM in the benchmark's own module (build/wasm/bench, built with
// the page's by the wasm preset; the page's module has no such call).
// Then the page's figures in headless Chromium (bench/page.mjs): the answer's first paint against a
// one-paragraph static page, and an edit's time to the next frame.
// The page's scenarios: each view the page offers, asked as the page asks it (web/lib/state.js
// over the core's defaults), timed the same way, with its first call in a fresh process beside.
// Each run is recorded in bench/results/<UTC time>.json and docs/performance.md is written from it
// (bench/report.mjs); --note TEXT goes into both (e.g. that other work shared the machine).
// usage: node bench/run.mjs [--rounds N] [--no-page] [--note TEXT] [build/native/bench/llmsizer-edge-bench] [build/wasm/web]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadCore, loadPageCore } from '../tests/js/load_core.mjs';
import { refusedForOtherModule } from '../web/lib/other_module.js';
import { caseCall, loadModuleFor } from './cold.mjs';
import { pageScenarios } from './scenarios.mjs';
import { ggufFixture } from '../tests/js/gguf_fixture.mjs';

const args = process.argv.slice(2);
let rounds = 7;
const roundsAt = args.indexOf('--rounds');
if (roundsAt >= 0) { rounds = Number(args[roundsAt + 1]); args.splice(roundsAt, 2); }
// --no-page: the core's tables only (the page's figures need Chromium: bench/page.mjs).
const noPage = args.includes('--no-page');
if (noPage) args.splice(args.indexOf('--no-page'), 1);
let note = '';
const noteAt = args.indexOf('--note');
if (noteAt >= 0) { note = args[noteAt + 1]; args.splice(noteAt, 2); }
const nativeBench = args[0] || 'build/native/bench/llmsizer-edge-bench';
const webDir = args[1] || 'build/wasm/web';

const base = { model: 'qwen2.5-7b-instruct', weights: 'int4', input_tokens: 7168, output_tokens: 1024 };
const dir = mkdtempSync(join(tmpdir(), 'llmsizer-bench-'));
const gguf = ggufFixture();
const ggufPath = join(dir, 'fixture.gguf');
writeFileSync(ggufPath, gguf.bytes);

// [name, call, runs per round, argument]
const cases = [
  ['estimate', 'estimate', 40, JSON.stringify(base)],
  ['estimate with hardware', 'estimate', 20, JSON.stringify({ ...base, hardware: 'nvidia-rtx-4090' })],
  ['training (QLoRA)', 'estimate', 40, JSON.stringify({ model: 'qwen2.5-7b-instruct', task: 'training', training: { method: 'qlora', seq_len: 4096, gradient_checkpointing: true } })],
  ['recommend (whole catalog)', 'recommend', 10, JSON.stringify(base)],
  // What the page asks for its ranking: the same, without the English text it renders itself from the data.
  ['recommend (whole catalog, the page\'s english_text false)', 'recommend', 10, JSON.stringify({ ...base, english_text: false })],
  // What the page asks since it lists only the ten rows it shows until its reader asks for all.
  ['recommend (whole catalog, the page\'s request: english_text false, max_options 10)', 'recommend', 10, JSON.stringify({ ...base, english_text: false, max_options: 10 })],
  ['recommend (catalog ×10)', 'recommendGrown', 3, JSON.stringify(base)],
  ['recommend (catalog ×10, english_text false)', 'recommendGrown', 3, JSON.stringify({ ...base, english_text: false })],
  ['recommend (catalog ×10, the page\'s request)', 'recommendGrown', 3, JSON.stringify({ ...base, english_text: false, max_options: 10 })],
  // Serving (task serve): the contract's worked example, its simulation of 1,000 requests and the
  // throughput-latency curve in one answer; then the serving recommendation over the catalog.
  ['serve (1,000 requests and the curve)', 'estimate', 5, JSON.stringify({ task: 'serve', model: 'llama-3.1-8b-instruct', weights: 'fp8', kv_cache: 'fp8', engine: 'vllm', hardware: 'nvidia-h100-sxm', workload: { input_tokens: 1000, output_tokens: 1000, concurrency: 64 } })],
  ['serve recommend (20 people, 32B AWQ, a latency target)', 'recommend', 3, JSON.stringify({ task: 'serve', model: 'qwen2.5-32b-instruct', weights: 'awq-int4', engine: 'vllm', workload: { input_tokens: 2000, output_tokens: 500, concurrency: 20 }, slo: { ttft_ms: 3000, tpot_ms: 60 } })],
  ['listModels', 'listModels', 10, ''],
  ['listHardware', 'listHardware', 10, ''],
  // The header's bytes and the whole checkpoint's size, on both sides (a size of just the header's
  // bytes would make the data section run past the end: an error answer, not the summary).
  [`GGUF header (${(gguf.bytes.length / 1e6).toFixed(1)} MB)`, 'inspect', 5, `${ggufPath}\t${gguf.fileSize}`],
];
// The page's scenarios, each the request the page sends for that view (web/lib/state.js). The dropped
// GGUF's first read is the "GGUF header" case above (its cold column: the page's read of the dropped
// file from the drop to the answer, in a module loaded and warmed when the file was dragged over the
// page; bench/cold.mjs says what is included).
const { toRequest, recommendRequest } = await import('../web/lib/state.js');
const { core: optionsCore, scenarios: views } = await pageScenarios(webDir);
const scenarios = views.map(({ name, call, runs, state }) => [name, call, runs, call === 'recommend' ? recommendRequest(state, 10) : toRequest(state)]);
// A scenario the core rejects would time an error answer: the run stops instead.
for (const [name, call, , request] of scenarios) {
  const answer = JSON.parse(optionsCore[call](JSON.stringify(request)));
  if (answer.error) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
}
cases.push(...scenarios.map(([name, call, runs, request]) => [name, call, runs, JSON.stringify(request)]));
const casesPath = join(dir, 'cases.tsv');
writeFileSync(casesPath, cases.map((c) => c.join('\t')).join('\n') + '\n');

// Cold: per round and case, the wall-clock time of the first call in a Node process of its own
// (bench/cold.mjs).
// A request the page's module refuses as the other module's is timed in the tasks' module, as the
// page routes it (web/lib/other_module.js); asked here, in this process, not in the timed one.
const pageModule = await loadCore(webDir);
const moduleOf = ([, call, , arg]) =>
  ['estimate', 'recommend', 'pageAnswer'].includes(call) && refusedForOtherModule(JSON.parse(pageModule[call](arg))) ? 'llmsizer-tasks' : 'llmsizer';
const cold = cases.map(() => []);
const coldScript = fileURLToPath(new URL('./cold.mjs', import.meta.url));
for (let r = 0; r < rounds; r++) {
  cases.forEach((c, i) => cold[i].push(Number(execFileSync(process.execPath, [coldScript, casesPath, String(i), webDir, '--module', moduleOf(c)], { encoding: 'utf8' }))));
}

const core = await loadPageCore(webDir);
const benchCore = await loadModuleFor('recommendGrown', webDir);
const filesCore = await loadModuleFor('inspect', webDir);
const wasmCalls = cases.map(([, call, , arg]) => caseCall(call === 'recommendGrown' ? benchCore : call === 'inspect' ? filesCore : core, call, arg));
// Warm-up to V8's optimized code (see the top of this file).
for (const run of wasmCalls) {
  const start = performance.now();
  for (let n = 0; n < 5 || performance.now() - start < 1500; n++) run();
}

const perCase = () => ({ native: cases.map(() => []), wasm: cases.map(() => []) });
const clocks = { cpu: { times: perCase(), rounds: perCase() }, wall: { times: perCase(), rounds: perCase() } };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function record(clock, side, i, ms) {
  clocks[clock].times[side][i].push(...ms);
  clocks[clock].rounds[side][i].push(median(ms));
}

function runNative() {
  const out = execFileSync(nativeBench, [casesPath], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const lines = out.trim().split('\n');  // per case: wall-clock line, then CPU line
  cases.forEach((c, i) => {
    record('wall', 'native', i, lines[2 * i].split('\t').slice(1).map(Number));
    record('cpu', 'native', i, lines[2 * i + 1].split('\t').slice(1).map(Number));
  });
}

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };

function runWasm() {
  cases.forEach(([, , runs], i) => {
    const fn = wasmCalls[i];
    for (let k = 0; k < 3; k++) fn();  // untimed, as the native side does
    const wall = [];
    const cpu = [];
    for (let k = 0; k < runs; k++) {
      const cpuStart = cpuMs();
      const start = performance.now();
      fn();
      wall.push(performance.now() - start);
      cpu.push(cpuMs() - cpuStart);
    }
    record('wall', 'wasm', i, wall);
    record('cpu', 'wasm', i, cpu);
  });
}

for (let r = 0; r < rounds; r++) {
  // Alternate which side goes first, so a slow spell on the machine does not favour one side.
  if (r % 2 === 0) { runNative(); runWasm(); } else { runWasm(); runNative(); }
}

const f = (x) => (x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(1));
const spread = (xs) => `${f(Math.min(...xs))} / **${f(median(xs))}** / ${f(Math.max(...xs))}`;
const cpu = cpus()[0]?.model?.trim() || 'unknown CPU';
console.log(`Paired run ${new Date().toISOString().slice(0, 16)}Z, ${cpu} (${cpus().length} cores), Node ${process.version}, ${rounds} alternated rounds.`);
for (const clock of ['cpu', 'wall']) {
  const { times, rounds: roundMedians } = clocks[clock];
  console.log('');
  console.log(`| call (JSON edge), ${clock === 'cpu' ? 'CPU time' : 'wall clock'} | native ms min / **median** / max | WASM ms min / **median** / max | WASM/native (per-round range) |`);
  console.log('|---|---:|---:|---:|');
  cases.forEach(([name], i) => {
    const ratio = median(times.wasm[i]) / median(times.native[i]);
    const perRound = roundMedians.wasm[i].map((w, r) => w / roundMedians.native[i][r]);
    console.log(`| ${name} | ${spread(times.native[i])} | ${spread(times.wasm[i])} | **${ratio.toFixed(2)}** (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}) |`);
  });
}

console.log('');
console.log('| call (JSON edge), cold: the first call in a fresh Node process (GGUF header: the page\'s read of the dropped file, bench/cold.mjs) | WASM ms min / **median** / max (wall clock) |');
console.log('|---|---:|');
cases.forEach(([name], i) => console.log(`| ${name} | ${spread(cold[i])} |`));

let pageLines = null;
if (!noPage) {
  const { pageBench } = await import('./page.mjs');
  const { lines } = await pageBench(webDir, rounds);
  console.log('');
  console.log(lines.join('\n'));
  pageLines = lines;
}

// The record of this run, and docs/performance.md written from it.
const stats = (xs) => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs), n: xs.length });
const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const result = {
  date: stamp, cpu, cores: cpus().length, node: process.version, rounds, note,
  cases: cases.map(([name, call, runs, arg], i) => ({
    name, call, runs_per_round: runs, request: call === 'inspect' ? { bytes: gguf.bytes.length, file_size: gguf.fileSize } : arg ? JSON.parse(arg) : null,
    scenario: name.startsWith('scenario: ') || call === 'inspect',
    native_cpu_ms: stats(clocks.cpu.times.native[i]), wasm_cpu_ms: stats(clocks.cpu.times.wasm[i]),
    native_wall_ms: stats(clocks.wall.times.native[i]), wasm_wall_ms: stats(clocks.wall.times.wasm[i]),
    wasm_first_call_ms: stats(cold[i]),
  })),
  page: pageLines,
};
const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const resultPath = join(resultsDir, `${stamp.replace(/:/g, '')}.json`);
writeFileSync(resultPath, `${JSON.stringify(result, null, 1)}\n`);
const { writeReport } = await import('./report.mjs');
const docPath = writeReport(resultPath, join(root, 'docs', 'performance.md'));
console.log(`\nrecorded ${resultPath}; wrote ${docPath}`);
