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

const cache = new Map();
/** The strings for `lang` (a Promise of a plain object). */
export function loadStrings(lang) {
  if (!cache.has(lang)) {
    // boot.js may have started this fetch while the modules loaded; the other language loads on demand.
    const early = globalThis.llmsizerBoot && globalThis.llmsizerBoot.strings && globalThis.llmsizerBoot.strings[lang];
    cache.set(lang, (early || fetch(new URL(`../i18n/${lang}.json`, import.meta.url))).then((r) => {
      if (!r.ok) throw new Error(`strings for ${lang}: HTTP ${r.status}`);
      return r.json();
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

/** Number and unit formatting for one language and byte unit ('gb' or 'gib'). */
export function formatter(lang, unit, t) {
  const locale = lang === 'ja' ? 'ja-JP' : 'en-US';
  const fixed2 = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const sig3 = new Intl.NumberFormat(locale, { maximumSignificantDigits: 3 });
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const sci = new Intl.NumberFormat(locale, { notation: 'scientific', maximumSignificantDigits: 3 });
  const usd = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
      if (name.endsWith('tokens_per_s')) return t('unit.tokensPerSecond', { value: sig3.format(value) });
      if (name.endsWith('_gb_per_s')) return t('unit.gbPerSecond', { value: sig3.format(value) });
      if (name.endsWith('_tflops')) return t('unit.tflops', { value: sig3.format(value) });
      if (name === 'hours' || name.endsWith('_hours')) return t('unit.hours', { value: sig3.format(value) });
      if (name.endsWith('_ms')) return t('unit.milliseconds', { value: sig3.format(value) });
      if (name.endsWith('_s')) return t('unit.seconds', { value: sig3.format(value) });
      if (name === 'mfu' || name.endsWith('_fraction')) return `${sig3.format(value * 100)} %`;
      if (name === 'flops' || name.endsWith('_flops') || name.startsWith('flops_per')) return t('unit.flop', { value: f.count(value) });
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
