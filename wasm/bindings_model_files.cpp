// SPDX-License-Identifier: MIT
// The second WebAssembly module's exports (llmsizer-files.js): a dropped model file's header read
// (GGUF, safetensors, config.json) and a model loaded from the Hugging Face hub by its id, the two
// things the page does only when someone asks. Built from the same core as the page's module
// (bindings.cpp), with the same options (wasm/CMakeLists.txt); the page loads it on the first drop or
// Load (web/lib/model_files.js) and asks the page's module for the estimate of the model it read.
// Marshalling only: each entry points at the core (api.hpp, header_read.hpp, hub_repository.hpp), so
// the answers are byte-identical to the native CLI's.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "js_string.hpp"
#include "llmsizer/api.hpp"
#include "llmsizer/header_read.hpp"
#include "llmsizer/hub_repository.hpp"

namespace {

/** inspect_model_file over the bytes of a JS Uint8Array (a File.slice the page read), copied into
 *  the module's memory by one TypedArray.set: a std::string parameter would make embind copy the
 *  bytes one element at a time in JS (bench/results/wasm-build-options.md has the measurement).
 *  Anything else with a length and indexed bytes (an Array of numbers) is copied the same way; a
 *  value without a numeric length reads as no bytes. */
emscripten::val inspect_model_file_bytes(const emscripten::val& bytes, double file_size_bytes) {
  const emscripten::val length_value = bytes["length"];
  const double length = length_value.isNumber() ? length_value.as<double>() : 0.0;
  const std::size_t length_bytes = length > 0 ? static_cast<std::size_t>(length) : 0;
  std::unique_ptr<unsigned char[]> copy(new unsigned char[length_bytes == 0 ? 1 : length_bytes]);
  if (length_bytes > 0) {
    emscripten::val(emscripten::typed_memory_view(length_bytes, copy.get())).call<void>("set", bytes);
  }
  // The answer goes back as the other calls' do (js_string: one TextDecoder call).
  return llmsizer::wasm::js_string(llmsizer::inspect_model_file(std::string_view(reinterpret_cast<const char*>(copy.get()), length_bytes),
                                                                file_size_bytes));
}

using emscripten::val;
using llmsizer::wasm::js_string;

val plan_repository(const std::string& listing_json, const std::string& chosen_file) {
  return js_string(llmsizer::plan_repository(listing_json, chosen_file));
}

/// A byte count from a JS number: a whole number within ±2^53 as it is, anything else `otherwise`.
std::int64_t byte_count(double value, std::int64_t otherwise) {
  constexpr double kMaxExact = 9007199254740992.0;  // 2^53, Number.MAX_SAFE_INTEGER + 1
  return value >= -kMaxExact && value <= kMaxExact ? static_cast<std::int64_t>(value) : otherwise;
}

/// header_read.hpp next_header_read as {step: "read"|"answered"|"too_long", bytes}.
val next_header_read(double read_bytes, double needed_bytes, double file_size_bytes) {
  const llmsizer::HeaderRead next =
      llmsizer::next_header_read(byte_count(read_bytes, 0), byte_count(needed_bytes, 0), byte_count(file_size_bytes, -1));
  val out = val::object();
  out.set("step", val(llmsizer::header_read_step_name(next.step)));
  out.set("bytes", val(static_cast<double>(next.bytes)));
  return out;
}

bool valid_repo_id(const std::string& id) { return llmsizer::valid_repo_id(id); }

/// hub_repository.hpp hub_failure, by name ("gated", "repository_not_found", ...).
val hub_failure(int http_status, const std::string& error_code, bool gated, bool file_asked) {
  return val(llmsizer::hub_failure_name(llmsizer::hub_failure(http_status, error_code, gated, file_asked)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmsizer_model_files) {
  emscripten::function("inspectModelFile", &inspect_model_file_bytes);
  emscripten::function("warmUp", &llmsizer::warm_up_model_file_reader);
  // A Hugging Face repository read by id (the page's "Load"): the model its headers give.
  emscripten::function("describeRepositoryModel", &llmsizer::describe_repository_model);
  // Its rules, shared with the CLI's reader: which files to read, how much of each header, which
  // ids the Hub accepts, what a failed answer means.
  emscripten::function("planRepository", &plan_repository);
  emscripten::function("nextHeaderRead", &next_header_read);
  emscripten::constant("maxWholeFileBytes", static_cast<double>(llmsizer::kMaxWholeFileBytes));
  emscripten::function("validRepoId", &valid_repo_id);
  emscripten::function("hubFailure", &hub_failure);
  // The English of what this module's answers can say, the model files' readers' with the common
  // table (wasm/CMakeLists.txt), which the page adds to its own when it loads this module
  // (web/lib/i18n.js addModuleMessages).
  emscripten::function("listMessages", &llmsizer::wasm::listing<llmsizer::list_messages>);
}
