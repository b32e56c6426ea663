// SPDX-License-Identifier: MIT
#pragma once
/// What the model-file header readers (gguf.hpp, safetensors.hpp) share: the "give me more bytes"
/// error a caller reading a slice of a file acts on, and the partial architecture a header reveals
/// (partial_architecture.hpp) as JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "llmsizer/error.hpp"
#include "llmsizer/partial_architecture.hpp"

namespace llmsizer {

/** The bytes given to a header reader are a valid start of the file, but end before the header
 *  does. Not a broken file: the caller (a browser reading `File.slice(0, n)`, the CLI reading a
 *  prefix) should read a longer prefix and call again.
 *  - `needed_bytes()`: a lower bound on the prefix length that gets the reader past the point
 *    where it stopped (for safetensors it is exact: 8 + header length). Read at least
 *    max(needed_bytes(), 2 × the prefix given) so a long GGUF vocabulary takes few round trips.
 *  - `parsed_bytes()`: how far the reader got before running out.
 *  Thrown only when the file size is unknown or larger than the prefix; when the file itself ends
 *  early the readers throw a plain InputError instead. `field()` is "file". */
class TruncatedInputError : public InputError {
 public:
  TruncatedInputError(std::string field, Message message, std::int64_t needed_bytes, std::int64_t parsed_bytes)
      : InputError(std::move(field), std::move(message)), needed_bytes_(needed_bytes), parsed_bytes_(parsed_bytes) {}
  std::int64_t needed_bytes() const noexcept { return needed_bytes_; }
  std::int64_t parsed_bytes() const noexcept { return parsed_bytes_; }

 private:
  std::int64_t needed_bytes_;
  std::int64_t parsed_bytes_;
};

/** The fields of `arch` that are known, under Hugging Face `config.json` names (`hidden_size`,
 *  `num_hidden_layers`, `num_key_value_heads`, ...) so a caller can pass it on as
 *  `{"model": {"config": ...}}`; `architecture` keeps the GGUF name. */
nlohmann::json partial_architecture_to_json(const PartialArchitecture& arch);

/** `{"error": {"field", "message"}}`, plus `needed_bytes` and `parsed_bytes` for a
 *  TruncatedInputError, so a page knows how much more of the file to read. */
nlohmann::json header_error_to_json(const InputError& error);

/** One entry point for the CLI and the page: detects the format of `bytes` (the first bytes of a
 *  file, or all of it) and returns its summary as a JSON string, never throwing:
 *  - "GGUF" magic → gguf_header_to_json;
 *  - a JSON object (first non-blank byte `{`, no NUL in the first 8) → safetensors_index_to_json (the whole index is
 *    needed: when `file_size_bytes` says there is more, the answer is a truncation error);
 *  - otherwise → safetensors_header_to_json.
 *  On failure: header_error_to_json, whose `needed_bytes` (for a truncation) says how many leading
 *  bytes to read before calling again. `file_size_bytes`: the whole file's size, or -1. */
std::string inspect_model_header(std::string_view bytes, std::int64_t file_size_bytes = -1);

/** inspect_model_header's answer as JSON, for callers that add to it (describe_model_file): the
 *  summary is not written out and parsed back (in WASM at -Oz that round trip was 40% of reading
 *  a 3.9 MB GGUF header). */
nlohmann::json inspect_model_header_json(std::string_view bytes, std::int64_t file_size_bytes = -1);

}  // namespace llmsizer
