// SPDX-License-Identifier: MIT
// Rendering shared by the full page and the embed view. Text goes in through textContent only
// (model names from a pasted config or a file name are user-supplied), never innerHTML.
import { PART_COLORS, PART_ORDER, stackedBar } from './charts.js';
import { fieldLabel } from './i18n.js';

/** document.createElement with a class and text. */
export function el(tag, { cls, text, attrs } = {}, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) if (c) e.append(c);
  return e;
}

/**
 * A core message in the page's language. The core sends each sentence twice: as English text and,
 * under the field's `_data` twin, as data ({id, args, parts}); the page's strings hold a template
 * "msg.<id>" per id (web/i18n/messages.<lang>.json). Arguments are written by their unit suffix:
 * _bytes in GB or GiB as chosen, _count as a count, _b bytes per element, _ratio "n×", _usd
 * dollars, _term another message ("term.<id>"); plain numbers and words as they are. `fallback`
 * (the core's English) stands in for an id the strings lack.
 */
export function message(t, f, data, fallback = '') {
  const text = renderMessage(t, f, data);
  return text === null ? String(fallback ?? '') : text;
}

function renderMessage(t, f, data) {
  if (!data || typeof data !== 'object' || typeof data.id !== 'string') return null;
  const key = `msg.${data.id}`;
  const template = t(key);
  if (template === key) return null;
  const args = data.args && typeof data.args === 'object' ? data.args : {};
  let text = template.replace(/\{(\w+)\}/g, (m, name) => (Object.prototype.hasOwnProperty.call(args, name) ? argumentText(t, f, name, args[name]) : m));
  for (const part of Array.isArray(data.parts) ? data.parts : []) {
    const more = renderMessage(t, f, part);
    if (more === null) return null;
    text += more;
  }
  return text;
}

function argumentText(t, f, name, value) {
  if (name.endsWith('_term')) return renderMessage(t, f, { id: `term.${value}` }) ?? String(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  if (name.endsWith('_bytes')) return f.bytes(value);
  if (name.endsWith('_count')) return f.count(value);
  if (name.endsWith('_b')) return `${f.sig(value)} B`;
  if (name.endsWith('_ratio')) return `${f.sig(value)}×`;
  if (name.endsWith('_usd')) return f.usd(value);
  return Number.isInteger(value) ? String(value) : f.sig(value);
}

/** The messages of a list field (warnings, features, fixes): each `_data` entry, else the text. */
export function messages(t, f, texts, data) {
  const list = Array.isArray(texts) ? texts : [];
  const items = Array.isArray(data) ? data : [];
  // An answer asked for with english_text false has the data alone.
  return Array.from({ length: Math.max(list.length, items.length) }, (_, i) => message(t, f, items[i], list[i]));
}

/** The memory that matters for this setting: the device peak, or host memory when nothing runs on a device. */
export function totalBytes(response) {
  const m = response.memory || {};
  return m.device_bytes > 0 ? m.device_bytes : (m.host_bytes || 0);
}

/**
 * The fit verdict, as the core gave it in `fit`: for a device (catalog hardware, a probe file) or for
 * the memory budget the person typed (`budget_bytes`, then `fit.budget`). capacity in bytes.
 */
export function verdictOf(response, state, hardwareName) {
  const total = totalBytes(response);
  const fit = response.fit;
  if (fit && typeof fit === 'object') {
    // The memory the core counts as usable on this device (usable_bytes), else what headroom implies.
    const headroom = typeof fit.headroom_bytes === 'number' ? fit.headroom_bytes : null;
    const required = typeof fit.required_bytes === 'number' ? fit.required_bytes : total;
    const capacity = typeof fit.usable_bytes === 'number' ? fit.usable_bytes : headroom !== null ? required + headroom : null;
    const device = fit.budget ? null : (response.hardware && response.hardware.name) || hardwareName;
    return { known: true, fits: Boolean(fit.fits), capacity, device, total: required, level: typeof fit.verdict === 'string' ? fit.verdict : '' };
  }
  return { known: false, total, capacity: null };
}

/** The verdict block: total, fits / does not fit, headroom. */
export function renderVerdict(box, response, verdict, { t, f }) {
  box.replaceChildren();
  const offloaded = verdict.level === 'offload';
  box.className = `verdict ${verdict.known ? (verdict.fits ? 'fits' : offloaded ? 'offload' : 'nofit') : ''}${verdict.level ? ` level-${verdict.level}` : ''}`;
  box.append(el('p', { cls: 'total-label', text: t('result.total') }),
    el('p', { cls: 'total', text: f.bytes(verdict.total), attrs: { id: 'total', 'data-bytes': verdict.total, elementtiming: 'total' } }));
  if (!verdict.known) {
    box.append(el('p', { cls: 'verdict-text', text: t('verdict.noHardware') }));
    return;
  }
  const where = verdict.device ? verdict.device : t('verdict.budget', { value: f.bytes(verdict.capacity) });
  // Offload is a plan, not a failure: the GPU holds what it can, the rest runs from RAM (the core's split).
  const split = response.fit && response.fit.verdict === 'offload' && response.fit.offload;
  const text = verdict.fits ? t('verdict.fits', { where }) : split ? t('verdict.offloadPlan', { where }) : t('verdict.noFit', { where });
  const mark = verdict.fits ? '✓' : split ? '◐' : '✗';
  box.append(el('p', { cls: 'verdict-text', text: `${mark} ${text}`, attrs: { id: 'verdict-text', 'data-fits': verdict.fits } }));
  if (split) {
    box.append(el('p', { cls: 'hint', text: t('verdict.offloadSplit', { gpu: f.bytes(split.gpu_bytes), capacity: f.bytes(verdict.capacity), ram: f.bytes(split.host_bytes) }),
      attrs: { 'data-field': 'offload-split' } }));
  } else if (verdict.capacity !== null) {
    const diff = verdict.capacity - verdict.total;
    box.append(el('p', { cls: 'hint', text: diff >= 0 ? t('verdict.headroom', { value: f.bytes(diff), capacity: f.bytes(verdict.capacity) })
      : t('verdict.short', { value: f.bytes(-diff), capacity: f.bytes(verdict.capacity) }) }));
  }
  // Training that does not fit: the core's verdict names the longest sequence that does.
  const fit = response.fit;
  if (fit && fit.note_data) box.append(el('p', { cls: 'hint', text: message(t, f, fit.note_data, fit.note), attrs: { 'data-field': 'fit-note' } }));
  // The core's verdict level in one sentence, the fixes it re-estimated (cheapest first), what it assumed.
  if (fit && fit.summary_data) {
    box.append(el('p', { cls: 'verdict-level', text: message(t, f, fit.summary_data, fit.summary), attrs: { id: 'verdict-level', 'data-verdict': fit.verdict || '' } }));
  }
  const fixes = fit && Array.isArray(fit.fixes) ? fit.fixes : [];
  if (fixes.length) {
    const list = el('ol', { cls: 'fixes', attrs: { id: 'fixes' } });
    for (const fix of fixes) {
      // The fix's own button sets its changes in the form (app.js); the embed view hides the list.
      list.append(el('li', { text: `${message(t, f, fix.text_data, fix.text)} `, attrs: { 'data-cost': fix.cost, 'data-verdict': fix.verdict, 'data-changes': JSON.stringify(fix.changes || {}) } },
        el('button', { cls: 'apply-fix', text: t('verdict.applyFix'), attrs: { type: 'button', 'data-apply': '' } })));
    }
    box.append(el('p', { cls: 'hint', text: t('verdict.fixes') }), list);
  }
  const assumed = fit ? messages(t, f, fit.assumptions, fit.assumptions_data) : [];
  if (assumed.length) {
    box.append(el('details', { cls: 'assumptions', attrs: { id: 'assumptions' } }, el('summary', { text: t('verdict.assumptions') }),
      el('ul', {}, ...assumed.map((a) => el('li', { text: a })))));
  }
}

/** Parts in display order: the known ones first, then any part a newer core adds. */
export function partsOf(response, t) {
  const parts = (response.memory && response.memory.parts) || {};
  const names = [...PART_ORDER.filter((p) => p in parts), ...Object.keys(parts).filter((p) => !PART_ORDER.includes(p))];
  return names.filter((p) => typeof parts[p] === 'number' && parts[p] > 0).map((p) => ({ part: p, bytes: parts[p], label: partLabel(t, p) }));
}

/** Translated part name. */
export function partLabel(t, part) {
  const key = `part.${part}`;
  const s = t(key);
  return s === key ? part.replace(/_/g, ' ') : s;
}

/** Stacked bar and a table of the parts (each value carries data-part for tests and styling). */
export function renderBreakdown(barBox, table, response, verdict, { t, f }) {
  const parts = partsOf(response, t);
  barBox.replaceChildren(stackedBar(parts, verdict.capacity, { label: t('chart.barLabel', { total: f.bytes(verdict.total) }), capacityLabel: t('chart.capacity'), format: f.bytes }));
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ['table.part', 'table.memory', 'table.share']) head.append(el('th', { text: t(h), attrs: { scope: 'col' } }));
  const body = table.createTBody();
  const sum = parts.reduce((s, p) => s + p.bytes, 0) || 1;
  for (const p of parts) {
    const row = body.insertRow();
    const name = row.insertCell();
    const swatch = el('span', { cls: `swatch part-${p.part}`, attrs: { 'aria-hidden': 'true' } });
    swatch.style.background = PART_COLORS[p.part] || '#444';
    name.append(swatch, document.createTextNode(p.label));
    const value = row.insertCell();
    value.textContent = f.bytes(p.bytes);
    value.dataset.part = p.part;
    value.dataset.bytes = String(p.bytes);  // the core's exact integer, for tests and copying
    value.className = 'num';
    row.insertCell().append(el('span', { cls: 'num', text: `${f.sig((p.bytes / sum) * 100)} %` }));
  }
  const m = response.memory || {};
  const foot = table.createTFoot();
  const addFoot = (key, bytes, id) => {
    if (typeof bytes !== 'number') return;
    const row = foot.insertRow();
    row.append(el('th', { text: t(key), attrs: { scope: 'row' } }));
    const c = row.insertCell();
    c.textContent = f.bytes(bytes);
    c.className = 'num';
    if (id) c.id = id;
    row.insertCell();
  };
  // Nothing on a GPU (a CPU, gpus 0): no device peak to show.
  if (m.device_bytes > 0) {
    // Unified memory (a Mac) has no nvidia-smi: the same peak is the GPU's share in use.
    const unified = response.fit && response.fit.placement === 'unified-memory';
    addFoot(unified ? 'result.deviceUnified' : 'result.device', m.device_bytes, 'device-bytes');
    if (!unified) addFoot('result.tensorPeak', m.tensor_peak_bytes);
  }
  if (m.host_bytes > 0) addFoot('result.host', m.host_bytes);
  addFoot('result.disk', response.disk_bytes, 'disk-bytes');
}

/**
 * A definition list of a response object's fields (fit, throughput, training, weights_detail, ...).
 * Units come from the names (contract: names carry units); inside an object named `bytes` or
 * `*_bytes` every value is bytes, inside `*_ms` milliseconds. Arrays of objects become small tables.
 */
export function renderFields(obj, ctx, skip = [], hint = '') {
  const { t, f } = ctx;
  const dl = el('dl', { cls: 'fields' });
  const nameFor = (k) => (hint === 'bytes' ? `${k}_bytes` : hint === 'ms' ? `${k}_ms` : k);
  const source = obj || {};
  for (const [k, v] of Object.entries(source)) {
    if (skip.includes(k) || v === null || v === undefined || k.endsWith('_data')) continue;
    if (typeof v === 'string' && source[`${k}_data`]) {
      // A sentence (or a term such as what bounds the speed) with its message beside it.
      dl.append(el('dt', { text: fieldLabel(t, k) }), el('dd', { text: message(t, f, source[`${k}_data`], v), attrs: { 'data-field': k } }));
      continue;
    }
    if (typeof v === 'string' && t(`enum.${k}.${v}`) !== `enum.${k}.${v}`) {
      // An id from a fixed list (placement, price kind): its word in the page's language.
      dl.append(el('dt', { text: fieldLabel(t, k) }), el('dd', { text: t(`enum.${k}.${v}`), attrs: { 'data-field': k, 'data-value': v } }));
      continue;
    }
    if (v === 0 && (k === 'flops' || k === 'hours' || k === 'usd')) continue;  // not computed without dataset size or price
    const dt = el('dt', { text: fieldLabel(t, k) });
    if (k === 'unknown' && Array.isArray(v)) {
      // Figures the catalog does not give: named, never shown as 0.
      dl.append(dt, el('dd', { text: v.map((x) => fieldLabel(t, x)).join(', '), attrs: { 'data-field': k } }));
      continue;
    }
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object')) {
      dl.append(dt, el('dd', {}, tableOf(v, ctx)));
    } else if (Array.isArray(v)) {
      // A list of field names (the parts a total adds) reads as their labels.
      const item = (x) => (typeof x === 'string' && t(`key.${x}`) !== `key.${x}` ? t(`key.${x}`) : f.field(k, x));
      dl.append(dt, el('dd', { text: v.map(item).join(', ') || t('value.unknown') }));
    } else if (typeof v === 'object') {
      const childHint = k === 'bytes' || k.endsWith('_bytes') ? 'bytes' : k.endsWith('_ms') ? 'ms' : '';
      dl.append(dt, el('dd', {}, renderFields(v, ctx, [], childHint)));
    } else {
      const attrs = typeof v === 'number' ? { 'data-field': k, 'data-value': v } : { 'data-field': k };  // the core's number as sent
      dl.append(dt, el('dd', { text: f.field(nameFor(k), v), attrs }));
    }
  }
  return dl;
}

function tableOf(rows, { t, f }) {
  const table = el('table', { cls: 'parts' });
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => rows.some((r) => r[k] !== null && typeof r[k] !== 'object'));
  const head = table.createTHead().insertRow();
  for (const k of keys) head.append(el('th', { text: fieldLabel(t, k), attrs: { scope: 'col' } }));
  const body = table.createTBody();
  for (const r of rows.slice(0, 50)) {
    const row = body.insertRow();
    for (const k of keys) {
      const c = row.insertCell();
      c.textContent = r[k] === undefined || r[k] === null ? '' : f.field(k, r[k]);
    }
  }
  return table;
}

/** The explain panel: per part, "part = formula" and the request's numbers put in. */
export function renderExplain(box, response, { t, f }) {
  box.replaceChildren();
  const lines = Array.isArray(response.explain) ? response.explain : [];
  if (!lines.length) { box.append(el('p', { cls: 'hint', text: t('explain.none') })); return; }
  const list = el('dl', { cls: 'explain' });
  for (const line of lines) {
    const part = partLabel(t, String(line.part || ''));
    list.append(el('dt', { text: `${part} = ${message(t, f, line.formula_data, line.formula)}`, attrs: { 'data-explain': line.part } }));
    list.append(el('dd', { text: `= ${message(t, f, line.values_data, line.values)}` }));
  }
  box.append(list);
}
