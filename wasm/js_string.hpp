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
 *  same: UTF-8 decoded as UTF-8, and a JSON answer holds no NUL.
 *  Two costs of Node 20 (v20.20.2) measured here (issue 20), both in the decoding, not in the core:
 *  text with any non-ASCII byte decodes about 7-10 times slower than ASCII (131 KB: 205-280 us with
 *  one "é", 22-35 us without), which is why answers are ASCII (core/src/json/json_writer.hpp); and a
 *  string above 128 KiB (V8's largest regular heap object) costs about 5.6 ns a byte however it is
 *  made (the 131.8 KB whole-catalog recommendation: 730-920 us, its first 131,000 bytes 39 us; a
 *  200 KB run of "x" 1.2 ms). Decoding in 64 KiB pieces joined by `+` moves that cost into the first
 *  JSON.parse (1.70 vs 1.77 ms for decode and parse), so it is not done: only a smaller answer helps. */
emscripten::val js_string(const std::string& text);

}  // namespace llmsizer::wasm
