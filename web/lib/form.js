// SPDX-License-Identifier: MIT
// The form: fills its menus from the core's lists, writes the state into its inputs and reads them
// back, shows the sections the chosen task uses, and writes the link that shares the state.
import { $, f, hardware, hardwareById, menus, models, options, S, state, t } from './page.js';
import { alsoEntries, alsoText, embedCode, MACHINE_HARDWARE, OWNERSHIP_KEYS, PROBE_HARDWARE, toParams } from './state.js';
import { el, message } from './view.js';
import { lastResponse, setStatus, update } from './results.js';
import { probeName } from './import.js';

let urlTimer = 0;
export let alsoView = null;  // lib/also_loaded.js, loaded when a model is first kept loaded beside this one
const NUMBER_KEYS = ['input_tokens', 'output_tokens', 'batch', 'gpus', 'seq_len', 'micro_batch', 'lora_rank', 'budget_gb',
  'machine_ram_gib', 'machine_vram_gib', 'machine_gpus', 'concurrency', 'request_rate', 'serve_input_tokens', 'serve_output_tokens', 'tp'];
const OPTIONAL_NUMBER_KEYS = ['group_size', 'dataset_tokens', 'ubatch', 'parallel', 'draft_max', 'draft_acceptance', 'ttft_ms', 'tokens_per_s'];  // empty means "not set" (0)
const SELECT_KEYS = ['weights', 'kv_cache', 'engine', 'method', 'optimizer', 'precision', 'quantization', 'hardware', 'goal', 'cpu', 'serve_engine', 'serve_load'];
/** The cost table's inputs (outside the form, like the ranking's goal): they change only the table. */
export const USAGE_KEYS = ['hours_per_day', 'tokens_per_day', 'electricity', ...Object.keys(OWNERSHIP_KEYS)];

// ---------------------------------------------------------------- text and menus

export function translateStatic() {
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

export const idOf = (x) => (typeof x === 'string' ? x : x.id);
/** A weight or KV-cache format's name in the page's language (the core's term, else its English name). */
export const formatName = (x) => (typeof x === 'string' ? x : message(t, f, x.name_data, x.name || x.id));
/** The module names of a LoRA target preset ("attention", "all-linear"), as the core lists them. */
export const targetPreset = (name) => (((options.lora_targets || {}).presets || {})[name] || []);
const nameOf = (prefix) => (x) => {
  if (typeof x !== 'string' && x.name) return x.name;
  const key = `${prefix}.${idOf(x)}`;
  const s = t(key);
  return s === key ? idOf(x) : s;
};

export const weightGroups = () => (Array.isArray(options.weight_groups) ? options.weight_groups : []);

/** The weight formats in the core's group order (weight_groups) when it gives one. */
export function orderedWeights() {
  const weights = options.weights || [];
  const groups = weightGroups();
  return groups.length ? groups.flatMap((g) => (g.formats || []).map((id) => weights.find((w) => w.id === id)).filter(Boolean)) : weights;
}

/** "✓ fits" / "✗ does not fit"; the word is for screen readers only on a narrow screen. */
export function fitMark(fits) {
  return [fits ? '✓ ' : '✗ ', el('span', { cls: 'fit-word', text: t(fits ? 'value.fits' : 'value.noFit') })];
}

export function fillMenus() {
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

export function fillModels() {
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
export const imported = () => Boolean(state.config || state.file_model);

/** The config.json-like object of the imported model, or null (a bare parameter count has none). */
export function importedConfig() {
  try {
    if (state.file_model) return JSON.parse(state.file_model).config || null;
    return state.config ? JSON.parse(state.config) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- form <-> state

export function writeForm() {
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
export function numberOf(input) {
  const raw = input.value.trim();
  if (raw === '' && input.validity.badInput) return 'not a number';
  return raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
}

export function readForm() {
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
export const loadAlso = () => import('./also_loaded.js').then((m) => { alsoView = m; });

/** The "also loaded" rows (lib/also_loaded.js) from the state, their menus from the core's lists. */
export function writeAlso() {
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

export function showSections() {
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

// ---------------------------------------------------------------- share

function shareUrl() {
  return `${location.origin}${location.pathname}#${toParams(state).toString()}`;
}

/** An edit's link is written after its frame: history.replaceState costs about half of an edit's
 *  time to the next frame (bench/results/history.md). The extras write it at the latest, and so
 *  does leaving the page. */
export function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, 60);
}

/** Writes a link still waiting for its timer now. */
export function flushUrl() {
  if (urlTimer) writeUrl();
}

export function writeUrl() {
  clearTimeout(urlTimer);
  urlTimer = 0;
  const url = shareUrl();
  $('share-url').value = url;
  history.replaceState(null, '', url);
}

export async function copyLink() {
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
export async function copyEmbed() {
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
