// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
// What the page asks for every view: the estimate, the ranking and the lists, for one model's
// inference (api.hpp: estimate_inference). Serving, training and models kept loaded side by side
// (`also_loaded`) are a second module's (bindings_tasks.cpp, llmsizer-tasks.js), and reading a dropped model file and loading a model from the Hugging Face hub
// a third's (bindings_model_files.cpp, llmsizer-files.js), each loaded by the page only when used:
// the linker then leaves the serving simulation, training's estimate and rankings, the set of models
// kept loaded together, the GGUF and safetensors readers and the repository planning out of this one.
#include <emscripten/bind.h>

#include "js_string.hpp"
#include "llmsizer/api.hpp"

using llmsizer::wasm::listing;

EMSCRIPTEN_BINDINGS(llmsizer) {
  emscripten::function("estimate", &llmsizer::wasm::answer<llmsizer::estimate_inference>);
  emscripten::function("recommend", &llmsizer::wasm::answer<llmsizer::recommend_inference>);
  // One edit's estimate, chart points, format rows and ranking in one call (api.hpp: page_answer).
  emscripten::function("pageAnswer", &llmsizer::wasm::answer<llmsizer::page_answer_inference>);
  emscripten::function("listModels", &listing<llmsizer::list_models>);
  emscripten::function("listHardware", &listing<llmsizer::list_hardware>);
  emscripten::function("listOptions", &listing<llmsizer::list_options>);
  // The English of what this module's answers can say (the common table: wasm/CMakeLists.txt); the
  // other modules list their own, which the page adds when it loads them (web/lib/i18n.js).
  emscripten::function("listMessages", &listing<llmsizer::list_messages>);
}
