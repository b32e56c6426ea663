// The verdict's colours are readable: every text of the verdict card (the total, the verdict's line, the
// core's verdict level, the hints, the fixes) has a contrast ratio of at least 4.5:1 against the card's
// background, for each verdict level the core gives (fit.verdict: comfortable, tight, offload, no_fit)
// with either fit class (fits / nofit), in every colour scheme web/style.css has (a
// prefers-color-scheme block adds one). WCAG 2.1 success criterion 1.4.3 (Contrast, Minimum): 4.5:1
// for text below 18 pt, or 14 pt bold; the verdict's line is 1.15rem bold = 18.4 px < 14 pt = 18.67 px.
// The ratio is (L1 + 0.05) / (L2 + 0.05) of the relative luminances (WCAG 2.1, "relative luminance":
// sRGB channels linearized, 0.2126 R + 0.7152 G + 0.0722 B). An offload plan is not a failure: its
// colour differs from "no fit"'s. Reads web/style.css as written (a small cascade over its plain rules:
// class, id and type selectors; a rule with any other pseudo-class or attribute is left out); needs no build.
// usage: node page_contrast.mjs [SOURCE_DIR]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checker } from './browser.mjs';

const root = process.argv[2] || '.';
const css = readFileSync(join(root, 'web', 'style.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const t = checker();

/** The rules of a block of CSS, in order: {selectors, decls}; @media blocks by their condition. */
function parse(text) {
  const rules = [];
  const media = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) break;
    const head = text.slice(i, open).trim();
    let depth = 1;
    let j = open + 1;
    while (depth && j < text.length) { if (text[j] === '{') depth++; else if (text[j] === '}') depth--; j++; }
    const body = text.slice(open + 1, j - 1);
    if (head.startsWith('@media')) media.push({ condition: head.slice(6).trim(), rules: parse(body).rules });
    else if (!head.startsWith('@')) {
      const decls = body.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
        const colon = d.indexOf(':');
        return [d.slice(0, colon).trim(), d.slice(colon + 1).trim()];
      });
      rules.push({ selectors: head.split(',').map((s) => s.trim()), decls });
    }
    i = j;
  }
  return { rules, media };
}

/** An element of the test's tree: {tag, id, classes}. */
const node = (tag, id = '', ...classes) => ({ tag, id, classes });

/** Whether a compound selector (type, #id, .class, :root) matches `n`; null when it has anything else. */
function compoundMatches(compound, n, isRoot) {
  const parts = compound.match(/(^[a-z]+|\*|#[\w-]+|\.[\w-]+|:[\w-]+(\([^)]*\))?|\[[^\]]*\])/g) || [];
  if (parts.join('') !== compound) return null;
  for (const p of parts) {
    if (p === '*') continue;
    if (p === ':root') { if (!isRoot) return false; continue; }
    if (p.startsWith(':') || p.startsWith('[')) return null;
    if (p.startsWith('#')) { if (n.id !== p.slice(1)) return false; continue; }
    if (p.startsWith('.')) { if (!n.classes.includes(p.slice(1))) return false; continue; }
    if (n.tag !== p) return false;
  }
  return true;
}

/** [ids, classes, types] of a selector, or null when it does not match the last element of `chain`. */
function match(selector, chain) {
  const tokens = selector.replace(/\s*>\s*/g, ' > ').split(/\s+/);
  const compounds = [];
  for (let k = tokens.length - 1; k >= 0; k--) {
    if (tokens[k] === '>') continue;
    compounds.push({ text: tokens[k], child: tokens[k - 1] === '>' });
  }
  // Right to left: the subject is the chain's last element; each further compound an ancestor (a parent for >).
  let at = chain.length - 1;
  for (const [k, c] of compounds.entries()) {
    const ok = (index) => compoundMatches(c.text, chain[index], index === 0);
    if (k === 0) {
      const r = ok(at);
      if (r !== true) return null;
      continue;
    }
    const direct = compounds[k - 1].child;
    let found = -1;
    for (let a = at - 1; a >= 0; a--) {
      const r = ok(a);
      if (r === null) return null;
      if (r) { found = a; break; }
      if (direct) break;
    }
    if (found < 0) return null;
    at = found;
  }
  const count = (re) => (selector.match(re) || []).length;
  return [count(/#[\w-]+/g), count(/\.[\w-]+|:(?!root)[\w-]+|\[/g) + count(/:root/g), count(/(^|[\s>])[a-z]+/g)];
}

const bySpecificity = (a, b) => a.spec[0] - b.spec[0] || a.spec[1] - b.spec[1] || a.spec[2] - b.spec[2] || a.order - b.order;

/** The cascaded value of `prop` on the last element of `chain` (rules: a scheme's rules in order). */
function cascaded(rules, chain, prop) {
  const hits = [];
  rules.forEach((r, order) => {
    for (const sel of r.selectors) {
      const spec = match(sel, chain);
      if (!spec) continue;
      for (const [p, v] of r.decls) if (p === prop) hits.push({ spec, order, value: v });
    }
  });
  hits.sort(bySpecificity);
  return hits.length ? hits[hits.length - 1].value : undefined;
}

/** A property's value with var() resolved against the custom properties the element inherits. */
function resolve(rules, chain, value) {
  let v = value;
  for (let guard = 0; v && v.includes('var(') && guard < 20; guard++) {
    v = v.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)/, (m, name, fallback) => {
      for (let k = chain.length; k > 0; k--) {
        const own = cascaded(rules, chain.slice(0, k), name);
        if (own !== undefined) return own;
      }
      return fallback !== undefined ? fallback.trim() : 'unset';
    });
  }
  return v;
}

/** The used colour: `color` inherits; the background is the nearest ancestor's that is not transparent. */
function colorOf(rules, chain) {
  for (let k = chain.length; k > 0; k--) {
    const v = cascaded(rules, chain.slice(0, k), 'color');
    if (v !== undefined && v !== 'inherit') return resolve(rules, chain.slice(0, k), v);
  }
  return '#000000';
}
function backgroundOf(rules, chain) {
  for (let k = chain.length; k > 0; k--) {
    const sub = chain.slice(0, k);
    const v = cascaded(rules, sub, 'background-color') ?? cascaded(rules, sub, 'background');
    if (v === undefined) continue;
    const color = resolve(rules, sub, v).split(/\s+/)[0];
    if (color !== 'transparent' && color !== 'none') return color;
  }
  return '#ffffff';
}

/** [r, g, b] 0-255 of #rgb or #rrggbb; null otherwise. */
function rgb(text) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(text).trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1];
  return [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
}

/** WCAG 2.1 relative luminance of an sRGB colour. */
function luminance([r, g, b]) {
  const lin = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// The formula against WCAG's own end points and a pair worked out by hand: black on white is 21:1;
// #767676 on white is the lightest grey that passes, 4.54:1 (each channel 118/255 = 0.4627 ->
// ((0.4627 + 0.055) / 1.055)^2.4 = 0.1812; 1.05 / 0.2312 = 4.54).
t.check(Math.abs(contrast([0, 0, 0], [255, 255, 255]) - 21) < 1e-9, 'black on white is 21:1');
t.check(Math.abs(contrast([0x76, 0x76, 0x76], [255, 255, 255]) - 4.54) < 0.01, `#767676 on white is 4.54:1 (${contrast([0x76, 0x76, 0x76], [255, 255, 255]).toFixed(3)})`);

const { rules, media } = parse(css);
const schemes = [['light', rules]];
for (const m of media) if (/prefers-color-scheme:\s*dark/.test(m.condition)) schemes.push(['dark', [...rules, ...m.rules]]);
const LEVELS = ['comfortable', 'tight', 'offload', 'no_fit'];
const TEXTS = [node('p', '', 'total-label'), node('p', 'total', 'total'), node('p', 'verdict-text', 'verdict-text'), node('p', '', 'hint'),
  node('p', 'verdict-level', 'verdict-level')];
const boxColors = {};
let pairs = 0;
for (const [scheme, schemeRules] of schemes) {
  for (const level of LEVELS) {
    for (const fit of ['fits', 'nofit']) {
      const box = node('div', 'verdict', 'verdict', fit, `level-${level}`);
      const base = [node('html'), node('body'), node('main', '', 'layout'), node('section', 'results', 'results'), box];
      const chains = [...TEXTS.map((p) => [...base, p]), [...base, node('ol', 'fixes', 'fixes'), node('li')]];
      for (const chain of chains) {
        const fg = colorOf(schemeRules, chain);
        const bg = backgroundOf(schemeRules, chain);
        const what = `${scheme}, ${level} (${fit}): ${chain[chain.length - 1].classes[0] || chain[chain.length - 1].tag} ${fg} on ${bg}`;
        t.check(rgb(fg) && rgb(bg), `${what}: both are colours the test reads (#rgb or #rrggbb)`);
        if (!rgb(fg) || !rgb(bg)) continue;
        const ratio = contrast(rgb(fg), rgb(bg));
        pairs++;
        t.check(ratio >= 4.5, `${what}: contrast ${ratio.toFixed(2)}:1, at least 4.5:1`);
        if (chain[chain.length - 1].id === 'verdict-text') boxColors[`${scheme} ${level} ${fit}`] = `${fg} on ${bg}`;
      }
    }
  }
}
for (const [scheme] of schemes) {
  for (const fit of ['fits', 'nofit']) {
    t.check(boxColors[`${scheme} offload ${fit}`] !== boxColors[`${scheme} no_fit nofit`],
      `${scheme}: the offload verdict (${fit}) has colours of its own, not "no fit"'s (${boxColors[`${scheme} offload ${fit}`]})`);
  }
}
console.log(`${schemes.length} colour scheme(s); ${pairs} text/background pairs; verdict lines: ${JSON.stringify(boxColors)}`);
t.finish();
