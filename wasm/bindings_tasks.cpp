// SPDX-License-Identifier: MIT
// The module the page loads when Serve or Train is chosen (llmsizer-tasks.js, web/lib/tasks_core.js):
// estimate, recommend and page_answer for every task. The page's own module (bindings.cpp) answers
// inference alone, so that serving's simulation and training's estimate and rankings are not part of
// the default page's download. Built from the same core with the same options (wasm/CMakeLists.txt);
// the lists (models, hardware, options) are the page's module's; its messages' listing adds serving's
// and training's English to the page's (web/lib/i18n.js addModuleMessages). Marshalling only: each
// entry points at the core's JSON edge (api.hpp), so the answers are byte-identical to the native CLI's.
// Plain C functions, named for JavaScript by wasm/text_exports.js, as the page's module's are.
#include <emscripten/emscripten.h>

#include "llmsizer/api.hpp"
#include "text_exports.hpp"

using llmsizer::wasm::TextAnswer;
using llmsizer::wasm::text_answer;
using llmsizer::wasm::text_listing;

extern "C" {

EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_estimate(const char* request, std::size_t size) {
  return text_answer<llmsizer::estimate>(request, size);
}
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_recommend(const char* request, std::size_t size) {
  return text_answer<llmsizer::recommend>(request, size);
}
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_page_answer(const char* request, std::size_t size) {
  return text_answer<llmsizer::page_answer>(request, size);
}
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_list_messages() { return text_listing<llmsizer::list_messages>(); }

}  // extern "C"
