// SPDX-License-Identifier: MIT
// The page: reads the form into a request, asks the WASM core, renders its answer. Every number
// shown comes from the core (estimate, recommend, listModels, listHardware, listOptions); this file
// only converts bytes to GB/GiB and formats numbers for the reader's language.
import { pageLang, startSession } from './lib/session.js';
import { MACHINE_HARDWARE, OWNERSHIP_KEYS, PROBE_HARDWARE, alsoEntries, alsoText, embedCode, menusFrom, parseConfigText, recommendRequest, stateKeyForField, toParams, toRequest } from './lib/state.js';
import { fieldLabel, formatter, loadStrings, translator } from './lib/i18n.js';
import { contextChart } from './lib/charts.js';
import { el, message, messages, partLabel, renderBreakdown, renderExplain, renderFields, renderVerdict, totalBytes, verdictOf } from './lib/view.js';

const $ = (id) => document.getElementById(id);
// The inputs and the result cards come as templates in index.html (out of the first paint's way):
// in place before anything reads them.
for (const id of ['inputs-template', 'cards-template']) {
  const template = $(id);
  if (template) template.replaceWith(template.content);
}
const START_HREF = location.href;  // the hub= it names, read before the address is rewritten (loadFromHub)
const S = await startSession().catch(failedStart);
const { call, menus, base } = S;
let { options } = S;  // listOptions, read right after the first result (loadOptions)
let models = [];    // listModels and listHardware are read after the first result (see loadCatalogs)
let hardware = [];
let { state, t, f } = S;
let lastResponse = null;
let extrasTimer = 0;
let urlTimer = 0;
let extrasGeneration = 0;
let extrasPending = false;  // the extras wait for their timer (scheduleExtras)
let showAllOptions = false;
/** Rows of the ranking shown before the reader asks for all. */
const RANKING_ROWS = 10;
let showAllPrecisions = false;
let probeName = '';    // the core's name for a loaded probe file's device ("measured: …")
let probeSource = '';  // where that probe file came from (its file name, or this browser)
let hubRead = null;    // {plan, chosen}: the repository read by id, while its model is in use
let serveView = null;  // lib/serve.js, loaded when the Serve task is first shown
let serveViewLoading = null;
let alsoView = null;  // lib/also_loaded.js, loaded when a model is first kept loaded beside this one
let serveRanking = {};  // the Serve task's ranking: its request and the core's answer, asked again only when the request changes

const modelById = new Map();
const hardwareById = new Map();
const NUMBER_KEYS = ['input_tokens', 'output_tokens', 'batch', 'gpus', 'seq_len', 'micro_batch', 'lora_rank', 'budget_gb',
  'machine_ram_gib', 'machine_vram_gib', 'machine_gpus', 'concurrency', 'request_rate', 'serve_input_tokens', 'serve_output_tokens', 'tp'];
const OPTIONAL_NUMBER_KEYS = ['group_size', 'dataset_tokens', 'ubatch', 'parallel', 'draft_max', 'draft_acceptance', 'ttft_ms', 'tokens_per_s'];  // empty means "not set" (0)
const SELECT_KEYS = ['weights', 'kv_cache', 'engine', 'method', 'optimizer', 'precision', 'quantization', 'hardware', 'goal', 'cpu', 'serve_engine', 'serve_load'];
/** The cards that answer one person's inference or a training run; the Serve task shows its own card instead. */
const SINGLE_RUN_CARDS = ['chart-card', 'precision-card', 'options-card', 'costs-card'];
/** The cost table's inputs (outside the form, like the ranking's goal): they change only the table. */
const USAGE_KEYS = ['hours_per_day', 'tokens_per_day', 'electricity', ...Object.keys(OWNERSHIP_KEYS)];

/** The core or the strings did not load (no WebAssembly, a blocked file): the page says so in the
 *  reader's language when its strings can still be read, and never stays hidden. Returns a promise
 *  that never settles, so nothing below runs without a session. */
function failedStart(error) {
  document.body.dataset.started = 'true';
  const status = $('status');
  status.className = 'error';
  status.textContent = `Error: ${String((error && error.message) || error)}`;
  loadStrings(pageLang()).then((strings) => {
    status.textContent = `${translator(strings)('status.failed')} (${String((error && error.message) || error)})`;
  }).catch(() => {});
  return new Promise(() => {});
}

// ---------------------------------------------------------------- text and menus

function translateStatic() {
  document.documentElement.lang = S.lang;
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
  $('lang-switch').lang = S.lang === 'ja' ? 'en' : 'ja';
  document.title = t('title');
}

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

/** Fills a select from items grouped by `groupOf` (no groups when it returns ''). */
function fillGrouped(select, items, { value, text, groupOf = () => '' }) {
  const groups = new Map();
  for (const item of items) {
    const g = groupOf(item);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(item);
  }
  const nodes = [];
  for (const [g, list] of groups) {
    const target = g ? document.createElement('optgroup') : null;
    if (target) target.label = g;
    for (const item of list) (target || { append: (o) => nodes.push(o) }).append(option(value(item), text(item)));
    if (target) nodes.push(target);
  }
  select.replaceChildren(...nodes);
}

const idOf = (x) => (typeof x === 'string' ? x : x.id);
/** A weight or KV-cache format's name in the page's language (the core's term, else its English name). */
const formatName = (x) => (typeof x === 'string' ? x : message(t, f, x.name_data, x.name || x.id));
/** The module names of a LoRA target preset ("attention", "all-linear"), as the core lists them. */
const targetPreset = (name) => (((options.lora_targets || {}).presets || {})[name] || []);
const nameOf = (prefix) => (x) => {
  if (typeof x !== 'string' && x.name) return x.name;
  const key = `${prefix}.${idOf(x)}`;
  const s = t(key);
  return s === key ? idOf(x) : s;
};

const weightGroups = () => (Array.isArray(options.weight_groups) ? options.weight_groups : []);

/** The weight formats in the core's group order (weight_groups) when it gives one. */
function orderedWeights() {
  const weights = options.weights || [];
  const groups = weightGroups();
  return groups.length ? groups.flatMap((g) => (g.formats || []).map((id) => weights.find((w) => w.id === id)).filter(Boolean)) : weights;
}

/** "✓ fits" / "✗ does not fit"; the word is for screen readers only on a narrow screen. */
function fitMark(fits) {
  return [fits ? '✓ ' : '✗ ', el('span', { cls: 'fit-word', text: t(fits ? 'value.fits' : 'value.noFit') })];
}

function fillMenus() {
  fillModels();
  // Formats grouped by ecosystem, in the core's order (weight_groups) when it gives one.
  const groups = weightGroups();
  const ordered = orderedWeights();
  const groupLabel = (w) => {
    const g = groups.find((x) => (x.formats || []).includes(w.id));
    const eco = g ? g.ecosystem : w.ecosystem;
    const key = `ecosystem.${eco}`;
    return !eco ? '' : t(key) !== key ? t(key) : (g && g.label) || eco;
  };
  fillGrouped($('weights'), ordered, {
    value: idOf,
    text: (w) => (typeof w.bits_per_weight === 'number' ? `${formatName(w)} · ${t('unit.bitsPerWeight', { value: f.sig(w.bits_per_weight) })}` : formatName(w)),
    groupOf: groupLabel,
  });
  if (state.file_model) $('weights').prepend(option('file', t('import.asStored')));
  fillGrouped($('kv_cache'), options.kv_cache || [], { value: idOf, text: formatName });
  // The draft: any preset (none chosen: no draft), in any format (none chosen: the model's).
  fillGrouped($('draft_model'), models.length ? models : state.draft_model ? [{ id: state.draft_model, name: state.draft_model }] : [],
    { value: (m) => m.id, text: (m) => m.name || m.id, groupOf: (m) => m.family || t('model.otherFamily') });
  $('draft_model').prepend(option('', t('draft.none')));
  $('draft_model').value = state.draft_model || '';
  fillGrouped($('draft_weights'), ordered, { value: idOf, text: formatName });
  $('draft_weights').prepend(option('', t('draft.sameWeights')));
  $('draft_weights').value = state.draft_weights || '';
  writeAlso();
  fillGrouped($('engine'), options.engines || [], { value: idOf, text: nameOf('engine') });
  fillGrouped($('serve_engine'), (options.serve || {}).engines || [], { value: idOf, text: nameOf('engine') });
  const training = options.training || {};
  fillGrouped($('method'), training.methods || [...menus.method], { value: idOf, text: nameOf('method') });
  fillGrouped($('optimizer'), training.optimizers || [...menus.optimizer], { value: idOf, text: nameOf('optimizer') });
  fillGrouped($('precision'), training.precisions || [...menus.precision], { value: idOf, text: nameOf('precision') });
  fillGrouped($('quantization'), training.quantizations || [...menus.quantization], { value: idOf, text: nameOf('quantization') });
  fillGrouped($('goal'), options.goals || [...menus.goal], { value: idOf, text: nameOf('goal') });
  const hw = $('hardware');
  fillGrouped(hw, hardware, {
    value: (h) => h.id,
    text: (h) => {
      const bytes = h.memory_bytes ?? h.gpu_memory_bytes;
      return typeof bytes === 'number' ? `${h.name || h.id} · ${f.deviceBytes(bytes)}` : h.name || h.id;
    },
    groupOf: (h) => nameOf('hwkind')(h.kind || 'other'),
  });
  if (state.probe) {
    const mine = document.createElement('optgroup');
    mine.label = t('hwkind.measured');
    mine.append(option(PROBE_HARDWARE, probeName || t('probe.measured')));
    hw.prepend(mine);
  }
  hw.prepend(option(MACHINE_HARDWARE, t('hardware.machine')));
  hw.prepend(option('budget', t('hardware.budget')));
  const cpus = hardware.filter((h) => h.kind === 'cpu');
  fillGrouped($('cpu'), cpus.length ? cpus : state.cpu ? [{ id: state.cpu, name: state.cpu }] : [], { value: (h) => h.id, text: (h) => h.name || h.id });
  // None chosen: the core compares a laptop, a Mac or your machine with its own CPU, a card with its reference CPU.
  $('cpu').prepend(option('', t('cpu.own')));
  $('cpu').value = state.cpu || '';
  // My machine is like which device (its speed figures): any but a rented instance; none, a typical
  // machine with its memory (the core picks it and says which).
  if (hardware.length) {
    fillGrouped($('machine_base'), hardware.filter((h) => h.kind !== 'instance'), { value: (h) => h.id, text: (h) => h.name || h.id, groupOf: (h) => nameOf('hwkind')(h.kind || 'other') });
    $('machine_base').prepend(option('', t('machine.typical')));
    $('machine_base').value = state.machine_base || '';
  }
  if (!hardware.length && state.hardware !== 'budget' && state.hardware !== PROBE_HARDWARE && state.hardware !== MACHINE_HARDWARE) hw.append(option(state.hardware, state.hardware));
  const boxes = $('target-boxes');
  if (!boxes.childElementCount && targetPreset('all-linear').length) {
    for (const name of targetPreset('all-linear')) {
      const input = el('input', { attrs: { type: 'checkbox', id: `target-${name}`, value: name } });
      boxes.append(el('label', { cls: 'check' }, input, document.createTextNode(` ${name}`)));
    }
  }
}

/** Text as the preset search compares it: NFKC (a full-width "ｑｗｅｎ" typed with a Japanese input
 *  method is "qwen"), lower case, and without the separators names are written with, so "llama3"
 *  finds "Llama-3.1-8B" ("llama318b"). */
const searchKey = (text) => String(text).normalize('NFKC').toLowerCase().replace(/[-._\s]+/g, '');

function fillModels() {
  const terms = $('model-filter').value.normalize('NFKC').split(/\s+/).map(searchKey).filter(Boolean);
  const match = (m) => terms.every((term) => [m.name, m.id, m.family || ''].some((x) => searchKey(x).includes(term)));
  const placeholder = { id: state.model, name: (lastResponse && lastResponse.model && lastResponse.model.name) || state.model };
  const list = models.length ? models.filter((m) => match(m) || m.id === state.model) : [placeholder];
  fillGrouped($('model'), list, {
    value: (m) => m.id,
    text: (m) => (typeof m.params === 'number' ? `${m.name} (${f.count(m.params)})` : m.name),
    groupOf: (m) => m.family || t('model.otherFamily'),
  });
  $('model').value = imported() ? '' : state.model;
}

/** True while the model is an imported one (a pasted config.json or a weights file's header). */
const imported = () => Boolean(state.config || state.file_model);

/** The config.json-like object of the imported model, or null (a bare parameter count has none). */
function importedConfig() {
  try {
    if (state.file_model) return JSON.parse(state.file_model).config || null;
    return state.config ? JSON.parse(state.config) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- form <-> state

function writeForm() {
  for (const k of SELECT_KEYS) if ($(k)) $(k).value = String(state[k]);
  for (const k of NUMBER_KEYS) $(k).value = String(state[k]);
  for (const k of OPTIONAL_NUMBER_KEYS) $(k).value = state[k] ? String(state[k]) : '';
  for (const k of USAGE_KEYS) $(k).value = k in OWNERSHIP_KEYS ? String(state[k]) : state[k] ? String(state[k]) : '';
  // How one owns hardware: an empty field is the core's default, shown as its placeholder.
  const owning = ((options.defaults || {}).cost) || {};
  for (const [k, name] of Object.entries(OWNERSHIP_KEYS)) $(k).placeholder = typeof owning[name] === 'number' ? String(owning[name]) : '';
  $('zero_stage').value = String(state.zero_stage);
  $('checkpointing').checked = state.checkpointing;
  $('offload').checked = state.offload;
  $('machine_unified').checked = state.machine_unified;
  if ($('machine_base').options.length) $('machine_base').value = state.machine_base || '';
  $('machine_os').value = state.machine_os || '';
  $('gpu_layers').value = state.gpu_layers === '' ? '' : String(state.gpu_layers);
  $('kv_unified').checked = state.kv_unified;
  $('mmap').checked = state.mmap;
  // A link that sets any of llama.cpp's settings opens their group.
  if (state.ubatch || state.parallel || state.gpu_layers !== '' || state.kv_unified || !state.mmap) $('llama-cpp-settings').open = true;
  if ($('draft_model').options.length) $('draft_model').value = state.draft_model || '';
  if ($('draft_weights').options.length) $('draft_weights').value = state.draft_weights || '';
  if (state.draft_model) $('draft-settings').open = true;
  writeAlso();
  if (state.also) $('also-settings').open = true;
  $(`task-${state.task}`).checked = true;
  const targets = new Set(state.lora_targets.split(',').flatMap((n) => (targetPreset(n).length ? targetPreset(n) : [n])));
  for (const name of targetPreset('all-linear')) $(`target-${name}`).checked = targets.has(name);
  $('model').value = imported() ? '' : state.model;
  const config = importedConfig();
  if (config && !$('config-text').value) $('config-text').value = JSON.stringify(config, null, 2);
  for (const b of document.querySelectorAll('[data-unit]')) b.setAttribute('aria-pressed', String(b.dataset.unit === state.unit));
  showSections();
}

/** A number input's value: a number when it reads as one, else the raw text (the core explains what is wrong). */
function numberOf(input) {
  const raw = input.value.trim();
  if (raw === '' && input.validity.badInput) return 'not a number';
  return raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
}

function readForm() {
  const s = { ...state };
  for (const k of SELECT_KEYS) if ($(k).value) s[k] = $(k).value;
  if ($('cpu').options.length) s.cpu = $('cpu').value;  // '' is a choice: the device's own CPU
  for (const k of NUMBER_KEYS) s[k] = numberOf($(k));
  for (const k of OPTIONAL_NUMBER_KEYS) s[k] = $(k).value.trim() === '' && !$(k).validity.badInput ? 0 : numberOf($(k));
  s.zero_stage = Number($('zero_stage').value);
  s.checkpointing = $('checkpointing').checked;
  s.offload = $('offload').checked;
  s.machine_unified = $('machine_unified').checked;
  // The menus filled from the core's hardware list (until then the state keeps what a link said).
  if ($('machine_base').options.length) s.machine_base = $('machine_base').value;
  s.machine_os = $('machine_os').value;
  if ($('memory_option_gib').options.length) s.memory_option_gib = Number($('memory_option_gib').value) || 0;
  // llama.cpp's layers on the GPU: empty is "all" (not set); 0 keeps every layer on the CPU.
  s.gpu_layers = $('gpu_layers').value.trim() === '' && !$('gpu_layers').validity.badInput ? '' : numberOf($('gpu_layers'));
  s.kv_unified = $('kv_unified').checked;
  s.mmap = $('mmap').checked;
  if ($('draft_model').options.length) s.draft_model = $('draft_model').value;
  if ($('draft_weights').options.length) s.draft_weights = $('draft_weights').value;
  // The rows once drawn (lib/also_loaded.js loaded), their menus once the core's lists are in.
  if (alsoView && (options.weights || []).length) {
    s.also = alsoText([...$('also').querySelectorAll('.also-row')].map((row) => ({ model: row.querySelector('.also-model').value, weights: row.querySelector('.also-weights').value })).filter((e) => e.model));
  }
  s.task = $('task-training').checked ? 'training' : $('task-serve').checked ? 'serve' : 'inference';
  if (targetPreset('all-linear').length) {
    // The boxes checked, under a preset's name when they are exactly its modules.
    const checked = targetPreset('all-linear').filter((n) => $(`target-${n}`).checked);
    const preset = Object.keys((options.lora_targets || {}).presets || {}).find((p) => targetPreset(p).length === checked.length && targetPreset(p).every((n) => checked.includes(n)));
    s.lora_targets = preset || checked.join(',');
  }
  if ($('model').value) s.model = $('model').value;
  return s;
}

/** Loads lib/also_loaded.js (the first time a model is kept loaded beside this one). */
const loadAlso = () => import('./lib/also_loaded.js').then((m) => { alsoView = m; });

/** The "also loaded" rows (lib/also_loaded.js) from the state, their menus from the core's lists. */
function writeAlso() {
  if (!alsoView) {
    if (state.also) loadAlso().then(writeAlso, (error) => setStatus(`${t('status.failed')} (${String((error && error.message) || error)})`, 'error'));
    return;
  }
  const fill = (select, kind) => (kind === 'model'
    ? fillGrouped(select, models.length ? models : alsoEntries(state.also).map((e) => ({ id: e.model, name: e.model })),
      { value: (m) => m.id, text: (m) => m.name || m.id, groupOf: (m) => m.family || t('model.otherFamily') })
    : fillGrouped(select, orderedWeights(), { value: idOf, text: formatName }));
  alsoView.writeAlsoRows($('also'), alsoEntries(state.also), { t, fill, changed: () => update() });
}

function showSections() {
  const training = state.task === 'training';
  const serving = state.task === 'serve';
  $('fs-inference').hidden = training || serving;
  $('fs-training').hidden = !training;
  $('fs-serve').hidden = !serving;
  if (!serving && $('serve-ranking')) $('serve-ranking').hidden = true;
  $('concurrency-row').hidden = state.serve_load === 'request_rate';
  $('request-rate-row').hidden = state.serve_load !== 'request_rate';
  // Serving counts its GPUs itself (GPUs per replica × the replicas the load needs).
  $('gpus-row').hidden = serving;
  $('llama-cpp-settings').hidden = state.engine !== 'llama.cpp';
  $('also-settings').hidden = state.task !== 'inference';
  $('lora-options').hidden = !(state.method === 'lora' || state.method === 'qlora');
  $('quant-row').hidden = state.method !== 'qlora';
  const format = (options.weights || []).find((w) => w.id === state.weights);
  $('group-row').hidden = !((format && format.group_size) || state.group_size);
  $('budget-row').hidden = state.hardware !== 'budget';
  $('machine-row').hidden = state.hardware !== MACHINE_HARDWARE;
  $('machine-vram-row').hidden = state.machine_unified;
  const base = state.machine_base && hardwareById.get(state.machine_base);
  $('machine-base').hidden = !base;
  if (base) $('machine-base').textContent = t('machine.base', { name: base.name || base.id });
  const device = hardwareById.get(state.hardware);
  // A device sold in several memory configurations (a MacBook): which one is yours.
  const configs = device && Array.isArray(device.memory_options_bytes) ? [...device.memory_options_bytes].sort((a, b) => a - b) : [];
  const gibOf = (bytes) => bytes / 2 ** 30;
  if (!configs.some((b) => gibOf(b) === state.memory_option_gib)) state.memory_option_gib = 0;
  $('memory-option-row').hidden = configs.length < 2;
  if (configs.length >= 2) {
    const menu = $('memory_option_gib');
    menu.replaceChildren(option('', t('memoryOption.smallest', { value: f.deviceBytes(configs[0]) })),
      ...configs.slice(1).map((b) => option(String(gibOf(b)), f.deviceBytes(b))));
    menu.value = state.memory_option_gib ? String(state.memory_option_gib) : '';
  } else {
    $('memory_option_gib').replaceChildren();
  }
  $('cpu-row').hidden = training || serving || state.hardware === 'budget' || Boolean(device && device.kind === 'cpu');
  $('config-clear').disabled = !imported();
}

// ---------------------------------------------------------------- errors and notices

function clearErrors() {
  for (const e of document.querySelectorAll('.field-error')) e.remove();
  for (const e of document.querySelectorAll('[aria-invalid="true"]')) { e.removeAttribute('aria-invalid'); e.removeAttribute('aria-describedby'); }
}

/** Puts the core's (English) message next to the field it names, after a translated lead-in. */
function showFieldError(error, forceId = '') {
  let key = stateKeyForField(error.field);
  // Serving has its own engine menu, and its GPUs per replica in place of the number of devices.
  if (state.task === 'serve' && (key === 'engine' || key === 'gpus')) key = key === 'engine' ? 'serve_engine' : 'tp';
  const modelField = state.file_model ? 'model-file' : state.config ? 'config-text' : 'model';
  const id = forceId || (key === 'model' || key === 'config' || key === 'file_model' ? modelField : key);
  const target = id && $(id);
  const labelKey = `field.${id === 'config-text' ? 'config' : id === 'model-file' ? 'modelFile' : id}`;
  const label = id && t(labelKey) !== labelKey ? t(labelKey) : error.field || t('error.request');
  const lead = t('error.lead', { label, field: error.field || t('error.request') });
  const text = `${lead} ${message(t, f, error.message_data, error.message)}`;
  setStatus(text, 'error');
  if (!target) return;
  const p = el('p', { cls: 'field-error', text, attrs: { id: `${id}-error` } });
  const anchor = target.closest('.check, .targets') || target;
  anchor.after(p);
  const settings = target.closest('details');
  if (settings) settings.open = true;  // a field inside a folded group (llama.cpp settings) is shown
  target.setAttribute('aria-invalid', 'true');
  target.setAttribute('aria-describedby', p.id);
  if (id === 'config-text' || id === 'model-file') $('import').open = true;
}

function setStatus(text, cls = '') {
  const s = $('status');
  s.textContent = text;
  s.className = cls;
}

function renderNotices() {
  const box = $('notice');
  box.replaceChildren();
  if (!S.notices.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el('strong', { text: t('notice.lead') }));
  const ul = el('ul');
  for (const n of S.notices.slice(0, 12)) {
    const label = n.key ? t(`field.${n.key}`) === `field.${n.key}` ? n.key : t(`field.${n.key}`) : t('error.request');
    let text = t(`notice.${n.reason}`, { field: label, value: n.value });
    // The core's reason in the page's language (its message's data), its English text only without data.
    if (n.message) text += ` (${message(t, f, n.messageData, n.message)})`;
    ul.append(el('li', { text }));
  }
  const close = el('button', { text: t('notice.dismiss'), attrs: { type: 'button' } });
  close.addEventListener('click', () => { S.notices.length = 0; renderNotices(); });
  box.append(ul, close);
}

// ---------------------------------------------------------------- the result

function hardwareName(id) {
  // The core names a typed-in machine by its base device only ("" without one): the page says whose it is.
  if (id === MACHINE_HARDWARE) return t('hardware.yours');
  const h = hardwareById.get(id);
  return h ? h.name || h.id : id;
}

/** Switching to "my machine" from a catalog device starts from that device: its memory and GPUs to
 *  edit, its speed figures kept (machine.base). */
function adoptMachineBase(id) {
  const h = hardwareById.get(id);
  if (!h || h.kind === 'instance') return;
  const gib = (bytes) => Math.round((bytes / 2 ** 30) * 10) / 10;
  state.machine_base = id;
  if (Array.isArray(h.memory_options_bytes) && h.memory_options_bytes.length) {
    state.machine_unified = true;
    // The configuration chosen for the device, else its smallest.
    state.machine_ram_gib = state.memory_option_gib || gib(Math.min(...h.memory_options_bytes));
  } else if (h.kind === 'cpu') {
    state.machine_unified = false;
    state.machine_gpus = 0;
    if (h.memory_bytes > 0) state.machine_ram_gib = gib(h.memory_bytes);
  } else if (h.memory_bytes > 0) {
    state.machine_unified = false;
    state.machine_gpus = Math.max(1, h.device_count || 1);
    state.machine_vram_gib = gib(h.memory_bytes);
  }
  writeForm();
}

function update({ fromForm = true } = {}) {
  const before = state;
  if (fromForm) state = readForm();
  if (state.hardware === MACHINE_HARDWARE && before.hardware !== MACHINE_HARDWARE && hardwareById.has(before.hardware)) adoptMachineBase(before.hardware);
  showSections();
  scheduleUrl();
  const response = askPage(JSON.stringify(toRequest(state)));
  clearErrors();
  if (response.error) {
    showFieldError(response.error);
    // Serving without a device yet: which to buy or rent is still answered, for these inputs, so
    // the ranking is not dimmed with the rest.
    const choosing = state.task === 'serve' && stateKeyForField(response.error.field) === 'hardware';
    $('results').classList.remove('stale', 'stale-but-ranking');
    $('results').classList.add(choosing ? 'stale-but-ranking' : 'stale');
    if (choosing) scheduleExtras();
    return;
  }
  render(response);
  renderHubQuants();
  // The extras' answers came with the estimate's (askPage): drawn in the same frame, no longer put
  // off for the typing to pause.
  if (pageAnswers.size) drawExtrasNow();
  else scheduleExtras();
}

function render(response) {
  lastResponse = response;
  $('results').classList.remove('stale', 'stale-but-ranking');
  setStatus(t('status.ready'));
  const serving = state.task === 'serve' && response.serving;
  for (const id of SINGLE_RUN_CARDS) if ($(id)) $(id).hidden = Boolean(serving) || (id === 'precision-card' && state.task === 'training');
  if ($('serve-card')) $('serve-card').hidden = !serving;
  const verdict = verdictOf(response, state, hardwareName(state.hardware));
  if (serving) renderServing(response);
  else renderVerdict($('verdict'), response, verdict, { t, f });
  renderBreakdown($('bar'), $('parts'), response, verdict, { t, f });
  renderSummary(response);
  renderModelInfo(response);
  renderProbeInfo(response);
  renderExplain($('explain'), response, { t, f });
  const warnings = messages(t, f, response.warnings, response.warnings_data);
  $('warnings').replaceChildren(...warnings.map((w) => el('li', { text: w })));
  $('warnings-card').hidden = !warnings.length;
}

/** Loads lib/serve.js (the first time the Serve task needs it), then `then`, and the ranking if its
 *  timer went off before this view loaded; the page stays busy for the tests until both are drawn. */
function loadServeView(then) {
  document.body.dataset.busy = 'true';
  if (!serveViewLoading) serveViewLoading = import('./lib/serve.js').then((m) => { serveView = m; });
  serveViewLoading.then(() => {
    then();
    if (extrasPending) return;
    drawExtras();
    idle();
  }, (error) => setStatus(`${t('status.failed')} (${String((error && error.message) || error)})`, 'error'));
}

/** The Serve task's answer (lib/serve.js). */
function renderServing(response) {
  if (!serveView) {
    loadServeView(() => { if (lastResponse === response) renderServing(response); });
    return;
  }
  const gpuName = (response.hardware && response.hardware.name) || hardwareName(state.hardware);
  serveView.renderServeVerdict($('verdict'), response, { t, f, gpuName });
  if (!$('serve-card')) return;  // the cards are not in place yet (the first paint)
  const tpot = ((response.settings || {}).slo || {}).tpot_ms;
  serveView.renderServeCard($('serve-card'), response, { t, f, gpuName, tpotTarget: typeof tpot === 'number' ? tpot : 0, width: $('serve-card').clientWidth - 32 || 640 });
}

function renderSummary(response) {
  const box = $('summary');
  box.replaceChildren();
  const ctx = { t, f };
  // Whatever the core adds to the response is shown; the fit and the training run open, the rest folded.
  const blocks = [['fit', 'section.fit', ['fits', 'summary', 'fixes', 'assumptions', 'set']], ['throughput', 'section.throughput', []], ['cost', 'section.cost', []],
    ['training', 'section.trainingResult', []], ['cpu_vs_gpu', 'section.cpuVsGpu', []], ['weights_detail', 'section.weightsDetail', ['types', 'name']],
    ['llama_cpp', 'section.llamaCpp', []], ['ollama', 'section.ollama', []], ['draft', 'section.draft', ['command_line']]];
  for (const [key, title, skip] of blocks) {
    const value = response[key];
    if (!value || typeof value !== 'object') continue;
    if (key === 'cpu_vs_gpu') {
      box.append(cpuVsGpu(value, response, title));
      continue;
    }
    if (key === 'llama_cpp' || key === 'ollama') {
      if (typeof value.command_line === 'string') box.append(commandLine(key, value.command_line, title));
      continue;
    }
    const details = el('details', { attrs: { id: `summary-${key}` } }, el('summary', { text: t(title) }), renderFields(value, ctx, skip));
    if (key === 'weights_detail' && Array.isArray(value.types)) details.append(renderFields({ types: value.types }, ctx));
    details.open = key === 'fit' || key === 'throughput' || key === 'training' || key === 'draft';
    box.append(details);
    if (key === 'draft' && typeof value.command_line === 'string') box.append(commandLine('draft', value.command_line, 'section.draftCommand'));
  }
  if (Array.isArray(response.models)) {
    if (alsoView) box.append(alsoView.renderAlsoResult(response, { t, f, commandLine }));
    else loadAlso().then(() => { if (lastResponse === response) renderSummary(response); });
  }
}

/** The llama-server flags (or Ollama's settings) that reproduce this estimate, as the core wrote
 *  them, with a copy button. */
function commandLine(key, line, title) {
  const code = el('code', { text: line, attrs: { id: `${key}-command` } });
  const copy = el('button', { text: t('command.copy'), attrs: { type: 'button' } });
  copy.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(line); } catch { window.getSelection().selectAllChildren(code); }
  });
  const details = el('details', { attrs: { id: `summary-${key}` } }, el('summary', { text: t(title) }),
    el('p', { cls: 'hint', text: t(`command.${key}Hint`) }), el('pre', { cls: 'command' }, code), copy);
  details.open = true;
  return details;
}

/** CPU or GPU (the seed article's question) on the chosen CPU: both speeds by name, the batch from
 *  which the GPU pulls ahead (the small-work crossover), and the core's sentence. */
function cpuVsGpu(c, response, title) {
  const gpu = (response.hardware && response.hardware.name) || hardwareName(state.hardware);
  const cpu = c.cpu === 'own-cpu' ? t('cpuVsGpu.ownCpu', { device: gpu }) : hardwareName(c.cpu);
  const speed = (x) => t('unit.tokensPerSecond', { value: f.sig(x) });
  const rows = [
    [t('cpuVsGpu.onCpu', { cpu }), speed(c.cpu_tokens_per_s)],
    [t('cpuVsGpu.onGpu', { gpu }), speed(c.gpu_tokens_per_s)],
    [t('cpuVsGpu.reading'), speed(c.reading_tokens_per_s)],
    [t('cpuVsGpu.crossover'), typeof c.crossover_batch === 'number' ? t('cpuVsGpu.fromBatch', { batch: f.whole(c.crossover_batch) }) : t('cpuVsGpu.never')],
    [t('cpuVsGpu.cpuEnough'), t(c.cpu_is_enough ? 'value.yes' : 'value.no')],
  ];
  const table = el('table', { cls: 'parts' });
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.append(el('th', { text: k, attrs: { scope: 'row' } }));
    tr.insertCell().textContent = v;
  }
  const details = el('details', { attrs: { id: 'summary-cpu_vs_gpu' } }, el('summary', { text: t(title) }), table,
    el('p', { cls: 'hint', text: message(t, f, c.note_data, c.note) }));
  details.open = true;
  return details;
}

function renderModelInfo(response) {
  const m = response.model || {};
  const name = imported() ? state.name || m.name || t('import.custom') : m.name || state.model;
  const bits = [name];
  if (typeof m.params === 'number') bits.push(t('model.params', { value: f.count(m.params) }));
  if (typeof m.active_params === 'number' && m.active_params !== m.params) bits.push(t('model.active', { value: f.count(m.active_params) }));
  if (typeof m.layers === 'number' && m.layers > 0) bits.push(t('model.layers', { value: f.whole(m.layers) }));
  $('model-info').textContent = bits.join(' · ');
  $('model-features').replaceChildren(...messages(t, f, m.features, m.features_data).map((x) => el('li', { text: x })));
}

// ---------------------------------------------------------------- extras: chart, precisions, ranking

function scheduleExtras(delay = 120) {
  clearTimeout(extrasTimer);
  const generation = ++extrasGeneration;
  document.body.dataset.busy = 'true';  // tests wait for the extras to be drawn
  extrasPending = true;
  extrasTimer = setTimeout(() => {
    if (generation !== extrasGeneration) return;
    extrasPending = false;
    flushUrl();
    drawExtras();
    idle();
  }, delay);
}

/** The chart, the weight formats and the ranking, drawn from the last answer (the Serve task: its ranking). */
function drawExtras() {
  if (state.task === 'serve') return drawServeRanking();
  if (!lastResponse) return;
  renderChart();
  renderPrecisions();
  renderOptions();
}

/** drawExtras at once, in place of any still waiting for its timer. */
function drawExtrasNow() {
  clearTimeout(extrasTimer);
  ++extrasGeneration;
  extrasPending = false;
  flushUrl();  // as the timed extras do: the link is written once the answer is whole
  drawExtras();
  idle();
}

/** "Which GPUs to buy or rent" (lib/serve.js): the core's recommend for the serve request, about 0.3 s
 *  in WebAssembly, so asked for on the extras' timer, after the serve answer is drawn, and again only
 *  when its request changes (not when a row's device is chosen). */
function drawServeRanking() {
  if (!$('serve-ranking')) return;
  if (!serveView) return loadServeView(() => {});
  const body = JSON.stringify(serveView.rankingRequest(toRequest(state, { withHardware: false })));
  if (serveRanking.body !== body || serveRanking.answer.error) serveRanking = { body, answer: call('recommend', body) };
  serveView.renderServeRanking($('serve-ranking'), serveRanking.answer, { t, f, hardware: state.hardware, tp: state.tp,
    canUse: (id) => menus.hardware && menus.hardware.has(id),
    use: (o) => { Object.assign(state, { hardware: o.hardware, tp: o.layout.tp }); writeForm(); update({ fromForm: false }); } });
}

/** The page is drawn (tests wait for it), unless the Serve task's view is still loading. */
function idle() {
  if (state.task === 'serve' && !serveView) return;
  delete document.body.dataset.busy;
}

function maxContextOf() {
  if (imported()) return Number((importedConfig() || {}).max_position_embeddings) || 0;
  return (modelById.get(state.model) || {}).max_context || 0;
}

/** The answers of the last edit's one core call (pageAnswer: its estimate, the chart's points, the
 *  formats' rows and the ranking, sharing one request's work), by the request each answers. The
 *  renderers read them through answerOf, which asks the core itself only for a request that call did
 *  not include (every format or option shown on request, the chart drawn before the menus' lists
 *  arrived, a core without pageAnswer). */
let pageAnswers = new Map();
function answerOf(kind, fn, body) {
  const known = pageAnswers.get(`${kind} ${body}`);
  return known !== undefined ? known : call(fn, body);
}

/** One call to the core for everything an edit shows (core: page_answer); returns the estimate's answer. */
function askPage(estimateBody) {
  pageAnswers = new Map();
  // Serving has no chart of memory, format rows or ranking: its answer is the estimate alone.
  if (state.task === 'serve') {
    const r = call('pageAnswer', `{"estimate":${estimateBody},"chart":[],"formats":[]}`);
    return r.error || !r.estimate ? call('estimate', estimateBody) : r.estimate;
  }
  const chart = chartRequests().map((p) => p.body);
  const formats = state.task === 'training' || !orderedWeights().length ? [] : shownPrecisions().shown.map((w) => precisionRequest(idOf(w)));
  const ranking = JSON.stringify(recommendRequest(state, showAllOptions ? 0 : RANKING_ROWS));
  const r = call('pageAnswer', `{"estimate":${estimateBody},"chart":[${chart.join(',')}],"formats":[${formats.join(',')}],"recommend":${ranking}}`);
  if (r.error || !r.estimate) return call('estimate', estimateBody);
  chart.forEach((body, i) => pageAnswers.set(`row ${body}`, r.chart[i]));
  formats.forEach((body, i) => pageAnswers.set(`row ${body}`, r.formats[i]));
  pageAnswers.set(`recommend ${ranking}`, r.recommend);
  return r.estimate;
}

/** The chart's points: each token count and the request that sizes it. */
function chartRequests() {
  const training = state.task === 'training';
  const current = training ? Number(state.seq_len) : Number(state.input_tokens) + Number(state.output_tokens);
  const limit = Math.min(Math.max(maxContextOf() || 32768, current || 0, 4096), 1 << 23);
  const xs = new Set();
  for (let x = 256; x <= limit; x *= 2) xs.add(x);
  if (Number.isFinite(current) && current > 0) xs.add(current);
  const out = [];
  for (const x of [...xs].sort((a, b) => a - b)) {
    const s = { ...state };
    if (training) s.seq_len = x;
    else if (x > Number(state.output_tokens)) s.input_tokens = x - Number(state.output_tokens);
    else continue;
    // Memory only: without `hardware` the core skips its fit search (max context, max batch) per point.
    out.push({ x, body: JSON.stringify(numbersOnly(toRequest(s, { withHardware: false }))) });
  }
  return out;
}

function renderChart() {
  const training = state.task === 'training';
  const current = training ? Number(state.seq_len) : Number(state.input_tokens) + Number(state.output_tokens);
  const points = [];
  for (const { x, body } of chartRequests()) {
    const r = answerOf('row', 'estimate', body);
    if (!r.error) points.push({ x, y: totalBytes(r) });
  }
  const verdict = verdictOf(lastResponse, state, hardwareName(state.hardware));
  const currentPoint = points.find((p) => p.x === current);
  const xLabel = training ? t('chart.seqLen') : t('chart.context');
  $('chart').replaceChildren(contextChart(points, {
    width: $('chart').clientWidth || 640,
    capacity: verdict.capacity,
    current: currentPoint,
    label: t('chart.label'),
    xLabel,
    yLabel: t('chart.memory', { unit: f.unitText }),
    capacityLabel: verdict.device ? t('chart.capacityOf', { device: verdict.device }) : t('chart.capacity'),
    formatX: (x) => (x >= 1024 ? `${f.whole(x / 1024)}K` : f.whole(x)),
    formatY: (y) => f.bytesNumber(y),
    unitDivisor: f.divisor,
    pointLabel: (p) => `${t('unit.tokens', { value: f.whole(p.x) })}: ${f.bytes(p.y)}`,
  }));
  const table = $('chart-table');
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  head.append(el('th', { text: xLabel, attrs: { scope: 'col' } }), el('th', { text: t('result.total'), attrs: { scope: 'col' } }));
  const body = table.createTBody();
  for (const p of points) {
    const row = body.insertRow();
    row.insertCell().textContent = t('unit.tokens', { value: f.whole(p.x) });
    const c = row.insertCell();
    c.textContent = f.bytes(p.y);
    c.className = 'num';
  }
}

/** A request whose answer only its numbers are read from (a chart point, a weight format's row, a
 *  quantization's row): the core leaves its English text out (english_text; an error keeps it), about
 *  a visible part of an estimate's time. */
function numbersOnly(request) {
  return { ...request, english_text: false };
}

/** The formats the core suggests for this engine (llama.cpp: the GGUF files people download) and the
 *  chosen one; every format on request. */
function shownPrecisions() {
  const all = orderedWeights();
  const suggested = (options.suggested_weights || {})[state.engine] || (weightGroups().find((g) => g.ecosystem === 'generic') || {}).formats || all.slice(0, 5).map(idOf);
  return { all, shown: showAllPrecisions ? all : all.filter((w) => suggested.includes(idOf(w)) || idOf(w) === state.weights) };
}

/** A format's row: the request with that format, read for its bytes and verdict. */
function precisionRequest(id) {
  return JSON.stringify(numbersOnly(toRequest({ ...state, weights: id })));
}

function renderPrecisions() {
  const table = $('precisions');
  table.replaceChildren();
  // For training the base format is the method's (QLoRA's quantization), so the table is for inference.
  $('precision-card').hidden = state.task === 'training';
  if (state.task === 'training') return;
  if (!orderedWeights().length) return;
  const head = table.createTHead().insertRow();
  for (const h of ['table.format', 'part.weights', 'result.total', 'table.fits']) head.append(el('th', { text: t(h), attrs: { scope: 'col' } }));
  const body = table.createTBody();
  const { all, shown } = shownPrecisions();
  const more = $('precisions-more');
  more.hidden = shown.length === all.length && !showAllPrecisions;
  more.textContent = showAllPrecisions ? t('precisions.fewer') : t('precisions.all', { count: f.whole(all.length) });
  for (const w of shown) {
    const id = idOf(w);
    const r = answerOf('row', 'estimate', precisionRequest(id));
    const row = body.insertRow();
    row.dataset.weights = id;
    if (id === state.weights) row.className = 'current';
    row.append(el('th', { text: formatName(w), attrs: { scope: 'row' } }));
    if (r.error) {
      const c = row.insertCell();
      c.colSpan = 3;
      c.textContent = message(t, f, r.error.message_data, r.error.message);
      c.className = 'hint';
      continue;
    }
    const v = verdictOf(r, state, hardwareName(state.hardware));
    for (const bytes of [(r.memory.parts || {}).weights, v.total]) {
      const c = row.insertCell();
      c.textContent = f.bytes(bytes);
      c.className = 'num';
    }
    const fit = row.insertCell();
    if (v.known) fit.append(...fitMark(v.fits));
    else fit.textContent = t('value.unknown');
    fit.dataset.fits = v.known ? String(v.fits) : '';
    fit.className = v.known ? (v.fits ? 'yes' : 'no') : '';
  }
}

function renderOptions() {
  const table = $('options');
  const note = $('options-note');
  const more = $('options-more');
  table.replaceChildren();
  $('near-misses').replaceChildren();
  // The ranking shows its first rows until the reader asks for all: only those are asked for.
  const r = answerOf('recommend', 'recommend', JSON.stringify(recommendRequest(state, showAllOptions ? 0 : RANKING_ROWS)));
  renderCosts(r);
  if (r.error || !Array.isArray(r.options)) {
    note.textContent = `${t('options.unavailable')} ${r.error ? message(t, f, r.error.message_data, r.error.message) : ''}`;
    more.hidden = true;
    return;
  }
  if (Array.isArray(r.near_misses) && r.near_misses.length) {
    const ul = el('ul');
    for (const m of r.near_misses.slice(0, 8)) {
      // The core's reason says how short (and why); the page's own line only when it gives none.
      const short = message(t, f, m.reason_data, m.reason);
      const item = el('li', { text: `${m.name || hardwareName(m.id)}: ${short}` });
      const fixes = messages(t, f, m.fixes, m.fixes_data);
      if (fixes.length) item.append(el('ul', { cls: 'fixes' }, ...fixes.map((x) => el('li', { text: x }))));
      ul.append(item);
    }
    $('near-misses').append(el('h4', { text: t('options.nearMisses') }), ul);
  }
  const total = r.options_total;  // how many fit; r.options lists the first RANKING_ROWS unless all are asked for
  const training = state.task === 'training';
  note.textContent = total ? t('options.count', { count: f.whole(total) }) : t('options.none');
  // Training: what the core ranked by, and what the run's time and total need when not given.
  if (training) note.textContent += ` ${[r.ranked_by_data && message(t, f, r.ranked_by_data, r.ranked_by), r.note_data && message(t, f, r.note_data, r.note)].filter(Boolean).join('. ')}`;
  const speedKey = training ? 'tokens_per_s' : 'decode_tokens_per_s';
  const get = (o, k) => (o[k] !== undefined ? o[k] : o.throughput ? o.throughput[k] : undefined);
  // A run's time and total need the dataset size: said in the cell, never made up.
  const ofRun = (value, show) => (typeof value === 'number' ? show(value) : t('options.needsDataset'));
  const cols = [
    ['table.rank', (o, i) => f.whole(i + 1)],
    ['table.device', (o) => o.name || hardwareName(o.id)],
    ['table.fits', () => ''],
    ['key.gpus_needed', (o) => (typeof o.gpus_needed === 'number' ? f.whole(o.gpus_needed) : t('value.unknown'))],
    ['table.memory', (o) => f.bytes(o.device_bytes)],
    [training ? 'key.tokens_per_s' : 'key.decode_tokens_per_s', (o) => f.field(speedKey, get(o, speedKey))],
    ...(training ? [['key.hours', (o) => ofRun(o.hours_total, (x) => f.field('hours', x))]] : []),
    ['key.usd_per_hour', (o) => f.field('usd_per_hour', o.usd_per_hour)],
    ['key.usd_per_million_tokens', (o) => f.field('usd_per_million_tokens', o.usd_per_million_tokens)],
    ...(training ? [['key.usd_total', (o) => ofRun(o.usd_total, (x) => f.field('usd', x))]] : []),
  ];
  const head = table.createTHead().insertRow();
  const labels = cols.map(([h]) => (h.startsWith('key.') ? fieldLabel(t, h.slice(4)) : t(h)));
  for (const text of labels) head.append(el('th', { text, attrs: { scope: 'col' } }));
  const body = table.createTBody();
  r.options.forEach((o, i) => {
    const row = body.insertRow();
    row.className = o.fits ? 'yes' : 'no';
    row.dataset.kind = o.kind || '';
    if (o.id === state.hardware) row.classList.add('current');
    cols.forEach(([key, fn], c) => {
      const cell = row.insertCell();
      cell.textContent = fn(o, i);
      cell.dataset.col = key;
      if (c >= 2) cell.dataset.label = labels[c].replace(/[?？]$/, '');  // shown before the value when a narrow screen stacks the row
      if (c >= 4) cell.className = 'num';
    });
    row.cells[2].append(...fitMark(o.fits));
    if (o.reason || o.reason_data) row.cells[1].append(el('span', { cls: 'reason', text: message(t, f, o.reason_data, o.reason) }));
    if (menus.hardware && menus.hardware.has(o.id)) {
      const use = el('button', { cls: 'use', text: t('options.use'), attrs: { type: 'button', 'aria-label': t('options.useLabel', { device: o.name || hardwareName(o.id) }) } });
      use.addEventListener('click', () => { state.hardware = o.id; writeForm(); update({ fromForm: false }); });
      row.cells[1].append(use);
    }
  });
  more.hidden = total <= RANKING_ROWS;
  more.textContent = showAllOptions ? t('options.fewer') : t('options.all', { count: f.whole(total) });
}

/** A cost input the core refused (a range: the error names it and its bounds, in the reader's
 *  language) is marked where it was typed; the marks of the last answer are cleared first. */
function markCostField(error) {
  for (const k of USAGE_KEYS) {
    const p = $(`${k}-error`);
    if (p) p.remove();
    $(k).removeAttribute('aria-invalid');
    $(k).removeAttribute('aria-describedby');
  }
  const key = error ? stateKeyForField(error.field) : '';
  if (!USAGE_KEYS.includes(key)) return;
  const text = `${t('error.lead', { label: t(`field.${key}`), field: error.field })} ${message(t, f, error.message_data, error.message)}`;
  const p = el('p', { cls: 'field-error', text, attrs: { id: `${key}-error`, role: 'alert' } });
  $(key).after(p);
  $(key).setAttribute('aria-invalid', 'true');
  $(key).setAttribute('aria-describedby', p.id);
}

/** Buy, rent or use what you have (recommend's `costs`): one row per option, each number with its
 *  formula (the core's explain messages) under "how". Inference: a month at the usage; training:
 *  one run rented against an owned machine's share of it (per million tokens until the dataset
 *  size is given). The option and its break-even come first: a phone shows them without scrolling. */
function renderCosts(r) {
  const table = $('costs');
  table.replaceChildren();
  const training = state.task === 'training';
  // A training run goes by the hour: tokens a day (an inference pattern) do not apply to it.
  $('tokens-per-day-row').hidden = training;
  markCostField(r.error);
  const c = r.costs;
  if (r.error || !c) {
    $('costs-summary').textContent = `${t('options.unavailable')} ${r.error ? message(t, f, r.error.message_data, r.error.message) : ''}`;
    return;
  }
  $('costs-summary').textContent = message(t, f, c.summary_data, c.summary);
  const money = (x) => (typeof x === 'number' ? f.usd(x) : '—');
  const owned = (row) => row.cost_kind !== 'cloud' && row.cost_kind !== 'mine';
  // The rent a break-even is counted against (the same tokens on the summary's instance), beside it.
  const against = (row) => (typeof row.rent_same_work_usd_per_month === 'number' ? ` (${t('costs.againstRent', { value: money(row.rent_same_work_usd_per_month) })})` : '');
  const breakEven = training
    ? (row) => (!owned(row) ? t('costs.none') : typeof row.break_even_runs === 'number' ? t('costs.runs', { value: f.sig(row.break_even_runs) })
      : typeof row.break_even_tokens === 'number' ? t('costs.tokens', { value: f.count(row.break_even_tokens) }) : t('costs.never'))
    : (row) => (!owned(row) ? t('costs.none')
      : `${typeof row.break_even_months === 'number' ? t('costs.months', { value: f.sig(row.break_even_months) }) : t('costs.never')}${against(row)}`);
  const run = typeof c.run_tokens === 'number';
  // Training buys a card by the piece: several of them are one option ("4 × RTX 5080").
  const optionName = (row) => (row.kind !== 'instance' && row.gpus > 1 ? t('costs.devices', { count: f.whole(row.gpus), name: row.name || hardwareName(row.id) })
    : row.name || hardwareName(row.id));
  const cols = [
    ['costs.option', optionName],
    ['costs.breakEven', breakEven],
    ...(training ? [
      ...(run ? [['costs.perRun', (row) => money(row.usd_per_run)], ['key.hours', (row) => f.field('hours', row.hours_per_run)]] : []),
      ['key.usd_per_hour', (row) => f.field('usd_per_hour', row.usd_per_hour)],
    ] : [['costs.perMonth', (row) => money(row.usd_per_month)]]),
    ['key.usd_per_million_tokens', (row) => f.field('usd_per_million_tokens', row.usd_per_million_tokens)],
    ['costs.upfront', (row) => (row.cost_kind === 'cloud' ? t('costs.none') : money(row.upfront_usd))],
    ['costs.kind', (row) => t(`costs.kind.${row.cost_kind}`)],
    ['costs.how', () => ''],
  ];
  const head = table.createTHead().insertRow();
  const labels = cols.map(([h]) => (h.startsWith('key.') ? fieldLabel(t, h.slice(4)) : t(h)));
  for (const text of labels) head.append(el('th', { text, attrs: { scope: 'col' } }));
  const body = table.createTBody();
  for (const row of c.rows || []) {
    const tr = body.insertRow();
    tr.dataset.costKind = row.cost_kind;
    tr.dataset.id = row.id;
    if (row.rent_reference) tr.classList.add('current');
    cols.forEach(([key, fn], i) => {
      const cell = tr.insertCell();
      cell.textContent = fn(row);
      cell.dataset.col = key;
      if (i >= 1) cell.dataset.label = labels[i];
      if (i >= 1 && i < cols.length - 2) cell.className = 'num';
    });
    const how = el('details', {}, el('summary', { text: t('costs.formulas') }),
      el('ul', {}, ...messages(t, f, row.explain, row.explain_data).map((x) => el('li', { text: x }))));
    // The price's source as the data file gives it: the catalog's few kinds of price ("launch MSRP")
    // in the page's language (the strings keyed by the text), any other citation in its own language.
    if (row.price_source) {
      const key = `priceSource.${row.price_source}`;
      const source = t(key) !== key ? el('cite', { text: t(key) }) : el('cite', { text: row.price_source, attrs: { lang: 'en' } });
      how.append(el('p', { cls: 'hint' }, document.createTextNode(t('costs.priceSource', { source: '', date: row.price_date || '—' })), source));
    }
    tr.cells[cols.length - 1].append(how);
  }
}

/** Reads the formats, engines and training choices for the menus (after the first result). */
function loadOptions() {
  const o = call('listOptions');
  if (o.error) return;
  options = o;
  const fresh = menusFrom(o, null, null);
  for (const key of Object.keys(fresh)) if (key !== 'model' && key !== 'hardware') menus[key] = fresh[key];
}

/** Reads the presets and the catalog (after the first result: listModels is the slowest call), then
 *  fills the menus and checks a hardware id that came from a link against the catalog. The two
 *  listings and the filling each take a task of their own, so that an edit made meanwhile waits for
 *  one of them, not all three: measured in headless Chromium on the 2-core CI machine, listModels
 *  110-215 ms (its first call: V8 compiles the functions it touches), listHardware 16-77 ms, filling
 *  the menus 22-89 ms. The page's state takes the listings only in the last task. */
function loadCatalogs() {
  const listedModels = call('listModels').models || [];
  setTimeout(() => {
    const listedHardware = call('listHardware').hardware || [];
    setTimeout(() => useCatalogs(listedModels, listedHardware), 0);
  }, 0);
}

function useCatalogs(listedModels, listedHardware) {
  models = listedModels;
  hardware = listedHardware;
  for (const m of models) modelById.set(m.id, m);
  for (const h of hardware) hardwareById.set(h.id, h);
  menus.model = new Set(models.map((m) => m.id));
  menus.hardware = new Set(hardware.map((h) => h.id));
  const badHardware = state.hardware !== 'budget' && state.hardware !== MACHINE_HARDWARE && !menus.hardware.has(state.hardware);
  if (badHardware) {
    S.notices.push({ key: 'hardware', value: String(state.hardware).slice(0, 40), reason: 'unknown-id' });
    state.hardware = base.hardware;
    renderNotices();
  }
  fillMenus();
  writeForm();
  if (badHardware) update({ fromForm: false });
  else scheduleExtras(0);
}

// ---------------------------------------------------------------- share

function shareUrl() {
  return `${location.origin}${location.pathname}#${toParams(state).toString()}`;
}

/** An edit's link is written after its frame: history.replaceState took 5.5 of an edit's 10 ms
 *  to the next frame in headless Chromium. The extras write it at the latest,
 *  and so does leaving the page. */
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, 60);
}

/** Writes a link still waiting for its timer now. */
function flushUrl() {
  if (urlTimer) writeUrl();
}

function writeUrl() {
  clearTimeout(urlTimer);
  urlTimer = 0;
  const url = shareUrl();
  $('share-url').value = url;
  history.replaceState(null, '', url);
}

async function copyLink() {
  const url = shareUrl();
  const note = state.hardware === PROBE_HARDWARE ? ` ${t('probe.notInLink')}` : '';
  try {
    await navigator.clipboard.writeText(url);
    setStatus(`${t('share.copied')}${note}`);
  } catch {
    $('share-url').focus();
    $('share-url').select();
    setStatus(`${t('share.selectToCopy')}${note}`);
  }
}

/** The <iframe> HTML for this estimate (EMBED.md), shown in a box and put on the clipboard. */
async function copyEmbed() {
  const m = (lastResponse && lastResponse.model) || {};
  const model = imported() ? state.name || m.name || t('import.custom') : m.name || state.model;
  const box = $('embed-code');
  box.value = embedCode(state, location.href, t('embed.frameTitle', { model }));
  box.hidden = false;
  $('embed-code-label').hidden = false;
  const note = state.hardware === PROBE_HARDWARE ? ` ${t('probe.notInLink')}` : '';
  try {
    await navigator.clipboard.writeText(box.value);
    setStatus(`${t('share.embedCopied')}${note}`);
  } catch {
    box.focus();
    box.select();
    setStatus(`${t('share.embedSelect')}${note}`);
  }
}

// ---------------------------------------------------------------- import

function applyConfig(text) {
  let parsed;
  try {
    parsed = parseConfigText(text);
  } catch {
    clearErrors();
    showFieldError({ field: 'model.config', message: t('import.badJson') }, 'config-text');
    return;
  }
  state = { ...readForm(), file_model: '' };
  if (state.weights === 'file') state.weights = base.weights;
  state.config = JSON.stringify(parsed.value);
  hubRead = null;
  const v = parsed.value;
  fillMenus();
  state.name = String(v._name_or_path || (Array.isArray(v.architectures) ? v.architectures[0] : '') || v.model_type || t('import.custom')).slice(0, 120);
  setImportStatus('');
  writeForm();
  update({ fromForm: false });
}

/** The line under a file field (the model import, the probe file): a message, with the field marked
 *  invalid when it is an error; an empty text clears both. */
function setFileStatus(boxId, inputId, detailsId, text, { error = false, data = {} } = {}) {
  const box = $(boxId);
  box.replaceChildren();
  box.className = error ? 'import-error' : 'hint';
  for (const k of Object.keys(box.dataset)) delete box.dataset[k];
  Object.assign(box.dataset, data);
  if (text) box.append(text);
  const input = $(inputId);
  if (error) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', boxId);
    $(detailsId).open = true;
  } else {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
}
const setImportStatus = (text, opts) => setFileStatus('import-status', 'model-file', 'import', text, opts);
const setProbeStatus = (text, opts) => setFileStatus('probe-status', 'probe-file', 'my-machine', text, opts);

/** Reads a model file's header (growing slices from the start, as the core's nextHeaderRead says:
 *  core/include/llmsizer/header_read.hpp) and takes the core's `request_model` for it as the model.
 *  Nothing past the header is read, and nothing leaves the page. On any failure the other inputs
 *  and the result stay as they were. */
async function importFile(file) {
  setImportStatus('');
  if (!file) return;
  const fail = (text) => setImportStatus(text, { error: true });
  if (!/\.(gguf|safetensors|json)$/i.test(file.name)) return fail(t('import.badFile'));
  if (typeof S.core.inspectModelFile !== 'function') return fail(t('import.fileUnsupported'));
  let length = S.core.nextHeaderRead(0, 0, file.size).bytes;
  let bytes = new Uint8Array(0);
  for (;;) {
    let r;
    try {
      // Only the bytes not read yet: a 3.9 MB header is read once, not once per round.
      const more = new Uint8Array(await file.slice(bytes.length, length).arrayBuffer());
      const grown = new Uint8Array(bytes.length + more.length);
      grown.set(bytes);
      grown.set(more, bytes.length);
      bytes = grown;
      r = JSON.parse(S.core.inspectModelFile(bytes, file.size));
    } catch (e) {
      return fail(`${t('import.failed')} ${String((e && e.message) || e)}`);
    }
    const needed = r.error && typeof r.error.needed_bytes === 'number' ? r.error.needed_bytes : 0;
    const next = r.error ? S.core.nextHeaderRead(length, needed, file.size) : { step: 'answered' };
    if (next.step === 'too_long') return fail(t('import.tooBig'));
    if (next.step === 'read') {
      length = next.bytes;
      continue;
    }
    if (r.error) return fail(`${t('import.failed')} ${message(t, f, r.error.message_data, r.error.message)}`);
    const model = r.request_model;
    if (!model || typeof model !== 'object') {
      const why = Array.isArray(r.warnings) && r.warnings.length ? ` (${messages(t, f, r.warnings, r.warnings_data).join('; ')})` : '';
      return fail(`${t('import.noArchitecture')}${why}`);
    }
    useImportedModel(file, length, r);
    return;
  }
}

function useImportedModel(file, readBytes, r) {
  hubRead = null;
  setHubStatus('');
  adoptModel(r, r.name || r.request_model.name || file.name, [t('import.read', { read: f.whole(readBytes), size: f.whole(file.size), name: file.name })],
    'import-status', setImportStatus, { readBytes: String(readBytes) });
}

/** Makes the core's request_model for a file's header (or a repository's headers, useHubModel) the
 *  model, and says under `boxId` what was read (`lines`) and what the header gives. */
function adoptModel(r, name, lines, boxId, setStatus, data) {
  const model = r.request_model;
  state = { ...readForm(), config: '', file_model: JSON.stringify(model) };
  state.name = String(name).slice(0, 120);
  state.weights = typeof model.weight_bytes === 'number' && model.weight_bytes > 0 ? 'file' : (state.weights === 'file' ? base.weights : state.weights);
  // An engine that loads this file (a GGUF: llama.cpp or Ollama, as the core lists them).
  if (Array.isArray(r.engines) && r.engines.length && !r.engines.includes(state.engine)) state.engine = r.engines[0];
  $('config-text').value = model.config ? JSON.stringify(model.config, null, 2) : '';
  if (typeof r.parameter_count === 'number') {
    lines.push(t('import.exact', { params: f.whole(r.parameter_count), bytes: f.whole(r.weight_bytes), format: model.weights_format || r.format || '' }));
  }
  setStatus(lines.join(' '), { data: { ...data, params: String(r.parameter_count ?? ''), weightBytes: String(r.weight_bytes ?? '') } });
  const warnings = messages(t, f, r.warnings, r.warnings_data);
  if (warnings.length) $(boxId).append(el('ul', {}, ...warnings.map((w) => el('li', { text: String(w) }))));
  fillMenus();
  writeForm();
  update({ fromForm: false });
}

// ---------------------------------------------------------------- a Hugging Face model by id

const setHubStatus = (text, opts) => setFileStatus('hf-status', 'hf-id', 'import', text, opts);

/** Load: the page's only network use, on request. A failure leaves the model as it was. The code
 *  that reads a repository (lib/hub.js) is loaded only then: the default page does not use it. */
async function loadFromHub(fileOverride) {
  let hub;
  try {
    hub = await import('./lib/hub.js');
  } catch (e) {
    setHubStatus(`${t('hub.failed')} ${String((e && e.message) || e)}`, { error: true, data: { error: 'exception' } });
    return;
  }
  const { hubEndpoint, parseHubInput, readRepository } = hub;
  const input = parseHubInput(S.core, $('hf-id').value);
  if (!input) return setHubStatus(t('hub.badId'), { error: true, data: { error: 'hub.badId' } });
  const file = typeof fileOverride === 'string' ? fileOverride : input.file;
  $('hf-load').disabled = true;
  try {
    const r = await readRepository(S.core, {
      endpoint: hubEndpoint(START_HREF), id: input.id, file, progress: (key, args) => setHubStatus(t(key, args), { data: { busy: '1' } }),
    });
    useHubModel(input.id, r);
  } catch (e) {
    let text = e && e.key ? t(e.key, e.args) : `${t('hub.failed')} ${String((e && e.message) || e)}`;
    if (e && e.core) text += ` ${message(t, f, e.core.message_data, e.core.message)}`;
    setHubStatus(text, { error: true, data: { error: (e && e.key) || 'exception' } });
  } finally {
    $('hf-load').disabled = false;
  }
}

function useHubModel(id, { plan, model, requests, bytesRead }) {
  hubRead = { plan, chosen: plan.chosen || '' };
  setImportStatus('');
  const lines = [t('hub.read', { id, requests: f.whole(requests), bytes: f.whole(bytesRead) })];
  if (plan.kind === 'gguf') lines.push(t('hub.chosen', { file: plan.chosen, count: f.whole(plan.gguf.length) }));
  adoptModel(model, model.request_model.name || id, lines, 'hf-status', setHubStatus, {});
}

/** A GGUF repository's quantizations, each with the core's estimate and fit in that format. */
function renderHubQuants() {
  const table = $('hf-quants');
  const rows = hubRead && state.file_model ? hubRead.plan.gguf || [] : [];
  table.hidden = !rows.length;
  if (!rows.length) return table.replaceChildren();
  const head = el('tr', {}, ...['hub.colFile', 'hub.colSize', 'hub.colMemory', 'hub.colFits', ''].map((k) => el('th', { text: k && t(k) })));
  const body = rows.map((q) => {
    const read = q.file === hubRead.chosen;
    const r = read || q.weights ? call('estimate', JSON.stringify(numbersOnly(toRequest({ ...state, weights: read ? 'file' : q.weights })))) : null;
    const ok = r && !r.error;
    const fits = ok && r.fit ? t(r.fit.fits ? 'value.yes' : 'value.no') : '–';
    const use = el('button', { attrs: { type: 'button' }, text: read ? t('hub.inUse') : t('hub.use') });
    use.disabled = read;
    use.addEventListener('click', () => loadFromHub(q.file));
    const row = el('tr', {}, el('td', { text: `${q.quant || ''} ${q.file}`.trim() }), el('td', { text: f.bytes(q.size_bytes) }),
      el('td', { text: ok ? f.bytes(totalBytes(r)) : '–' }), el('td', { text: fits }), el('td', {}, use));
    Object.assign(row.dataset, { file: q.file, weights: q.weights || '', fits: ok && r.fit ? String(r.fit.fits) : '', deviceBytes: ok ? String(r.memory.device_bytes) : '' });
    return row;
  });
  table.replaceChildren(el('caption', { text: t('hub.quants') }), el('thead', {}, head), el('tbody', {}, ...body));
}

function renderNetwork() {
  $('hf-network').hidden = navigator.onLine;
  $('hf-network').textContent = navigator.onLine ? '' : t('hub.offlineNote');
}

// ---------------------------------------------------------------- language and units

async function switchLang() {
  const next = S.lang === 'ja' ? 'en' : 'ja';
  const strings = await loadStrings(next);
  S.lang = next;
  state.lang = next;
  t = translator(strings);
  f = formatter(S.lang, state.unit, t);
  relabel();
}

function relabel() {
  translateStatic();
  fillMenus();
  writeForm();
  renderNotices();
  renderNetwork();
  update({ fromForm: false });
}

// ---------------------------------------------------------------- my machine: a probe file

/** Makes a probe document (what llmsizer-probe or the WebGPU probe writes) the hardware, sent as the
 *  request's `hardware` object. The core decides whether it can use it; its error is shown by the
 *  probe field and the hardware stays as it was. Kept in this page's state only, never in a link. */
function useProbe(doc, source) {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !doc.summary || !doc.probe) {
    setProbeStatus(t('probe.notProbe'), { error: true });
    return;
  }
  const trial = { ...readForm(), hardware: PROBE_HARDWARE, probe: doc };
  const r = call('estimate', JSON.stringify(toRequest(trial)));
  if (r.error && stateKeyForField(r.error.field) === 'hardware') {
    setProbeStatus(`${t('probe.rejected')} ${message(t, f, r.error.message_data, r.error.message)}`, { error: true });
    return;
  }
  setProbeStatus('');
  state = trial;
  probeName = (r.hardware && r.hardware.name) || '';
  probeSource = source;
  fillMenus();
  writeForm();
  update({ fromForm: false });
}

const MAX_PROBE_FILE_BYTES = 4e6;  // llmsizer-probe's files are about 7 KB

async function loadProbeFile(file) {
  setProbeStatus('');
  if (!file) return;
  if (!/\.json$/i.test(file.name)) { setProbeStatus(t('probe.badFile'), { error: true }); return; }
  if (file.size > MAX_PROBE_FILE_BYTES) { setProbeStatus(t('probe.tooBig'), { error: true }); return; }
  let doc;
  try {
    doc = parseConfigText(await file.text()).value;  // any JSON object; __proto__ keys dropped
  } catch {
    setProbeStatus(t('probe.badJson'), { error: true });
    return;
  }
  useProbe(doc, file.name);
}

/** "measured: NAME · measured memory bandwidth 25.3 GB/s · from FILE", and that a link leaves it out. */
function renderProbeInfo(response) {
  const box = $('probe-info');
  const on = state.hardware === PROBE_HARDWARE && Boolean(state.probe);
  box.hidden = !on;
  if (!on) return;
  const hw = response.hardware || {};
  if (hw.name) probeName = hw.name;
  // The bandwidth the probe measured for the device the core chose (its GPU when it has one, else its CPU).
  const summary = state.probe.summary || {};
  const device = hw.kind === 'cpu' ? summary.cpu : summary.cuda || summary.webgpu || summary.cpu;
  const bandwidth = device && device.memory_bandwidth_gb_per_s;
  box.replaceChildren(
    el('span', { text: t('probe.info', { name: probeName || t('probe.measured'), bandwidth: f.field('memory_bandwidth_gb_per_s', bandwidth), source: probeSource }),
      attrs: { id: 'probe-measured', 'data-bandwidth': bandwidth ?? '' } }),
    el('span', { cls: 'notice-inline', text: ` ${t('probe.notInLink')}` }));
}

/** Runs the WebGPU probe (web/probe-webgpu.js, loaded only when asked), offers its file as a
 *  download, and tries it as the hardware. */
async function runProbe() {
  const out = $('probe-out');
  if (!navigator.gpu) { setProbeStatus(t('probe.noWebGpu')); return; }
  setProbeStatus(t('probe.running'));
  let mod;
  try {
    mod = await import('./probe-webgpu.js');
  } catch {
    setProbeStatus(t('probe.missing'));
    return;
  }
  try {
    const doc = await mod.runWebGpuProbe(navigator.gpu, { quick: true });
    const text = mod.toJsonText ? mod.toJsonText(doc) : JSON.stringify(doc, null, 2);
    out.textContent = text;
    out.hidden = false;
    const link = el('a', { text: t('probe.download'), attrs: { id: 'probe-download', download: `${doc.id || 'llmsizer-webgpu-probe'}.json`, href: URL.createObjectURL(new Blob([text], { type: 'application/json' })) } });
    useProbe(doc, t('probe.thisBrowser'));
    // The download stays offered whether or not the core could use the measurement.
    const status = $('probe-status');
    if (!status.textContent) status.append(t('probe.done'));
    status.append(' ', link);
  } catch (e) {
    setProbeStatus(`${t('probe.failed')} ${String((e && e.message) || e)}`, { error: true });
  }
}

// ---------------------------------------------------------------- wiring

/** Back to a preset: forgets the imported config and a file's exact counts. */
function clearImport() {
  const hadFile = Boolean(state.file_model);
  Object.assign(state, { config: '', name: '', file_model: '' });
  hubRead = null;
  setHubStatus('');
  renderHubQuants();
  if (state.weights === 'file') state.weights = base.weights;
  $('config-text').value = '';
  setImportStatus('');
  if (hadFile) { fillMenus(); writeForm(); }
}

/** A drop target that hands the first dropped file to `onFile`. */
function dropZone(zone, onFile) {
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => { e.preventDefault(); zone.classList.remove('over'); onFile(e.dataTransfer.files[0]); });
}

/** A fix's changes (request fields, as the core re-estimated them) set in the page's state. */
function applyFix(changes) {
  const next = { ...state };
  for (const [field, value] of Object.entries(changes)) {
    const key = stateKeyForField(field);
    if (!key) continue;  // a setting the page has no field for (gradient accumulation): the core's default
    next[key] = field === 'machine.ram_bytes' ? value / 2 ** 30 : value;  // my machine's RAM is typed in GiB
  }
  state = next;
  writeForm();
  update({ fromForm: false });
}

function wire() {
  const form = $('form');
  $('verdict').tabIndex = -1;  // focused after a fix is applied
  $('verdict').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-apply]');
    if (!button) return;
    try { applyFix(JSON.parse(button.closest('li').dataset.changes || '{}')); } catch { /* not a fix of the core's */ }
    // The new verdict replaced the button: the focus goes to that verdict (its fixes, if any, are the
    // next stops), not back to the top of the document.
    $('verdict').focus();
  });
  form.addEventListener('input', (e) => {
    const id = e.target.id;
    if (id === 'model-filter' || id === 'config-text' || id === 'model-file' || id === 'probe-file' || id === 'hf-id') return;
    if (id === 'model') {
      if (!$('model').value) return;
      clearImport();
    }
    update();
  });
  for (const k of USAGE_KEYS) {
    $(k).addEventListener('input', () => {
      // Hours or tokens a day: one of them (typing tokens clears the hours' use; an empty tokens box uses the hours).
      state[k] = $(k).value.trim() === '' ? (k in OWNERSHIP_KEYS ? '' : 0) : numberOf($(k));
      if (k === 'hours_per_day' && !state.hours_per_day) state.hours_per_day = base.hours_per_day;
      writeUrl();
      scheduleExtras(0);
    });
  }
  $('goal').addEventListener('input', () => {
    state.goal = $('goal').value;
    writeUrl();
    scheduleExtras(0);
  });
  form.addEventListener('submit', (e) => e.preventDefault());
  $('model-filter').addEventListener('input', fillModels);
  $('config-apply').addEventListener('click', () => applyConfig($('config-text').value));
  $('config-clear').addEventListener('click', () => {
    state = readForm();
    clearImport();
    writeForm();
    update({ fromForm: false });
  });
  $('model-file').addEventListener('change', (e) => importFile(e.target.files[0]));
  dropZone($('drop-zone'), importFile);
  $('hf-load').addEventListener('click', () => loadFromHub());
  window.addEventListener('online', renderNetwork);
  window.addEventListener('offline', renderNetwork);
  window.addEventListener('pagehide', flushUrl);
  $('targets-attention').addEventListener('click', () => { for (const n of targetPreset('all-linear')) $(`target-${n}`).checked = targetPreset('attention').includes(n); update(); });
  $('targets-all').addEventListener('click', () => { for (const n of targetPreset('all-linear')) $(`target-${n}`).checked = true; update(); });
  for (const b of document.querySelectorAll('[data-unit]')) {
    b.addEventListener('click', () => {
      state.unit = b.dataset.unit;
      f = formatter(S.lang, state.unit, t);
      relabel();
    });
  }
  $('lang-switch').addEventListener('click', switchLang);
  $('copy-link').addEventListener('click', copyLink);
  $('also-add').addEventListener('click', async () => {
    await loadAlso();
    state.also = alsoText([...alsoEntries(state.also), { model: state.model, weights: '' }]);
    writeAlso();
    update();
  });
  $('copy-embed').addEventListener('click', copyEmbed);
  $('options-more').addEventListener('click', () => { showAllOptions = !showAllOptions; renderOptions(); });
  $('precisions-more').addEventListener('click', () => { showAllPrecisions = !showAllPrecisions; renderPrecisions(); });
  $('probe-run').addEventListener('click', runProbe);
  $('probe-file').addEventListener('change', (e) => loadProbeFile(e.target.files[0]));
  dropZone($('probe-drop'), loadProbeFile);
  // A link pasted into the address bar of an open page: read it afresh (in-page anchors carry no '=').
  window.addEventListener('hashchange', () => { if (location.hash.includes('=')) location.reload(); });
  document.querySelector('.skip').addEventListener('click', (e) => {
    e.preventDefault();
    $('results').focus();
    $('results').scrollIntoView();
  });
  let lastWidth = $('chart').clientWidth;
  let lastServeWidth = $('serve-card').clientWidth;
  window.addEventListener('resize', () => {
    if ($('chart').clientWidth !== lastWidth) { lastWidth = $('chart').clientWidth; scheduleExtras(200); }
    // The Serve task's curve is drawn at the card's width.
    if ($('serve-card').clientWidth !== lastServeWidth) {
      lastServeWidth = $('serve-card').clientWidth;
      if (state.task === 'serve' && lastResponse && lastResponse.serving) renderServing(lastResponse);
    }
  });
}

// ---------------------------------------------------------------- start

// The result first (the core answered during start-up), painted before the menus and the form
// around it are filled (listOptions, then listModels and listHardware, the slowest calls). The
// layout is shown with it (style.css hides it until body[data-started]): the page is laid out once,
// with its result, instead of once empty and again when the result arrives (on this 2-core machine
// that first layout of the empty form cost 20-40 ms before the first result could be drawn).
translateStatic();
document.body.dataset.busy = 'true';
document.body.dataset.started = 'true';
if (!S.firstResponse.error) {
  render(S.firstResponse);
  performance.mark('llmsizer:first-result');
}

/** Resolves once the first result is on the screen: when the browser reports the total painted
 *  (Element Timing, Chromium), else after the next frame; at most 200 ms later (a background tab
 *  paints nothing). Work started any earlier (the core's start-up, filling the menus) competes with
 *  the layout and raster of that first frame for the CPU: measured on the 2-core CI machine, the
 *  first paint came 10-20 ms later at the median. */
function painted() {
  return new Promise((resolve) => {
    const elementTiming = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes || []).includes('element');
    if (elementTiming && !S.firstResponse.error) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((e) => e.identifier === 'total')) { observer.disconnect(); setTimeout(resolve, 0); }
      }).observe({ type: 'element', buffered: true });
    } else {
      requestAnimationFrame(() => setTimeout(resolve, 0));
    }
    setTimeout(resolve, 200);
  });
}

// The rest needs the core: loaded already, or (the first result was the prerendered one) started now.
await painted();
await S.loadCore().catch(failedStart);
if (!S.firstResponse.error) writeUrl();
loadOptions();
fillMenus();
writeForm();
renderNotices();
if (S.firstResponse.error) update({ fromForm: false });
wire();
renderNetwork();
document.body.dataset.ready = 'true';
setTimeout(loadCatalogs, 0);
