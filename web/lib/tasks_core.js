// SPDX-License-Identifier: MIT
// The core's module for the Serve and Train tasks (llmsizer-tasks.js, built from
// wasm/bindings_tasks.cpp): estimate, recommend and pageAnswer for every task. The page's own module
// (llmsizer.js) answers inference alone, so that serving's simulation and training's estimate and
// rankings are not part of the default page's download: this one is loaded, once, the first time a
// request's task is serve or training (lib/session.js routes those calls to it).
import createTasksCore from '../llmsizer-tasks.js';

/** The module (a Promise). */
export function tasksCore() {
  return createTasksCore({
    // Its .wasm beside the page, as the page's own module (this file is bundled into another).
    instantiateWasm(imports, receive) {
      WebAssembly.instantiateStreaming(fetch('llmsizer-tasks.wasm', { credentials: 'same-origin' }), imports)
        .then((r) => receive(r.instance));
      return {};  // exports arrive through receive()
    },
  });
}
