// SPDX-License-Identifier: MIT
// One cold call for bench/run.mjs: in a process of its own (V8 shares a module's compiled code, and
// the functions it has optimized, between instances of the same bytes within a process), loads the
// page's module (or the benchmark's, for the grown catalog) as the tests load it and prints the
// wall-clock milliseconds of the first call of case INDEX of the benchmark's cases file.
// usage: node bench/cold.mjs CASES_FILE INDEX WEB_DIR
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore } from '../tests/js/load_core.mjs';

const [casesPath, index, webDir] = process.argv.slice(2);
const [, call, , ...rest] = readFileSync(casesPath, 'utf8').trim().split('\n')[Number(index)].split('\t');
const arg = rest.join('\t');
const core = await loadCore(call === 'recommendGrown' ? join(dirname(webDir), 'bench') : webDir,
                            call === 'recommendGrown' ? 'llmsizer-bench' : 'llmsizer');
let run;
if (call === 'inspect') {
  const [path, size] = arg.split('\t');
  const bytes = readFileSync(path);
  run = () => core.inspectModelFile(bytes, Number(size));
} else if (call === 'listModels' || call === 'listHardware') {
  run = () => core[call]();
} else {
  run = () => core[call](arg);
}
const start = performance.now();
run();
console.log((performance.now() - start).toFixed(4));
