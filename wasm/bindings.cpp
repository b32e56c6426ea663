// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
#include <emscripten/bind.h>

#include "js_string.hpp"
#include "llmsizer/api.hpp"

namespace {

using emscripten::val;
using llmsizer::wasm::js_string;

val estimate(const std::string& request) { return js_string(llmsizer::estimate(request)); }
val recommend(const std::string& request) { return js_string(llmsizer::recommend(request)); }

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
  emscripten::function("listModels", &listing<llmsizer::list_models>);
  emscripten::function("listHardware", &listing<llmsizer::list_hardware>);
  emscripten::function("listOptions", &listing<llmsizer::list_options>);
  emscripten::function("listMessages", &listing<llmsizer::list_messages>);
  // A Uint8Array passed from JS arrives as the raw bytes of the std::string (embind copies them).
  emscripten::function("inspectModelFile", &llmsizer::inspect_model_file);
  // A Hugging Face repository read by id (the page's "Load"): the model its headers give.
  emscripten::function("describeRepositoryModel", &llmsizer::describe_repository_model);
}
