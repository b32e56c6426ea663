// Loads the built WASM module in Node exactly as the page does (the same ES6 factory), passing the
// .wasm bytes as `wasmBinary`: Emscripten 3.1.6's web-only build cannot fetch a file path in Node.
import { copyFile, readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { refusedForOtherModule } from '../../web/lib/other_module.js';

/** `name`: the module's file name without its extension (the benchmark's module is llmsizer-bench). */
export async function loadCore(webDir, name = 'llmsizer') {
  // The factory file is ES module syntax with a .js name; give Node a .mjs copy to import.
  const dir = await mkdtemp(join(tmpdir(), 'llmsizer-core-'));
  const copy = join(dir, `${name}.mjs`);
  await copyFile(join(webDir, `${name}.js`), copy);
  const { default: createCore } = await import(pathToFileURL(copy).href);
  const wasmBinary = await readFile(join(webDir, `${name}.wasm`));
  return createCore({ wasmBinary });
}

/** The page's two modules as the page uses them (web/lib/session.js): the lists from its own module
 *  (llmsizer, inference alone: wasm/bindings.cpp), and estimate, recommend and pageAnswer from it
 *  unless it refuses the request as another module's task (web/lib/other_module.js), then from the
 *  tasks' module (llmsizer-tasks, every task: wasm/bindings_tasks.cpp). */
export async function loadPageCore(webDir) {
  const [page, tasks] = await Promise.all([loadCore(webDir), loadCore(webDir, 'llmsizer-tasks')]);
  const routed = (fn) => (body) => {
    const answer = page[fn](body);
    return refusedForOtherModule(JSON.parse(answer)) ? tasks[fn](body) : answer;
  };
  return { ...Object.fromEntries(['listModels', 'listHardware', 'listOptions', 'listMessages'].map((fn) => [fn, () => page[fn]()])),
           estimate: routed('estimate'), recommend: routed('recommend'), pageAnswer: routed('pageAnswer') };
}
