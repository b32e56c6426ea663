// SPDX-License-Identifier: MIT
// Start-up shared by the page and the embed view: load the WASM core and the strings at once, read
// the menus, read the state from the URL, and let the core vet it — a value the core rejects is put
// back to its default with a notice, so no link can leave the page broken.
import createCore from '../llmsizer.js';
import { defaults, menusFrom, readUrl, stateKeyForField, toRequest } from './state.js';
import { addModuleMessages, formatter, loadStrings, preferredLang, takeEnglishMessagesFrom, translator, LANGS } from './i18n.js';
import { refusedForOtherModule } from './other_module.js';

/** The language a URL asks for, read before anything else so its strings load with the core. By the
 *  rule lib/state.js readUrl reads every key with: the query, then the hash, the last lang= wins
 *  (`?lang=ja#model=…` is Japanese; `#lang=ja&lang=en` English), and a language the page has not is
 *  no choice. */
function urlLang(href) {
  let url;
  try { url = new URL(href); } catch { return ''; }
  const named = new URLSearchParams(`${url.search.slice(1)}&${url.hash.slice(1)}`).getAll('lang');
  const last = named[named.length - 1];
  return LANGS.includes(last) ? last : '';
}

/** Module options that instantiate the WASM module boot.js began compiling while the page loaded
 *  (Emscripten's `instantiateWasm` hook); none when boot.js did not run, and a failed early compile
 *  falls back to fetching the file again. */
function earlyWasm() {
  const compiled = globalThis.llmsizerBoot && globalThis.llmsizerBoot.wasm;
  if (!compiled) return {};
  return {
    instantiateWasm(imports, receive) {
      // Relative to the page (index.html and embed.html sit beside the module), not to this file,
      // which the build bundles into another (wasm/CMakeLists.txt).
      compiled.then((module) => WebAssembly.instantiate(module, imports))
        .catch(() => WebAssembly.instantiateStreaming(fetch('llmsizer.wasm', { credentials: 'same-origin' }), imports)
          .then((r) => r.instance))
        .then((instance) => receive(instance));
      return {};  // exports arrive through receive()
    },
  };
}

/**
 * What the page was built with: scripts/prerender.mjs runs this same WASM core and writes into
 * index.html its starting view (listOptions `defaults`), the request the page makes of it and the
 * core's answer. The answer is used only when the request is that one, character for character;
 * any other state (a link, another page) waits for the core. It lets the page show its first answer
 * while the core is still compiling. Null when the page has no such block (the embed view).
 */
function prerenderedBlock() {
  const node = document.getElementById('prerendered');
  if (!node) return null;
  try {
    const doc = JSON.parse(node.textContent);
    return doc && typeof doc === 'object' && doc.defaults && typeof doc.defaults === 'object' ? doc : null;
  } catch {
    return null;
  }
}

function prerenderedAnswer(block, requestText) {
  return block && block.request === requestText && block.response && typeof block.response === 'object' && !block.response.error ? block.response : null;
}

/**
 * Loads the core and the strings, reads the state from the URL and has the core check it. Resolves
 * to the session once its first answer is known; `session.loadCore()` resolves once the core is
 * loaded (at once, except when that first answer was the prerendered one: then it starts loading
 * it) and rejects if it cannot load.
 */
/** The page's language: a link's lang=, else the browser's first language the page has. */
export function pageLang() {
  return urlLang(location.href) || preferredLang(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
}

export async function startSession() {
  const lang = pageLang();
  if (!globalThis.llmsizerBoot) globalThis.llmsizerBoot = {};  // boot.js came too late: it then does nothing
  let startCore;
  const coreWanted = new Promise((resolve) => { startCore = resolve; });
  const corePromise = coreWanted.then(() => createCore(earlyWasm()));
  // English messages are the core's own table: asking for them starts the core, after the next
  // frame, so that its start-up does not hold back the first paint of the verdict in the HTML
  // (measured: starting it at once delayed that paint).
  const afterFirstFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  takeEnglishMessagesFrom(() => afterFirstFrame().then(() => {
    startCore();
    return corePromise.then((c) => JSON.parse(c.listMessages()).messages);
  }));
  const stringsPromise = loadStrings(lang);
  let core = null;
  let tasksCore = null;  // lib/tasks_core.js: the module for serve, training and also_loaded, loaded on their first request
  let tasksLoading = null;
  let tasksFailure = null;  // why the last load failed, said once by the next request's answer
  /** Loads the tasks' module once (a Promise); a failed load is tried again on the request after
   *  the one that says it failed. */
  const loadTasksCore = () => {
    if (!tasksLoading) {
      tasksLoading = import('./tasks_core.js').then((m) => m.tasksCore()).then((c) => { addModuleMessages(c); tasksCore = c; });
      tasksLoading.catch((e) => { tasksLoading = null; tasksFailure = String((e && e.message) || e); });
    }
    return tasksLoading;
  };
  /** Calls a core export and parses its JSON; a thrown exception becomes an error object too. A
   *  request the page's module refuses as another module's (serving, training, models kept loaded
   *  beside the model: lib/other_module.js) goes to the tasks' module, which answers the requests
   *  of its calls from then on; until it has loaded, the answer is an error marked `pending`, and
   *  session.onTasksCore runs once it has. */
  const call = (fn, arg) => {
    try {
      if (!core) return { error: { field: '', message: 'the core is still loading' } };
      // Once loaded, the tasks' module answers the calls it has: it answers every request the page's
      // module does with the same bytes (tests/js/wasm_corpus.mjs), and a training or serving edit
      // then costs one call instead of the page's module's refusal (it reads every part) and then it.
      // embind checks the count of arguments: a listing takes none.
      const ask = (module) => JSON.parse(arg === undefined ? module[fn]() : module[fn](arg));
      if (tasksCore && typeof tasksCore[fn] === 'function') return ask(tasksCore);
      if (typeof core[fn] !== 'function') return { error: { field: '', message: `${fn} is not in this build`, missing: true } };
      const answer = ask(core);
      if (!refusedForOtherModule(answer)) return answer;
      if (!tasksCore && tasksFailure) {
        const message = tasksFailure;
        tasksFailure = null;
        return { error: { field: '', message } };
      }
      if (!tasksCore) {
        loadTasksCore().then(() => session.onTasksCore(), () => session.onTasksCore());
        return { error: { field: '', message: 'the core is still loading', pending: true } };
      }
      return answer;  // the tasks' module is loaded but has no such call: the refusal stands
    } catch (e) {
      return { error: { field: '', message: String((e && e.message) || e) } };
    }
  };
  const session = { core: null, call, lang, t: null, f: null, onTasksCore: () => {} };
  const loaded = corePromise.then((c) => {
    core = c;
    session.core = c;
    performance.mark('llmsizer:core-ready');
  });
  loaded.catch(() => {});  // handled by whoever awaits session.loadCore() (or by startSession below)
  // With the prerendered answer the core is started when the page asks (session.loadCore, once
  // that answer is on the screen); otherwise at once. boot.js compiles it meanwhile either way.
  session.loadCore = () => { startCore(); return loaded; };
  // The menus' lists (listOptions, listModels, listHardware) are read after the first result: the
  // core checks the link's values meanwhile (vet), and the first answer does not wait for them.
  // The starting view is the core's: built into the page, else asked of the core once it is loaded.
  const options = {};
  const menus = menusFrom(options, null, null);
  const block = prerenderedBlock();
  let coreDefaults = block && block.defaults;
  if (!coreDefaults) {
    startCore();
    await loaded;
    coreDefaults = call('listOptions').defaults;
  }
  const base = defaults(coreDefaults);
  const { state: fromLink, notices, fromUrl } = readUrl(location.href, menus, base);
  // A link whose request is the default one (the page's own link after a first visit, or one that
  // sets only the language, unit or budget) asks the core nothing it has not answered already.
  const early = !notices.length ? prerenderedAnswer(block, JSON.stringify(toRequest(fromLink))) : null;
  Object.assign(session, { options, menus, base, notices });
  if (early) {
    Object.assign(session, { fromUrl, state: fromLink, firstResponse: early });
  } else {
    startCore();
    // The strings (index.html preloads English) are taken before the core's first calls: read
    // after them, they would wait for the whole synchronous start-up.
    await loaded;
    await stringsPromise;
    let vetted = vet(call, fromLink, base, fromUrl, notices);
    // A link to the Serve or Train task, which the page's module refused: vetted on by the tasks'
    // module once it has loaded.
    if (vetted.response.error && vetted.response.error.pending) {
      await loadTasksCore().catch(() => {});
      vetted = vet(call, vetted.state, base, vetted.fromUrl, notices);
    }
    performance.mark('llmsizer:estimated');
    Object.assign(session, { fromUrl: vetted.fromUrl, state: vetted.state, firstResponse: vetted.response });
  }
  session.lang = session.state.lang || lang;
  // The strings are those of the language the page says it is in (html lang), whatever was guessed.
  const strings = await (session.lang === lang ? stringsPromise : loadStrings(session.lang));
  session.t = translator(strings);
  session.f = formatter(session.lang, session.state.unit, session.t);
  return session;
}

/** Asks the core about the state from a link; puts back to default each value it rejects. */
function vet(call, state, base, fromUrl, notices) {
  let s = { ...state };
  let blamable = [...fromUrl];
  for (let attempt = 0; attempt < 12; attempt++) {
    const response = call('estimate', JSON.stringify(toRequest(s)));
    // A pending answer (the tasks' module still loading) blames nothing: the caller vets again.
    if (!response.error || response.error.pending || !blamable.length) return { state: s, response, fromUrl: blamable };
    let key = stateKeyForField(response.error.field);
    if (key === 'model' && blamable.includes('file_model')) key = 'file_model';
    else if (key === 'model' && blamable.includes('config')) key = 'config';
    if (key && blamable.includes(key)) {
      notices.push({ key, value: String(s[key]).slice(0, 40), reason: 'core', message: response.error.message, messageData: response.error.message_data });
      s[key] = base[key];
      if (key === 'config' || key === 'file_model') s.name = '';
      if (key === 'file_model' && s.weights === 'file') s.weights = base.weights;
      blamable = blamable.filter((k) => k !== key);
    } else {
      notices.push({ key: response.error.field || '', value: '', reason: 'reset', message: response.error.message, messageData: response.error.message_data });
      s = { ...base, lang: s.lang, unit: s.unit };
      blamable = [];
    }
  }
  s = { ...base };
  return { state: s, response: call('estimate', JSON.stringify(toRequest(s))), fromUrl: [] };
}
