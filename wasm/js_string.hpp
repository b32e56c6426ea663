// SPDX-License-Identifier: MIT
#pragma once
// Answers handed to JavaScript (the page's module and the benchmark's).
#include <emscripten/val.h>

#include <string>

namespace llmsizer::wasm {

/** An answer as a JavaScript string, decoded by the host's TextDecoder straight from the module's
 *  memory. Embind's own std::string return walks the bytes twice in JavaScript (looking for NULs,
 *  then for the end) before decoding: about 14 ns a byte under Node 20, 2.8 ms of the 197 KB model
 *  listing and 1.8 ms of a whole-catalog recommendation (issue 20, bench/run.mjs). The text is the
 *  same: UTF-8 decoded as UTF-8, and a JSON answer holds no NUL. */
emscripten::val js_string(const std::string& text);

}  // namespace llmsizer::wasm
