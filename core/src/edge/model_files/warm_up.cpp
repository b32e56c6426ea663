// SPDX-License-Identifier: MIT
// A built-in GGUF header read through the dropped file's whole path, so that a page's engine has
// compiled that path before the first real file (api.hpp warm_up_model_file_reader).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "llmsizer/api.hpp"

namespace llmsizer {
namespace {

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

}  // namespace

bool warm_up_model_file_reader() {
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
    answered = !is_error_response(inspect_model_file(header, static_cast<double>(header.size() + offset))) && answered;
  }
  return answered;
}


}  // namespace llmsizer
