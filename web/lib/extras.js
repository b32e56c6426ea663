// SPDX-License-Identifier: MIT
// What an edit draws after its verdict: the one page_answer call whose answers the chart, the formats
// and the ranking read, the timer that draws them while the reader types, the ranking of devices,
// the buy-or-rent costs, and the Serve task's ranking (lib/serve.js).
import { $, call, f, menus, state, t } from './page.js';
import { fitMark, flushUrl, idOf, orderedWeights, USAGE_KEYS, writeForm } from './form.js';
import { chartRequests, drawOwed, hardwareName, lastResponse, loadServeView, precisionRequest, renderChart, renderPrecisions, serveView, shownPrecisions, update } from './results.js';
import { el, message, messages } from './view.js';
import { fieldLabel } from './i18n.js';
import { recommendRequest, stateKeyForField, toRequest } from './state.js';

let extrasTimer = 0;
let extrasGeneration = 0;
export let extrasPending = false;  // the extras wait for their timer (scheduleExtras)
export let showAllOptions = false;
/** Rows of the ranking shown before the reader asks for all. */
const RANKING_ROWS = 10;
let serveRanking = {};  // the Serve task's ranking: its request and the core's answer, asked again only when the request changes

// ---------------------------------------------------------------- extras: one call per edit, ranking, costs

export function scheduleExtras(delay = 120) {
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

/** The chart, the weight formats and the ranking, drawn from the last answer (the Serve task: its
 *  ranking), and what render left to them (results.js drawOwed). */
export function drawExtras() {
  drawOwed();
  if (state.task === 'serve') return drawServeRanking();
  if (!lastResponse) return;
  renderChart();
  renderPrecisions();
  renderOptions();
}

/** The extras of an edit whose one core call answered them (askPage), drawn in a task right after the
 *  frame that shows its verdict: the edit's synchronous work is the core call and the verdict, and
 *  the chart, formats and ranking follow a frame later, in place of any still waiting for their timer.
 *  The edit's link is written then too (history.replaceState is the slowest step of an edit when it
 *  runs before the frame: form.js scheduleUrl). The page is busy for the tests until they are drawn.
 *  After an edit whose answer was an error (its askPage left other answers) only what the last
 *  answer's render left to them is drawn. */
export function drawExtrasNow() {
  clearTimeout(extrasTimer);
  const generation = ++extrasGeneration;
  const answers = pageAnswers;
  document.body.dataset.busy = 'true';
  extrasPending = true;
  // A task queued from the next frame's callback runs after that frame is drawn.
  requestAnimationFrame(() => setTimeout(() => {
    if (generation !== extrasGeneration) return;
    extrasPending = false;
    if (answers === pageAnswers) drawExtras();
    else drawOwed();
    flushUrl();
    idle();
  }));
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
export function idle() {
  if (state.task === 'serve' && !serveView) return;
  delete document.body.dataset.busy;
}

/** The answers of the last edit's one core call (pageAnswer: its estimate, the chart's points, the
 *  formats' rows and the ranking, sharing one request's work), by the request each answers. The
 *  renderers read them through answerOf, which asks the core itself only for a request that call did
 *  not include (every format or option shown on request, the chart drawn before the menus' lists
 *  arrived, a core without pageAnswer). */
export let pageAnswers = new Map();
export function answerOf(kind, fn, body) {
  const known = pageAnswers.get(`${kind} ${body}`);
  return known !== undefined ? known : call(fn, body);
}

/** One call to the core for everything an edit shows (core: page_answer); returns the estimate's answer. */
export function askPage(estimateBody) {
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

export function renderOptions() {
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
/** Shows all of the ranking or its first rows (the "all" button in app.js). */
export function setShowAllOptions(value) { showAllOptions = value; }
