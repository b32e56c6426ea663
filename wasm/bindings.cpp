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

// One edit's estimate, chart points, format rows and ranking in one call (api.hpp: page_answer).
LLMSIZER_TEXT_ANSWER_EXPORTS(llmsizer::estimate_inference, llmsizer::recommend_inference, llmsizer::page_answer_inference)
// The English of what this module's answers can say (the common table: wasm/CMakeLists.txt); the
// other modules list their own, which the page adds when it loads them (web/lib/i18n.js).
LLMSIZER_TEXT_MESSAGES_EXPORT

extern "C" {

EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_list_models() { return llmsizer::wasm::text_listing<llmsizer::list_models>(); }
EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_list_hardware() { return llmsizer::wasm::text_listing<llmsizer::list_hardware>(); }
EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_list_options() { return llmsizer::wasm::text_listing<llmsizer::list_options>(); }

}  // extern "C"
