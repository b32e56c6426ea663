// SPDX-License-Identifier: MIT
// The core's second module (llmsizer-files.js, built from wasm/bindings_model_files.cpp): a dropped
// model file's header (ModelFileHeader, inspectModelFile, nextHeaderRead) and a model loaded from the Hugging Face hub
// (planRepository, describeRepositoryModel, validRepoId, hubFailure). The default page never uses
// them, so they are not in its module (llmsizer.js): this one is loaded on the first drop or Load,
// once, and the estimate of the model it reads is the page's module's, as for any other model.
import createFilesCore from '../llmsizer-files.js';

let loading = null;

/** The module (a Promise), loaded once; a failed load is tried again on the next use. */
export function filesCore() {
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      createFilesCore({
        // Its .wasm beside the page, as the page's own module (this file is bundled into another).
        instantiateWasm(imports, receive) {
          WebAssembly.instantiateStreaming(fetch('llmsizer-files.wasm', { credentials: 'same-origin' }), imports)
            .then((r) => receive(r.instance), reject);
          return {};  // exports arrive through receive()
        },
      }).then(resolve, reject);
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

let warming = null;

/** Loads the module before it is needed (a file dragged over the page, the file input or the Hub's
 *  box reached: app.js) and, after the frame the person sees, has it read a small header several
 *  times and write the memory a first read uses (bindings_model_files.cpp warmUp), one step per task
 *  so that no task holds the page for long, so that the first real file meets a module that has
 *  already compiled and optimized its reader. Once; nothing is shown, and a failed load is tried
 *  again on the next call. */
export function prepareFilesCore() {
  if (!warming) {
    warming = filesCore().then((core) => new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(() => warmUpStep(core, 0, resolve)));
    }));
    warming.catch(() => { warming = null; });
  }
  return warming;
}

/** Runs warm-up step `step` and the next in a later task, until the module's warmUpSteps. */
function warmUpStep(core, step, resolve) {
  if (step >= core.warmUpSteps) {
    resolve();
    return;
  }
  core.warmUp(step);
  setTimeout(() => warmUpStep(core, step + 1, resolve));
}
