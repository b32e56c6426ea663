// SPDX-License-Identifier: MIT
// Strings (web/i18n/<lang>.json, fetched from this site) and display formatting: bytes in GB (10^9)
// or GiB (2^30), numbers and prices per locale. Display only: every value shown comes from the core.

export const LANGS = ['en', 'ja'];

/** 'ja' when the browser prefers Japanese, else 'en'. */
export function preferredLang(navigatorLanguages) {
  for (const l of navigatorLanguages || []) {
    const code = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(code)) return code;
  }
  return 'en';
}

/** The page's strings with the core's messages added under "msg.<id>" (web/i18n/messages.<lang>.json:
 *  one template per message id the core can say; view.js message() renders them). */
export function withMessages(strings, messages) {
  const out = { ...strings };
  for (const [id, template] of Object.entries(messages)) out[`msg.${id}`] = template;
  return out;
}

const cache = new Map();
let englishMessages = null;
/** Where the English messages come from: the core's own table (listMessages), once session.js has a
 *  core to ask. The page ships no copy of it: web/i18n/messages.en.json is what the tests and the
 *  build's prerender read, not a file the page loads (17 KB gzipped saved). Japanese comes as a file. */
export function takeEnglishMessagesFrom(fromCore) { englishMessages = fromCore; }

/** The English of messages only another module says (serving and training's, the model files'):
 *  that module's listMessages, added to the English strings when the module loads (addModuleMessages),
 *  before any of its answers is shown. */
const moduleMessages = {};
const mergedModules = new WeakSet();
const loaded = new Map();  // lang -> its strings object once loaded (the one every translator reads)
export function addModuleMessages(core) {
  if (!core || mergedModules.has(core) || typeof core.listMessages !== 'function') return;
  mergedModules.add(core);
  const messages = JSON.parse(core.listMessages()).messages;
  Object.assign(moduleMessages, messages);
  if (loaded.has('en')) Object.assign(loaded.get('en'), withMessages({}, messages));
}

/** The strings for `lang`, messages included (a Promise of a plain object). */
export function loadStrings(lang) {
  if (!cache.has(lang)) {
    // boot.js may have fetched and parsed them while the modules loaded ({strings, messages}, messages
    // null for English); the other language loads on demand.
    const early = globalThis.llmsizerBoot && globalThis.llmsizerBoot.strings && globalThis.llmsizerBoot.strings[lang];
    // Relative to the page, as boot.js asks (this file is bundled into another by the build).
    const json = (file) => fetch(`i18n/${file}`).then((r) => {
      if (!r.ok) throw new Error(`strings for ${lang}: HTTP ${r.status}`);
      return r.json();
    });
    const page = early ? early.then((x) => x.strings) : json(`${lang}.json`);
    const messages = lang === 'en'
      ? (englishMessages ? englishMessages() : Promise.reject(new Error('the English messages come from the core, which is not loaded')))
      : (early ? early.then((x) => x.messages || json(`messages.${lang}.json`)) : json(`messages.${lang}.json`));
    cache.set(lang, Promise.all([page, messages]).then(([s, m]) => {
      const out = withMessages(s, lang === 'en' ? { ...m, ...moduleMessages } : m);
      loaded.set(lang, out);
      return out;
    }));
  }
  return cache.get(lang);
}

/** A translator: t('key', {name: value}) with {name} placeholders; a missing key shows the key. */
export function translator(strings) {
  return (key, vars) => {
    let s = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
    if (vars) s = s.replace(/\{(\w+)\}/g, (m, name) => (Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : m));
    return s;
  };
}

/** The five number formats the page uses, as Intl.NumberFormat options. */
export const NUMBER_FORMATS = {
  fixed2: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  sig3: { maximumSignificantDigits: 3 },
  whole: { maximumFractionDigits: 0 },
  sci: { notation: 'scientific', maximumSignificantDigits: 3 },
  usd: { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 },
};

/** "1234567.50" → "1,234,567.50" (en-US and ja-JP group by thousands with a comma). */
function grouped(plain) {
  const [int, frac] = plain.split('.');
  return int.replace(/\B(?=(\d{3})+$)/g, ',') + (frac === undefined ? '' : `.${frac}`);
}

/**
 * |x| as decimal digits and the place of the decimal point: 1.005 → { digits: '1005', point: 1 },
 * 0.012 → { digits: '12', point: -1 }. From the shortest decimal that reads back as x (String(x)),
 * as ICU does, so 1.005 rounds to 1.01 like Intl (not to 1.00, as its exact binary value would).
 */
function decimal(x) {
  const [mantissa, exponent = '0'] = String(Math.abs(x)).split('e');
  const [int, frac = ''] = mantissa.split('.');
  const all = int + frac;
  const digits = all.replace(/^0+/, '');
  if (!digits) return { digits: '0', point: 1 };
  return { digits: digits.replace(/0+$/, ''), point: int.length + Number(exponent) - (all.length - digits.length) };
}

/** Rounds to the first `keep` digits, ties away from zero (ECMA-402's default, halfExpand). */
function rounded({ digits, point }, keep) {
  if (keep >= digits.length) return { digits, point };
  if (keep < 0 || (keep === 0 && digits[0] < '5')) return { digits: '0', point: 1, zero: true };
  let kept = digits.slice(0, keep);
  if (digits[keep] >= '5') {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === '9') i--;
    if (i < 0) return { digits: '1', point: point + 1 };  // 9.99 → 10.0
    kept = kept.slice(0, i) + String(Number(kept[i]) + 1);
  }
  return { digits: kept.replace(/0+$/, '') || '0', point };
}

/** Digits and point as "123.4500" with `minFraction`..`maxFraction` fraction digits. */
function plainText({ digits, point }, minFraction) {
  const int = point <= 0 ? '0' : (digits.slice(0, point) + '0'.repeat(Math.max(0, point - digits.length)));
  let frac = point < 0 ? '0'.repeat(-point) + digits : digits.slice(Math.max(point, 0));
  if (frac.length < minFraction) frac += '0'.repeat(minFraction - frac.length);
  return frac ? `${int}.${frac}` : int;
}

/**
 * The page's number formats for en-US and ja-JP without Intl: a page's first Intl.NumberFormat loads
 * ICU's number data, 11-23 ms measured in Chromium on the 2-core CI machine, all of it before the
 * first result could be drawn. Both locales write these formats identically ("1,234.5", "$1,234.50",
 * "1.23E13"); the rounding is ICU's (the shortest decimal of the number, ties away from zero).
 * tests/js/number_format.mjs checks the output against Intl's, character for character. Values
 * outside (NaN, ±Infinity, |x| ≥ 1e21) and every other locale use Intl itself.
 */
export function numberFormats(locale) {
  const intl = {};
  const viaIntl = (name, x) => (intl[name] || (intl[name] = new Intl.NumberFormat(locale, NUMBER_FORMATS[name]))).format(x);
  // A sign is written for negative numbers, -0 and values that round to zero included (Intl's "auto").
  const sign = (x) => (x < 0 || Object.is(x, -0) ? '-' : '');
  const fixed = (x, places) => { const d = decimal(x); return grouped(plainText(rounded(d, d.point + places), places)); };
  const own = {
    fixed2: (x) => sign(x) + fixed(x, 2),
    whole: (x) => sign(x) + fixed(x, 0),
    sig3: (x) => sign(x) + grouped(plainText(rounded(decimal(x), 3), 0)),
    sci: (x) => {
      const r = rounded(decimal(x), 3);
      const mantissa = r.digits.length > 1 ? `${r.digits[0]}.${r.digits.slice(1)}` : r.digits;
      return `${sign(x)}${mantissa}E${r.zero ? 0 : r.point - 1}`;
    },
    usd: (x) => `${sign(x)}$${fixed(x, 2)}`,
  };
  const ownLocale = locale === 'en-US' || locale === 'ja-JP';
  const formats = {};
  for (const name of Object.keys(NUMBER_FORMATS)) {
    formats[name] = { format: (x) => (ownLocale && Number.isFinite(x) && Math.abs(x) < 1e21 ? own[name](x) : viaIntl(name, x)) };
  }
  return formats;
}

/** Number and unit formatting for one language and byte unit ('gb' or 'gib'). */
export function formatter(lang, unit, t) {
  const locale = lang === 'ja' ? 'ja-JP' : 'en-US';
  const { fixed2, sig3, whole, sci, usd } = numberFormats(locale);
  const divisor = unit === 'gib' ? 2 ** 30 : 1e9;
  const unitText = t(unit === 'gib' ? 'unit.gib' : 'unit.gb');
  const f = {
    locale,
    unitText,
    divisor,
    /** Bytes as "15.23 GB". */
    bytes(b) {
      if (typeof b !== 'number' || !Number.isFinite(b)) return t('value.unknown');
      const v = b / divisor;
      if (v === 0) return `${whole.format(0)} ${unitText}`;
      if (Math.abs(v) < 0.01) return t('value.lessThan', { value: `${fixed2.format(0.01)} ${unitText}` });
      return `${fixed2.format(v)} ${unitText}`;
    },
    /** A device's memory as its maker prints it. The catalog reads a maker's "24 GB" of DRAM as 24 GiB
     *  (data/hardware/README.md: H100 "80 GB" is 80 GiB), so a whole number of GiB is written as
     *  that number, "24 GiB" ("25.77 GB" is a size no one has seen on a box); any other size in the
     *  unit chosen. */
    deviceBytes(b) {
      const gib = b / 2 ** 30;
      return Number.isInteger(gib) && gib > 0 ? `${whole.format(gib)} ${t('unit.gib')}` : f.bytes(b);
    },
    /** A bare number in the chosen byte unit (axis ticks). */
    bytesNumber(b) { return sig3.format(b / divisor); },
    whole(n) { return whole.format(n); },
    sig(n) { return sig3.format(n); },
    count(n) { return n >= 1e13 ? sci.format(n) : n >= 1e9 ? t('value.billions', { value: sig3.format(n / 1e9) }) : n >= 1e6 ? t('value.millions', { value: sig3.format(n / 1e6) }) : whole.format(n); },
    usd(n) { return usd.format(n); },
    /** A named value from a core response: the unit is read from the field name (contract: names carry units). */
    field(name, value) {
      if (typeof value === 'boolean') return t(value ? 'value.yes' : 'value.no');
      if (typeof value !== 'number' || !Number.isFinite(value)) return value === null || value === undefined ? t('value.unknown') : String(value);
      if (name.endsWith('_bytes')) return f.bytes(value);
      if (name.startsWith('usd_per_hour') || name === 'usd_per_hour') return t('unit.usdPerHour', { value: usd.format(value) });
      if (name.startsWith('usd_per_million')) return t('unit.usdPerMillionTokens', { value: usd.format(value) });
      if (name.startsWith('usd') || name.endsWith('_usd')) return usd.format(value);
      if (name.endsWith('tokens_per_s') || name.includes('tokens_per_s_')) return t('unit.tokensPerSecond', { value: sig3.format(value) });
      if (name.endsWith('_gb_per_s')) return t('unit.gbPerSecond', { value: sig3.format(value) });
      if (name.endsWith('_tflops')) return t('unit.tflops', { value: sig3.format(value) });
      if (name === 'hours' || name.endsWith('_hours')) return t('unit.hours', { value: sig3.format(value) });
      if (name.endsWith('_ms')) return t('unit.milliseconds', { value: sig3.format(value) });
      if (name.endsWith('_s')) return t('unit.seconds', { value: sig3.format(value) });
      if (name === 'mfu' || name.endsWith('_fraction')) return `${sig3.format(value * 100)} %`;
      if (name === 'flops' || name.endsWith('_flops') || name.startsWith('flops_per')) return t('unit.flop', { value: f.count(value) });
      if (name.endsWith('_step')) return t('unit.tokens', { value: sig3.format(value) });  // expected tokens per step: a fraction
      if (name.includes('tokens') || name.endsWith('context')) return t('unit.tokens', { value: f.count(value) });
      if (name.includes('params')) return f.count(value);
      if (name.startsWith('bits')) return t('unit.bitsPerWeight', { value: sig3.format(value) });
      if (name.startsWith('max_batch') || name.endsWith('_needed') || name.endsWith('gpus') || name.endsWith('_used') || name.endsWith('layers')
        || name === 'tensors' || name === 'group_size' || name === 'batch' || name === 'id') return whole.format(value);
      return sig3.format(value);
    },
  };
  return f;
}

/** A label for a response field: a translated one when the strings have it, else the name in words. */
export function fieldLabel(t, name) {
  const key = `key.${name}`;
  const s = t(key);
  return s === key ? name.replace(/_/g, ' ') : s;
}
