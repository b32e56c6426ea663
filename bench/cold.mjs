// SPDX-License-Identifier: MIT
// One cold call for bench/run.mjs: in a process of its own (V8 shares a module's compiled code, and
// the functions it has optimized, between instances of the same bytes within a process), loads the
// page's module (or the benchmark's, for the grown catalog) as the tests load it and prints the
// wall-clock milliseconds of the first call of case INDEX of the benchmark's cases file.
// usage: node bench/cold.mjs CASES_FILE INDEX WEB_DIR
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore, OTHER_TASK } from '../tests/js/load_core.mjs';

/** The call of a case (CALL and ARGUMENT of a cases-file line, bench/edge_bench.cpp) on `core`, the
 *  module that has it (recommendGrown: the benchmark's), as a function of no arguments. */
export function caseCall(core, call, arg) {
  if (call === 'inspect') {
    // ARGUMENT: the file of the header's bytes, a tab, the whole file's size.
    const [path, size] = arg.split('\t');
    const bytes = readFileSync(path);
    return () => core.inspectModelFile(bytes, Number(size));
  }
  if (call === 'listModels' || call === 'listHardware') return () => core[call]();
  return () => core[call](arg);
}

/** The module a call runs in: the page's, the benchmark's for the grown catalog, the model files'
 *  (llmsizer-files, loaded by the page on a dropped file) for a model file's header, the tasks'
 *  (llmsizer-tasks, loaded by the page for Serve and Train) for a request of task serve or training. */
export const loadModuleFor = (call, webDir, arg = '') =>
  call === 'recommendGrown' ? loadCore(join(dirname(webDir), 'bench'), 'llmsizer-bench')
    : call === 'inspect' ? loadCore(webDir, 'llmsizer-files')
      : loadCore(webDir, OTHER_TASK.test(arg) ? 'llmsizer-tasks' : 'llmsizer');

if (import.meta.url === `file://${process.argv[1]}`) {
  const [casesPath, index, webDir] = process.argv.slice(2);
  const [, call, , ...rest] = readFileSync(casesPath, 'utf8').trim().split('\n')[Number(index)].split('\t');
  const run = caseCall(await loadModuleFor(call, webDir, rest.join('\t')), call, rest.join('\t'));
  const start = performance.now();
  run();
  console.log((performance.now() - start).toFixed(4));
}
