// SPDX-License-Identifier: MIT
#pragma once
// Answers handed to JavaScript (the page's module and the benchmark's).
#include <emscripten/val.h>

#include <string>

namespace llmsizer::wasm {

/** An answer as a JavaScript string, decoded by the host's TextDecoder straight from the module's
 *  memory. Embind's own std::string return walks the bytes twice in JavaScript (looking for NULs,
 *  then for the end) before decoding. The text is the same: UTF-8 decoded as UTF-8, and a JSON
 *  answer holds no NUL.
 *  Two costs of the host's decoding, not of the core (bench/results/wasm-build-options.md has the measurements
 *  under Node 20): text with any non-ASCII byte decodes several times slower than ASCII, which is why
 *  answers are ASCII (core/src/edge/answer/json_writer.hpp); and a string above 128 KiB (V8's largest
 *  regular heap object) costs per byte however it is made. Decoding in 64 KiB pieces joined by `+`
 *  moves that cost into the first JSON.parse, so it is not done: only a smaller answer helps. */
emscripten::val js_string(const std::string& text);

/// A JSON entry point of the core (api.hpp) as a module's export: the request in, its answer out as
/// a JavaScript string.
template <std::string (*entry)(const std::string&)>
emscripten::val answer(const std::string& request) {
  return js_string(entry(request));
}

/// A listing of the core (api.hpp list_*: each made once, the data never change) as a module's export,
/// decoded once, then the same JavaScript string every call (decoding a listing again costs more
/// than the call).
template <std::string (*list)()>
emscripten::val listing() {
  static const emscripten::val text = js_string(list());
  return text;
}

}  // namespace llmsizer::wasm
