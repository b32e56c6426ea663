// SPDX-License-Identifier: MIT
// Build step of the WASM module (cmake/embed_data.cmake, COMPACT): writes each data file without the
// members the core never reads, so that the module carries less (issue 20). Native builds embed the
// files whole, and tests/js/wasm_identity.mjs compares their answers with the module's.
// - a model preset (a file under models/): the members of its "config" whose key is in CONFIG_KEYS
//   (cmake/unread_config_keys.txt), at any depth under "config";
// - a hardware entry (a file under hardware/): its top-level members whose key is in HARDWARE_KEYS
//   (cmake/unread_hardware_keys.txt).
// Everything else keeps its exact text: numbers are not reparsed (1000000.0 stays a float, as the
// core's parser sees it in the source file), strings not re-escaped. An object members were taken
// from is written without whitespace between its members; the embed step compacts the rest.
// Each file is written to OUT_DIR/<its folder>/<its name>.
// usage: node cmake/strip_unread.mjs CONFIG_KEYS HARDWARE_KEYS OUT_DIR FILE...
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const [configKeysFile, hardwareKeysFile, outDir, ...files] = process.argv.slice(2);
const keyList = (file) => new Set(readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
const unreadConfig = keyList(configKeysFile);
const unreadHardware = keyList(hardwareKeysFile);

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

/** The value at text[start, end) with the unread config members of every object in it removed. */
function strip(text, start, end) {
  start = skipSpace(text, start);
  if (text[start] === '{') {
    const kept = members(text, start).filter(({ key }) => !unreadConfig.has(key));
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

/** The top-level object's members of `text`, after checking that it is one. */
function topMembers(text, what) {
  const open = skipSpace(text, 0);
  if (text[open] !== '{') throw new Error(`${what} is a JSON object`);
  return members(text, open);
}

/** The preset's text with its top-level "config" value stripped; the rest as written. */
function stripPreset(text) {
  const config = topMembers(text, 'a preset').find(({ key }) => key === 'config');
  if (!config) return text;
  return text.slice(0, config.valueStart) + strip(text, config.valueStart, config.valueEnd) + text.slice(config.valueEnd);
}

/** The hardware entry's text without its unread top-level members; each kept value as written. */
function stripHardware(text) {
  const kept = topMembers(text, 'a hardware entry').filter(({ key }) => !unreadHardware.has(key));
  return `{${kept.map((m) => `${m.keyText}:${text.slice(m.valueStart, m.valueEnd)}`).join(',')}}`;
}

for (const file of files) {
  const kind = basename(dirname(file));
  const stripper = { models: stripPreset, hardware: stripHardware }[kind];
  if (!stripper) throw new Error(`${file}: only files under models/ and hardware/ are stripped`);
  const stripped = stripper(readFileSync(file, 'utf8'));
  JSON.parse(stripped);  // still JSON, or the build stops here
  mkdirSync(join(outDir, kind), { recursive: true });
  writeFileSync(join(outDir, kind, basename(file)), stripped);
}
