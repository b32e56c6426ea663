// SPDX-License-Identifier: MIT
// Measures llama.cpp's buffers with node-llama-cpp's prebuilt CPU llama.cpp: loads a GGUF file,
// creates contexts and reads the buffer sizes llama.cpp logs (llama-model.cpp load_all_data
// "model buffer size", llama-kv-cache.cpp "KV buffer size", llama-context.cpp "output buffer size"
// and "compute buffer size"). Nothing is built or downloaded: getLlama runs with build "never",
// skipDownload and usePrebuiltBinaries, so a missing prebuilt binary is an error, not a build.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const MiB = 1024 * 1024;

/** The CPU variant ggml must not load: libggml-cpu-sapphirerapids, the one with AMX. On a CPU
 *  with AMX ggml picks it (the highest score), and its AMX buffer type makes this llama.cpp
 *  (v0.5.0 in node-llama-cpp 3.22.1) abort while scheduling the graph of these models
 *  (ggml-backend.cpp:1294 GGML_ASSERT(*cur_backend_id != -1)); on other CPUs it scores 0 and is
 *  never loaded. data/validation/llama_cpp.json was recorded with the icelake variant. */
const kSkippedCpuVariants = new Set(["libggml-cpu-sapphirerapids.so"]);

/** Mirrors `from` into `to` with hard links (copies across file systems), leaving out kSkippedCpuVariants. */
function linkTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isFile() && !kSkippedCpuVariants.has(entry.name)) {
      try {
        fs.linkSync(source, target);
      } catch {
        fs.copyFileSync(source, target);  // another file system (a node_modules elsewhere): a copy
      }
    }
  }
}

/** node-llama-cpp from the project's node_modules, or null when it is not installed. It runs from
 *  build/llama-cpp-runtime/node_modules, hard links of node-llama-cpp and its prebuilt binaries
 *  without the AMX CPU variant (kSkippedCpuVariants): ggml loads the best variant it finds beside
 *  the addon, and Node resolves node-llama-cpp's other packages from the project's node_modules. */
export async function loadNodeLlamaCpp(root) {
  const require = createRequire(path.join(root, "package.json"));
  let entry;
  try {
    entry = require.resolve("node-llama-cpp");
  } catch {
    return null;
  }
  // the node_modules Node found it in (the project's, or one above it, as a git worktree sees it)
  let modules = path.dirname(entry);
  while (path.basename(modules) !== "node_modules" && path.dirname(modules) !== modules) modules = path.dirname(modules);
  if (!fs.existsSync(path.join(modules, "@node-llama-cpp", "linux-x64"))) return null;
  const runtime = path.join(root, "build", "llama-cpp-runtime", "node_modules");
  fs.rmSync(runtime, { recursive: true, force: true });
  for (const pkg of ["node-llama-cpp", path.join("@node-llama-cpp", "linux-x64")]) {
    linkTree(fs.realpathSync(path.join(modules, pkg)), path.join(runtime, pkg));
  }
  entry = createRequire(path.join(runtime, "..", "package.json")).resolve("node-llama-cpp");
  const module = await import(entry);
  const pkg = JSON.parse(fs.readFileSync(path.join(modules, "node-llama-cpp", "package.json"), "utf8"));
  return { module, version: pkg.version };
}

/** A llama.cpp instance whose log lines are collected (level debug: the sizes are info/debug lines). */
export async function openLlama(nodeLlamaCpp) {
  const { getLlama, LlamaLogLevel } = nodeLlamaCpp.module;
  const lines = [];
  let cpuBackend = null;
  const llama = await getLlama({
    gpu: false,
    build: "never",
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.debug,
    logger: (_level, message) => {
      for (const line of String(message).split("\n")) {
        if (line.length === 0) continue;
        lines.push(line);
        const m = line.match(/loaded CPU backend from .*libggml-cpu-(\w+)\.so/);
        if (m) cpuBackend = m[1];
      }
    },
  });
  return {
    llama,
    /** Log lines since the last call. */
    take() {
      return lines.splice(0, lines.length);
    },
    /** Waits (up to 5 s) until a line matching `re` has arrived: llama.cpp's log reaches Node
     *  asynchronously, so a context's last lines may come after its dispose() resolves. */
    async waitFor(re) {
      for (let i = 0; i < 500; ++i) {
        if (lines.some((l) => re.test(l))) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    release: llama.llamaCppRelease,
    /** The CPU variant ggml loaded (libggml-cpu-<variant>.so: haswell, icelake, zen4, ...), known
     *  after the first model load. */
    cpuBackend: () => cpuBackend,
  };
}

const sizeLine = (lines, re) => {
  const out = [];
  for (const l of lines) {
    const m = l.match(re);
    if (m) out.push(m);
  }
  return out;
};

const mib = (s) => Math.round(Number(s) * MiB);

/** Model buffers from load_tensors' lines: {"CPU_Mapped": bytes, "CPU_REPACK": bytes, ...}. */
export function parseModelBuffers(lines) {
  const out = {};
  for (const m of sizeLine(lines, /load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB/)) out[m[1]] = (out[m[1]] ?? 0) + mib(m[2]);
  return out;
}

/** Context buffers: KV (per cache: non-SWA / SWA), output, compute, and the resolved parameters. */
export function parseContext(lines) {
  const num = (re) => {
    const m = sizeLine(lines, re)[0];
    return m ? Number(m[1]) : null;
  };
  const kv = sizeLine(lines, /llama_kv_cache: size =\s+([\d.]+) MiB \(\s*(\d+) cells,\s*(\d+) layers,\s*(\d+)\/(\d+) seqs\), K \((\w+)\):\s+([\d.]+) MiB, V \((\w+)\):\s+([\d.]+) MiB/).map((m) => ({
    bytes: mib(m[1]), cells: Number(m[2]), layers: Number(m[3]), seqs: Number(m[4]), streams: Number(m[5]),
    type_k: m[6], k_bytes: mib(m[7]), type_v: m[8], v_bytes: mib(m[9]),
  }));
  // The compute buffer: sched_reserve's line (2 decimals), or ~llama_context's check (4 decimals).
  const computeFine = sizeLine(lines, /~llama_context:\s+(\S+) compute buffer size is\s+([\d.]+) MiB/);
  const compute = sizeLine(lines, /sched_reserve:\s+(\S+) compute buffer size =\s+([\d.]+) MiB/);
  const output = sizeLine(lines, /llama_context:\s+(\S+)\s+output buffer size =\s+([\d.]+) MiB/);
  return {
    n_ctx: num(/llama_context: n_ctx\s+= (\d+)/),
    n_ctx_seq: num(/llama_context: n_ctx_seq\s+= (\d+)/),
    n_batch: num(/llama_context: n_batch\s+= (\d+)/),
    n_ubatch: num(/llama_context: n_ubatch\s+= (\d+)/),
    flash_attn: (sizeLine(lines, /llama_context: flash_attn\s+= (\w+)/)[0] ?? [])[1] ?? null,
    kv_caches: kv,
    kv_bytes: kv.reduce((a, k) => a + k.bytes, 0),
    output_bytes: output.reduce((a, m) => a + mib(m[2]), 0),
    compute_bytes: computeFine.length > 0 ? computeFine.reduce((a, m) => a + mib(m[2]), 0) : compute.reduce((a, m) => a + mib(m[2]), 0),
    compute_precision_bytes: computeFine.length > 0 ? Math.round(0.00005 * MiB) : Math.round(0.005 * MiB),
  };
}

/** The start of a real-llama.cpp test script `name` run as `node SCRIPT TOOL DATA.json [--record]`:
 *  its arguments, and skip(why), which exits 77 (CTest's skip) unless LLMSIZER_REQUIRE_LLAMA_CPP is
 *  set, where it fails. Exits 2 on a wrong command line. */
export function scriptStart(name) {
  const [tool, dataPath, flag] = process.argv.slice(2);
  const required = Boolean(process.env.LLMSIZER_REQUIRE_LLAMA_CPP);
  const skip = (why) => {
    if (required) {
      console.error(`${name}: ${why} (LLMSIZER_REQUIRE_LLAMA_CPP is set)`);
      process.exit(1);
    }
    console.log(`${name}: skipped: ${why}`);
    process.exit(77);
  };
  if (!tool || !dataPath) {
    console.error(`usage: ${name}.mjs TOOL DATA.json [--record]`);
    process.exit(2);
  }
  if (!fs.existsSync(tool)) skip(`the helper ${tool} is not built`);
  return { tool, dataPath, record: flag === "--record", skip };
}

/** node-llama-cpp and a llama.cpp instance (openLlama), or skip(why) when either is missing. */
export async function openOrSkip(root, skip) {
  const nlc = await loadNodeLlamaCpp(root);
  if (!nlc) skip("node-llama-cpp is not installed (npm ci --omit=optional)");
  try {
    return { nlc, handle: await openLlama(nlc) };
  } catch (e) {
    skip(`node-llama-cpp's prebuilt llama.cpp does not load here: ${e.message}`);
  }
  return null;
}

/** The CPU variants without AVX2 (ggml-cpu CMakeLists GGML_CPU_ALL_VARIANTS), which repack nothing. */
export const kNoRepackCpus = ["sse42", "x64", "unknown"];

/** The recorded file's text: `doc` pretty-printed with its "models" and "rows" one entry per line
 *  (readable, and small diffs). */
export function recordText(doc) {
  const oneLine = (list) => `[\n${list.map((x) => "    " + JSON.stringify(x)).join(",\n")}\n  ]`;
  return JSON.stringify({ ...doc, models: [], rows: [] }, null, 2).replace('"models": []', `"models": ${oneLine(doc.models)}`).replace('"rows": []', `"rows": ${oneLine(doc.rows)}`) + "\n";
}

/** The "source" of a recorded file: node-llama-cpp's and llama.cpp's versions, the binary, the CPU
 *  variant ggml loaded, and `settings` (what node-llama-cpp's addon sets). */
export function recordSource(nlc, handle, cpuVariant, settings) {
  return {
    node_llama_cpp: nlc.version,
    llama_cpp: `${handle.release.repo} ${handle.release.release}`,
    llama_cpp_note: "the source node-llama-cpp bundles (node_modules/node-llama-cpp/llama/gitRelease.bundle, CMakeLists.txt LLAMA_VERSION 0.5.0)",
    binary: `@node-llama-cpp/linux-x64 ${nlc.version} (prebuilt CPU build; GGML_CPU_REPACK on)`,
    cpu_backend: `libggml-cpu-${cpuVariant} (x86-64 with AVX2: repacks Q4_0, Q4_K, IQ4_NL, MXFP4)`,
    settings,
  };
}

/** Rows whose recorded "measured" differs from what this llama.cpp measured now (`measured`: id →
 *  measured), each printed; their count. */
export function recordedMismatches(rows, measured) {
  let failures = 0;
  for (const r of rows) {
    const now = measured.get(r.id);
    if (JSON.stringify(now) !== JSON.stringify(r.measured)) {
      failures++;
      console.error(`MISMATCH ${r.id}: recorded ${JSON.stringify(r.measured)} but llama.cpp now gives ${JSON.stringify(now)}`);
    }
  }
  return failures;
}

/** Relative error of an estimate against a size llama.cpp logged in MiB with `decimals` decimals,
 *  summed over `lines` log lines: 0 while the estimate is within the log's rounding (the log cannot
 *  tell them apart). */
export function errVsLog(e, m, decimals, lines = 1) {
  if (Math.abs(e - m) <= lines * 0.5 * 10 ** -decimals * MiB + 1) return 0;
  return m === 0 ? 1 : (e - m) / m;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? 0 : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** ggml type ids of the KV cache types the grid uses (ggml.h enum ggml_type). */
export const kGgmlTypeIds = { f16: 1, q8_0: 8, q4_0: 2, f32: 0, bf16: 30 };

/** A context of `model` for the setting `c` ({n_ctx, n_ubatch, n_seq, flash_attn, type_k, type_v}),
 *  one thread, not yet initialized. */
export function newContext(llama, model, c) {
  return new llama._bindings.AddonContext(model, {
    contextSize: c.n_ctx,
    batchSize: c.n_ubatch,
    sequences: c.n_seq,
    flashAttention: c.flash_attn,
    threads: 1,
    kvCacheKeyType: kGgmlTypeIds[c.type_k],
    kvCacheValueType: kGgmlTypeIds[c.type_v],
    swaFullCache: false,
  });
}

/**
 * Loads `file` (CPU only) and creates one context per entry of `contexts`
 * ({n_ctx, n_ubatch, n_seq, flash_attn, type_k, type_v}); node-llama-cpp's addon sets
 * n_batch = n_ubatch = batchSize and kv_unified = false (llama/addon/AddonContext.cpp).
 * Returns {model: {buffers}, contexts: [parsed buffers]}.
 */
export async function measureModel(handle, file, { mmap = true, dryRun = false, contexts }) {
  const { llama } = handle;
  handle.take();
  const model = new llama._bindings.AddonModel(file, { gpuLayers: 0, useMmap: mmap, noAlloc: dryRun });
  const loaded = await model.init();
  await handle.waitFor(/load_tensors:.*model buffer size|error/);
  if (!loaded) throw new Error(`llama.cpp could not load ${file}: ${handle.take().filter((l) => /error|failed|missing|wrong/i.test(l)).join(" | ")}`);
  const modelLines = handle.take();
  const result = { model: parseModelBuffers(modelLines), contexts: [] };
  try {
    for (const c of contexts) {
      const ctx = newContext(llama, model, c);
      const ok = await ctx.init();
      if (!ok) {
        // llama.cpp refused the context (e.g. different K and V types for an MLA model)
        await handle.waitFor(/failed to create context|llama_init_from_model/);
        const lines = handle.take();
        const why = lines.filter((l) => /llama_init_from_model|error|failed/i.test(l)).map((l) => l.replace(/^\w+: /, "")).join("; ");
        try { await ctx.dispose(); } catch { /* nothing to free */ }
        result.contexts.push({ error: why || "llama.cpp did not create the context" });
        continue;
      }
      await ctx.dispose();
      // ~llama_context checks the compute buffer against its reserve (4 decimals of MiB) unless dry-run
      await handle.waitFor(dryRun ? /sched_reserve: reserve took/ : /~llama_context:.*compute buffer size is/);
      result.contexts.push(parseContext(handle.take()));
    }
  } finally {
    await model.dispose();
  }
  return result;
}
