// SPDX-License-Identifier: MIT
// The page offline after its first visit: a service worker that keeps the page's own files (never
// another origin's: the Hugging Face hub's answers go past it) in the Cache Storage, each under its
// content hash. The build (scripts/precache.mjs) writes the list of the files and their hashes into
// this script in place of the placeholder string FILES holds, and the build's id (a hash of that list) into it
// and into sw-version.txt; a new build is a new worker, which the browser installs on its next visit.
//  - Installing costs no download: a file is taken from the browser's HTTP cache (the first visit has
//    just loaded it) when its bytes have the listed hash, and every other file is kept the first time
//    the page fetches it through the worker. A new build keeps the entries whose hash it lists too,
//    so it invalidates exactly the files that changed.
//  - A visit (a navigation) asks the server for sw-version.txt only: the same build, and the page and
//    its files come from the cache; another build, and this visit goes to the network (the browser
//    installs the new worker meanwhile, which takes over); no answer (offline), and the cache answers.
'use strict';
const FILES = '@PRECACHE@';  // { path relative to the worker: hash }
const BUILD = '@BUILD@';
const CACHE = 'llmsizer-files';
const VERSION_FILE = 'sw-version.txt';
const CHECK_MS = 3000;  // a network that does not answer by then counts as offline for this visit
const scope = new URL('./', self.location).href;
let stale = false;  // a newer build is on the server: pass everything through until it takes over

const key = (path) => `${scope}${path}?sha=${FILES[path]}`;

async function hashOf(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps `response` (a file of the list) when its bytes are the listed ones; returns whether kept. */
async function keep(cache, path, response) {
  if (!response || !response.ok) return false;
  const body = await response.arrayBuffer();
  if ((await hashOf(body)) !== FILES[path]) return false;
  const type = response.headers.get('Content-Type');
  await cache.put(key(path), new Response(body, { headers: type ? { 'Content-Type': type } : {} }));
  return true;
}

/** Every listed file not yet kept, from the HTTP cache only (no request reaches the server). */
async function fill() {
  const cache = await caches.open(CACHE);
  await Promise.all(Object.keys(FILES).map(async (path) => {
    if (await cache.match(key(path))) return;
    // index.html: the folder's own address is the one a visit loads.
    for (const url of path === 'index.html' ? [scope, scope + path] : [scope + path]) {
      try {
        if (await keep(cache, path, await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }))) return;
      } catch { /* not in the HTTP cache: kept when the page fetches it */ }
    }
  }));
}

self.addEventListener('install', (event) => {
  event.waitUntil(fill().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const wanted = new Set(Object.keys(FILES).map(key));
    await Promise.all((await cache.keys()).filter((r) => !wanted.has(r.url)).map((r) => cache.delete(r)));
    await self.clients.claim();
    await fill();  // what the page loaded while this worker installed
  })());
});

// A page has loaded (web/boot.js): what it fetched is in the HTTP cache now.
self.addEventListener('message', (event) => {
  if (event.data === 'fill') event.waitUntil(fill());
});

/** The file of the list a request is for ('' for the folder: index.html), or null. */
function listed(url) {
  if (url.origin !== self.location.origin || !url.href.startsWith(scope)) return null;
  const path = decodeURIComponent(url.pathname.slice(new URL(scope).pathname.length)) || 'index.html';
  return Object.prototype.hasOwnProperty.call(FILES, path) ? path : null;
}

/** Whether the server has this build: true, false (another build), or null (no answer in time). */
async function sameBuild() {
  const timeout = new Promise((resolve) => { setTimeout(resolve, CHECK_MS, null); });
  const check = fetch(scope + VERSION_FILE, { cache: 'no-store' })
    .then(async (r) => (r.ok ? (await r.text()).trim() === BUILD : null), () => null);
  return Promise.race([check, timeout]);
}

async function fromCache(path) {
  const cache = await caches.open(CACHE);
  return cache.match(key(path));
}

async function answer(event, path, navigation) {
  const request = event.request;
  if (navigation) {
    const same = await sameBuild();
    if (same === false && !stale) {
      stale = true;
      self.registration.update().catch(() => {});  // the new worker now, not after the browser's own check
    }
    if (same === null) {  // offline, or no answer: the cached page
      const cached = await fromCache(path);
      if (cached) return cached;
    }
  }
  if (stale) return fetch(request);
  const cached = await fromCache(path);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.status === 200) {
    const copy = response.clone();
    // Kept after the page has its answer; the hash check guards against another build's bytes.
    event.waitUntil(caches.open(CACHE).then((cache) => keep(cache, path, copy)).catch(() => {}));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // Another origin (the hub), and any file not in the list, go past the worker untouched.
  const path = listed(url);
  if (!path) return;
  const navigation = request.mode === 'navigate';
  if (!navigation && (stale || request.headers.has('range'))) return;
  event.respondWith(answer(event, path, navigation));
});
