// SPDX-License-Identifier: MIT
// The page's session, shared by its modules (web/app.js and the lib/ modules it imports): the core's
// calls, the state the form edits, the strings and number formats, and the core's lists. A module
// that replaces one of them calls its setter, because an imported binding cannot be assigned.
import { loadStrings, translator } from './i18n.js';
import { pageLang, startSession } from './session.js';

export const $ = (id) => document.getElementById(id);
// The inputs and the result cards come as templates in index.html (out of the first paint's way):
// in place before anything reads them.
for (const id of ['inputs-template', 'cards-template']) {
  const template = $(id);
  if (template) template.replaceWith(template.content);
}
export const START_HREF = location.href;  // the hub= it names, read before the address is rewritten (loadFromHub)
export const S = await startSession().catch(failedStart);
export const { call, menus, base } = S;
export let { options } = S;  // listOptions, read right after the first result (loadOptions)
export let models = [];    // listModels and listHardware are read after the first result (see loadCatalogs)
export let hardware = [];
export let { state, t, f } = S;

export const modelById = new Map();
export const hardwareById = new Map();

/** The core or the strings did not load (no WebAssembly, a blocked file): the page says so in the
 *  reader's language when its strings can still be read, and never stays hidden. Returns a promise
 *  that never settles, so nothing below runs without a session. */
export function failedStart(error) {
  document.body.dataset.started = 'true';
  const status = $('status');
  status.className = 'error';
  status.textContent = `Error: ${String((error && error.message) || error)}`;
  loadStrings(pageLang()).then((strings) => {
    status.textContent = `${translator(strings)('status.failed')} (${String((error && error.message) || error)})`;
  }).catch(() => {});
  return new Promise(() => {});
}
// Setters: an imported binding is read-only, so the modules that replace these call them.
export function setState(value) { state = value; }
export function setOptions(value) { options = value; }
export function setModels(value) { models = value; }
export function setHardware(value) { hardware = value; }
export function setTranslator(value) { t = value; }
export function setFormatter(value) { f = value; }
