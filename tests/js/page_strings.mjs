// Both languages have every string: web/i18n/en.json and ja.json hold the same keys, each a
// non-empty string with the same {placeholders}; every key the pages name (data-i18n* attributes in
// the HTML, t('literal') calls in the scripts) is in them. Reads the sources; needs no build.
// usage: node page_strings.mjs [SOURCE_DIR]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checker } from './browser.mjs';

const root = process.argv[2] || '.';
const web = join(root, 'web');
const t = checker();
const load = (lang) => JSON.parse(readFileSync(join(web, 'i18n', `${lang}.json`), 'utf8'));
const en = load('en');
const ja = load('ja');
const placeholders = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

const missingInJa = Object.keys(en).filter((k) => !(k in ja));
const missingInEn = Object.keys(ja).filter((k) => !(k in en));
t.check(missingInJa.length === 0, `every English string has a Japanese one; missing in ja.json: ${missingInJa.join(', ')}`);
t.check(missingInEn.length === 0, `every Japanese string has an English one; missing in en.json: ${missingInEn.join(', ')}`);
const MAY_BE_EMPTY = { en: [], ja: [] };
for (const [lang, strings] of [['en', en], ['ja', ja]]) {
  const empty = Object.entries(strings).filter(([k, v]) => typeof v !== 'string' || (!v.trim() && !MAY_BE_EMPTY[lang].includes(k))).map(([k]) => k);
  t.check(empty.length === 0, `${lang}.json: every value is a non-empty string; not: ${empty.join(', ')}`);
}
const placeholderMismatch = Object.keys(en).filter((k) => k in ja && placeholders(en[k]) !== placeholders(ja[k]));
t.check(placeholderMismatch.length === 0, `the same {placeholders} in both languages; differ: ${placeholderMismatch.join(', ')}`);

// Keys the pages use: data-i18n, data-i18n-placeholder, data-i18n-title, and t('key') with a literal key.
const used = new Map();
const note = (key, where) => { if (!used.has(key)) used.set(key, where); };
for (const page of ['index.html', 'embed.html']) {
  const html = readFileSync(join(web, page), 'utf8');
  for (const m of html.matchAll(/data-i18n(?:-placeholder|-title)?="([^"]+)"/g)) note(m[1], page);
}
const scripts = [...readdirSync(web).filter((f) => f.endsWith('.js')), ...readdirSync(join(web, 'lib')).map((f) => `lib/${f}`)];
for (const file of scripts) {
  const js = readFileSync(join(web, file), 'utf8').replace(/^\s*(\/\/|\/?\*).*$/gm, '');  // not in comments
  for (const m of js.matchAll(/\bt\('([A-Za-z0-9_.-]+)'/g)) note(m[1], file);
}
const unknown = [...used].filter(([k]) => !(k in en)).map(([k, where]) => `${k} (${where})`);
t.check(used.size > 50, `the pages name their strings by key (${used.size} found)`);
t.check(unknown.length === 0, `every key the pages use is in en.json (and so in ja.json); unknown: ${unknown.join(', ')}`);
console.log(`${Object.keys(en).length} strings in each language; ${used.size} keys named literally by the pages`);
t.finish();
