// SPDX-License-Identifier: MIT
// The benchmark's WebAssembly module (build/wasm/bench/llmsizer-bench.js; bench/run.mjs), not the
// page's: the same core with the one call the page has no use for, a recommendation against the
// catalog grown ten-fold (grown_catalog.hpp), answered as the page's module answers.
#include <emscripten/bind.h>

#include "grown_catalog.hpp"
#include "js_string.hpp"
#include "llmsizer/api.hpp"
#include "llmsizer/embedded_catalog.hpp"

namespace {

emscripten::val recommend_grown(const std::string& request) {
  static const llmsizer::bench::GrownCatalog grown(llmsizer::embedded_catalog(), 10);
  return llmsizer::wasm::js_string(llmsizer::recommend(request, grown));
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmsizer_bench) { emscripten::function("recommendGrown", &recommend_grown); }
