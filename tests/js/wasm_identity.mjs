// The WASM module answers byte-identical JSON to the native CLI (contract: `llmsizer estimate FILE
// --json` prints exactly the string WASM `estimate` returns, then a newline), good and bad requests,
// every preset, every hardware entry, and recommendations over the whole catalog; the second module
// (llmsizer-files.js) the same inspection of each model file as `llmsizer inspect`. A serving or
// training request is answered by the tasks' module (llmsizer-tasks.js), as the page asks it; the
// page's own module refuses it, naming `task`, and answers inference as the tasks' module does.
// usage: node wasm_identity.mjs WEB_DIR LLMSIZER_CLI
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from './load_core.mjs';
import { refusedForOtherModule } from '../../web/lib/other_module.js';

const [webDir, cli] = process.argv.slice(2);
if (!existsSync(join(webDir, 'llmsizer.wasm'))) {
  console.error(`no WASM build in ${webDir}: run cmake --preset wasm && cmake --build --preset wasm`);
  process.exit(process.env.LLMSIZER_REQUIRE_WASM ? 1 : 77);
}
const core = await loadCore(webDir);
const tasks = await loadCore(webDir, 'llmsizer-tasks');
/** The module the page asks (web/lib/session.js): its own, unless that refuses the request as another
 *  module's task (web/lib/other_module.js); and whether the tasks' module, which answers every task,
 *  gives that same answer. */
const moduleFor = (command, body) => (refusedForOtherModule(JSON.parse(core[command](body))) ? tasks : core);
const otherRight = (command, body, wasm) => tasks[command](body) === wasm;

const requests = [
  { model: 'qwen2.5-7b-instruct', weights: 'bf16', input_tokens: 1, output_tokens: 2048, engine: 'transformers' },
  { model: 'qwen2.5-0.5b-instruct', weights: 'int4', input_tokens: 32768, output_tokens: 512, batch: 8, engine: 'vllm' },
  { model: 'llama-3.1-8b-instruct', weights: 'int8', kv_cache: 'q8_0', engine: 'llama.cpp', gpus: 0 },
  { model: 'qwen2.5-72b-instruct', gpus: 4, input_tokens: 8192, flash_attention: false },
  { model: { params: 7e9 }, weights: 'fp16' },
  { model: { config: { model_type: 'llama', hidden_size: 2048, num_hidden_layers: 16, num_attention_heads: 32, num_key_value_heads: 8,
                       intermediate_size: 8192, vocab_size: 128256, tie_word_embeddings: true, unknown_field: 1 } } },
  { model: 'qwen2.5-7b-instruct', task: 'training', training: { method: 'full', seq_len: 2048, gradient_checkpointing: true } },
  // Serving: the simulation's steps, Poisson arrivals and uniform lengths (std::log, std::pow) give the
  // same bytes in both builds.
  { task: 'serve', model: 'llama-3.1-8b-instruct', weights: 'fp8', kv_cache: 'fp8', engine: 'vllm', hardware: 'nvidia-h100-sxm',
    workload: { input_tokens: 1000, output_tokens: 1000, concurrency: 64 }, slo: { ttft_ms: 500, tpot_ms: 10 } },
  { task: 'serve', model: 'llama-3.1-70b-instruct', weights: 'fp8', kv_cache: 'fp8', engine: 'vllm', engine_version: '0.9.1', hardware: 'amd-mi300x',
    layout: { tp: 8 }, workload: { input_tokens: 500, output_tokens: 300, request_rate: 12, requests: 400, seed: 3, range_ratio: 1 } },
  { task: 'serve', model: 'mixtral-8x7b-v0.1', weights: 'fp8', engine: 'tensorrt-llm', engine_version: '0.17', hardware: 'nvidia-h200-sxm',
    layout: { tp: 2 }, workload: { input_tokens: 128, output_tokens: 128, max_throughput: true, requests: 3000 } },
  { task: 'serve', model: 'gpt-oss-20b', weights: 'mxfp4_moe', engine: 'llama.cpp', hardware: 'nvidia-dgx-spark',
    workload: { input_tokens: 4096, output_tokens: 256, concurrency: 4 }, serve: { parallel: 4, context: 20000 } },
  { task: 'serve', model: 'qwen2.5-32b-instruct', weights: 'awq-int4', engine: 'sglang', hardware: 'nvidia-rtx-4090', layout: { tp: 2 },
    workload: { input_tokens: 2000, output_tokens: 500, concurrency: 20, range_ratio: 0.5 } },
  { task: 'serve', model: 'llama-3.1-8b-instruct', engine: 'lmdeploy', hardware: 'nvidia-a100-80gb-sxm', workload: { concurrency: 0 } },
  // Models kept loaded side by side: Ollama's eviction, vLLM's shares, llama.cpp's processes.
  { model: 'llama-3.1-8b-instruct', weights: 'q4_k_m', engine: 'ollama', input_tokens: 7168, output_tokens: 1024, hardware: 'nvidia-rtx-4090',
    also_loaded: [{ model: 'qwen3-0.6b', weights: 'q8_0' }, { model: 'qwen3-0.6b', weights: 'q8_0', context: 512 }, { model: 'qwen3-4b' }] },
  { model: 'llama-3.1-8b-instruct', engine: 'vllm', hardware: 'nvidia-h100-sxm', also_loaded: [{ model: 'qwen3-0.6b', gpu_memory_utilization: 0.2 }] },
  { model: 'qwen2.5-7b-instruct', weights: 'q4_k_m', engine: 'llama.cpp', also_loaded: [{ model: 'qwen3-4b', n_gpu_layers: 10, kv_cache: 'q8_0' }] },
  // Bad requests: each must come back as the same error JSON.
  { model: 'qwen2.5-7b-instruct', also_loaded: [{ model: 'qwen3-0.6b' }, { model: 'qwen3-0.6b', weights: 'q9' }] },
  { model: 'qwen2.5-7b-instruct', input_tokens: -5 },
  { model: 'no-such-model' },
  { model: 'qwen2.5-7b-instruct', weights: 'int3' },
  { model: { config: { hidden_size: 'big' } } },
  { model: { params: 1e30 } },
  { model: 'qwen2.5-7b-instruct', batch: 1e12 },
  // A dropped GGUF file's tensor list is read by the page's module (every request's model): its
  // refusals are the page's module's to write.
  { model: { params: 7e9, weight_bytes: 1000, tensors: [['x', 'Q9', [1]]] } },
  { model: { params: 7e9, weight_bytes: 1000, tensors: 5 } },
];
const rawBodies = ['', '   ', '{not json', '[1,2,3]', 'null', '{"model": "qwen2.5-7b-instruct", "input_tokens": 1e999}',
                   '{"model": "qwen2.5-7b-instruct",}', '"\\ud800"', '{"model":"\u0000"}'];
const bodies = [...requests.map((r) => JSON.stringify(r)), ...rawBodies];

// Every preset, for inference and for training: the module embeds the presets without the config
// members the core never reads (cmake/unread_config_keys.txt), the native build embeds them whole, so
// any key read from that list makes an answer differ here.
const presetBodies = JSON.parse(core.listModels()).models.flatMap(({ id }) => [
  JSON.stringify({ model: id }),
  JSON.stringify({ model: id, task: 'training', training: { method: 'qlora', seq_len: 2048 } }),
]);

// Every hardware entry, for an inference estimate on it and a QLoRA run on it, and the recommendation
// over the whole catalog with every option's English text: the module embeds the entries without the
// members the core never reads (cmake/unread_hardware_keys.txt).
const hardwareIds = JSON.parse(core.listHardware()).hardware.map(({ id }) => id);
const hardwareBodies = hardwareIds.flatMap((id) => [
  JSON.stringify({ model: 'qwen2.5-7b-instruct', hardware: id }),
  JSON.stringify({ model: 'qwen2.5-7b-instruct', hardware: id, task: 'training', training: { method: 'qlora', seq_len: 2048 } }),
]);
const recommendBodies = [
  JSON.stringify({ model: 'qwen2.5-7b-instruct' }),
  JSON.stringify({ task: 'serve', model: 'qwen2.5-32b-instruct', weights: 'awq-int4', workload: { input_tokens: 2000, output_tokens: 500, concurrency: 20 },
                   slo: { ttft_ms: 3000, tpot_ms: 60 } }),
  JSON.stringify({ model: 'qwen2.5-72b-instruct', weights: 'int4', goal: 'cheapest' }),
  JSON.stringify({ model: 'qwen2.5-7b-instruct', task: 'training', training: { method: 'lora', seq_len: 4096 } }),
];
const hint = (body) => (presetBodies.includes(body) ? ' (a preset: does the core now read a key of cmake/unread_config_keys.txt?)'
  : hardwareBodies.includes(body) || recommendBodies.includes(body) ? ' (does the core now read a key of cmake/unread_hardware_keys.txt?)' : '');

let failed = 0;
let passed = 0;
// The CLI's command and the module's export have the same name.
for (const [command, list] of [['estimate', [...bodies, ...presetBodies, ...hardwareBodies]], ['recommend', recommendBodies]]) {
  for (const body of list) {
    const wasm = moduleFor(command, body)[command](body);
    const native = spawnSync(cli, [command, '-', '--json'], { input: body, encoding: 'utf8', maxBuffer: 64 << 20 });
    const isError = wasm.startsWith('{"error":');
    const expectedCode = isError ? 2 : 0;
    if (!otherRight(command, body, wasm)) {
      failed++;
      console.error(`MISMATCH for ${command} ${JSON.stringify(body).slice(0, 120)}: the page's module and the tasks' disagree`);
    } else if (native.stdout !== wasm + '\n' || native.status !== expectedCode) {
      failed++;
      console.error(`MISMATCH for ${command} ${JSON.stringify(body).slice(0, 120)}${hint(body)}\n  native (exit ${native.status}): ${native.stdout.slice(0, 200)}\n  wasm: ${wasm.slice(0, 200)}`);
    } else {
      passed++;
    }
  }
}
for (const [name, fn, args] of [['listModels', 'models', ['models', '--json']], ['listOptions', 'options', ['options']],
                                ['listHardware', 'hardware (is a key of cmake/unread_hardware_keys.txt read now?)', ['hardware', '--json']]]) {
  const wasm = core[name]();
  const native = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (native.stdout !== wasm + '\n') { failed++; console.error(`MISMATCH for ${fn}`); } else passed++;
}
// The page's one call per edit (CLI `page`, export pageAnswer): the same bytes both ways, and its
// estimate byte for byte the estimate call's, its ranking the recommend call's.
const pageRequest = (estimate, extra = {}) => {
  const row = { ...estimate, english_text: false };
  return { estimate, chart: [{ ...row, hardware: undefined, input_tokens: 255 }, { ...row, hardware: undefined, input_tokens: 1000 }],
           formats: [{ ...row, weights: 'int4' }, { ...row, weights: 'q4_k_m', engine: 'llama.cpp' }, { ...row, model: 'no-such-model' }],
           recommend: { ...row, max_options: 10 }, ...extra };
};
const pageBodies = [
  pageRequest({ model: 'qwen2.5-7b-instruct', engine: 'llama.cpp', weights: 'q4_k_m', input_tokens: 3072, output_tokens: 1024, hardware: 'nvidia-rtx-4090' }),
  pageRequest({ model: 'qwen2.5-72b-instruct', weights: 'int4', hardware: 'nvidia-rtx-4060' }),
  pageRequest({ model: 'qwen2.5-7b-instruct', task: 'training', training: { method: 'qlora', seq_len: 4096, micro_batch: 4 }, hardware: 'nvidia-rtx-4090' }, { formats: [] }),
  pageRequest({ model: 'qwen2.5-7b-instruct', input_tokens: -5 }),
  { estimate: { model: 'qwen2.5-7b-instruct' } },
].map((b) => JSON.stringify(b));
for (const body of [...pageBodies, '', '[1]', '{"chart": []}', '{not json']) {
  const wasm = moduleFor('pageAnswer', body).pageAnswer(body);
  if (!otherRight('pageAnswer', body, wasm)) { failed++; console.error(`MISMATCH for page ${body.slice(0, 120)}: the page's module and the tasks' disagree`); }
  const native = spawnSync(cli, ['page', '-'], { input: body, encoding: 'utf8', maxBuffer: 64 << 20 });
  const expectedCode = wasm.startsWith('{"error":') ? 2 : 0;
  let parts = true;
  if (expectedCode === 0) {
    const request = JSON.parse(body);
    const whole = wasm;
    const m = moduleFor('pageAnswer', body);
    parts = whole.startsWith(`{"schema_version":1,"estimate":${m.estimate(JSON.stringify(request.estimate))},"chart":[`) &&
      (!request.recommend || whole.endsWith(`,"recommend":${m.recommend(JSON.stringify(request.recommend))}}`));
  }
  if (native.stdout !== wasm + '\n' || native.status !== expectedCode || !parts) {
    failed++;
    console.error(`MISMATCH for page ${body.slice(0, 120)}${parts ? '' : ' (its estimate or ranking is not the estimate or recommend call\'s)'}\n  native (exit ${native.status}): ${native.stdout.slice(0, 200)}\n  wasm: ${wasm.slice(0, 200)}`);
  } else {
    passed++;
  }
}

// The second module (llmsizer-files.js, wasm/bindings_model_files.cpp: a dropped model file, the
// hub's loading), which the page loads on first use: each model file of the fuzzing corpus read as
// the page and the CLI read it (header_read.hpp's growing prefixes), the same answer as `llmsizer
// inspect FILE` (which prints the inspection, or exits 2 with the error). And each module has its
// own exports only: the default one none of the model files' (the linker leaves their readers out),
// the tasks' one only the three calls a request's task routes (the lists are the page's module's).
// The page warms the module before a drop (warmUp, one step per task: a small header read through the
// whole path, then memory written); its header is answered, not an error, at every step, and a warmed
// module answers every file as a fresh one does.
const files = await loadCore(webDir, 'llmsizer-files');
const warmed = await loadCore(webDir, 'llmsizer-files');
const warmUpSteps = warmed.warmUpSteps;
let warmUpAnswered = warmUpSteps > 1;
for (let step = 0; step < warmUpSteps; ++step) warmUpAnswered = warmed.warmUp(step) === true && warmUpAnswered;
if (warmUpAnswered) passed++; else { failed++; console.error('MISMATCH: warmUp\'s header was not answered'); }
const fileExports = ['inspectModelFile', 'ModelFileHeader', 'warmUp', 'describeRepositoryModel', 'planRepository', 'nextHeaderRead', 'validRepoId', 'hubFailure'];
const taskExports = ['estimate', 'recommend', 'pageAnswer'];
const split = fileExports.every((name) => typeof files[name] === 'function' && core[name] === undefined && tasks[name] === undefined) &&
  [...taskExports, 'listModels'].every((name) => typeof core[name] === 'function' && files[name] === undefined) &&
  taskExports.every((name) => typeof tasks[name] === 'function') && tasks.listModels === undefined;
if (split) passed++; else { failed++; console.error('MISMATCH: the three modules do not split their exports as wasm/bindings.cpp, bindings_tasks.cpp and bindings_model_files.cpp say'); }
// Each module links the English its own answers can say (core/src/edge/messages/, wasm/CMakeLists.txt):
// the three listings together are the CLI's, the page's holds no serving, training or model-file
// text, and no module's data holds the id of a message it does not list (a message it could say but
// not write: the id is a string of the code that says it, a term's without its "term.").
const cliMessages = JSON.parse(spawnSync(cli, ['messages'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout).messages;
const merged = {};
for (const [name, m] of [['llmsizer', core], ['llmsizer-tasks', tasks], ['llmsizer-files', files]]) {
  const listed = JSON.parse(m.listMessages()).messages;
  Object.assign(merged, listed);
  const data = readFileSync(join(webDir, `${name}.wasm`)).toString('latin1');
  const said = (id) => data.includes(`${id}\0`) || (id.startsWith('term.') && data.includes(`${id.slice('term.'.length)}\0`));
  const unlisted = Object.keys(cliMessages).filter((id) => !(id in listed) && said(id));
  if (unlisted.length === 0) passed++;
  else { failed++; console.error(`MISMATCH: ${name}.wasm says messages it does not link (move them to a table it links): ${unlisted.join(', ')}`); }
}
const page = JSON.parse(core.listMessages()).messages;
const mergedSame = Object.keys(merged).length === Object.keys(cliMessages).length &&
  Object.entries(cliMessages).every(([id, text]) => merged[id] === text);
if (mergedSame && !('serve.summary.meets' in page) && !('error.gguf.past_end_header' in page)) passed++;
else { failed++; console.error('MISMATCH: the modules\' message listings together are not the CLI\'s, or the page\'s holds serving\'s or the GGUF reader\'s text'); }
// The page's module refuses a request of another task, naming `task` (api.hpp: estimate_inference).
const refused = JSON.parse(core.estimate(JSON.stringify({ model: 'qwen2.5-7b-instruct', task: 'training' }))).error;
if (refused && refused.field === 'task' && refused.message_data.id === 'error.task.other_module') passed++;
else { failed++; console.error(`MISMATCH: the page's module answered a training request: ${JSON.stringify(refused)}`); }
const corpus = join(dirname(fileURLToPath(import.meta.url)), '../../fuzz/corpus');
const modelFiles = ['gguf', 'safetensors', 'config'].flatMap((dir) => readdirSync(join(corpus, dir)).sort().map((name) => join(corpus, dir, name)));
for (const path of modelFiles) {
  const whole = readFileSync(path);
  let want = files.nextHeaderRead(0, 0, whole.length).bytes;
  let wasm;
  for (;;) {
    const prefix = whole.subarray(0, want);
    wasm = files.inspectModelFile(prefix, whole.length);
    const r = JSON.parse(wasm);
    const need = r.error && typeof r.error.needed_bytes === 'number' ? r.error.needed_bytes : 0;
    const next = r.error ? files.nextHeaderRead(prefix.length, need, whole.length) : { step: 'answered' };
    if (next.step !== 'read') break;
    want = next.bytes;
  }
  const afterWarmUp = warmed.inspectModelFile(whole.subarray(0, want), whole.length);
  if (afterWarmUp === wasm) passed++; else { failed++; console.error(`MISMATCH for inspect ${path} after warmUp: ${afterWarmUp.slice(0, 200)}`); }
  // The page's read (web/lib/import.js): the same prefixes appended slice by slice to the bytes the
  // module holds (ModelFileHeader), each answered as inspectModelFile answers the whole prefix.
  const header = warmed.ModelFileHeader ? new warmed.ModelFileHeader() : null;
  let held = '';
  try {
    let length = warmed.nextHeaderRead(0, 0, whole.length).bytes;
    for (let start = 0; header;) {
      start = header.append(whole.subarray(start, length));
      held = header.inspect(whole.length);
      const prefix = warmed.inspectModelFile(whole.subarray(0, length), whole.length);
      if (held !== prefix) { held = `prefix ${length}: ${held}`; break; }
      const r = JSON.parse(held);
      const need = r.error && typeof r.error.needed_bytes === 'number' ? r.error.needed_bytes : 0;
      const next = r.error ? warmed.nextHeaderRead(length, need, whole.length) : { step: 'answered' };
      if (next.step !== 'read') break;
      length = next.bytes;
    }
  } finally {
    if (header) header.delete();
  }
  if (held === wasm) passed++; else { failed++; console.error(`MISMATCH for inspect ${path} read slice by slice: ${held.slice(0, 200)}`); }
  const native = spawnSync(cli, ['inspect', path], { encoding: 'utf8', maxBuffer: 64 << 20 });
  // The CLI prints the inspection parsed and written again (UTF-8 where the module escapes to
  // ASCII): the same JSON value, compared as such.
  const value = (text) => JSON.stringify(JSON.parse(text));
  const same = wasm.startsWith('{"error":') ? native.status === 2 && native.stdout === '' : native.status === 0 && value(native.stdout) === value(wasm);
  if (!same) {
    failed++;
    console.error(`MISMATCH for inspect ${path}\n  native (exit ${native.status}): ${native.stdout.slice(0, 200)}\n  wasm: ${wasm.slice(0, 200)}`);
  } else {
    passed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
