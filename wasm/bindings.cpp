// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "js_string.hpp"
#include "llmsizer/api.hpp"

namespace {

/** inspect_model_file over the bytes of a JS Uint8Array (a File.slice the page read), copied into
 *  the module's memory by one TypedArray.set. Binding the std::string parameter directly made
 *  embind copy the bytes one element at a time in JS: 13-21 ms of the 39-58 ms a 3.9 MB GGUF
 *  header took under Node (measured as the same bytes with a first byte that ends the parse at
 *  once), against 0.6 ms this way. Anything else with a length and indexed bytes (an Array of
 *  numbers) is copied the same way; a value without a numeric length reads as no bytes. */
emscripten::val inspect_model_file_bytes(const emscripten::val& bytes, double file_size_bytes) {
  const emscripten::val length_value = bytes["length"];
  const double length = length_value.isNumber() ? length_value.as<double>() : 0.0;
  const std::size_t length_bytes = length > 0 ? static_cast<std::size_t>(length) : 0;
  std::unique_ptr<unsigned char[]> copy(new unsigned char[length_bytes == 0 ? 1 : length_bytes]);
  if (length_bytes > 0) {
    emscripten::val(emscripten::typed_memory_view(length_bytes, copy.get())).call<void>("set", bytes);
  }
  // The answer goes back as the other calls' do (js_string: one TextDecoder call).
  return llmsizer::wasm::js_string(llmsizer::inspect_model_file(std::string_view(reinterpret_cast<const char*>(copy.get()), length_bytes),
                                                                file_size_bytes));
}

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
  emscripten::function("inspectModelFile", &inspect_model_file_bytes);
  // A Hugging Face repository read by id (the page's "Load"): the model its headers give.
  emscripten::function("describeRepositoryModel", &llmsizer::describe_repository_model);
}
