// SPDX-License-Identifier: MIT
// Models kept loaded beside the model (the request's `also_loaded`): the rows of model and weights
// under the hardware, and the core's answer for the set: one stacked bar with a segment per model
// against the device, each model's memory, the set's verdict and the command lines. Every number
// is the core's (response `models` and `fit.set`); this module only draws them. app.js loads it
// when a model is first kept loaded, and reads the rows back (.also-row, .also-model, .also-weights).
import { PART_COLORS, stackedBar } from './charts.js';
import { el, message, messages } from './view.js';

/**
 * The rows for `entries`: a model menu, a weights menu ('' the model's own format) and a remove
 * button each. `fill(select, kind)` fills a menu from the core's lists; `changed` runs after a
 * row is removed.
 */
export function writeAlsoRows(box, entries, { t, fill, changed }) {
  box.replaceChildren(...entries.map((e, i) => {
    const model = el('select', { cls: 'also-model', attrs: { 'aria-label': `${t('also.model')} ${i + 1}` } });
    const weights = el('select', { cls: 'also-weights', attrs: { 'aria-label': `${t('also.weights')} ${i + 1}` } });
    fill(model, 'model');
    fill(weights, 'weights');
    weights.prepend(el('option', { text: t('draft.sameWeights'), attrs: { value: '' } }));
    model.value = e.model;
    weights.value = e.weights || '';
    const remove = el('button', { cls: 'also-remove', text: t('also.remove'), attrs: { type: 'button' } });
    remove.addEventListener('click', () => {
      remove.closest('.also-row').remove();
      changed();
    });
    return el('div', { cls: 'also-row grid2' }, model, weights, remove);
  }));
}

const SEGMENT_COLORS = Object.values(PART_COLORS);

/** The set's answer: its verdict, a stacked bar with one segment per model (GPU bytes, or RAM
 *  bytes where nothing is on a GPU) against the device, each model's line, the command lines. */
export function renderAlsoResult(response, { t, f, commandLine }) {
  const models = Array.isArray(response.models) ? response.models : [];
  const set = (response.fit || {}).set;
  const details = el('details', { attrs: { id: 'summary-also' } }, el('summary', { text: t('section.alsoResult') }));
  details.open = true;
  if (set) {
    details.append(el('p', { text: message(t, f, set.summary_data, set.summary), attrs: { id: 'also-verdict', 'data-verdict': set.verdict } }));
  }
  const onGpu = models.some((m) => m.device_bytes > 0);
  const held = (m) => (onGpu ? m.device_bytes : m.host_bytes);
  const parts = models.map((m, i) => ({ part: `model-${i}`, bytes: m.resident === false ? 0 : held(m), label: m.model }));
  const bar = stackedBar(parts, set ? set.usable_bytes : 0, { label: t('also.barLabel', { total: f.bytes(parts.reduce((s, p) => s + p.bytes, 0)) }),
    capacityLabel: t('chart.capacity'), format: f.bytes });
  bar.querySelectorAll('rect').forEach((rect, i) => rect.setAttribute('fill', SEGMENT_COLORS[i % SEGMENT_COLORS.length]));
  details.append(bar);
  const list = el('ul', { attrs: { id: 'also-models' } });
  models.forEach((m, i) => {
    const swatch = el('span', { cls: 'swatch', attrs: { 'aria-hidden': 'true' } });
    swatch.style.background = SEGMENT_COLORS[i % SEGMENT_COLORS.length];
    const out = m.resident === false ? ` (${t(set && set.first_out === i ? 'also.firstOut' : 'also.notResident')})` : '';
    list.append(el('li', { attrs: { 'data-model-index': i, 'data-device-bytes': m.device_bytes, 'data-host-bytes': m.host_bytes } }, swatch,
      `${m.model} · ${m.weights}: ${t('also.gpu', { value: f.bytes(m.device_bytes) })}, ${t('also.ram', { value: f.bytes(m.host_bytes) })}${out}`));
  });
  details.append(list);
  if (set) {
    const explain = messages(t, f, set.explain, set.explain_data);
    details.append(el('ul', { cls: 'hint' }, ...explain.map((line) => el('li', { text: line }))));
  }
  const box = el('div', {}, details);
  if (set && typeof set.command_line === 'string') box.append(commandLine('also', set.command_line, 'section.alsoCommand'));
  return box;
}
