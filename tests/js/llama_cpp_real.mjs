// SPDX-License-Identifier: MIT
// A real llama.cpp against the core's llama.cpp memory model.
//
//   node tests/js/llama_cpp_real.mjs TOOL DATA.json            check (the CTest test)
//   node tests/js/llama_cpp_real.mjs TOOL DATA.json --record   measure the grid and write DATA.json
//
// TOOL is build/native/tests/llmsizer_llama_cpp_tool, DATA.json is data/validation/llama_cpp.json.
// For every model of the grid (each architecture's small preset, larger ones cut to a few layers)
// and weight type, the helper plans a GGUF file (real tensor names and shapes, metadata as
// convert_hf_to_gguf.py writes it); this script writes it with zero-filled sparse data and loads it
// with node-llama-cpp's prebuilt CPU llama.cpp: once allocating for real (weights, and a context
// whose buffers are allocated), then as llama.cpp's dry run (no_alloc: no memory, the same sizes)
// for the grid of contexts. The buffers llama.cpp logs are compared
//   1. with the recorded rows (so the recorded numbers stay what this llama.cpp measures),
//   2. with the core's estimate of each row (gates below), and
//   3. for every file loaded with its weights, with the core's weight buffers for the file read as a
//      person's is: its header through inspect, then the request_model that gives (exact, within
//      the log's rounding).
// Every row is printed. Without node-llama-cpp (or its prebuilt x86-64 binary, or an AVX2 CPU)
// the test is skipped (exit 77) unless LLMSIZER_REQUIRE_LLAMA_CPP is set.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeGguf, syntheticVocabulary } from "./gguf_writer.mjs";
import { scriptStart, openOrSkip, recordSource, recordedMismatches, kNoRepackCpus, recordText, errVsLog, median, measureModel } from "./llama_cpp_measure.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const { tool, dataPath, record, skip } = scriptStart("llama_cpp_real");

/** Gates: total median <= 0.5 %, worst <= 3 %; each buffer's median <= 1 %. */
const kGates = { totalMedian: 0.005, totalWorst: 0.03, bufferMedian: 0.01 };

// --- the grid (used by --record; the check re-measures the recorded rows) --------------------

/** Each architecture's model: a preset of data/models as published, or cut down (fewer layers,
 *  experts or width) where the published size would make the test slow. */
const kModels = [
  { id: "smollm2-135m", preset: "smollm2-135m", changes: {}, scaled: null },
  { id: "qwen2.5-0.5b", preset: "qwen2.5-0.5b-instruct", changes: {}, scaled: null },
  { id: "qwen3-0.6b", preset: "qwen3-0.6b", changes: {}, scaled: null },
  { id: "qwen3-30b-a3b-4l16e", preset: "qwen3-30b-a3b", changes: { num_hidden_layers: 4, num_experts: 16 }, scaled: "4 of 48 layers, 16 of 128 experts (8 used, as published)" },
  { id: "gemma-2-2b-6l", preset: "gemma-2-2b-it", changes: { num_hidden_layers: 6 }, scaled: "6 of 26 layers" },
  { id: "gemma-3-1b-12l", preset: "gemma-3-1b-it", changes: { num_hidden_layers: 12 }, scaled: "12 of 26 layers" },
  { id: "phi-3-mini-4l", preset: "phi-3-mini-4k-instruct", changes: { num_hidden_layers: 4 }, scaled: "4 of 32 layers" },
  {
    id: "gpt-oss-20b-4l", preset: "gpt-oss-20b",
    changes: (c) => ({ num_hidden_layers: 4, layer_types: c.layer_types.slice(0, 4), num_local_experts: 8, hidden_size: 1440, intermediate_size: 1440 }),
    scaled: "4 of 24 layers, 8 of 32 experts (4 used, as published), hidden and expert width 1440 of 2880; 64 heads of 64, window 128 as published",
  },
  {
    id: "deepseek-v3-3l", preset: "deepseek-v3",
    changes: { num_hidden_layers: 3, first_k_dense_replace: 1, hidden_size: 1024, num_attention_heads: 16, num_key_value_heads: 16, q_lora_rank: 384, n_routed_experts: 16, moe_intermediate_size: 512, intermediate_size: 2048, num_nextn_predict_layers: 0 },
    scaled: "3 of 61 layers (1 dense), hidden 1024, 16 of 128 heads, q_lora_rank 384, 16 of 256 experts of width 512 (8 used); MLA ranks (kv_lora_rank 512, rope 64, nope 128, v 128) as published",
  },
];

/** Published sizes, measured only as llama.cpp's dry run (nothing is allocated or read): the KV,
 *  compute and output buffers at full scale, Q4_K_M files. */
const kFullSize = ["llama-3.1-8b-instruct", "qwen2.5-7b-instruct", "qwen3-8b", "qwen3-30b-a3b", "gemma-2-9b-it", "gemma-3-12b-it",
                   "phi-3-mini-4k-instruct", "gpt-oss-20b"];
const kFullSizeContexts = [
  { n_ctx: 4096, n_ubatch: 512, n_seq: 1, flash_attn: true, type_k: "f16", type_v: "f16" },
  { n_ctx: 4096, n_ubatch: 512, n_seq: 1, flash_attn: false, type_k: "f16", type_v: "f16" },
  { n_ctx: 32768, n_ubatch: 512, n_seq: 1, flash_attn: true, type_k: "q8_0", type_v: "q8_0" },
  { n_ctx: 32768, n_ubatch: 2048, n_seq: 4, flash_attn: false, type_k: "f16", type_v: "f16" },
];

const kWeights = ["gguf-f16", "q8_0", "q4_0", "q4_k_m"];
const kBase = { n_ctx: 4096, n_ubatch: 512, n_seq: 1, flash_attn: true, type_k: "f16", type_v: "f16" };

/** The context grid measured in dry-run mode on the F16 weights. q8_0 is both K and V with flash
 *  attention; without it (a quantized V needs flash attention) it is K q8_0, V f16. */
function contextGrid() {
  const out = [];
  for (const n_ctx of [512, 4096, 32768])
    for (const n_seq of [1, 4])
      for (const flash_attn of [true, false])
        for (const n_ubatch of [512, 2048])
          for (const kv of ["f16", "q8_0"])
            out.push({ n_ctx, n_ubatch, n_seq, flash_attn, type_k: kv, type_v: kv === "q8_0" && !flash_attn ? "f16" : kv });
  return out;
}

function rowId(model, weights, mode, s) {
  return ["llama_cpp", model, weights, mode, `c${s.n_ctx}`, `s${s.n_seq}`, s.flash_attn ? "fa" : "nofa", `ub${s.n_ubatch}`, s.type_k, s.type_v, s.mmap === false ? "nommap" : null]
    .filter(Boolean).join("-");
}

/** The rows of the grid, in measuring order. mode: "alloc" (llama.cpp allocates) or "dry_run". */
function gridRows(archOf) {
  const rows = [];
  for (const m of kModels) {
    const weights = archOf[m.id] === "gpt-oss" ? [...kWeights, "mxfp4_moe"] : kWeights;
    for (const w of weights) rows.push({ model: m.id, weights: w, mode: "alloc", setting: { ...kBase, mmap: true } });
    rows.push({ model: m.id, weights: "q4_0", mode: "alloc", setting: { ...kBase, mmap: false } });
    // dry-run equals allocating: two contexts measured both ways
    for (const s of [{ ...kBase, flash_attn: false, n_ubatch: 2048 }, { ...kBase, n_seq: 4, type_k: "q8_0", type_v: "q8_0" }])
      rows.push({ model: m.id, weights: "gguf-f16", mode: "alloc", setting: { ...s, mmap: true } });
    for (const s of contextGrid()) rows.push({ model: m.id, weights: "gguf-f16", mode: "dry_run", setting: { ...s, mmap: true } });
  }
  for (const id of kFullSize) {
    for (const s of kFullSizeContexts) rows.push({ model: id, weights: "q4_k_m", mode: "dry_run", setting: { ...s, mmap: true } });
  }
  for (const r of rows) r.id = rowId(r.model, r.weights, r.mode, r.setting);
  return rows;
}

function buildModels() {
  return [...kModels, ...kFullSize.map((id) => ({ id, preset: id, changes: {}, scaled: null }))].map((m) => {
    const preset = JSON.parse(fs.readFileSync(path.join(root, "data", "models", `${m.preset}.json`), "utf8"));
    const changes = typeof m.changes === "function" ? m.changes(preset.config) : m.changes;
    return { id: m.id, from_preset: m.preset, scaled: m.scaled, config: { ...preset.config, ...changes } };
  });
}

// --- measuring ---------------------------------------------------------------------------------

const { nlc, handle } = await openOrSkip(root, skip);
let cpuVariant = null;
const checkCpu = () => {
  cpuVariant = handle.cpuBackend() ?? "unknown";
  // the x86-64 variants without AVX2 (ggml-cpu CMakeLists GGML_CPU_ALL_VARIANTS) repack nothing
  if (kNoRepackCpus.includes(cpuVariant)) skip(`the recorded repack buffers need an x86-64 CPU with AVX2; llama.cpp loaded the ${cpuVariant} CPU backend`);
};

const doc = record ? null : JSON.parse(fs.readFileSync(dataPath, "utf8"));
const models = record ? buildModels() : doc.models;
const modelsFile = path.join(os.tmpdir(), `llmsizer-llama-cpp-models-${process.pid}.json`);
fs.writeFileSync(modelsFile, JSON.stringify({ models }));
const plan = (model, weights) => JSON.parse(execFileSync(tool, ["gguf-plan", modelsFile, model, weights], { maxBuffer: 1 << 28 }));
const archOf = Object.fromEntries(models.map((m) => [m.id, plan(m.id, "gguf-f16").architecture]));
const rows = record ? gridRows(archOf) : doc.rows;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "llmsizer-llama-cpp-"));
const t0 = Date.now();
const measured = new Map();
/** Each file loaded with its weights allocated: what llama.cpp put in each weight buffer, and what
 *  the core estimates for the file read the way a person's is (inspect, then its request_model). */
const throughFile = [];
try {
  // group rows by file and load mode
  const groups = new Map();
  for (const r of rows) {
    const key = `${r.model}|${r.weights}|${r.mode}|${r.setting.mmap !== false}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  const files = new Map();
  for (const [key, group] of groups) {
    const { model, weights, mode } = group[0];
    const fileKey = `${model}|${weights}`;
    if (!files.has(fileKey)) {
      const p = plan(model, weights);
      const file = path.join(workDir, `${model}-${weights}.gguf`);
      writeGguf(file, { metadata: [...p.metadata, ...syntheticVocabulary(p.vocab_size)], tensors: p.tensors });
      files.set(fileKey, file);
    }
    const dryRun = mode === "dry_run";
    const res = await measureModel(handle, files.get(fileKey), { mmap: group[0].setting.mmap !== false, dryRun, contexts: group.map((r) => r.setting) });
    if (!dryRun && group[0].setting.mmap !== false && res.model) {
      const estimate = JSON.parse(execFileSync(tool, ["file-weights", files.get(fileKey)], { maxBuffer: 1 << 20 }));
      throughFile.push({ file: `${model}-${weights}`, measured: res.model, estimate });
    }
    if (cpuVariant === null) checkCpu();
    group.forEach((r, i) => {
      const c = res.contexts[i];
      if (c.error) {
        measured.set(r.id, { error: c.error });
        return;
      }
      const m = {
        kv: c.kv_bytes, compute: c.compute_bytes, compute_decimals: dryRun ? 2 : 4, output: c.output_bytes,
        n_ctx: c.n_ctx, n_ctx_seq: c.n_ctx_seq, kv_cells: c.kv_caches.map((k) => k.cells),
      };
      if (!dryRun) m.weights = res.model;
      measured.set(r.id, m);
    });
    if (![...groups.keys()].slice([...groups.keys()].indexOf(key) + 1).some((k) => k.startsWith(`${model}|${weights}|`))) {
      fs.rmSync(files.get(fileKey), { force: true });
    }
  }
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
const seconds = ((Date.now() - t0) / 1000).toFixed(1);

// weights of dry-run rows: the allocating row of the same file, where there is one
const ids = new Set(rows.map((r) => r.id));
for (const r of rows) {
  if (r.mode !== "dry_run" || measured.get(r.id).error) continue;
  const from = rowId(r.model, r.weights, "alloc", { ...kBase, mmap: true });
  if (ids.has(from)) r.weights_from = from;
}

if (record) {
  const out = {
    id: "llama_cpp",
    kind: "llama_cpp",
    description: "Buffers a real llama.cpp allocates (model weights per buffer, KV cache, compute buffer, output buffer), logged by llama.cpp in MiB (2 decimals; the compute buffer of allocating runs with 4), for GGUF files written by tests/js/gguf_writer.mjs from tests/llama_cpp_tool.cpp's plan (real tensor names and shapes, zero data) and loaded on the CPU. Recorded and re-checked by tests/js/llama_cpp_real.mjs; the core's estimates are checked against the rows by tests/llama_cpp_validation_test.cpp.",
    source: recordSource(nlc, handle, cpuVariant, "node-llama-cpp's addon sets n_batch = n_ubatch = batchSize and kv_unified = false (llama/addon/AddonContext.cpp); one thread"),
    models,
    rows: rows.map((r) => ({
      id: r.id,
      source: `https://www.npmjs.com/package/node-llama-cpp/v/${nlc.version}`,
      kind: "llama_cpp",
      model: r.model,
      architecture: archOf[r.model],
      weights: r.weights,
      mode: r.mode,
      setting: r.setting,
      ...(r.weights_from ? { weights_from: r.weights_from } : {}),
      measured: measured.get(r.id),
    })),
  };
  fs.writeFileSync(dataPath, recordText(out));
  console.log(`llama_cpp_real: recorded ${rows.length} rows in ${seconds} s`);
}

// --- 1. the recorded rows are what this llama.cpp measures --------------------------------------
let failures = record ? 0 : recordedMismatches(rows, measured);

// --- 2. the core's estimate of every row ---------------------------------------------------------
const estimates = JSON.parse(execFileSync(tool, ["estimate-rows", dataPath], { maxBuffer: 1 << 28 }));
const rowsNow = record ? JSON.parse(fs.readFileSync(dataPath, "utf8")).rows : rows;
const mib = (b) => b / 1048576;
const byId = new Map(rowsNow.map((r, i) => [r.id, i]));
const sum = (o) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);
const stats = {};
const add = (arch, buffer, value) => {
  for (const key of [arch, "all"]) {
    stats[key] ??= {};
    (stats[key][buffer] ??= []).push(value);
  }
};
const pct = (x) => `${(100 * x).toFixed(3)}%`;
console.log(`llama_cpp_real: ${rowsNow.length} rows, llama.cpp ${handle.release.release} (node-llama-cpp ${nlc.version}, ${cpuVariant}), measured in ${seconds} s`);
console.log("row | kv cells | weights | kv | compute | output | total (estimate vs measured)");
for (let i = 0; i < rowsNow.length; ++i) {
  const r = rowsNow[i];
  const m = r.measured;
  const e = estimates[i];
  const arch = r.architecture;
  if (m.error || e.error) {
    const ok = Boolean(m.error) && Boolean(e.error);
    if (!ok) failures++;
    console.log(`${r.id} | rejected: llama.cpp ${m.error ? `"${m.error}"` : "accepts"}, core ${e.error ? `"${e.error}"` : "accepts"} ${ok ? "ok" : "MISMATCH"}`);
    continue;
  }
  const cellsOk = JSON.stringify(e.kv_cells) === JSON.stringify(m.kv_cells) && e.n_ctx === m.n_ctx && e.n_ctx_seq === m.n_ctx_seq;
  if (!cellsOk) failures++;
  const parts = [];
  if (m.weights) {
    let worst = 0;
    const names = new Set([...Object.keys(m.weights), ...Object.keys(e.weights).filter((k) => e.weights[k] > 0)]);
    for (const name of names) {
      const err = errVsLog(e.weights[name] ?? 0, m.weights[name] ?? 0, 2);
      if (Math.abs(err) > Math.abs(worst)) worst = err;
    }
    add(arch, "weights", Math.abs(worst));
    parts.push(`${[...names].map((n) => `${n} ${mib(e.weights[n] ?? 0).toFixed(2)}/${mib(m.weights[n] ?? 0).toFixed(2)}`).join(" ")} MiB ${pct(worst)}`);
  } else {
    parts.push("(dry run)");
  }
  const kvErr = errVsLog(e.kv, m.kv, 2, m.kv_cells.length);
  const computeErr = errVsLog(e.compute, m.compute, m.compute_decimals);
  const outputErr = errVsLog(e.output, m.output, 2);
  add(arch, "kv", Math.abs(kvErr));
  add(arch, "compute", Math.abs(computeErr));
  add(arch, "output", Math.abs(outputErr));
  // a dry run allocates no weights: its total takes them from the allocating row of the same file
  // (full-size presets have none: no total)
  const from = m.weights ? null : r.weights_from;
  const w = m.weights ? { measured: m.weights, estimate: e.weights }
          : from ? { measured: rowsNow[byId.get(from)].measured.weights, estimate: estimates[byId.get(from)].weights } : null;
  const measuredTotal = w ? sum(w.measured) + m.kv + m.compute + m.output : NaN;
  const estimateTotal = w ? sum(w.estimate) + e.kv + e.compute + e.output : NaN;
  const totalErr = (estimateTotal - measuredTotal) / measuredTotal;
  if (w) add(arch, "total", Math.abs(totalErr));
  parts.push(`${mib(e.kv).toFixed(2)}/${mib(m.kv).toFixed(2)} ${pct(kvErr)}`);
  parts.push(`${mib(e.compute).toFixed(2)}/${mib(m.compute).toFixed(2)} ${pct(computeErr)}`);
  parts.push(`${mib(e.output).toFixed(2)}/${mib(m.output).toFixed(2)} ${pct(outputErr)}`);
  parts.push(w ? `${mib(estimateTotal).toFixed(1)}/${mib(measuredTotal).toFixed(1)} MiB ${pct(totalErr)}` : "(no weights measured)");
  console.log(`${r.id} | ${JSON.stringify(m.kv_cells)}${cellsOk ? "" : ` vs ${JSON.stringify(e.kv_cells)} MISMATCH`} | ${parts.join(" | ")}`);
}

// --- 3. the same files read through inspect -> request_model, as the page and the CLI read them ----
console.log("\nfile | weight buffers through inspect -> request_model (estimate/measured MiB)");
for (const f of throughFile) {
  const names = new Set([...Object.keys(f.measured), ...Object.keys(f.estimate).filter((k) => f.estimate[k] > 0)]);
  const off = [...names].filter((n) => errVsLog(f.estimate[n] ?? 0, f.measured[n] ?? 0, 2) !== 0);
  if (off.length > 0) failures++;
  console.log(`${f.file} | ${[...names].map((n) => `${n} ${mib(f.estimate[n] ?? 0).toFixed(2)}/${mib(f.measured[n] ?? 0).toFixed(2)}`).join(" ")}${off.length ? ` MISMATCH ${off.join(", ")}` : ""}`);
}

console.log("\nper architecture: rows, then median / worst absolute error per buffer");
for (const [arch, st] of [...Object.entries(stats).filter(([a]) => a !== "all"), ["all", stats.all]]) {
  const cols = ["weights", "kv", "compute", "output", "total"].map((b) => `${b} ${st[b] ? `${pct(median(st[b]))} / ${pct(Math.max(...st[b]))}` : "-"}`);
  console.log(`${arch.padEnd(10)} ${String(st.kv?.length ?? 0).padStart(4)} rows | ${cols.join(" | ")}`);
}
const all = stats.all;
const gateFailures = [];
if (median(all.total) > kGates.totalMedian) gateFailures.push(`total median ${pct(median(all.total))} > ${pct(kGates.totalMedian)}`);
if (Math.max(...all.total) > kGates.totalWorst) gateFailures.push(`total worst ${pct(Math.max(...all.total))} > ${pct(kGates.totalWorst)}`);
for (const b of ["weights", "kv", "compute", "output"]) {
  if (median(all[b]) > kGates.bufferMedian) gateFailures.push(`${b} median ${pct(median(all[b]))} > ${pct(kGates.bufferMedian)}`);
}
fs.rmSync(modelsFile, { force: true });
if (gateFailures.length > 0 || failures > 0) {
  console.error(`llama_cpp_real: FAILED: ${[...gateFailures, failures > 0 ? `${failures} rows disagree (see above)` : null].filter(Boolean).join("; ")}`);
  process.exit(1);
}
console.log("llama_cpp_real: all gates pass");
