// SPDX-License-Identifier: MIT
// A real llama.cpp holding a target and a draft model together, against the core's answer for the
// same request with a `draft` (speculative.hpp draft_memory beside the target's estimate).
//
//   node tests/js/llama_cpp_draft_real.mjs TOOL DATA.json            check (the CTest test)
//   node tests/js/llama_cpp_draft_real.mjs TOOL DATA.json --record   measure the pairs and write DATA.json
//
// TOOL is build/native/tests/llmsizer_llama_cpp_tool, DATA.json is data/validation/llama_cpp_draft.json.
// For each pair (a target cut to a few layers and a small model of its family as the draft) the
// helper plans both GGUF files as the single-model test does (tests/js/llama_cpp_real.mjs); this
// script writes them (zero-filled sparse data), loads both with node-llama-cpp's prebuilt CPU
// llama.cpp, allocating for real, and for each setting creates the target's context and, beside it,
// the draft's context as llama-server makes it (common/speculative.cpp
// common_base_params_to_speculative and common_speculative_init_from_params): the target's n_ctx
// ("cparams.n_ctx = llama_n_ctx(ctx_tgt)"), sequences, batch and flash attention, an F16 cache (the
// -ctkd/-ctvd default). One difference node-llama-cpp's addon cannot remove: it leaves n_outputs_max
// at the library's default (n_batch) where llama-server sets one logit row per slot; the core is
// asked for the addon's value (the request's draft `n_outputs_max`), so the compute buffers compare
// like with like. The buffers llama.cpp logs for both models are compared
//   1. with the recorded rows (so the recorded numbers stay what this llama.cpp measures), and
//   2. with the core's estimate of each row: every buffer within llama.cpp's log rounding in the
//      median, the worst within kGates.worst.
// Every row is printed. Without node-llama-cpp (or its prebuilt x86-64 binary, or an AVX2 CPU) the
// test is skipped (exit 77) unless LLMSIZER_REQUIRE_LLAMA_CPP is set.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeGguf, syntheticVocabulary } from "./gguf_writer.mjs";
import { scriptStart, openOrSkip, recordSource, recordedMismatches, kNoRepackCpus, recordText, errVsLog, median, newContext, parseModelBuffers, parseContext } from "./llama_cpp_measure.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const { tool, dataPath, record, skip } = scriptStart("llama_cpp_draft_real");

/** Gates for every buffer: the median error 0 (within the log's rounding), the worst 0.5 %. */
const kGates = { median: 0, worst: 0.005 };

// --- the pairs (used by --record; the check re-measures the recorded rows) ----------------------

/** Models of data/models as published, or cut to a few layers where the published size would make
 *  the test slow. */
const kModels = [
  { id: "qwen2.5-7b-4l", preset: "qwen2.5-7b-instruct", changes: { num_hidden_layers: 4 }, scaled: "4 of 28 layers" },
  { id: "qwen2.5-0.5b", preset: "qwen2.5-0.5b-instruct", changes: {}, scaled: null },
  { id: "llama-3.1-8b-4l", preset: "llama-3.1-8b-instruct", changes: { num_hidden_layers: 4 }, scaled: "4 of 32 layers" },
  { id: "llama-3.2-1b", preset: "llama-3.2-1b-instruct", changes: {}, scaled: null },
  { id: "qwen3-8b-4l", preset: "qwen3-8b", changes: { num_hidden_layers: 4 }, scaled: "4 of 36 layers" },
  { id: "qwen3-0.6b", preset: "qwen3-0.6b", changes: {}, scaled: null },
  { id: "gemma-2-9b-6l", preset: "gemma-2-9b-it", changes: { num_hidden_layers: 6 }, scaled: "6 of 42 layers" },
  { id: "gemma-2-2b-6l", preset: "gemma-2-2b-it", changes: { num_hidden_layers: 6 }, scaled: "6 of 26 layers" },
];

/** Target and draft as people pair them (the same family's tokenizer: llama.cpp pairs vocabularies
 *  that differ by at most 128 tokens), the weights of common GGUF files. */
const kPairs = [
  { target: "qwen2.5-7b-4l", target_weights: "q4_k_m", draft: "qwen2.5-0.5b", draft_weights: "q8_0" },
  { target: "llama-3.1-8b-4l", target_weights: "q4_k_m", draft: "llama-3.2-1b", draft_weights: "q8_0" },
  { target: "qwen3-8b-4l", target_weights: "q8_0", draft: "qwen3-0.6b", draft_weights: "q4_0" },
  { target: "gemma-2-9b-6l", target_weights: "q4_k_m", draft: "gemma-2-2b-6l", draft_weights: "q4_k_m" },
];

/** The target's settings (llama-server -c, -ub, -np, -fa, -ctk/-ctv); the draft's follow them. */
const kSettings = [
  { n_ctx: 4096, n_ubatch: 512, n_seq: 1, flash_attn: true, type_k: "f16", type_v: "f16" },
  { n_ctx: 8192, n_ubatch: 512, n_seq: 2, flash_attn: false, type_k: "f16", type_v: "f16" },
  { n_ctx: 16384, n_ubatch: 1024, n_seq: 4, flash_attn: true, type_k: "q8_0", type_v: "q8_0" },
];

const rowId = (p, s) =>
  ["llama_cpp_draft", p.target, p.target_weights, p.draft, p.draft_weights, `c${s.n_ctx}`, `s${s.n_seq}`, s.flash_attn ? "fa" : "nofa", `ub${s.n_ubatch}`, s.type_k, s.type_v].join("-");

function buildModels() {
  return kModels.map((m) => {
    const preset = JSON.parse(fs.readFileSync(path.join(root, "data", "models", `${m.preset}.json`), "utf8"));
    return { id: m.id, from_preset: m.preset, scaled: m.scaled, config: { ...preset.config, ...m.changes } };
  });
}

// --- measuring ---------------------------------------------------------------------------------

const { nlc, handle } = await openOrSkip(root, skip);
const { llama } = handle;

const doc = record ? null : JSON.parse(fs.readFileSync(dataPath, "utf8"));
const models = record ? buildModels() : doc.models;
const modelsFile = path.join(os.tmpdir(), `llmsizer-llama-cpp-draft-models-${process.pid}.json`);
fs.writeFileSync(modelsFile, JSON.stringify({ models }));
const plan = (model, weights) => JSON.parse(execFileSync(tool, ["gguf-plan", modelsFile, model, weights], { maxBuffer: 1 << 28 }));
const rows = record
  ? kPairs.flatMap((p) => kSettings.map((s) => ({ id: rowId(p, s), ...p, setting: s })))
  : doc.rows;

async function loadModel(file) {
  handle.take();
  const model = new llama._bindings.AddonModel(file, { gpuLayers: 0, useMmap: true, noAlloc: false });
  const loaded = await model.init();
  await handle.waitFor(/load_tensors:.*model buffer size|error/);
  if (!loaded) throw new Error(`llama.cpp could not load ${file}: ${handle.take().filter((l) => /error|failed/i.test(l)).join(" | ")}`);
  return { model, buffers: parseModelBuffers(handle.take()) };
}

/** A context of `model` (node-llama-cpp's addon: n_batch = n_ubatch = batchSize, kv_unified false). */
async function openContext(model, c) {
  const ctx = newContext(llama, model, c);
  if (!(await ctx.init())) throw new Error(`llama.cpp did not create the context ${JSON.stringify(c)}: ${handle.take().join(" | ")}`);
  await handle.waitFor(/sched_reserve: reserve took/);
  return { ctx, lines: handle.take() };
}

/** Disposes a context and returns its lines with ~llama_context's check of the compute buffer (4 decimals). */
async function closeContext(opened) {
  await opened.ctx.dispose();
  await handle.waitFor(/~llama_context:.*compute buffer size is/);
  return parseContext([...opened.lines, ...handle.take()]);
}

const summary = (c) => ({ kv: c.kv_bytes, compute: c.compute_bytes, output: c.output_bytes, n_ctx: c.n_ctx, n_ctx_seq: c.n_ctx_seq, kv_cells: c.kv_caches.map((k) => k.cells) });

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "llmsizer-llama-cpp-draft-"));
const t0 = Date.now();
const measured = new Map();
let cpuVariant = null;
try {
  const pairs = new Map();
  for (const r of rows) {
    const key = `${r.target}|${r.target_weights}|${r.draft}|${r.draft_weights}`;
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key).push(r);
  }
  for (const group of pairs.values()) {
    const files = [[group[0].target, group[0].target_weights], [group[0].draft, group[0].draft_weights]].map(([model, weights]) => {
      const p = plan(model, weights);
      const file = path.join(workDir, `${model}-${weights}.gguf`);
      writeGguf(file, { metadata: [...p.metadata, ...syntheticVocabulary(p.vocab_size)], tensors: p.tensors });
      return file;
    });
    // both models loaded together, as llama-server holds them
    const target = await loadModel(files[0]);
    const draft = await loadModel(files[1]);
    if (cpuVariant === null) {
      cpuVariant = handle.cpuBackend() ?? "unknown";
      if (kNoRepackCpus.includes(cpuVariant)) skip(`the recorded repack buffers need an x86-64 CPU with AVX2; llama.cpp loaded the ${cpuVariant} CPU backend`);
    }
    try {
      for (const r of group) {
        const tctx = await openContext(target.model, r.setting);
        const targetNctx = parseContext(tctx.lines).n_ctx;
        // the draft's context: llama_n_ctx(ctx_tgt), the target's sequences and batch, F16 cache
        const dctx = await openContext(draft.model, { ...r.setting, n_ctx: targetNctx, type_k: "f16", type_v: "f16" });
        const d = await closeContext(dctx);
        const t = await closeContext(tctx);
        measured.set(r.id, {
          target: { weights: target.buffers, ...summary(t) },
          draft: { weights: draft.buffers, ...summary(d) },
        });
      }
    } finally {
      await draft.model.dispose();
      await target.model.dispose();
      for (const f of files) fs.rmSync(f, { force: true });
    }
  }
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
const seconds = ((Date.now() - t0) / 1000).toFixed(1);

if (record) {
  const out = {
    id: "llama_cpp_draft",
    kind: "llama_cpp_draft",
    description: "Buffers a real llama.cpp allocates for a target and its speculative-decoding draft loaded together (each model's weights per buffer, and for each the KV cache, compute and output buffers of its context; the draft's context made as llama-server makes it from the target's: the target's n_ctx, sequences, batch and flash attention, an F16 cache), logged by llama.cpp in MiB (2 decimals; compute buffers 4), for GGUF files written by tests/js/gguf_writer.mjs from tests/llama_cpp_tool.cpp's plan and loaded on the CPU. Recorded and re-checked by tests/js/llama_cpp_draft_real.mjs against the core's answer with a draft.",
    source: recordSource(nlc, handle, cpuVariant, "node-llama-cpp's addon sets n_batch = n_ubatch = batchSize, kv_unified = false and leaves n_outputs_max at the library default (n_batch) (llama/addon/AddonContext.cpp); one thread"),
    models,
    rows: rows.map((r) => ({
      id: r.id,
      source: `https://www.npmjs.com/package/node-llama-cpp/v/${nlc.version}`,
      kind: "llama_cpp_draft",
      target: r.target,
      target_weights: r.target_weights,
      draft: r.draft,
      draft_weights: r.draft_weights,
      setting: r.setting,
      measured: measured.get(r.id),
    })),
  };
  fs.writeFileSync(dataPath, recordText(out));
  console.log(`llama_cpp_draft_real: recorded ${rows.length} rows in ${seconds} s`);
}

// --- 1. the recorded rows are what this llama.cpp measures --------------------------------------
let failures = record ? 0 : recordedMismatches(rows, measured);

// --- 2. the core's answer for every row ----------------------------------------------------------
const estimates = JSON.parse(execFileSync(tool, ["estimate-draft-rows", dataPath], { maxBuffer: 1 << 28 }));
const rowsNow = record ? JSON.parse(fs.readFileSync(dataPath, "utf8")).rows : rows;
const MiB = 1048576;
const sum = (o) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);
const errors = {};
const add = (name, value) => (errors[name] ??= []).push(Math.abs(value));
const pct = (x) => `${(100 * x).toFixed(3)}%`;
const cell = (e, m, err) => `${(e / MiB).toFixed(2)}/${(m / MiB).toFixed(2)} ${pct(err)}`;
console.log(`llama_cpp_draft_real: ${rowsNow.length} rows, llama.cpp ${handle.release.release} (node-llama-cpp ${nlc.version}, ${cpuVariant}), measured in ${seconds} s`);
console.log("row | target weights | kv | compute | output || draft weights | kv | compute + output || total, MiB (estimate/measured error)");
for (let i = 0; i < rowsNow.length; ++i) {
  const r = rowsNow[i];
  const m = r.measured;
  const e = estimates[i];
  if (e.error) {
    failures++;
    console.log(`${r.id} | the core rejects the request: ${e.error} MISMATCH`);
    continue;
  }
  const cellsOk = JSON.stringify(e.target.kv_cells) === JSON.stringify(m.target.kv_cells) && e.target.n_ctx === m.target.n_ctx;
  if (!cellsOk) failures++;
  const tw = errVsLog(sum(e.target.weights), sum(m.target.weights), 2, Object.keys(m.target.weights).length);
  const tkv = errVsLog(e.target.kv, m.target.kv, 2, m.target.kv_cells.length);
  const tc = errVsLog(e.target.compute, m.target.compute, 4);
  const to = errVsLog(e.target.output, m.target.output, 2);
  const dw = errVsLog(e.draft.weights, sum(m.draft.weights), 2, Object.keys(m.draft.weights).length);
  const dkv = errVsLog(e.draft.kv, m.draft.kv, 2, m.draft.kv_cells.length);
  const dc = errVsLog(e.draft.compute, m.draft.compute + m.draft.output, 2, 2);
  const measuredTotal = sum(m.target.weights) + m.target.kv + m.target.compute + m.target.output + sum(m.draft.weights) + m.draft.kv + m.draft.compute + m.draft.output;
  const estimateTotal = e.total;
  const total = errVsLog(estimateTotal, measuredTotal, 2, 10);
  for (const [name, v] of Object.entries({ target_weights: tw, target_kv: tkv, target_compute: tc, target_output: to, draft_weights: dw, draft_kv: dkv, draft_compute: dc, total })) add(name, v);
  console.log([
    r.id,
    cell(sum(e.target.weights), sum(m.target.weights), tw), cell(e.target.kv, m.target.kv, tkv), cell(e.target.compute, m.target.compute, tc), cell(e.target.output, m.target.output, to),
    `| ${cell(e.draft.weights, sum(m.draft.weights), dw)}`, cell(e.draft.kv, m.draft.kv, dkv), cell(e.draft.compute, m.draft.compute + m.draft.output, dc),
    `| ${cell(estimateTotal, measuredTotal, total)}${cellsOk ? "" : ` cells ${JSON.stringify(m.target.kv_cells)} vs ${JSON.stringify(e.target.kv_cells)} MISMATCH`}`,
  ].join(" | "));
}

console.log("\nper buffer: median / worst absolute error");
const gateFailures = [];
for (const [name, xs] of Object.entries(errors)) {
  console.log(`${name.padEnd(15)} ${pct(median(xs))} / ${pct(Math.max(...xs))}`);
  if (median(xs) > kGates.median) gateFailures.push(`${name} median ${pct(median(xs))} > ${pct(kGates.median)}`);
  if (Math.max(...xs) > kGates.worst) gateFailures.push(`${name} worst ${pct(Math.max(...xs))} > ${pct(kGates.worst)}`);
}
fs.rmSync(modelsFile, { force: true });
if (gateFailures.length > 0 || failures > 0) {
  console.error(`llama_cpp_draft_real: FAILED: ${[...gateFailures, failures > 0 ? `${failures} rows disagree (see above)` : null].filter(Boolean).join("; ")}`);
  process.exit(1);
}
console.log("llama_cpp_draft_real: all gates pass");
