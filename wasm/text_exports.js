// SPDX-License-Identifier: MIT
// Linked into the page's and the tasks' modules with --post-js (wasm/CMakeLists.txt): runs inside
// Emscripten's module factory, where Module, HEAPU8, HEAPU32, _malloc and _free are the module's own.
// Names the C exports of wasm/bindings.cpp and wasm/bindings_tasks.cpp for JavaScript, each taking
// and returning a string, the methods the page, the prerender and the tests call
// (core.estimate(requestText), core.listMessages(), ...). A module defines the methods of the exports
// it has.

/** The answer at `at` (text_exports.hpp TextAnswer: the bytes' address and size, two 32-bit words),
 *  decoded by one TextDecoder call straight from the module's memory. Read after the call, which may
 *  have grown the memory (HEAPU8 is then the new view). */
function llmsizerAnswerText(at) {
  const data = HEAPU32[at >> 2];
  return new TextDecoder().decode(HEAPU8.subarray(data, data + HEAPU32[(at >> 2) + 1]));
}

/** `entry` over `text` as UTF-8: encoded straight into the module's memory (at most 3 bytes per
 *  UTF-16 code unit), freed after the call. */
function llmsizerTextCall(entry, text) {
  text = String(text);
  const room = text.length * 3 + 1;
  const at = _malloc(room);
  try {
    const { written } = new TextEncoder().encodeInto(text, HEAPU8.subarray(at, at + room));
    return llmsizerAnswerText(entry(at, written));
  } finally {
    _free(at);
  }
}

for (const [method, name, takesText] of [
  ['estimate', '_llmsizer_estimate', true],
  ['recommend', '_llmsizer_recommend', true],
  ['pageAnswer', '_llmsizer_page_answer', true],
  ['listModels', '_llmsizer_list_models', false],
  ['listHardware', '_llmsizer_list_hardware', false],
  ['listOptions', '_llmsizer_list_options', false],
  ['listMessages', '_llmsizer_list_messages', false],
]) {
  if (typeof Module[name] !== 'function') continue;
  // Module[name] read at each call: Emscripten replaces its first wrapper by the export itself.
  // A listing never changes (text_exports.hpp text_listing): decoded once, the same string after.
  let listing;
  Module[method] = takesText ? (text) => llmsizerTextCall((at, size) => Module[name](at, size), text)
    : () => (listing === undefined ? (listing = llmsizerAnswerText(Module[name]())) : listing);
}
