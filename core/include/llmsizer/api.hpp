// SPDX-License-Identifier: MIT
#pragma once
/// The JSON edge (../shared/contract.md): one JSON request in, one JSON response out. The CLI and
/// the WASM module both call these, so their output is byte-identical by construction. None of
/// them throws: a bad request returns {"error": {"field": ..., "message": ...}}.
#include <string>

namespace llmsizer {

/// Memory (and, with `hardware`, fit and speed) for one request.
std::string estimate(const std::string& request_json);
/// Every catalog option for a request, ranked (contract: Recommendation).
std::string recommend(const std::string& request_json);
/// The model presets: {"schema_version": 1, "models": [...]}.
std::string list_models();
/// The hardware catalog: {"schema_version": 1, "hardware": [...]}.
std::string list_hardware();
/// The formats, engines and options the request accepts (for the page's menus).
std::string list_options();
/// Every message the core can say, as {"schema_version": 1, "messages": {id: English template}}:
/// the page's English string table for messages (web/i18n/messages.en.json is this, checked by a test).
std::string list_messages();

/** The summary of a model file from its first bytes (GGUF, safetensors, a safetensors index or a
 *  config.json): architecture, exact parameter count and weight bytes, or an error whose
 *  `needed_bytes` says how many leading bytes to read before calling again. `file_size_bytes`: the
 *  whole file's size, or -1. The page passes a File.slice() as raw bytes; nothing else of the file
 *  is read. The answer also holds `request_model` (put it in a request's "model" to estimate this
 *  file: exact parameter count and stored bytes), `resolved_model` (that model as an estimate's
 *  "model" describes it, with its features) and `warnings`. */
std::string inspect_model_file(const std::string& leading_bytes, double file_size_bytes);

/// True when `response_json` is an error response (the CLI maps it to exit code 2).
bool is_error_response(const std::string& response_json);

}  // namespace llmsizer
