// SPDX-License-Identifier: MIT
// The module the page loads when Serve or Train is chosen (llmsizer-tasks.js, web/lib/tasks_core.js):
// estimate, recommend and page_answer for every task, and for models kept loaded side by side. The
// page's own module (bindings.cpp) answers one model's inference alone, so that serving's simulation,
// training's estimate and rankings and the set of models kept loaded together are not part of the
// default page's download. Built from the same core with the same options (wasm/CMakeLists.txt);
// the lists (models, hardware, options) are the page's module's; its messages' listing adds serving's,
// training's and the set's English to the page's (web/lib/i18n.js addModuleMessages). Marshalling only: each
// entry points at the core's JSON edge (api.hpp), so the answers are byte-identical to the native CLI's.
#include <emscripten/bind.h>

#include "js_string.hpp"
#include "llmsizer/api.hpp"

EMSCRIPTEN_BINDINGS(llmsizer_tasks) {
  emscripten::function("estimate", &llmsizer::wasm::answer<llmsizer::estimate>);
  emscripten::function("recommend", &llmsizer::wasm::answer<llmsizer::recommend>);
  emscripten::function("pageAnswer", &llmsizer::wasm::answer<llmsizer::page_answer>);
  emscripten::function("listMessages", &llmsizer::wasm::listing<llmsizer::list_messages>);
}
