// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
// What the page asks for every view: the estimate, the ranking and the lists. Reading a dropped
// model file and loading a model from the Hugging Face hub are a second module's exports
// (bindings_model_files.cpp, llmsizer-files.js), which the page loads only when they are used: the
// linker then leaves the GGUF and safetensors readers and the repository planning out of this one.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "js_string.hpp"
#include "llmsizer/api.hpp"

namespace {

using emscripten::val;
using llmsizer::wasm::js_string;

val estimate(const std::string& request) { return js_string(llmsizer::estimate(request)); }
val recommend(const std::string& request) { return js_string(llmsizer::recommend(request)); }
val page_answer(const std::string& request) { return js_string(llmsizer::page_answer(request)); }

/// A listing (the core makes each once: the data never change), decoded once, then the same
/// JavaScript string every call (listModels, 197 KB: 0.75 ms to decode again).
template <std::string (*list)()>
val listing() {
  static const val text = js_string(list());
  return text;
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmsizer) {
  emscripten::function("estimate", &estimate);
  emscripten::function("recommend", &recommend);
  // One edit's estimate, chart points, format rows and ranking in one call (api.hpp: page_answer).
  emscripten::function("pageAnswer", &page_answer);
  emscripten::function("listModels", &listing<llmsizer::list_models>);
  emscripten::function("listHardware", &listing<llmsizer::list_hardware>);
  emscripten::function("listOptions", &listing<llmsizer::list_options>);
  emscripten::function("listMessages", &listing<llmsizer::list_messages>);
}
