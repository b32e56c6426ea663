// SPDX-License-Identifier: MIT
#include "js_string.hpp"

#include <emscripten/emscripten.h>

#include <cstddef>

// A few lines of JavaScript rather than emscripten::val's calls by name (val::global(...).new_(),
// .call(...)): those bring 1 KB more of loader code (gzipped) into a page that counts its bytes.
// clang-format off
EM_JS(emscripten::EM_VAL, llmsizer_decode_utf8, (const char* text, std::size_t size), {
  return Emval.toHandle(new TextDecoder().decode(HEAPU8.subarray(text, text + size)));
});
// clang-format on

namespace llmsizer::wasm {

emscripten::val js_string(const std::string& text) {
  return emscripten::val::take_ownership(llmsizer_decode_utf8(text.data(), text.size()));
}

}  // namespace llmsizer::wasm
