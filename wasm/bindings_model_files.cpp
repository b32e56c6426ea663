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

#include <algorithm>
#include <cstddef>
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

/** A file's leading bytes as the page reads them, slice after slice (web/lib/import.js importFile),
 *  held in the module's memory: each slice is copied in once, by one TypedArray.set, and each
 *  inspection reads the bytes where they are, instead of the whole prefix copied in again on every
 *  round. The page deletes it after the last inspection (embind's delete()). */
class ModelFileHeader {
 public:
  /// Appends the next bytes of the file (a Uint8Array, or anything inspectModelFile copies); returns
  /// how many bytes are held.
  double append(const val& more) {
    const val length_value = more["length"];
    const double length = length_value.isNumber() ? length_value.as<double>() : 0.0;
    const std::size_t n = length > 0 ? static_cast<std::size_t>(length) : 0;
    if (n > capacity_ - size_) grow(size_ + n);
    if (n > 0) val(emscripten::typed_memory_view(n, data_.get() + size_)).call<void>("set", more);
    size_ += n;
    return static_cast<double>(size_);
  }
  /// inspectModelFile's answer for the bytes held so far.
  val inspect(double file_size_bytes) const {
    return js_string(llmsizer::inspect_model_file(std::string_view(reinterpret_cast<const char*>(data_.get()), size_), file_size_bytes));
  }

 private:
  /// Room for at least `needed` bytes, at least doubling (the page's reads at least double). The
  /// bytes held move by TypedArray.set and the new room is not cleared: the -Oz build's memcpy and
  /// memset go a byte at a time (Emscripten's emscripten_memcpy.c under EMSCRIPTEN_OPTIMIZE_FOR_OZ).
  void grow(std::size_t needed) {
    const std::size_t capacity = std::max(needed, 2 * capacity_);
    std::unique_ptr<unsigned char[]> data(new unsigned char[capacity]);
    if (size_ > 0) {
      val(emscripten::typed_memory_view(size_, data.get())).call<void>("set", val(emscripten::typed_memory_view(size_, data_.get())));
    }
    data_ = std::move(data);
    capacity_ = capacity;
  }

  std::unique_ptr<unsigned char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

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

/** The page's warm-up, one step per task (lib/model_files.js prepareFilesCore): steps before
 *  kModelFileReaderWarmUpRounds each run one round of warm_up_model_file_reader; the last writes
 *  kModelFileReaderWarmUpRoomBytes once and gives them back to the allocator, which hands them out
 *  again (api.hpp says why). True when the step's reads were answered as a real file's would be. */
bool warm_up(int step) {
  if (step >= 0 && step < llmsizer::kModelFileReaderWarmUpRounds) return llmsizer::warm_up_model_file_reader(1);
  std::unique_ptr<unsigned char[]> room(new unsigned char[llmsizer::kModelFileReaderWarmUpRoomBytes]);
  // TypedArray.fill, not memset: the -Oz build's memset writes a byte at a time (emscripten_memset.c).
  val(emscripten::typed_memory_view(llmsizer::kModelFileReaderWarmUpRoomBytes, room.get())).call<void>("fill", 0);
  return true;
}

bool valid_repo_id(const std::string& id) { return llmsizer::valid_repo_id(id); }

/// hub_repository.hpp hub_failure, by name ("gated", "repository_not_found", ...).
val hub_failure(int http_status, const std::string& error_code, bool gated, bool file_asked) {
  return val(llmsizer::hub_failure_name(llmsizer::hub_failure(http_status, error_code, gated, file_asked)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmsizer_model_files) {
  emscripten::function("inspectModelFile", &inspect_model_file_bytes);
  emscripten::function("warmUp", &warm_up);
  emscripten::constant("warmUpSteps", llmsizer::kModelFileReaderWarmUpSteps);
  emscripten::class_<ModelFileHeader>("ModelFileHeader")
      .constructor<>()
      .function("append", &ModelFileHeader::append)
      .function("inspect", &ModelFileHeader::inspect);
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
