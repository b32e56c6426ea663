// SPDX-License-Identifier: MIT
#pragma once
// The page's and the tasks' modules export plain C functions, text in and text out, which
// wasm/text_exports.js (linked with --post-js) wraps as the module's estimate, recommend, ... methods.
// Without embind the module carries none of its type registry, in the .wasm or in the loader: the
// page's download is measured in bytes (tests/js/page_size.mjs), and these calls pass one string each way.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>

namespace llmsizer::wasm {

/// An answer's bytes where JavaScript reads them: `data` and `size` as two 32-bit words.
struct TextAnswer {
  const char* data;
  std::size_t size;
};

/** `entry` over the request's UTF-8 bytes. The answer stays in the module's memory until the next
 *  call, which is when the wrapper has decoded it (one TextDecoder call, as js_string.hpp explains). */
template <std::string (*entry)(const std::string&)>
const TextAnswer* text_answer(const char* request, std::size_t size) {
  static std::string text;
  static TextAnswer answer;
  text = entry(std::string(request, size));
  answer = {text.data(), text.size()};
  return &answer;
}

/// A listing, computed once: the same text every call.
template <std::string (*list)()>
const TextAnswer* text_listing() {
  static const std::string text = list();
  static const TextAnswer answer{text.data(), text.size()};
  return &answer;
}

}  // namespace llmsizer::wasm

/// The exports llmsizer_estimate, llmsizer_recommend and llmsizer_page_answer, over the core's entry
/// points ESTIMATE, RECOMMEND and PAGE_ANSWER (api.hpp), for wasm/text_exports.js to name.
#define LLMSIZER_TEXT_ANSWER_EXPORTS(ESTIMATE, RECOMMEND, PAGE_ANSWER)                                            \
  extern "C" EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_estimate(const char* r, std::size_t n) {    \
    return llmsizer::wasm::text_answer<ESTIMATE>(r, n);                                                           \
  }                                                                                                              \
  extern "C" EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_recommend(const char* r, std::size_t n) {   \
    return llmsizer::wasm::text_answer<RECOMMEND>(r, n);                                                          \
  }                                                                                                              \
  extern "C" EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_page_answer(const char* r, std::size_t n) { \
    return llmsizer::wasm::text_answer<PAGE_ANSWER>(r, n);                                                        \
  }

/// The export llmsizer_list_messages: the English of what the module's answers can say.
#define LLMSIZER_TEXT_MESSAGES_EXPORT                                              \
  extern "C" EMSCRIPTEN_KEEPALIVE const llmsizer::wasm::TextAnswer* llmsizer_list_messages() { \
    return llmsizer::wasm::text_listing<llmsizer::list_messages>();               \
  }
