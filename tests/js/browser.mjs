// Shared set-up for the browser tests: Debian's Chromium driven by playwright-core (no browser is
// ever downloaded), the built page served from 127.0.0.1, and a record of every request so a test
// can prove nothing left this machine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from './static_server.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Exit code 77 (CTest skip) when a prerequisite is missing, unless LLMSIZER_REQUIRE_BROWSER is set. */
export async function prerequisites(webDir) {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return skip('playwright-core is not installed (npm ci)');
  }
  if (!existsSync(CHROMIUM)) return skip(`no Chromium at ${CHROMIUM}`);
  if (!existsSync(join(webDir, 'llmsizer.wasm'))) return skip(`no WASM build in ${webDir}`);
  return chromium;
}

function skip(why) {
  console.error(`skipped: ${why}`);
  process.exit(process.env.LLMSIZER_REQUIRE_BROWSER ? 1 : 77);
}

/** Launches Chromium, serves webDir, and returns helpers that record requests and console errors
 *  (`record: false`: pages without those listeners, for timing — each event crosses to Node;
 *  `connectSrc`: see static_server.mjs). */
export async function openBrowser(chromium, webDir, { extraArgs = [], record = true, connectSrc = [] } = {}) {
  const { server, url } = await serve(webDir, 0, { connectSrc });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
  const requests = [];
  const consoleErrors = [];
  async function newPage(options = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    if (!record) return page;
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    return page;
  }
  async function close() {
    await browser.close();
    server.close();
  }
  /** Requests whose host is not 127.0.0.1 (data: and blob: URLs stay in the page). */
  function foreignRequests() {
    return requests.filter((u) => !/^(data|blob|about):/.test(u) && new URL(u).hostname !== '127.0.0.1');
  }
  return { url, newPage, close, requests, consoleErrors, foreignRequests };
}

/** A tiny assertion counter that prints the plain "N passed, N failed" closing line. */
export function checker() {
  let passed = 0;
  let failed = 0;
  return {
    check(condition, message) {
      if (condition) passed++;
      else { failed++; console.error(`FAILED: ${message}`); }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}
