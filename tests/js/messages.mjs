// Every message the core can say has a string in both of the page's languages:
// web/i18n/messages.en.json is exactly the core's English table (`llmsizer messages`), and
// web/i18n/messages.ja.json has every id, non-empty, with the same {placeholders}; every term a
// message argument can name (`*_term`) has its own "term.<id>" string.
// usage: node messages.mjs SOURCE_DIR LLMSIZER_CLI
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checker } from './browser.mjs';

const [root, cli] = process.argv.slice(2);
const t = checker();
const core = JSON.parse(spawnSync(cli, ['messages'], { encoding: 'utf8' }).stdout).messages;
const load = (lang) => JSON.parse(readFileSync(join(root, 'web', 'i18n', `messages.${lang}.json`), 'utf8'));
const en = load('en');
const ja = load('ja');
const placeholders = (s) => [...new Set([...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join(',');

const coreIds = Object.keys(core).sort();
t.check(JSON.stringify(Object.keys(en).sort()) === JSON.stringify(coreIds) && coreIds.every((id) => en[id] === core[id]),
  `messages.en.json is the core's table (regenerate: llmsizer messages); differ: ${coreIds.filter((id) => en[id] !== core[id]).slice(0, 10).join(', ')}`);
const missing = coreIds.filter((id) => !(id in ja));
t.check(missing.length === 0, `every message has a Japanese string; missing in messages.ja.json (${missing.length}): ${missing.slice(0, 20).join(', ')}`);
const extra = Object.keys(ja).filter((id) => !(id in core));
t.check(extra.length === 0, `messages.ja.json has no id the core does not say: ${extra.join(', ')}`);
const empty = Object.entries(ja).filter(([, v]) => typeof v !== 'string' || !v.trim()).map(([k]) => k);
t.check(empty.length === 0, `every Japanese message is a non-empty string; not: ${empty.join(', ')}`);
const differ = coreIds.filter((id) => id in ja && placeholders(core[id]) !== placeholders(ja[id]));
t.check(differ.length === 0, `the same {placeholders} in both languages; differ: ${differ.join(', ')}`);
// Terms used as arguments resolve through "term.<id>": each such template exists.
const termIds = coreIds.filter((id) => id.startsWith('term.'));
t.check(termIds.length > 0, `the core has terms (${termIds.length})`);
t.finish();
