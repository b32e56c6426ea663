// SPDX-License-Identifier: MIT
// The answer to one edit: its errors and notices, the verdict, breakdown, summary and model line (the
// Serve task's from lib/serve.js), and below them the chart of memory against context and the
// weight formats' table. `update` is the per-edit cycle: read the form, ask the core, draw.
import { $, f, hardwareById, modelById, options, S, setState, state, t } from './page.js';
import { MACHINE_HARDWARE, stateKeyForField, toRequest } from './state.js';
import { alsoView, fitMark, formatName, idOf, imported, importedConfig, loadAlso, orderedWeights, readForm, scheduleUrl, showSections, weightGroups, writeForm } from './form.js';
import { answerOf, askPage, drawExtras, drawExtrasNow, extrasPending, idle, pageAnswers, scheduleExtras } from './extras.js';
import { contextChart } from './charts.js';
import { el, message, messages, renderBreakdown, renderExplain, renderFields, renderVerdict, totalBytes, verdictOf } from './view.js';
import { renderHubQuants, renderProbeInfo } from './import.js';

export let lastResponse = null;
export let showAllPrecisions = false;
export let serveView = null;  // lib/serve.js, loaded when the Serve task is first shown
let serveViewLoading = null;
/** The cards that answer one person's inference or a training run; the Serve task shows its own card instead. */
const SINGLE_RUN_CARDS = ['chart-card', 'precision-card', 'options-card', 'costs-card'];

// ---------------------------------------------------------------- errors and notices

export function clearErrors() {
  for (const e of document.querySelectorAll('.field-error')) e.remove();
  for (const e of document.querySelectorAll('[aria-invalid="true"]')) { e.removeAttribute('aria-invalid'); e.removeAttribute('aria-describedby'); }
}

/** Puts the core's (English) message next to the field it names, after a translated lead-in. */
export function showFieldError(error, forceId = '') {
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

export function setStatus(text, cls = '') {
  const s = $('status');
  s.textContent = text;
  s.className = cls;
}

export function renderNotices() {
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

export function hardwareName(id) {
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

export function update({ fromForm = true } = {}) {
  const before = state;
  if (fromForm) setState(readForm());
  if (state.hardware === MACHINE_HARDWARE && before.hardware !== MACHINE_HARDWARE && hardwareById.has(before.hardware)) adoptMachineBase(before.hardware);
  showSections();
  scheduleUrl();
  const response = askPage(JSON.stringify(toRequest(state)));
  if (response.error && response.error.pending) {
    // The Serve or Train task's module is loading (lib/session.js): this edit is answered once it has.
    document.body.dataset.busy = 'true';
    $('results').classList.add('stale');
    return;
  }
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
  // The extras' answers came with the estimate's (askPage): drawn right after the frame that shows
  // the verdict, no longer put off for the typing to pause, and with them what the reader does not
  // see at once (render's `later`).
  const later = pageAnswers.size > 0;
  render(response, { later });
  renderHubQuants();
  if (later) drawExtrasNow();
  else scheduleExtras();
}

let owed = [];  // the parts of the last answer that render left to the extras (its `later`)
/** What render left to the extras (extras.js drawExtras): the explain panel and the folded
 *  summary sections' contents, drawn after the frame that shows the rest. */
export function drawOwed() {
  const now = owed;
  owed = [];
  for (const draw of now) draw();
}

/** The answer's cards; `later`: the parts below or folded out of sight (the explain panel, the
 *  contents of the summary's closed sections) are drawn with the extras, after the frame that shows
 *  the rest (update). */
export function render(response, { later = false } = {}) {
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
  owed = [];
  renderSummary(response, later);
  renderModelInfo(response);
  renderProbeInfo(response);
  if (later) owed.push(() => renderExplain($('explain'), response, { t, f }));
  else renderExplain($('explain'), response, { t, f });
  const warnings = messages(t, f, response.warnings, response.warnings_data);
  $('warnings').replaceChildren(...warnings.map((w) => el('li', { text: w })));
  $('warnings-card').hidden = !warnings.length;
}

/** Loads lib/serve.js (the first time the Serve task needs it), then `then`, and the ranking if its
 *  timer went off before this view loaded; the page stays busy for the tests until both are drawn. */
export function loadServeView(then) {
  document.body.dataset.busy = 'true';
  if (!serveViewLoading) serveViewLoading = import('./serve.js').then((m) => { serveView = m; });
  serveViewLoading.then(() => {
    then();
    if (extrasPending) return;
    drawExtras();
    idle();
  }, (error) => setStatus(`${t('status.failed')} (${String((error && error.message) || error)})`, 'error'));
}

/** The Serve task's answer (lib/serve.js). */
export function renderServing(response) {
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

/** `later`: the closed sections' contents are owed to the extras (render). */
function renderSummary(response, later = false) {
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
    const details = el('details', { attrs: { id: `summary-${key}` } }, el('summary', { text: t(title) }));
    details.open = key === 'fit' || key === 'throughput' || key === 'training' || key === 'draft';
    const fill = () => {
      details.append(renderFields(value, ctx, skip));
      if (key === 'weights_detail' && Array.isArray(value.types)) details.append(renderFields({ types: value.types }, ctx));
    };
    if (later && !details.open) owed.push(fill);
    else fill();
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

// ---------------------------------------------------------------- the chart and the weight formats

function maxContextOf() {
  if (imported()) return Number((importedConfig() || {}).max_position_embeddings) || 0;
  return (modelById.get(state.model) || {}).max_context || 0;
}

/** The chart's points: each token count and the request that sizes it. */
export function chartRequests() {
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

/** The chart's width in CSS pixels, read once the page is laid out and again on a resize (app.js), not
 *  while an edit draws: reading it after the edit's first changes would lay the whole page out
 *  before its frame, which lays it out again. A hidden chart (0 wide) keeps the width it had; a new
 *  width draws the chart again. */
let chartWidth = 0;
export function measureChart() {
  const before = chartWidth;
  if (before !== (chartWidth = $('chart').clientWidth || before) && before) scheduleExtras(200);
}

export function renderChart() {
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
  if (!chartWidth) measureChart();
  $('chart').replaceChildren(contextChart(points, {
    width: chartWidth || 640,
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
export function numbersOnly(request) {
  return { ...request, english_text: false };
}

/** The formats the core suggests for this engine (llama.cpp: the GGUF files people download) and the
 *  chosen one; every format on request. */
export function shownPrecisions() {
  const all = orderedWeights();
  const suggested = (options.suggested_weights || {})[state.engine] || (weightGroups().find((g) => g.ecosystem === 'generic') || {}).formats || all.slice(0, 5).map(idOf);
  return { all, shown: showAllPrecisions ? all : all.filter((w) => suggested.includes(idOf(w)) || idOf(w) === state.weights) };
}

/** A format's row: the request with that format, read for its bytes and verdict. */
export function precisionRequest(id) {
  return JSON.stringify(numbersOnly(toRequest({ ...state, weights: id })));
}

export function renderPrecisions() {
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
/** Shows every weight format or the suggested ones (the "all" button in app.js). */
export function setShowAllPrecisions(value) { showAllPrecisions = value; }
