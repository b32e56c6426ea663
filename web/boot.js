// SPDX-License-Identifier: MIT
// A classic script that runs before the body is parsed. index.html has it inline (scripts/prerender.mjs
// writes it there, with its hash in the Content-Security-Policy), so the first paint waits for no
// request: the default view's answer is in the HTML and nothing else is fetched until it is on the
// screen. Then this script starts the rest at once, in parallel: compiling the WASM core from the
// network stream, the strings of the language the page will most likely use, and the page's modules
// (`data-start`: app.js and the modules it imports, listed in `data-preload`), which pick up the
// core and the strings (lib/session.js, lib/i18n.js). The embed view (embed.html) loads it as a file,
// async, with its own module: there it only starts the core and the strings early.
'use strict';
// A link that carries a state (#model=..., ?lang=...) is answered in the browser, not by the answer
// prerendered into index.html for the default view: the layout waits for it (style.css, data-link).
// Set here, before the body is parsed.
if (location.hash.length > 1 || location.search.length > 1) document.documentElement.setAttribute('data-link', '');
(() => {
  if (window.llmsizerBoot) return;  // the modules ran first (embed.html loads this async)
  const boot = { strings: {} };
  window.llmsizerBoot = boot;
  const script = document.currentScript;
  const start = script && script.dataset.start;
  const preload = script && script.dataset.preload ? script.dataset.preload.split(/\s+/).filter(Boolean) : [];
  function load() {
    if (boot.started) return;
    boot.started = true;
    if (typeof WebAssembly === 'object' && typeof WebAssembly.compileStreaming === 'function') {
      boot.wasm = WebAssembly.compileStreaming(fetch('llmsizer.wasm', { credentials: 'same-origin' }));
      boot.wasm.catch(() => {});  // session.js falls back to the normal load
    }
    // A link's lang= (the last one, the hash after the query, as lib/session.js reads it), else the
    // browser's first language; lib/session.js decides, this only guesses early.
    const named = new URLSearchParams(`${location.search.slice(1)}&${location.hash.slice(1)}`).getAll('lang');
    const m = named[named.length - 1];
    const first = String((navigator.languages && navigator.languages[0]) || navigator.language || '').toLowerCase().split('-')[0];
    const lang = m === 'en' || m === 'ja' ? m : first === 'ja' ? 'ja' : 'en';
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
    if (!start) return;
    // app.js and the modules it imports, fetched together rather than one level after another (and
    // app.js before the document is parsed, for a link's state).
    for (const href of [start, ...preload]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    // Run as the page's deferred module ran before: once the document is parsed (an inserted module
    // runs as soon as it has loaded).
    const run = () => {
      const module = document.createElement('script');
      module.type = 'module';
      module.src = start;
      document.head.append(module);
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
    else run();
  }
  // The default view paints its prerendered answer first, and only then loads the rest: once the
  // browser reports that first paint (Paint Timing; presented, not only drawn), else after the next
  // frame. Measured (bench/page.mjs): started after the first animation frame, the requests and the
  // modules' compiling still held back that paint by a quarter. A link's state has nothing to paint
  // before the core has answered, and a hidden page paints nothing: those start at once. The
  // timeout is a safety net.
  if (!start || document.documentElement.hasAttribute('data-link') || document.visibilityState === 'hidden') load();
  else {
    const after = () => setTimeout(load, 0);
    if (typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes || []).includes('paint')) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) { observer.disconnect(); after(); }
      }).observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(after);
    }
    setTimeout(load, 1000);
  }
})();
// The page offline after its first visit (sw.js, a service worker): registered once the page is ready
// (its answer shown, the core and the strings loaded), so that the worker finds the page's files in the
// browser's HTTP cache and adds no download to the first visit. The worker that controls the page, and
// any that takes over later (a new build), is told that the page has loaded: it then keeps, from that
// cache, what it has not kept yet.
if ('serviceWorker' in navigator && window.isSecureContext) {
  const loaded = () => {
    const worker = navigator.serviceWorker.controller;
    if (worker) worker.postMessage('fill');
  };
  const register = () => {
    navigator.serviceWorker.addEventListener('controllerchange', loaded);
    navigator.serviceWorker.register('sw.js').then(() => navigator.serviceWorker.ready).then(loaded, () => {});
  };
  const whenReady = () => {
    if (document.body && document.body.dataset.ready) { setTimeout(register, 0); return; }
    const observer = new MutationObserver(() => {
      if (document.body.dataset.ready) { observer.disconnect(); setTimeout(register, 0); }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  };
  if (document.readyState === 'complete') whenReady();
  else addEventListener('load', whenReady);
}
