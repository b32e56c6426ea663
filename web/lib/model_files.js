// SPDX-License-Identifier: MIT
// The core's second module (llmsizer-files.js, built from wasm/bindings_model_files.cpp): a dropped
// model file's header (inspectModelFile, nextHeaderRead) and a model loaded from the Hugging Face hub
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
