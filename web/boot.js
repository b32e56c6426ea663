// SPDX-License-Identifier: MIT
// A classic script that runs before the body is parsed, long before the page's modules have loaded: it starts
// compiling the WASM core from the network stream and fetching the strings of the language the page
// will most likely use, so neither waits for the modules (lib/session.js and lib/i18n.js pick them
// up; without this script, or for another language, they load as usual).
'use strict';
// A link that carries a state (#model=..., ?lang=...) is answered in the browser, not by the answer
// prerendered into index.html for the default view: the layout waits for it (style.css, data-link).
// Set here, before the body is parsed: index.html loads this script without async for that.
if (location.hash.length > 1 || location.search.length > 1) document.documentElement.setAttribute('data-link', '');
window.llmsizerBoot = window.llmsizerBoot || (() => {  // set already when the modules ran first
  const boot = { strings: {} };
  if (typeof WebAssembly === 'object' && typeof WebAssembly.compileStreaming === 'function') {
    boot.wasm = WebAssembly.compileStreaming(fetch('llmsizer.wasm', { credentials: 'same-origin' }));
    boot.wasm.catch(() => {});  // session.js falls back to the normal load
  }
  // A link's lang=, else the browser's first language; lib/i18n.js decides, this only guesses early.
  const m = /[?#&]lang=([a-z]{2})(?:&|$)/.exec(location.href);
  const first = String((navigator.languages && navigator.languages[0]) || navigator.language || '').toLowerCase().split('-')[0];
  const lang = m ? m[1] : first === 'ja' ? 'ja' : 'en';
  // Parsed as soon as they arrive: read later, their JSON would wait behind the core's start-up.
  // The page's strings, and the core's messages for Japanese (English ones come from the core itself,
  // lib/i18n.js takeEnglishMessagesFrom).
  if (lang === 'en' || lang === 'ja') {
    const json = (file) => fetch(`i18n/${file}`, { credentials: 'same-origin' })
      .then((r) => { if (!r.ok) throw new Error(`strings for ${lang}: HTTP ${r.status}`); return r.json(); });
    boot.strings[lang] = Promise.all([json(`${lang}.json`), lang === 'ja' ? json('messages.ja.json') : null])
      .then(([strings, messages]) => ({ strings, messages }));
    boot.strings[lang].catch(() => {});  // lib/i18n.js reports it
  }
  return boot;
})();
