// SPDX-License-Identifier: MIT
// The page's whole state, its defaults, and its round trip through the URL (share links and the
// embed view). Reading a URL never trusts it: only known keys are read, ids must be in the lists the
// core gave, numbers must be plain digits, a pasted config must be a JSON object; anything else is
// dropped with a notice. Ranges are not checked here: the core checks them (see app.js).

/** Keys a URL may carry, in the order they are written. */
export const KEYS = ['model', 'config', 'file_model', 'name', 'task', 'weights', 'group_size',
  'kv_cache', 'engine', 'ubatch', 'parallel', 'gpu_layers', 'kv_unified', 'mmap', 'draft_model', 'draft_weights', 'draft_max', 'draft_acceptance', 'also', 'input_tokens', 'output_tokens', 'batch', 'gpus', 'hardware', 'budget_gb', 'machine_base',
  'machine_ram_gib', 'machine_vram_gib', 'machine_gpus', 'machine_unified', 'machine_os', 'memory_option_gib', 'goal', 'method',
  'optimizer', 'precision', 'quantization', 'seq_len', 'micro_batch', 'checkpointing', 'lora_rank', 'lora_targets',
  'zero_stage', 'offload', 'dataset_tokens', 'cpu', 'hours_per_day', 'tokens_per_day', 'electricity',
  'lifetime_years', 'utilization', 'pue', 'upkeep', 'serve_engine', 'serve_load', 'concurrency', 'request_rate', 'serve_input_tokens',
  'serve_output_tokens', 'ttft_ms', 'tokens_per_s', 'tp', 'unit', 'lang'];
/** Keys that are left out of a link while they hold their "not set" value. */
const OPTIONAL_KEYS = new Set(['cpu', 'config', 'file_model', 'name', 'group_size', 'dataset_tokens', 'lang', 'machine_base', 'machine_os', 'memory_option_gib', 'tokens_per_day',
  'ubatch', 'parallel', 'draft_model', 'draft_weights', 'draft_max', 'draft_acceptance', 'also']);
/** A draft model for speculative decoding (the request's `draft`): in a link and a request only with a
 *  draft model chosen, for inference. */
const DRAFT_KEYS = new Set(['draft_model', 'draft_weights', 'draft_max', 'draft_acceptance']);
/** Models kept loaded beside the model (the request's `also_loaded`): "model:weights" pairs joined by
 *  commas, weights '' for the model's own format; at most 8, for inference. */
const MAX_ALSO = 8;
export function alsoEntries(text) {
  return String(text || '').split(',').filter(Boolean).slice(0, MAX_ALSO).map((pair) => {
    const [model, weights = ''] = pair.split(':');
    return { model, weights };
  });
}
export const alsoText = (entries) => entries.map((e) => `${e.model}:${e.weights || ''}`).join(',');
/** llama.cpp's own settings (llama-server -ub, -np, -ngl, --kv-unified, --no-mmap): in a link and a
 *  request only with the llama.cpp engine. `gpu_layers` '' is "not set" (all layers, the core's -1);
 *  0 is a choice (every layer on the CPU). */
const LLAMA_CPP_KEYS = new Set(['ubatch', 'parallel', 'gpu_layers', 'kv_unified', 'mmap']);
/** Serving many people (task 'serve', the request's `workload`, `slo`, `layout` and its own engines):
 *  in a link and a request only for that task. `serve_load` says which load is meant: people at once
 *  (`concurrency`) or requests per second (`request_rate`). `ttft_ms` and `tokens_per_s` (the speed
 *  each person reads at, sent as slo.tpot_ms = 1000 / tokens_per_s) are the latency target; 0 is none. */
const SERVE_KEYS = new Set(['serve_engine', 'serve_load', 'concurrency', 'request_rate', 'serve_input_tokens', 'serve_output_tokens',
  'ttft_ms', 'tokens_per_s', 'tp']);
const SERVE_LOADS = ['concurrency', 'request_rate'];
const SLO_KEYS = new Set(['ttft_ms', 'tokens_per_s']);
/** "My machine" typed in (hardware 'machine'): its memory in GiB as computers are sold ("16 GB" of RAM
 *  is 16 GiB), sent to the core as "16 GiB"; the core applies the OS share and says what it assumed. */
export const MACHINE_HARDWARE = 'machine';
const MACHINE_KEYS = new Set(['machine_base', 'machine_ram_gib', 'machine_vram_gib', 'machine_gpus', 'machine_unified', 'machine_os']);
/** My machine's operating system (the core's machine.os): it decides the GPU's share of unified memory. */
export const MACHINE_OS = ['macos', 'windows', 'linux'];
/** Hardware that is a probe file loaded in this page ("my machine"): kept in state.probe (the
 *  document), never in a link — a probe file is several kilobytes, too big for a URL. */
export const PROBE_HARDWARE = 'probe';


const INT_KEYS = new Set(['input_tokens', 'output_tokens', 'batch', 'gpus', 'seq_len', 'micro_batch', 'lora_rank', 'zero_stage',
  'dataset_tokens', 'machine_gpus', 'tokens_per_day', 'ubatch', 'parallel', 'gpu_layers', 'draft_max', 'concurrency', 'serve_input_tokens',
  'serve_output_tokens', 'tp']);
/** Plain decimals (ranges are the core's): the budget, my machine's memory, the cost table's hours a day and $/kWh. */
const DECIMAL_KEYS = new Set(['budget_gb', 'machine_ram_gib', 'machine_vram_gib', 'memory_option_gib', 'hours_per_day', 'electricity',
  'lifetime_years', 'utilization', 'pue', 'upkeep', 'draft_acceptance', 'request_rate', 'ttft_ms', 'tokens_per_s']);
/** How one owns hardware (the cost table's request `cost`), each by its name there: '' is not set
 *  (the core's default, which the field shows as its placeholder), 0 a value (no upkeep, never at
 *  full power). The core checks their ranges and names them in its error. */
export const OWNERSHIP_KEYS = { lifetime_years: 'lifetime_years', utilization: 'utilization', pue: 'pue', upkeep: 'upkeep_usd_per_year' };
const TEXT_KEYS = new Set(['name']);
/** Keys holding a JSON object as text: a pasted config.json, and the `request_model` the core gave
 *  for an imported weights file (inspectModelFile). */
const JSON_KEYS = new Set(['config', 'file_model']);
const BOOL_KEYS = new Set(['checkpointing', 'offload', 'machine_unified', 'kv_unified', 'mmap']);
/** A key's name in a link where it differs from the state's. `&micro_batch` inside an HTML attribute
 *  or text is read as the entity `&micro` (µ) followed by `_batch` (HTML Standard, "named character
 *  reference state": legacy entities need no `;`), so a pasted embed lost the parameter. The new
 *  name starts with no HTML entity name; the old one is still read (links already shared). */
const URL_NAMES = { micro_batch: 'training_micro_batch' };
const URL_ALIASES = new Map([['training_micro_batch', 'micro_batch'], ['micro_batch', 'micro_batch']]);
const MAX_URL_CHARS = 65536;
const MAX_CONFIG_CHARS = 60000;
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** The menus' ids, from the core's lists (a Set per menu). A menu is null while its list is not read
 *  yet (the page reads listOptions, listModels and listHardware after its first result, to show that
 *  result sooner): then any well-formed id passes here, the core rejects an unknown one (the start-up
 *  check in session.js puts it back to its default with a notice), and app.js checks the hardware
 *  once listed. */
export function menusFrom(options, models, hardware) {
  const ids = (items) => new Set((items || []).map((x) => (typeof x === 'string' ? x : x && x.id)).filter((x) => typeof x === 'string'));
  const training = (options && options.training) || {};
  return {
    model: models ? ids(models) : null,
    weights: options.weights ? new Set([...ids(options.weights), 'file']) : null,  // 'file': as stored in an imported weights file
    kv_cache: options.kv_cache ? ids(options.kv_cache) : null,
    engine: options.engines ? ids(options.engines) : null,
    task: ids(options.tasks && options.tasks.length ? options.tasks : ['inference', 'training', 'serve']),
    serve_engine: options.serve ? ids(options.serve.engines) : null,
    serve_load: new Set(SERVE_LOADS),
    hardware: hardware ? ids(hardware) : null,
    // Until listOptions lists the training choices, the contract's and the training request's values;
    // the core rejects any this build does not know, and the page shows its message by the field.
    method: ids(training.methods || ['full', 'freeze', 'lora', 'qlora']),
    optimizer: ids(training.optimizers || ['adamw', 'adamw-8bit', 'paged-adamw-8bit', 'paged-adamw', 'sgd', 'sgd-momentum', 'adafactor', 'lion']),
    precision: ids(training.precisions || ['mixed-bf16', 'mixed-fp16', 'bf16', 'fp32']),
    quantization: ids(training.quantizations || ['nf4', 'nf4-no-double-quant', 'gptq-int4']),
    goal: ids(options.goals || ['best-value', 'cheapest', 'fastest', 'local', 'laptop']),
    // LoRA target names: the core's modules and presets (listOptions lora_targets).
    lora_targets: options.lora_targets ? new Set([...(options.lora_targets.modules || []), ...Object.keys(options.lora_targets.presets || {})]) : null,
    unit: new Set(['gb', 'gib']),
    lang: new Set(['en', 'ja']),
  };
}

/** The page's state for the core's starting view (listOptions `defaults`, a request: the model,
 *  formats, tokens, the memory budget and the training form's values). The core decides them; the
 *  page keeps only its own display choices (unit, language) and that it starts on the budget. */
export function defaults(coreDefaults) {
  const d = coreDefaults || {};
  const training = d.training || {};
  return {
    model: d.model,
    config: '',
    file_model: '',
    name: '',
    task: d.task,
    weights: d.weights,
    group_size: 0,
    kv_cache: d.kv_cache,
    engine: d.engine,
    ubatch: 0,
    parallel: 0,
    gpu_layers: '',
    kv_unified: Boolean(d.kv_unified),
    mmap: d.mmap !== false,
    draft_model: '',
    draft_weights: '',
    draft_max: 0,
    draft_acceptance: 0,
    also: '',
    input_tokens: d.input_tokens,
    output_tokens: d.output_tokens,
    batch: d.batch,
    gpus: d.gpus,
    hardware: 'budget',
    budget_gb: d.budget_bytes / 1e9,
    machine_base: '',
    machine_ram_gib: 16,
    machine_vram_gib: 8,
    machine_gpus: 1,
    machine_unified: false,
    machine_os: '',
    memory_option_gib: 0,
    goal: d.goal,
    method: training.method,
    optimizer: training.optimizer,
    precision: training.precision,
    quantization: training.quantization,
    seq_len: training.seq_len,
    micro_batch: training.micro_batch,
    checkpointing: training.gradient_checkpointing,
    lora_rank: training.lora_rank,
    lora_targets: (training.lora_targets || []).join(','),
    zero_stage: training.zero_stage,
    offload: training.offload_optimizer,
    dataset_tokens: 0,
    cpu: '',  // the device's own CPU (a laptop's, a Mac's, my machine's), else the core's reference CPU
    hours_per_day: (d.usage || {}).hours_per_day,
    tokens_per_day: 0,
    electricity: (d.cost || {}).electricity_usd_per_kwh,
    lifetime_years: '',
    utilization: '',
    pue: '',
    upkeep: '',
    serve_engine: 'vllm',
    serve_load: 'concurrency',
    concurrency: 20,
    request_rate: 1,
    serve_input_tokens: 1000,
    serve_output_tokens: 1000,
    ttft_ms: 2000,
    tokens_per_s: 20,
    tp: 1,
    unit: 'gb',
    lang: '',
  };
}

/** Removes keys that could reach an object's prototype from parsed JSON; counts what it removed. */
export function parseConfigText(text) {
  let removed = 0;
  const value = JSON.parse(text, (key, v) => {
    if (FORBIDDEN_KEYS.has(key)) { removed++; return undefined; }
    return v;
  });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  return { value, removed };
}

function shortText(s) {
  const clean = String(s).replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/**
 * Reads state from a URL's query and hash (the hash wins). Returns {state, notices, fromUrl}: each
 * notice is {key, value, reason} with reason one of 'unknown-key', 'unknown-id', 'not-number',
 * 'bad-json', 'too-long', 'unsafe-key', 'bad-value'. `fromUrl` lists the keys taken from the URL.
 */
export function readUrl(href, menus, base) {
  const state = { ...base };
  const notices = [];
  const fromUrl = [];
  let url;
  try {
    url = new URL(href);
  } catch {
    return { state, notices: [{ key: '', value: '', reason: 'bad-value' }], fromUrl };
  }
  const raw = `${url.search.slice(1)}&${url.hash.slice(1)}`;
  if (raw.length > MAX_URL_CHARS) return { state, notices: [{ key: '', value: '', reason: 'too-long' }], fromUrl };
  let params;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return { state, notices: [{ key: '', value: '', reason: 'bad-value' }], fromUrl };
  }
  const seen = new Map();
  // A later value (the hash) wins; a key's current name wins over its old one wherever they stand
  // (a link edited by hand may keep an old micro_batch beside the training_micro_batch written since).
  const current = new Set();
  for (const [name, value] of params) {
    const key = URL_ALIASES.get(name) || name;
    const isCurrent = URL_ALIASES.has(name) && (URL_NAMES[key] || key) === name;
    if (current.has(key) && !isCurrent) continue;
    if (isCurrent) current.add(key);
    seen.set(key, value);
  }
  for (const [key, value] of seen) {
    if (key === '' || key === 'hub') continue;  // the hub the page reads by id (lib/hub.js): not state, never in a link
    if (!KEYS.includes(key)) { notices.push({ key: shortText(key), value: shortText(value), reason: 'unknown-key' }); continue; }
    const reject = (reason) => notices.push({ key, value: shortText(value), reason });
    if (INT_KEYS.has(key)) {
      const digits = key === 'dataset_tokens' || key === 'tokens_per_day' ? 15 : 9;
      if (!new RegExp(`^\\d{1,${digits}}$`).test(value)) { reject('not-number'); continue; }
      state[key] = Number(value);
    } else if (key === 'group_size') {
      if (!/^(-1|\d{1,5})$/.test(value)) { reject('not-number'); continue; }
      state[key] = Number(value);
    } else if (BOOL_KEYS.has(key)) {
      if (value !== '0' && value !== '1') { reject('bad-value'); continue; }
      state[key] = value === '1';
    } else if (DECIMAL_KEYS.has(key)) {
      if (!/^\d{1,6}(\.\d{1,3})?$/.test(value) || (Number(value) <= 0 && !(key in OWNERSHIP_KEYS) && !SLO_KEYS.has(key))) { reject('not-number'); continue; }
      state[key] = Number(value);
    } else if (JSON_KEYS.has(key)) {
      if (value.length > MAX_CONFIG_CHARS) { reject('too-long'); continue; }
      try {
        const { value: config, removed } = parseConfigText(value);
        if (removed) notices.push({ key, value: '__proto__', reason: 'unsafe-key' });
        state[key] = JSON.stringify(config);
      } catch {
        reject('bad-json');
        continue;
      }
    } else if (TEXT_KEYS.has(key)) {
      state[key] = value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 120);
    } else if (key === 'lora_targets') {
      // Names the core lists (or, before it has listed them, plain module names: it vets them).
      const parts = value.split(',');
      const known = (p) => (menus.lora_targets ? menus.lora_targets.has(p) : /^[a-z][a-z0-9_-]{0,39}$/.test(p));
      if (!parts.every(known)) { reject('unknown-id'); continue; }
      state.lora_targets = [...new Set(parts)].join(',');
    } else if (key === 'machine_os') {
      if (!MACHINE_OS.includes(value)) { reject('unknown-id'); continue; }
      state[key] = value;
    } else if (key === 'also') {
      const id = (value, menu) => (menu ? menu.has(value) : /^[A-Za-z0-9._-]{1,100}$/.test(value));
      const entries = alsoEntries(value);
      if (!entries.every((e) => id(e.model, menus.model) && (e.weights === '' || id(e.weights, menus.weights)))) { reject('unknown-id'); continue; }
      state.also = alsoText(entries);
    } else if (key === 'draft_model' || key === 'draft_weights') {
      const menu = menus[key === 'draft_model' ? 'model' : 'weights'];
      if (!(menu ? menu.has(value) : /^[A-Za-z0-9._-]{1,100}$/.test(value))) { reject('unknown-id'); continue; }
      state[key] = value;
    } else if (key === 'model' || key === 'hardware' || key === 'machine_base' || key === 'cpu') {
      const menu = key === 'machine_base' || key === 'cpu' ? menus.hardware : menus[key];
      const known = menu ? menu.has(value) : /^[A-Za-z0-9._-]{1,100}$/.test(value);
      if (!(known || (key === 'hardware' && (value === 'budget' || value === MACHINE_HARDWARE)))) { reject('unknown-id'); continue; }
      state[key] = value;
    } else {
      const known = menus[key] ? menus[key].has(value) : menus[key] === null && /^[A-Za-z0-9._-]{1,100}$/.test(value);
      if (!known) { reject('unknown-id'); continue; }
      state[key] = value;
    }
    fromUrl.push(key);
  }
  if (state.config && state.file_model) state.config = '';  // an imported file's model wins
  if (state.config || state.file_model) state.model = base.model;
  if (!state.file_model && state.weights === 'file') state.weights = base.weights;
  return { state, notices, fromUrl };
}

/** The state as URL parameters (every key but those that do not apply, so a link restores exactly). */
export function toParams(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = state[key];
    if (OPTIONAL_KEYS.has(key) && !value) continue;
    if (key in OWNERSHIP_KEYS && value === '') continue;
    if (LLAMA_CPP_KEYS.has(key) && (state.engine !== 'llama.cpp' || value === '')) continue;
    if (DRAFT_KEYS.has(key) && (!state.draft_model || state.task !== 'inference')) continue;
    if (key === 'also' && state.task !== 'inference') continue;
    if (SERVE_KEYS.has(key) && state.task !== 'serve') continue;
    if ((key === 'concurrency' || key === 'request_rate') && state.serve_load !== key) continue;
    if (key === 'model' && (state.config || state.file_model)) continue;
    if (key === 'config' && state.file_model) continue;
    if (key === 'hardware' && value === PROBE_HARDWARE) continue;  // a link opens with the default hardware
    if (key === 'budget_gb' && state.hardware !== 'budget') continue;
    if (MACHINE_KEYS.has(key) && state.hardware !== MACHINE_HARDWARE) continue;
    if (key === 'memory_option_gib' && (state.hardware === MACHINE_HARDWARE || state.hardware === 'budget')) continue;
    const name = URL_NAMES[key] || key;
    if (typeof value === 'boolean') params.set(name, value ? '1' : '0');
    else params.set(name, String(value));
  }
  return params;
}

/** Documented height of the embed frame in CSS pixels (EMBED.md; tests/js/page_embed.mjs checks the
 *  compact view fits it without a scroll bar). */
export const EMBED_HEIGHT_PX = 420;

/** Text made safe inside a double-quoted HTML attribute: `&` first, so a link's `&name=` is not read
 *  as an entity. */
export function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The <iframe> that embeds this state's compact view (embed.html next to `pageUrl`), as HTML. */
export function embedCode(state, pageUrl, title) {
  const src = new URL(`embed.html?${toParams(state).toString()}`, pageUrl).href;
  return `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" width="100%" height="${EMBED_HEIGHT_PX}" loading="lazy" style="border: 0"></iframe>`;
}

/** The request the core answers for this state (contract: Request). */
export function toRequest(state, { withHardware = true } = {}) {
  let model = state.model;
  const fromFile = Boolean(state.file_model);
  if (fromFile) {
    // The core's own request model for the file (inspectModelFile's request_model: the header's
    // architecture, exact parameter count and stored bytes), sent as it came.
    try { model = JSON.parse(state.file_model); } catch { model = state.file_model; }
  } else if (state.config) {
    try { model = { config: JSON.parse(state.config) }; } catch { model = { config: state.config }; }
  }
  const serving = state.task === 'serve';
  const request = serving ? { model, task: state.task } : { model, task: state.task, gpus: state.gpus };
  // From a file the stored bytes stand for the weights unless a format is chosen (useFileWeights).
  if (!(fromFile && state.weights === 'file')) request.weights = state.weights;
  if (state.group_size) request.group_size = state.group_size;
  if (state.task === 'training') {
    const training = {
      method: state.method,
      optimizer: state.optimizer,
      precision: state.precision,
      seq_len: state.seq_len,
      micro_batch: state.micro_batch,
      gradient_checkpointing: state.checkpointing,
      zero_stage: state.zero_stage,
      offload_optimizer: state.offload,
    };
    if (state.method === 'lora' || state.method === 'qlora') {
      training.lora_rank = state.lora_rank;
      training.lora_targets = state.lora_targets ? state.lora_targets.split(',') : [];
    }
    if (state.method === 'qlora') training.quantization = state.quantization;
    if (state.dataset_tokens) training.dataset_tokens = state.dataset_tokens;
    request.training = training;
  } else if (serving) {
    // The GPUs come from the layout (GPUs per replica) and the replicas the core finds for the load.
    request.engine = state.serve_engine;
    request.layout = { tp: state.tp };
    const workload = { input_tokens: state.serve_input_tokens, output_tokens: state.serve_output_tokens };
    if (state.serve_load === 'request_rate') workload.request_rate = state.request_rate;
    else workload.concurrency = state.concurrency;
    request.workload = workload;
    const slo = {};
    if (state.ttft_ms) slo.ttft_ms = state.ttft_ms;
    // Tokens a second each person reads → the time per output token; what is not a number goes as typed (the core names slo.tpot_ms).
    if (state.tokens_per_s) slo.tpot_ms = typeof state.tokens_per_s === 'number' ? 1000 / state.tokens_per_s : state.tokens_per_s;
    if (Object.keys(slo).length) request.slo = slo;
  } else {
    Object.assign(request, { kv_cache: state.kv_cache, engine: state.engine, input_tokens: state.input_tokens,
      output_tokens: state.output_tokens, batch: state.batch });
    if (state.engine === 'llama.cpp') {
      // Only what differs from llama-server's defaults, so the default request stays the same text.
      if (state.ubatch) request.ubatch = state.ubatch;
      if (state.parallel) request.parallel = state.parallel;
      if (state.gpu_layers !== '' && state.gpu_layers !== undefined) request.n_gpu_layers = state.gpu_layers;
      if (state.kv_unified) request.kv_unified = true;
      if (state.mmap === false) request.mmap = false;
    }
    if (state.draft_model) {
      const draft = { model: state.draft_model };
      if (state.draft_weights) draft.weights = state.draft_weights;
      if (state.draft_max) draft.draft_max = state.draft_max;
      if (state.draft_acceptance) draft.acceptance_rate = state.draft_acceptance;
      request.draft = draft;
    }
    const also = alsoEntries(state.also);
    if (also.length) request.also_loaded = also.map((e) => (e.weights ? { model: e.model, weights: e.weights } : { model: e.model }));
  }
  if (withHardware && state.hardware === PROBE_HARDWARE) {
    if (state.probe) request.hardware = state.probe;  // the probe document itself (contract: hardware object)
  } else if (withHardware && state.hardware === MACHINE_HARDWARE) {
    // Typed sizes go as the core reads them ("16 GiB"); what is not a number goes as typed (the core names the field).
    const size = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${v} GiB` : v);
    const machine = { ram_bytes: size(state.machine_ram_gib), unified_memory: state.machine_unified };
    if (!state.machine_unified) Object.assign(machine, { gpus: state.machine_gpus, vram_bytes: state.machine_gpus ? size(state.machine_vram_gib) : 0 });
    if (state.machine_base) machine.base = state.machine_base;
    if (state.machine_os) machine.os = state.machine_os;
    request.machine = machine;
  } else if (withHardware && state.hardware && state.hardware !== 'budget') {
    request.hardware = state.hardware;
    // A device sold in several memory configurations: the one chosen (the core checks it is one of them).
    if (state.memory_option_gib) request.memory_option_bytes = `${state.memory_option_gib} GiB`;
  } else if (withHardware && state.hardware === 'budget') {
    // The budget in bytes; the core says whether the request fits it (and rejects what is no budget).
    const gb = state.budget_gb;
    request.budget_bytes = typeof gb === 'number' && Number.isFinite(gb) ? Math.round(gb * 1e9) : gb;
  }
  // "CPU or GPU" on the CPU chosen (the core reads it for a GPU).
  if (request.hardware && state.task === 'inference' && state.cpu) request.cpu = state.cpu;
  return request;
}

/** The ranking and cost table's request (recommend): the hardware chosen is the person's own
 *  ("use what you have"), with the usage pattern and electricity price of the cost table. The page
 *  renders every sentence of it from its data (lib/view.js message), in either language, so the core
 *  is asked to leave its English text out: over the whole catalog the answer is 16% smaller and
 *  written in about half the time. `maxOptions`: the rows the ranking shows (the core
 *  still ranks the whole catalog and says how many fit); none lists every option. */
export function recommendRequest(state, maxOptions) {
  const request = { ...toRequest(state), goal: state.goal, english_text: false };
  if (maxOptions) request.max_options = maxOptions;
  delete request.budget_bytes;
  delete request.cpu;
  delete request.draft;
  delete request.also_loaded;
  if (typeof request.hardware === 'object') delete request.hardware;  // a probe file: the ranking lists it
  request.usage = state.tokens_per_day ? { tokens_per_day: state.tokens_per_day } : { hours_per_day: state.hours_per_day };
  request.cost = { electricity_usd_per_kwh: state.electricity };
  for (const [key, name] of Object.entries(OWNERSHIP_KEYS)) if (state[key] !== '') request.cost[name] = state[key];
  return request;
}

/** Which state key a core error's `field` (a JSON path) points at. */
export function stateKeyForField(field) {
  const f = String(field || '');
  if (f.startsWith('draft')) return { 'draft.weights': 'draft_weights', 'draft.draft_max': 'draft_max', 'draft.acceptance_rate': 'draft_acceptance' }[f] || 'draft_model';
  if (f.startsWith('also_loaded')) return 'also';
  if (f.startsWith('model')) return 'model';
  if (f.startsWith('hardware')) return 'hardware';
  if (f === 'budget_bytes') return 'budget_gb';
  if (f === 'n_gpu_layers') return 'gpu_layers';
  const machine = { 'machine.ram_bytes': 'machine_ram_gib', 'machine.vram_bytes': 'machine_vram_gib', 'machine.gpus': 'machine_gpus',
    'machine.base': 'machine_base', 'machine.unified_memory': 'machine_unified', 'machine.os': 'machine_os' };
  if (f === 'memory_option_bytes') return 'memory_option_gib';
  if (machine[f]) return machine[f];
  if (f.startsWith('machine')) return 'machine_ram_gib';
  if (f === 'usage.hours_per_day') return 'hours_per_day';
  if (f === 'usage.tokens_per_day') return 'tokens_per_day';
  if (f === 'cost.electricity_usd_per_kwh') return 'electricity';
  const serving = { 'workload.concurrency': 'concurrency', 'workload.request_rate': 'request_rate', 'workload.input_tokens': 'serve_input_tokens',
    'workload.output_tokens': 'serve_output_tokens', 'slo.ttft_ms': 'ttft_ms', 'slo.tpot_ms': 'tokens_per_s', 'layout.tp': 'tp' };
  if (serving[f]) return serving[f];
  if (f.startsWith('workload') || f.startsWith('slo') || f.startsWith('layout')) return 'concurrency';
  const owned = Object.keys(OWNERSHIP_KEYS).find((k) => f === `cost.${OWNERSHIP_KEYS[k]}`);
  if (owned) return owned;
  const map = { kv_cache: 'kv_cache', 'training.method': 'method', 'training.optimizer': 'optimizer',
    'training.precision': 'precision', 'training.seq_len': 'seq_len', 'training.micro_batch': 'micro_batch',
    'training.gradient_checkpointing': 'checkpointing', 'training.lora_rank': 'lora_rank',
    'training.lora_targets': 'lora_targets', 'training.zero_stage': 'zero_stage', 'training.offload_optimizer': 'offload',
    'training.quantization': 'quantization', 'training.dataset_tokens': 'dataset_tokens' };
  if (map[f]) return map[f];
  const last = f.split('.').pop();
  return KEYS.includes(last) ? last : '';
}
