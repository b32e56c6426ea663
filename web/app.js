// SPDX-License-Identifier: MIT
// The page: reads the form into a request, asks the WASM core, renders its answer. Every number
// shown comes from the core (estimate, recommend, listModels, listHardware, listOptions); the page
// only converts bytes to GB/GiB and formats numbers for the reader's language. This file is its
// entry: it reads the core's lists, wires the page's events and starts the page. The session is in
// lib/page.js, the inputs in lib/form.js, the answer in lib/results.js, the ranking and costs in
// lib/extras.js, and what is imported (a model, a probe file) in lib/import.js.
import { $, base, call, failedStart, hardware, hardwareById, menus, modelById, models, S, setFormatter, setHardware, setModels, setOptions, setState, setTranslator, state, t } from './lib/page.js';
import { alsoEntries, alsoText, MACHINE_HARDWARE, menusFrom, OWNERSHIP_KEYS, stateKeyForField } from './lib/state.js';
import { copyEmbed, copyLink, fillMenus, fillModels, flushUrl, loadAlso, numberOf, readForm, targetPreset, translateStatic, USAGE_KEYS, writeAlso, writeForm, writeUrl } from './lib/form.js';
import { applyConfig, clearImport, dropZone, importFile, loadFromHub, loadProbeFile, prepareModelFiles, renderNetwork, runProbe } from './lib/import.js';
import { formatter, loadStrings, translator } from './lib/i18n.js';
import { lastResponse, measureChart, render, renderNotices, renderPrecisions, renderServing, setShowAllPrecisions, showAllPrecisions, update } from './lib/results.js';
import { renderOptions, scheduleExtras, setShowAllOptions, showAllOptions } from './lib/extras.js';

// ---------------------------------------------------------------- the core's lists

/** Reads the formats, engines and training choices for the menus (after the first result). */
function loadOptions() {
  const o = call('listOptions');
  if (o.error) return;
  setOptions(o);
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
  setModels(listedModels);
  setHardware(listedHardware);
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

// ---------------------------------------------------------------- language and units

async function switchLang() {
  const next = S.lang === 'ja' ? 'en' : 'ja';
  const strings = await loadStrings(next);
  S.lang = next;
  state.lang = next;
  setTranslator(translator(strings));
  setFormatter(formatter(S.lang, state.unit, t));
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

// ---------------------------------------------------------------- wiring

/** A fix's changes (request fields, as the core re-estimated them) set in the page's state. */
function applyFix(changes) {
  const next = { ...state };
  for (const [field, value] of Object.entries(changes)) {
    const key = stateKeyForField(field);
    if (!key) continue;  // a setting the page has no field for (gradient accumulation): the core's default
    next[key] = field === 'machine.ram_bytes' ? value / 2 ** 30 : value;  // my machine's RAM is typed in GiB
  }
  setState(next);
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
    setState(readForm());
    clearImport();
    writeForm();
    update({ fromForm: false });
  });
  $('model-file').addEventListener('change', (e) => importFile(e.target.files[0]));
  dropZone($('drop-zone'), importFile);
  $('hf-load').addEventListener('click', () => loadFromHub());
  // The module that reads a model file is loaded once a file may come: dragged over the page, or the
  // file input or the Hub's box reached.
  window.addEventListener('dragenter', (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) prepareModelFiles(); });
  for (const id of ['model-file', 'hf-id']) for (const type of ['pointerdown', 'focus']) $(id).addEventListener(type, prepareModelFiles);
  window.addEventListener('online', renderNetwork);
  window.addEventListener('offline', renderNetwork);
  window.addEventListener('pagehide', flushUrl);
  $('targets-attention').addEventListener('click', () => { for (const n of targetPreset('all-linear')) $(`target-${n}`).checked = targetPreset('attention').includes(n); update(); });
  $('targets-all').addEventListener('click', () => { for (const n of targetPreset('all-linear')) $(`target-${n}`).checked = true; update(); });
  for (const b of document.querySelectorAll('[data-unit]')) {
    b.addEventListener('click', () => {
      state.unit = b.dataset.unit;
      setFormatter(formatter(S.lang, state.unit, t));
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
  $('options-more').addEventListener('click', () => { setShowAllOptions(!showAllOptions); renderOptions(); });
  $('precisions-more').addEventListener('click', () => { setShowAllPrecisions(!showAllPrecisions); renderPrecisions(); });
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
  // The chart is drawn at its box's width, read when that box is laid out (results.js measureChart).
  new ResizeObserver(measureChart).observe($('chart'));
  let lastServeWidth = $('serve-card').clientWidth;
  window.addEventListener('resize', () => {
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
// An edit in the Serve or Train task waits for their module the first time (lib/session.js), then is answered.
S.onTasksCore = () => update({ fromForm: false });
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
