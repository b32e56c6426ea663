// SPDX-License-Identifier: MIT
// The WebAssembly module's exports. Marshalling only: each entry points at the core's JSON edge
// (core/include/llmsizer/api.hpp), so the page gets byte-identical answers to the native CLI.
#include <emscripten/bind.h>

#include "llmsizer/api.hpp"

EMSCRIPTEN_BINDINGS(llmsizer) {
  emscripten::function("estimate", &llmsizer::estimate);
  emscripten::function("recommend", &llmsizer::recommend);
  emscripten::function("listModels", &llmsizer::list_models);
  emscripten::function("listHardware", &llmsizer::list_hardware);
  emscripten::function("listOptions", &llmsizer::list_options);
  emscripten::function("listMessages", &llmsizer::list_messages);
  // A Uint8Array passed from JS arrives as the raw bytes of the std::string (embind copies them).
  emscripten::function("inspectModelFile", &llmsizer::inspect_model_file);
  // A Hugging Face repository read by id (the page's "Load"): the model its headers give.
  emscripten::function("describeRepositoryModel", &llmsizer::describe_repository_model);
}
