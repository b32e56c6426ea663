// SPDX-License-Identifier: MIT
// The Serve task's answer (the core's `serving`): how many GPUs of which kind, what each person sees,
// the month's cost and energy, the engine's launch line, each number's explanation and the curve of
// throughput per GPU against each person's speed; and "Which GPUs to buy or rent" (the core's
// `recommend` for the same load). Loaded by app.js when the Serve task is first chosen; it renders
// what the core computed and holds no rule of its own.
import { niceStep, svg } from './charts.js';
import { el, message } from './view.js';

/** The percentile the core measured the target at (slo.percentile), as the key of its latency fields. */
function percentileKey(response) {
  const slo = (response.settings && response.settings.slo) || {};
  const p = typeof slo.percentile === 'number' ? slo.percentile : 90;
  return { p, key: `p${p}` };
}

/** The verdict box: the GPUs needed, large, and the core's sentence, coloured by whether the target is met. */
export function renderServeVerdict(box, response, { t, f, gpuName }) {
  const s = response.serving || {};
  box.replaceChildren();
  const meets = s.meets_slo !== false && s.fits !== false;
  box.className = `verdict ${meets ? 'fits' : 'nofit'}`;
  const gpus = typeof s.gpus_needed === 'number' ? s.gpus_needed : 0;
  box.append(el('p', { cls: 'total-label', text: t('serve.gpusNeeded') }),
    el('p', { cls: 'total', text: t('serve.gpusOf', { count: f.whole(gpus), gpu: gpuName }), attrs: { id: 'serve-gpus', 'data-gpus': gpus } }),
    el('p', { cls: 'verdict-text', text: `${meets ? '✓' : '✗'} ${message(t, f, s.summary_data, s.summary)}`, attrs: { id: 'serve-summary', 'data-meets': meets } }));
}

/** A row of the figures table: a label and a value, the value's number kept in data-value for tests and tools. */
function figure(table, field, label, text, value) {
  const row = table.insertRow();
  row.dataset.field = field;
  row.append(el('th', { text: label, attrs: { scope: 'row' } }));
  const cell = row.insertCell();
  cell.textContent = text;
  cell.className = 'num';
  if (typeof value === 'number') cell.dataset.value = String(value);
  return row;
}

/** The serve card: the figures, the curve, the launch line with a Copy button, and the explanation. */
export function renderServeCard(card, response, { t, f, gpuName, tpotTarget, width }) {
  const s = response.serving || {};
  card.replaceChildren();
  card.append(el('h3', { text: t('section.serve') }));
  const { p, key } = percentileKey(response);
  const table = el('table', { cls: 'parts', attrs: { id: 'serve-figures' } });
  const speed = (x) => t('unit.tokensPerSecond', { value: f.sig(x) });
  const perReplica = typeof s.gpus_per_replica === 'number' ? s.gpus_per_replica : 1;
  figure(table, 'gpus_needed', t('serve.gpus'), t('serve.replicas', { gpus: t('serve.gpusOf', { count: f.whole(s.gpus_needed || 0), gpu: gpuName }),
    replicas: f.whole(s.replicas || 0), each: f.whole(perReplica) }), s.gpus_needed);
  const ttft = (s.ttft_ms || {})[key];
  figure(table, 'ttft_ms', t('serve.ttft', { p }), typeof ttft === 'number' ? t('unit.milliseconds', { value: f.sig(ttft) }) : t('value.unknown'), ttft);
  figure(table, 'per_user_output_tokens_per_s', t('serve.perUser'), speed(s.per_user_output_tokens_per_s), s.per_user_output_tokens_per_s);
  figure(table, 'output_tokens_per_s', t('serve.throughput'), speed(s.output_tokens_per_s), s.output_tokens_per_s);
  figure(table, 'output_tokens_per_s_per_gpu', t('serve.perGpu'), speed(s.output_tokens_per_s_per_gpu), s.output_tokens_per_s_per_gpu);
  figure(table, 'max_concurrency', t('serve.maxConcurrency'), f.whole(s.max_concurrency || 0), s.max_concurrency);
  const cost = s.cost || {};
  const priced = cost.basis === 'owned' || cost.basis === 'rented';
  figure(table, 'per_month_usd', t('serve.perMonth'), priced ? `${f.usd(cost.per_month_usd)} (${t(`serve.basis.${cost.basis}`)})` : t('serve.noPrice'),
    priced ? cost.per_month_usd : undefined);
  figure(table, 'per_million_output_tokens_usd', t('serve.perMillion'), priced ? f.usd(cost.per_million_output_tokens_usd) : t('serve.noPrice'),
    priced ? cost.per_million_output_tokens_usd : undefined);
  const energy = s.energy || {};
  if (typeof energy.joules_per_output_token === 'number') {
    figure(table, 'joules_per_output_token', t('serve.energy'), t('serve.energyValue', { joules: f.sig(energy.joules_per_output_token),
      kwh: f.whole(energy.kwh_per_month || 0), watts: f.whole(energy.watts || 0) }), energy.joules_per_output_token);
  }
  card.append(el('div', { cls: 'table-wrap' }, table));

  const curve = Array.isArray(s.curve) ? s.curve : [];
  if (curve.length) {
    card.append(el('h4', { text: t('serve.curveTitle') }), el('p', { cls: 'hint', text: t('serve.curveHint') }));
    card.append(el('div', { attrs: { id: 'serve-chart' } }, curveChart(curve, {
      width,
      target: tpotTarget ? 1000 / tpotTarget : 0,
      label: t('serve.curveTitle'),
      xLabel: t('serve.curveX'),
      yLabel: t('serve.curveY'),
      targetLabel: t('serve.curveTarget', { value: f.sig(tpotTarget ? 1000 / tpotTarget : 0) }),
      format: (x) => f.sig(x),
      pointLabel: (c) => t('serve.curvePoint', { count: f.whole(c.concurrency), perUser: speed(c.per_user_output_tokens_per_s), perGpu: speed(c.output_tokens_per_s_per_gpu) }),
    })));
    const points = el('table', { cls: 'parts', attrs: { id: 'serve-curve-table' } });
    const head = points.createTHead().insertRow();
    for (const h of ['serve.concurrency', 'serve.perUser', 'serve.perGpu', 'serve.ttftShort', 'serve.meets']) head.append(el('th', { text: t(h), attrs: { scope: 'col' } }));
    const body = points.createTBody();
    for (const c of curve) {
      const row = body.insertRow();
      row.dataset.concurrency = String(c.concurrency);
      for (const text of [f.whole(c.concurrency), speed(c.per_user_output_tokens_per_s), speed(c.output_tokens_per_s_per_gpu),
        t('unit.milliseconds', { value: f.sig(c.ttft_ms) }), t(c.meets_slo ? 'value.yes' : 'value.no')]) {
        const cell = row.insertCell();
        cell.textContent = text;
        cell.className = 'num';
      }
    }
    card.append(el('details', {}, el('summary', { text: t('chart.table') }), el('div', { cls: 'table-wrap' }, points)));
  }

  if (typeof s.command_line === 'string') {
    const code = el('code', { text: s.command_line, attrs: { id: 'serve-command' } });
    const copy = el('button', { text: t('command.copy'), attrs: { type: 'button', id: 'serve-copy' } });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(s.command_line);
        copy.dataset.copied = 'true';
      } catch {
        window.getSelection().selectAllChildren(code);
      }
    });
    card.append(el('h4', { text: t('serve.command') }), el('p', { cls: 'hint', text: t('command.serveHint') }), el('pre', { cls: 'command' }, code), copy);
  }

  const explain = Array.isArray(s.explain) ? s.explain : [];
  if (explain.length) {
    card.append(el('h4', { text: t('serve.explainTitle') }),
      el('ul', { attrs: { id: 'serve-explain' } }, ...explain.map((x) => el('li', { text: message(t, f, x.text_data, x.text), attrs: { 'data-explain': x.id || '' } }))));
  }
}

/** The serve request the ranking asks for (the core's `recommend` with task serve): the Serve inputs
 *  without a device and without the GPUs per replica (the core tries 1, 2, 4 and 8 for each device),
 *  the ten cheapest a month, its sentences left to the page (english_text). */
export function rankingRequest(request) {
  const out = { ...request, english_text: false, max_options: 10 };
  delete out.layout;
  return out;
}

/**
 * "Which GPUs to buy or rent": the core's options, cheapest a month first (the device, GPUs per
 * replica × replicas, the first token and each person's speed at the target's percentile, the month's
 * cost and its basis, per million answer tokens) with a button that puts the device and its GPUs per
 * replica in the Serve inputs (`use`); then the near misses with the core's reason.
 */
export function renderServeRanking(card, r, { t, f, hardware, tp, canUse, use }) {
  card.replaceChildren(el('h3', { text: t('serve.rankTitle') }));
  card.hidden = false;
  if (!r || r.error || !Array.isArray(r.options)) {
    card.append(el('p', { cls: 'hint', text: `${t('options.unavailable')} ${r && r.error ? message(t, f, r.error.message_data, r.error.message) : ''}` }));
    return;
  }
  const { p, key } = percentileKey(r);
  card.append(el('p', { cls: 'hint', attrs: { id: 'serve-rank-note' }, text: r.options.length ? t('serve.rankHint', { count: f.whole(r.evaluated || 0) }) : t('serve.rankNone') }));
  if (r.options.length) {
    const table = el('table', { cls: 'parts', attrs: { id: 'serve-ranking-table' } });
    const head = table.createTHead().insertRow();
    for (const h of [t('table.device'), t('serve.layout'), t('serve.ttft', { p }), t('serve.perUser'), t('serve.perMonth'), t('serve.perMillion')]) {
      head.append(el('th', { text: h, attrs: { scope: 'col' } }));
    }
    const body = table.createTBody();
    for (const o of r.options) {
      const layout = o.layout || {};
      const cost = o.cost || {};
      const row = body.insertRow();
      Object.assign(row.dataset, { hardware: o.hardware, tp: layout.tp, gpus: o.gpus_needed });
      if (o.hardware === hardware && layout.tp === tp) row.className = 'current';
      const name = o.name || o.hardware;
      const device = el('th', { text: name, attrs: { scope: 'row' } });
      if (canUse(o.hardware)) {
        const button = el('button', { cls: 'use', text: t('options.use'), attrs: { type: 'button', 'aria-label': t('options.useLabel', { device: name }) } });
        button.addEventListener('click', () => use(o));
        device.append(button);
      }
      row.append(device);
      const ttft = (o.ttft_ms || {})[key];
      const priced = cost.basis === 'owned' || cost.basis === 'rented';
      for (const [field, text, value, title] of [
        ['layout', t('serve.layoutValue', { each: f.whole(layout.tp || 1), replicas: f.whole(layout.replicas || 1), gpus: f.whole(o.gpus_needed || 0) })],
        ['ttft_ms', t('unit.milliseconds', { value: f.sig(ttft) }), ttft],
        ['per_user_output_tokens_per_s', t('unit.tokensPerSecond', { value: f.sig(o.per_user_output_tokens_per_s) }), o.per_user_output_tokens_per_s],
        ['per_month_usd', priced ? `${f.usd(cost.per_month_usd)} (${t(`serve.basisShort.${cost.basis}`)})` : t('serve.noPrice'), cost.per_month_usd, priced ? t(`serve.basis.${cost.basis}`) : ''],
        ['per_million_output_tokens_usd', priced ? f.usd(cost.per_million_output_tokens_usd) : t('serve.noPrice'), cost.per_million_output_tokens_usd]]) {
        const cell = row.insertCell();
        cell.textContent = text;
        cell.className = 'num';
        cell.dataset.field = field;
        if (typeof value === 'number') cell.dataset.value = String(value);
        if (title) cell.title = title;
      }
    }
    card.append(el('div', { cls: 'table-wrap' }, table));
  }
  const misses = Array.isArray(r.near_misses) ? r.near_misses : [];
  if (misses.length) {
    card.append(el('h4', { text: t('serve.nearMisses') }), el('ul', { attrs: { id: 'serve-near-misses' } },
      ...misses.map((m) => el('li', { text: `${m.name || m.hardware}: ${message(t, f, m.reason_data, m.reason)}`, attrs: { 'data-hardware': m.hardware || '' } }))));
  }
}

/**
 * Output tokens a second per GPU (y) against the speed each person reads at (x), one point per
 * concurrency the core simulated, labelled by it; the target speed (1000 / slo.tpot_ms) as a dashed
 * vertical line. Both axes linear from 0.
 */
export function curveChart(curve, { width = 640, target, label, xLabel, yLabel, targetLabel, format, pointLabel }) {
  const W = Math.max(300, Math.min(900, Math.round(width)));
  const H = W < 500 ? 240 : 300;
  const m = { l: 56, r: 16, t: 16, b: 44 };
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'context-chart serve-chart', role: 'img', 'aria-label': label });
  const points = curve.filter((c) => Number.isFinite(c.per_user_output_tokens_per_s) && Number.isFinite(c.output_tokens_per_s_per_gpu));
  if (!points.length) return root;
  const xData = Math.max(...points.map((c) => c.per_user_output_tokens_per_s), target || 0);
  const yData = Math.max(...points.map((c) => c.output_tokens_per_s_per_gpu));
  const xStep = niceStep(xData || 1, 5);
  const yStep = niceStep(yData || 1, 5);
  const xMax = Math.ceil((xData * 1.05) / xStep) * xStep || 1;
  const yMax = Math.ceil((yData * 1.05) / yStep) * yStep || 1;
  const px = (x) => m.l + (x / xMax) * (W - m.l - m.r);
  const py = (y) => H - m.b - (y / yMax) * (H - m.t - m.b);
  const grid = svg('g', { class: 'grid' });
  for (let y = 0; y <= yMax + yStep / 2; y += yStep) {
    grid.append(svg('line', { x1: m.l, x2: W - m.r, y1: py(y), y2: py(y) }));
    const tick = svg('text', { x: m.l - 6, y: py(y) + 4, 'text-anchor': 'end' });
    tick.textContent = format(y);
    grid.append(tick);
  }
  const xTicks = Math.max(2, Math.floor((W - m.l - m.r) / 64));
  const every = Math.max(1, Math.ceil(Math.round(xMax / xStep) / xTicks));
  for (let i = 0, x = 0; x <= xMax + xStep / 2; i++, x += xStep) {
    if (i % every !== 0) continue;
    const tick = svg('text', { x: px(x), y: H - m.b + 16, 'text-anchor': 'middle' });
    tick.textContent = format(x);
    grid.append(tick);
  }
  const xTitle = svg('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-title' });
  xTitle.textContent = xLabel;
  const yMid = m.t + (H - m.t - m.b) / 2;
  const yTitle = svg('text', { x: 12, y: yMid, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${yMid})` });
  yTitle.textContent = yLabel;
  root.append(grid, xTitle, yTitle);
  if (target > 0) {
    const line = svg('line', { x1: px(target), x2: px(target), y1: m.t, y2: H - m.b, class: 'capacity-line dashed', 'data-target': target });
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    title.textContent = targetLabel;
    line.append(title);
    const text = svg('text', { x: px(target) + 4, y: m.t + 12, 'text-anchor': 'start', class: 'capacity-text' });
    text.textContent = targetLabel;
    root.append(line, text);
  }
  const d = points.map((c, i) => `${i ? 'L' : 'M'}${px(c.per_user_output_tokens_per_s).toFixed(1)},${py(c.output_tokens_per_s_per_gpu).toFixed(1)}`).join(' ');
  root.append(svg('path', { d, class: 'series' }));
  for (const c of points) {
    const cx = px(c.per_user_output_tokens_per_s);
    const cy = py(c.output_tokens_per_s_per_gpu);
    const dot = svg('circle', { cx, cy, r: 4, class: c.meets_slo === false ? 'point over' : 'point', 'data-concurrency': c.concurrency });
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    title.textContent = pointLabel(c);
    dot.append(title);
    const tag = svg('text', { x: cx, y: cy - 8, 'text-anchor': 'middle', class: 'point-label' });
    tag.textContent = String(c.concurrency);
    root.append(dot, tag);
  }
  return root;
}
