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
#include <utility>

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

/// Little-endian GGUF v3 bytes (ggml-org/ggml docs/gguf.md: u64 counts and string lengths, u32 value
/// types, tensor data aligned to 32 bytes), for warm_up's header.
class GgufBytes {
 public:
  GgufBytes& u32(std::uint32_t v) { return little_endian(v, 4); }
  GgufBytes& u64(std::uint64_t v) { return little_endian(v, 8); }
  GgufBytes& str(std::string_view s) {
    u64(s.size());
    bytes_.append(s);
    return *this;
  }
  // gguf.md gguf_metadata_value_type: UINT32 = 4, STRING = 8, ARRAY = 9.
  GgufBytes& key_u32(std::string_view key, std::uint32_t v) { return str(key).u32(4).u32(v); }
  GgufBytes& key_str(std::string_view key, std::string_view v) { return str(key).u32(8).str(v); }
  /// A tensor info: its name, dims (innermost first), ggml type and data offset.
  GgufBytes& tensor(std::string_view name, std::uint64_t d0, std::uint64_t d1, std::uint32_t type, std::uint64_t offset) {
    str(name).u32(d1 == 0 ? 1 : 2).u64(d0);
    if (d1 != 0) u64(d1);
    return u32(type).u64(offset);
  }
  std::string take() {
    bytes_.resize((bytes_.size() + 31) / 32 * 32, '\0');
    return std::move(bytes_);
  }

 private:
  GgufBytes& little_endian(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  std::string bytes_;
};

/** Reads a small quantized GGUF header through inspect_model_file, the whole of a dropped file's path
 *  (its metadata, a vocabulary walked string by string, tensor infos, then the answer's summary and
 *  model), a few times, and returns whether it was answered. The page calls it while it waits for a
 *  person's drop (its module loaded when a file is dragged over the page or its file input is
 *  reached: lib/model_files.js), so that the engine has compiled that path, and optimized its loops,
 *  before the first real file: a first read in a module that has run none of it takes several times
 *  its later reads (bench/results/history.md has the measurements that set the vocabulary's size and
 *  the number of reads). Its header: a four-layer llama of width 256 in Q4_K (ggml: 144 bytes per 256
 *  weights) with F32 norms and a 20,000-token vocabulary, 270 KB. */
bool warm_up() {
  constexpr std::uint32_t kF32 = 0;
  constexpr std::uint32_t kQ4K = 12;
  constexpr std::uint32_t kLayers = 4;
  constexpr std::uint64_t kTokens = 20000;
  constexpr int kReads = 5;
  GgufBytes b;
  b.u32(0x46554747).u32(3).u64(2 + 3 * kLayers).u64(10);  // "GGUF", version 3, tensors, 10 key/values
  b.key_str("general.architecture", "llama").key_str("general.name", "warm-up").key_u32("general.file_type", 15);
  b.key_u32("llama.context_length", 4096).key_u32("llama.embedding_length", 256).key_u32("llama.block_count", kLayers);
  b.key_u32("llama.feed_forward_length", 512).key_u32("llama.attention.head_count", 4);
  b.key_u32("llama.attention.head_count_kv", 4);
  b.str("tokenizer.ggml.tokens").u32(9).u32(8).u64(kTokens);  // an array (9) of strings (8)
  for (std::uint64_t i = 0; i < kTokens; ++i) b.str("t" + std::to_string(i));
  // Data bytes, each a multiple of the 32-byte alignment so that each tensor starts where the last
  // ends: [256, 2] Q4_K 288, [256] F32 1,024, [256, 256] Q4_K 36,864, [256, 512] Q4_K 73,728.
  std::uint64_t offset = 0;
  auto tensor = [&](const std::string& name, std::uint64_t d0, std::uint64_t d1, std::uint32_t type, std::uint64_t bytes) {
    b.tensor(name, d0, d1, type, offset);
    offset += bytes;
  };
  tensor("token_embd.weight", 256, 2, kQ4K, 288);
  for (std::uint32_t l = 0; l < kLayers; ++l) {
    const std::string layer = "blk." + std::to_string(l) + ".";
    tensor(layer + "attn_norm.weight", 256, 0, kF32, 1024);
    tensor(layer + "attn_q.weight", 256, 256, kQ4K, 36864);
    tensor(layer + "ffn_up.weight", 256, 512, kQ4K, 73728);
  }
  tensor("output.weight", 256, 2, kQ4K, 288);
  const std::string header = b.take();
  bool answered = true;
  for (int i = 0; i < kReads; ++i) {
    answered = !llmsizer::is_error_response(llmsizer::inspect_model_file(header, static_cast<double>(header.size() + offset))) && answered;
  }
  return answered;
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmsizer_model_files) {
  emscripten::function("inspectModelFile", &inspect_model_file_bytes);
  emscripten::function("warmUp", &warm_up);
  // A Hugging Face repository read by id (the page's "Load"): the model its headers give.
  emscripten::function("describeRepositoryModel", &llmsizer::describe_repository_model);
  // Its rules, shared with the CLI's reader: which files to read, how much of each header, which
  // ids the Hub accepts, what a failed answer means.
  emscripten::function("planRepository", &plan_repository);
  emscripten::function("nextHeaderRead", &next_header_read);
  emscripten::constant("maxWholeFileBytes", static_cast<double>(llmsizer::kMaxWholeFileBytes));
  emscripten::function("validRepoId", &valid_repo_id);
  emscripten::function("hubFailure", &hub_failure);
}
