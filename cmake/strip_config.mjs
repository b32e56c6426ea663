// SPDX-License-Identifier: MIT
// Build step of the WASM module (cmake/embed_data.cmake, COMPACT): writes each model preset with the
// members of its "config" whose key is listed in KEYS_FILE (cmake/unread_config_keys.txt: keys the core
// never reads) removed, at any depth under "config". Everything else keeps its exact text: numbers are
// not reparsed (1000000.0 stays a float, as the core's parser sees it in the source file), strings not
// re-escaped. The config object is written without whitespace; the embed step compacts the rest.
// usage: node cmake/strip_config.mjs KEYS_FILE OUT_DIR PRESET.json...
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const [keysFile, outDir, ...files] = process.argv.slice(2);
const unread = new Set(readFileSync(keysFile, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));

/** The end (exclusive) of the JSON value that starts at `i` of `text` (after whitespace). */
function skipValue(text, i) {
  i = skipSpace(text, i);
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    i = skipSpace(text, i + 1);
    if (text[i] === close) return i + 1;
    for (;;) {
      if (c === '{') {
        i = skipSpace(text, skipString(text, skipSpace(text, i)));
        if (text[i] !== ':') throw new Error(`expected ':' at ${i}`);
        i += 1;
      }
      i = skipSpace(text, skipValue(text, i));
      if (text[i] === ',') { i += 1; continue; }
      if (text[i] === close) return i + 1;
      throw new Error(`expected ',' or '${close}' at ${i}`);
    }
  }
  const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
  if (!m) throw new Error(`unexpected '${c}' at ${i}`);
  return i + m[0].length;
}

function skipString(text, i) {
  if (text[i] !== '"') throw new Error(`expected a string at ${i}`);
  for (i += 1; text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
  return i + 1;
}

function skipSpace(text, i) {
  while (i < text.length && ' \t\r\n'.includes(text[i])) i += 1;
  return i;
}

/** The members of the object whose '{' is at `open`: [{ keyText, key, valueStart, valueEnd }]. */
function members(text, open) {
  const out = [];
  let i = skipSpace(text, open + 1);
  while (text[i] !== '}') {
    const keyEnd = skipString(text, i);
    const keyText = text.slice(i, keyEnd);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);  // past ':'
    const valueEnd = skipValue(text, valueStart);
    out.push({ keyText, key: JSON.parse(keyText), valueStart, valueEnd });
    i = skipSpace(text, valueEnd);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return out;
}

/** The value at text[start, end) with the unread members of every object in it removed. */
function strip(text, start, end) {
  start = skipSpace(text, start);
  if (text[start] === '{') {
    const kept = members(text, start).filter(({ key }) => !unread.has(key));
    return `{${kept.map((m) => `${m.keyText}:${strip(text, m.valueStart, m.valueEnd)}`).join(',')}}`;
  }
  if (text[start] === '[') {
    const items = [];
    for (let i = skipSpace(text, start + 1); text[i] !== ']';) {
      const itemEnd = skipValue(text, i);
      items.push(strip(text, i, itemEnd));
      i = skipSpace(text, itemEnd);
      if (text[i] === ',') i = skipSpace(text, i + 1);
    }
    return `[${items.join(',')}]`;
  }
  return text.slice(start, end).trim();
}

/** The preset's text with its top-level "config" value stripped; the rest as written. */
function stripPreset(text) {
  const open = skipSpace(text, 0);
  if (text[open] !== '{') throw new Error('a preset is a JSON object');
  const config = members(text, open).find(({ key }) => key === 'config');
  if (!config) return text;
  return text.slice(0, config.valueStart) + strip(text, config.valueStart, config.valueEnd) + text.slice(config.valueEnd);
}

mkdirSync(outDir, { recursive: true });
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const stripped = stripPreset(text);
  JSON.parse(stripped);  // still JSON, or the build stops here
  writeFileSync(join(outDir, basename(file)), stripped);
}
