// SPDX-License-Identifier: MIT
// Start-up shared by the page and the embed view: load the WASM core and the strings at once, read
// the menus, read the state from the URL, and let the core vet it — a value the core rejects is put
// back to its default with a notice, so no link can leave the page broken.
import createCore from '../llmsizer.js';
import { defaults, menusFrom, readUrl, stateKeyForField, toRequest } from './state.js';
import { formatter, loadStrings, preferredLang, translator, LANGS } from './i18n.js';

/** The language a URL asks for, read before anything else so its strings load with the core. */
function urlLang(href) {
  const m = /[?#&]lang=([a-z]{2})(?:&|$)/.exec(href);
  return m && LANGS.includes(m[1]) ? m[1] : '';
}

/** Module options that instantiate the WASM module boot.js began compiling while the page loaded
 *  (Emscripten's `instantiateWasm` hook); none when boot.js did not run, and a failed early compile
 *  falls back to fetching the file again. */
function earlyWasm() {
  const compiled = globalThis.llmsizerBoot && globalThis.llmsizerBoot.wasm;
  if (!compiled) return {};
  return {
    instantiateWasm(imports, receive) {
      compiled.then((module) => WebAssembly.instantiate(module, imports))
        .catch(() => WebAssembly.instantiateStreaming(fetch(new URL('../llmsizer.wasm', import.meta.url), { credentials: 'same-origin' }), imports)
          .then((r) => r.instance))
        .then((instance) => receive(instance));
      return {};  // exports arrive through receive()
    },
  };
}

export async function startSession() {
  const lang = urlLang(location.href) || preferredLang(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  if (!globalThis.llmsizerBoot) globalThis.llmsizerBoot = {};  // boot.js came too late: it then does nothing
  const stringsPromise = loadStrings(lang);
  const corePromise = createCore(earlyWasm());
  // The strings (index.html preloads English) are taken before the core's first calls: read after
  // them, they would wait for the whole synchronous start-up.
  const core = await corePromise;
  const strings = await stringsPromise;
  performance.mark('llmsizer:core-ready');
  /** Calls a core export and parses its JSON; a thrown exception becomes an error object too. */
  const call = (fn, arg) => {
    try {
      if (typeof core[fn] !== 'function') return { error: { field: '', message: `${fn} is not in this build`, missing: true } };
      return JSON.parse(arg === undefined ? core[fn]() : core[fn](arg));
    } catch (e) {
      return { error: { field: '', message: String((e && e.message) || e) } };
    }
  };
  // The menus' lists (listOptions, listModels, listHardware) are read after the first result: the
  // core checks the link's values meanwhile (vet), and the first answer does not wait for them.
  const options = {};
  const menus = menusFrom(options, null, null);
  const base = defaults(menus);
  const { state: fromLink, notices, fromUrl } = readUrl(location.href, menus, base);
  const vetted = vet(call, fromLink, base, fromUrl, notices);
  performance.mark('llmsizer:estimated');
  const t = translator(strings);
  const session = {
    core, call, options, menus, base, notices, fromUrl: vetted.fromUrl,
    state: vetted.state, firstResponse: vetted.response,
    lang: vetted.state.lang || lang, t, f: null,
  };
  session.f = formatter(session.lang, session.state.unit, t);
  return session;
}

/** Asks the core about the state from a link; puts back to default each value it rejects. */
function vet(call, state, base, fromUrl, notices) {
  let s = { ...state };
  let blamable = [...fromUrl];
  for (let attempt = 0; attempt < 12; attempt++) {
    const response = call('estimate', JSON.stringify(toRequest(s)));
    if (!response.error || !blamable.length) return { state: s, response, fromUrl: blamable };
    let key = stateKeyForField(response.error.field);
    if (key === 'model' && blamable.includes('file_model')) key = 'file_model';
    else if (key === 'model' && blamable.includes('config')) key = 'config';
    if (key && blamable.includes(key)) {
      notices.push({ key, value: String(s[key]).slice(0, 40), reason: 'core', message: response.error.message });
      s[key] = base[key];
      if (key === 'config' || key === 'file_model') s.name = '';
      if (key === 'file_model' && s.weights === 'file') s.weights = base.weights;
      blamable = blamable.filter((k) => k !== key);
    } else {
      notices.push({ key: response.error.field || '', value: '', reason: 'reset', message: response.error.message });
      s = { ...base, lang: s.lang, unit: s.unit };
      blamable = [];
    }
  }
  s = { ...base };
  return { state: s, response: call('estimate', JSON.stringify(toRequest(s))), fromUrl: [] };
}
