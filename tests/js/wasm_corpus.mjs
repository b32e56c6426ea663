// The WASM module answers every request of the corpus (tests/corpus/requests.jsonl: estimates with
// and without hardware, training, recommend, bad requests) with exactly the bytes the native core
// answers (contract: the CLI's --json output is the WASM string). The native answers come from
// tests/corpus's llmsizer_corpus program in one process. Each request is asked as the page asks it
// (web/lib/session.js): of the page's own module (inference alone), then of the tasks' module
// (llmsizer-tasks.js) when the page's refuses it as another module's task (web/lib/other_module.js);
// the tasks' module, which answers every task, gives every answer the same.
// usage: node wasm_corpus.mjs WEB_DIR LLMSIZER_CORPUS REQUESTS
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCore } from './load_core.mjs';
import { refusedForOtherModule } from '../../web/lib/other_module.js';

const [webDir, corpusTool, requestsFile] = process.argv.slice(2);
if (!existsSync(join(webDir, 'llmsizer.wasm'))) {
  console.error(`no WASM build in ${webDir}: run cmake --preset wasm && cmake --build --preset wasm`);
  process.exit(process.env.LLMSIZER_REQUIRE_WASM ? 1 : 77);
}
const core = await loadCore(webDir);
const tasks = await loadCore(webDir, 'llmsizer-tasks');
const entries = readFileSync(requestsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const native = spawnSync(corpusTool, ['dump', requestsFile], { encoding: 'utf8', maxBuffer: 1 << 30 });
if (native.status !== 0) {
  console.error(`native corpus run failed (${native.status}): ${native.stderr}`);
  process.exit(1);
}
const nativeLines = native.stdout.split('\n');
let failed = 0;
entries.forEach((e, i) => {
  const fn = e.fn === 'recommend' ? 'recommend' : 'estimate';
  const page = core[fn](e.body);
  const wasm = refusedForOtherModule(JSON.parse(page)) ? tasks[fn](e.body) : page;
  if (tasks[fn](e.body) !== wasm) {
    if (++failed <= 10) console.error(`MISMATCH #${i + 1} ${e.fn} ${e.body.slice(0, 160)}: the page's module and the tasks' disagree\n  page: ${page.slice(0, 200)}`);
  } else if (wasm !== nativeLines[i]) {
    if (++failed <= 10) console.error(`MISMATCH #${i + 1} ${e.fn} ${e.body.slice(0, 160)}\n  native: ${nativeLines[i].slice(0, 200)}\n  wasm:   ${wasm.slice(0, 200)}`);
  }
});
console.log(`${entries.length - failed} of ${entries.length} corpus responses identical in WASM and natively`);
process.exit(failed ? 1 : 0);
