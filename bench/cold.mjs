// SPDX-License-Identifier: MIT
// One cold call for bench/run.mjs: in a process of its own (V8 shares a module's compiled code, and
// the functions it has optimized, between instances of the same bytes within a process), loads the
// page's module (or the benchmark's, for the grown catalog) as the tests load it and prints the
// wall-clock milliseconds of the first call of case INDEX of the benchmark's cases file.
// A model file's header (call "inspect") is timed as the page reads a dropped file: its module loaded
// and warmed as the page does once a file is dragged over it (web/lib/model_files.js
// prepareFilesCore: warmUp's steps, one per task), the drop 250 ms later (the drag across the page), then from the drop to
// the answer: the header read in growing slices as nextHeaderRead asks, each slice appended to the
// bytes the module holds (web/lib/import.js importFile) and inspected. Loading the file from disk is not included.
// With --unwarmed, the module is not warmed and not waited for.
// usage: node bench/cold.mjs CASES_FILE INDEX WEB_DIR [--unwarmed] [--module llmsizer|llmsizer-tasks]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCore } from '../tests/js/load_core.mjs';

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

/** The module a call runs in: the benchmark's for the grown catalog, the model files' (llmsizer-files,
 *  loaded by the page on a dropped file) for a model file's header, else `name`: the page's module, or
 *  the tasks' (llmsizer-tasks) for a request the page's module refuses as the other module's
 *  (bench/run.mjs asks it, as the page does, and names the module: a cold call cannot ask first
 *  without spending the first call it times). */
export const loadModuleFor = (call, webDir, name = 'llmsizer') =>
  call === 'recommendGrown' ? loadCore(join(dirname(webDir), 'bench'), 'llmsizer-bench')
    : call === 'inspect' ? loadCore(webDir, 'llmsizer-files')
      : loadCore(webDir, name);

/** The page's read of a dropped file's header (web/lib/import.js importFile, without the file's
 *  reads): slices as nextHeaderRead asks, each appended to the bytes the module holds
 *  (ModelFileHeader) and inspected. */
export function pageRead(core, arg) {
  const [path, size] = arg.split('\t');
  const file = readFileSync(path);
  const fileSize = Number(size);
  return () => {
    let length = core.nextHeaderRead(0, 0, fileSize).bytes;
    const header = new core.ModelFileHeader();
    try {
      let held = 0;
      for (;;) {
        held = header.append(file.subarray(held, length));
        const r = JSON.parse(header.inspect(fileSize));
        const needed = r.error && typeof r.error.needed_bytes === 'number' ? r.error.needed_bytes : 0;
        const next = r.error ? core.nextHeaderRead(length, needed, fileSize) : { step: 'answered' };
        if (next.step !== 'read') return r;
        length = next.bytes;
      }
    } finally {
      header.delete();
    }
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [casesPath, index, webDir, ...flags] = process.argv.slice(2);
  const flag = flags.includes('--unwarmed') ? '--unwarmed' : '';
  const moduleAt = flags.indexOf('--module');
  const [, call, , ...rest] = readFileSync(casesPath, 'utf8').trim().split('\n')[Number(index)].split('\t');
  const core = await loadModuleFor(call, webDir, moduleAt >= 0 ? flags[moduleAt + 1] : 'llmsizer');
  const run = call === 'inspect' ? pageRead(core, rest.join('\t')) : caseCall(core, call, rest.join('\t'));
  if (call === 'inspect') {
    if (flag !== '--unwarmed') {
      for (let step = 0; step < core.warmUpSteps; ++step) {
        core.warmUp(step);
        await new Promise((resolve) => setTimeout(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const start = performance.now();
  run();
  console.log((performance.now() - start).toFixed(4));
}
