// SPDX-License-Identifier: MIT
// Plain SVG charts built with DOM calls (no library, nothing to vendor, nothing that needs
// innerHTML or inline style, so the strict CSP holds). They draw numbers the core computed.

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes; children appended. */
export function svg(name, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

function titled(el, text) {
  const title = document.createElementNS(SVG, 'title');
  title.textContent = text;
  el.append(title);
  return el;
}

/** Colours per memory part (contrast ≥ 3:1 on white for graphical objects, WCAG 1.4.11). */
export const PART_COLORS = {
  weights: '#1f5fa8',
  kv_cache: '#c2410c',
  activations: '#15803d',
  overhead: '#6b7280',
  gradients: '#9333ea',
  optimizer: '#b91c1c',
  master_weights: '#0e7490',
  adapters: '#a16207',
  step_temporary: '#9f1239',
};
export const PART_ORDER = Object.keys(PART_COLORS);

/**
 * A horizontal stacked bar of the parts, scaled to max(total, capacity), with the capacity as a
 * vertical line. parts: [{part, bytes, label}], capacity: bytes or null.
 */
export function stackedBar(parts, capacity, { label, capacityLabel, format }) {
  const width = 1000;
  const height = 56;
  const total = parts.reduce((s, p) => s + p.bytes, 0);
  const scale = Math.max(total, capacity || 0) || 1;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'stacked-bar', role: 'img', 'aria-label': label, preserveAspectRatio: 'none' });
  let x = 0;
  for (const p of parts) {
    if (p.bytes <= 0) continue;
    const w = (p.bytes / scale) * width;
    root.append(titled(svg('rect', { x, y: 8, width: Math.max(w, 1), height: 40, fill: PART_COLORS[p.part] || '#444', 'data-bar-part': p.part }),
      `${p.label}: ${format(p.bytes)}`));
    x += w;
  }
  if (capacity) {
    const cx = Math.min((capacity / scale) * width, width - 2);
    root.append(titled(svg('line', { x1: cx, x2: cx, y1: 0, y2: height, class: 'capacity-line', 'vector-effect': 'non-scaling-stroke' }),
      `${capacityLabel}: ${format(capacity)}`));
  }
  return root;
}

export function niceStep(max, ticks) {
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

/**
 * Memory against context length: points [{x, y}] (x tokens on a log2 axis, y bytes), the device
 * capacity as a dashed horizontal line, the current setting as a ring. Axis numbers use `format`.
 */
export function contextChart(points, { width = 640, capacity, current, label, xLabel, yLabel, capacityLabel, formatX, formatY, unitDivisor, pointLabel }) {
  // The viewBox is the drawn width in CSS pixels, so 12px text stays 12px on a phone.
  const W = Math.max(300, Math.min(900, Math.round(width)));
  const H = W < 500 ? 240 : 300;
  const m = { l: 56, r: 16, t: 16, b: 44 };
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'context-chart', role: 'img', 'aria-label': label });
  if (!points.length) return root;
  const xs = points.map((p) => Math.log2(p.x));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  const yMaxData = Math.max(...points.map((p) => p.y), capacity || 0);
  const step = niceStep(yMaxData / unitDivisor, 5) * unitDivisor;
  const yMax = Math.ceil((yMaxData * 1.05) / step) * step || 1;
  const px = (x) => m.l + ((Math.log2(x) - x0) / (x1 - x0)) * (W - m.l - m.r);
  const py = (y) => H - m.b - (y / yMax) * (H - m.t - m.b);
  const grid = svg('g', { class: 'grid' });
  for (let y = 0; y <= yMax + 1; y += step) {
    grid.append(svg('line', { x1: m.l, x2: W - m.r, y1: py(y), y2: py(y) }));
    const tick = svg('text', { x: m.l - 6, y: py(y) + 4, 'text-anchor': 'end' });
    tick.textContent = formatY(y);
    grid.append(tick);
  }
  // x ticks at powers of two only (the current setting has its own ring), thinned to fit the width.
  const ticks = points.filter((p) => (p.x & (p.x - 1)) === 0);
  const every = Math.ceil(ticks.length / Math.max(3, Math.floor((W - m.l - m.r) / 56)));
  ticks.forEach((p, i) => {
    if (i % every !== 0) return;
    const tick = svg('text', { x: px(p.x), y: H - m.b + 16, 'text-anchor': 'middle' });
    tick.textContent = formatX(p.x);
    grid.append(tick);
  });
  const xTitle = svg('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-title' });
  xTitle.textContent = xLabel;
  const yTitle = svg('text', { x: 12, y: m.t + (H - m.t - m.b) / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${m.t + (H - m.t - m.b) / 2})` });
  yTitle.textContent = yLabel;
  root.append(grid, xTitle, yTitle);
  if (capacity) {
    const line = titled(svg('line', { x1: m.l, x2: W - m.r, y1: py(capacity), y2: py(capacity), class: 'capacity-line dashed' }),
      `${capacityLabel}: ${formatY(capacity)}`);
    const text = svg('text', { x: W - m.r - 4, y: py(capacity) - 6, 'text-anchor': 'end', class: 'capacity-text' });
    text.textContent = capacityLabel;
    root.append(line, text);
  }
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ');
  root.append(svg('path', { d, class: 'series' }));
  for (const p of points) {
    const over = capacity && p.y > capacity;
    root.append(titled(svg('circle', { cx: px(p.x), cy: py(p.y), r: 4, class: over ? 'point over' : 'point' }), pointLabel(p)));
  }
  if (current) root.append(svg('circle', { cx: px(current.x), cy: py(current.y), r: 8, class: 'current' }));
  return root;
}
