// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
// What the page asks for every view: the estimate, the ranking and the lists, for task inference
// (api.hpp: estimate_inference). Serving and training are a second module's (bindings_tasks.cpp,
// llmsizer-tasks.js), and reading a dropped model file and loading a model from the Hugging Face hub
// a third's (bindings_model_files.cpp, llmsizer-files.js), each loaded by the page only when used:
// the linker then leaves the serving simulation, training's estimate and rankings, the GGUF and
// safetensors readers and the repository planning out of this one.
// Plain C functions (text_exports.hpp); wasm/text_exports.js names them for JavaScript: estimate,
// recommend, pageAnswer, listModels, listHardware, listOptions, listMessages.
#include <emscripten/emscripten.h>

#include "llmsizer/api.hpp"
#include "text_exports.hpp"

using llmsizer::wasm::TextAnswer;
using llmsizer::wasm::text_answer;
using llmsizer::wasm::text_listing;

extern "C" {

EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_estimate(const char* request, std::size_t size) {
  return text_answer<llmsizer::estimate_inference>(request, size);
}
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_recommend(const char* request, std::size_t size) {
  return text_answer<llmsizer::recommend_inference>(request, size);
}
// One edit's estimate, chart points, format rows and ranking in one call (api.hpp: page_answer).
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_page_answer(const char* request, std::size_t size) {
  return text_answer<llmsizer::page_answer_inference>(request, size);
}
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_list_models() { return text_listing<llmsizer::list_models>(); }
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_list_hardware() { return text_listing<llmsizer::list_hardware>(); }
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_list_options() { return text_listing<llmsizer::list_options>(); }
// The English of what this module's answers can say (the common table: wasm/CMakeLists.txt); the
// other modules list their own, which the page adds when it loads them (web/lib/i18n.js).
EMSCRIPTEN_KEEPALIVE const TextAnswer* llmsizer_list_messages() { return text_listing<llmsizer::list_messages>(); }

}  // extern "C"
