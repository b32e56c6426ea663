// SPDX-License-Identifier: MIT
// A model or a device from elsewhere: a pasted config.json, a model file's header (GGUF,
// safetensors), a Hugging Face repository read by id (lib/hub.js), and a probe file (llmsizer-probe
// or the WebGPU probe) as the hardware.
import { $, base, call, f, setState, START_HREF, state, t } from './page.js';
import { parseConfigText, PROBE_HARDWARE, stateKeyForField, toRequest } from './state.js';
import { clearErrors, numbersOnly, showFieldError, update } from './results.js';
import { el, message, messages, totalBytes } from './view.js';
import { fillMenus, readForm, writeForm } from './form.js';
import { addModuleMessages } from './i18n.js';

export let probeName = '';    // the core's name for a loaded probe file's device ("measured: …")
let probeSource = '';  // where that probe file came from (its file name, or this browser)
let hubRead = null;    // {plan, chosen}: the repository read by id, while its model is in use

// ---------------------------------------------------------------- import

export function applyConfig(text) {
  let parsed;
  try {
    parsed = parseConfigText(text);
  } catch {
    clearErrors();
    showFieldError({ field: 'model.config', message: t('import.badJson') }, 'config-text');
    return;
  }
  setState({ ...readForm(), file_model: '' });
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

/** The core's module for model files and the hub (lib/model_files.js), loaded on first use, with the
 *  English of its messages added to the page's; throws when it cannot load. */
async function modelFilesCore() {
  const core = await (await import('./model_files.js')).filesCore();
  addModuleMessages(core);
  return core;
}

/** The model files' module loaded and warmed ahead of a drop or Load (lib/model_files.js); a page
 *  offline before its first use goes on without it. */
export function prepareModelFiles() {
  import('./model_files.js').then((m) => m.prepareFilesCore()).catch(() => {});
}

/** Reads a model file's header (growing slices from the start, as the core's nextHeaderRead says:
 *  core/include/llmsizer/header_read.hpp) and takes the core's `request_model` for it as the model.
 *  Nothing past the header is read, and nothing leaves the page. On any failure the other inputs
 *  and the result stay as they were. */
export async function importFile(file) {
  setImportStatus('');
  if (!file) return;
  const fail = (text) => setImportStatus(text, { error: true });
  if (!/\.(gguf|safetensors|json)$/i.test(file.name)) return fail(t('import.badFile'));
  let core;
  try {
    core = await modelFilesCore();
  } catch {
    // Its module is fetched on first use: offline before any drop or Load, it is not cached yet.
    return fail(t('import.readerUnavailable'));
  }
  if (typeof core.ModelFileHeader !== 'function') return fail(t('import.fileUnsupported'));
  let length = core.nextHeaderRead(0, 0, file.size).bytes;
  // The bytes read so far, kept in the module's memory: each slice is copied in once
  // (wasm/bindings_model_files.cpp ModelFileHeader), and freed when the read ends.
  const header = new core.ModelFileHeader();
  try {
    let held = 0;
    for (;;) {
      let r;
      try {
        // Only the bytes not read yet: a 3.9 MB header is read once, not once per round.
        held = header.append(new Uint8Array(await file.slice(held, length).arrayBuffer()));
        r = JSON.parse(header.inspect(file.size));
      } catch (e) {
        return fail(`${t('import.failed')} ${String((e && e.message) || e)}`);
      }
      const needed = r.error && typeof r.error.needed_bytes === 'number' ? r.error.needed_bytes : 0;
      const next = r.error ? core.nextHeaderRead(length, needed, file.size) : { step: 'answered' };
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
  } finally {
    header.delete();
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
  setState({ ...readForm(), config: '', file_model: JSON.stringify(model) });
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
 *  that reads a repository (lib/hub.js) and the core's module for it (lib/model_files.js) are loaded
 *  only then: the default page does not use them. */
export async function loadFromHub(fileOverride) {
  let hub;
  let core;
  try {
    [hub, core] = await Promise.all([import('./hub.js'), modelFilesCore()]);
  } catch (e) {
    setHubStatus(`${t('hub.failed')} ${String((e && e.message) || e)}`, { error: true, data: { error: 'exception' } });
    return;
  }
  const { hubEndpoint, parseHubInput, readRepository } = hub;
  const input = parseHubInput(core, $('hf-id').value);
  if (!input) return setHubStatus(t('hub.badId'), { error: true, data: { error: 'hub.badId' } });
  const file = typeof fileOverride === 'string' ? fileOverride : input.file;
  $('hf-load').disabled = true;
  try {
    const r = await readRepository(core, {
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
export function renderHubQuants() {
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

export function renderNetwork() {
  $('hf-network').hidden = navigator.onLine;
  $('hf-network').textContent = navigator.onLine ? '' : t('hub.offlineNote');
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
  setState(trial);
  probeName = (r.hardware && r.hardware.name) || '';
  probeSource = source;
  fillMenus();
  writeForm();
  update({ fromForm: false });
}

const MAX_PROBE_FILE_BYTES = 4e6;  // llmsizer-probe's files are about 7 KB

export async function loadProbeFile(file) {
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
export function renderProbeInfo(response) {
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
export async function runProbe() {
  const out = $('probe-out');
  if (!navigator.gpu) { setProbeStatus(t('probe.noWebGpu')); return; }
  setProbeStatus(t('probe.running'));
  let mod;
  try {
    mod = await import('../probe-webgpu.js');
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

// ---------------------------------------------------------------- back to a preset, drop targets

/** Back to a preset: forgets the imported config and a file's exact counts. */
export function clearImport() {
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
export function dropZone(zone, onFile) {
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => { e.preventDefault(); zone.classList.remove('over'); onFile(e.dataTransfer.files[0]); });
}
