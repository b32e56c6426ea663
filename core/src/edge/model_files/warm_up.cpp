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

bool warm_up_model_file_reader(int rounds) {
  constexpr std::uint32_t kF32 = 0;
  constexpr std::uint32_t kQ4K = 12;
  // As many layers and tensors per layer as the checkpoints people drop (Qwen2.5-7B: 28 layers;
  // per layer two norms, q/k/v with biases, o, gate, up, down: tests/js/gguf_fixture.mjs), so that
  // the loops over tensors and the answer's tensor list run as often as for a real file.
  constexpr std::uint32_t kLayers = 28;
  constexpr std::uint64_t kWidth = 256, kKv = 64, kFf = 512;
  constexpr std::uint64_t kTokens = 2000;
  GgufBytes b;
  b.u32(0x46554747).u32(3).u64(3 + 12 * kLayers).u64(10);  // "GGUF", version 3, tensors, 10 key/values
  b.key_str("general.architecture", "qwen2").key_str("general.name", "warm-up").key_u32("general.file_type", 15);
  b.key_u32("qwen2.context_length", 4096).key_u32("qwen2.embedding_length", kWidth).key_u32("qwen2.block_count", kLayers);
  b.key_u32("qwen2.feed_forward_length", kFf).key_u32("qwen2.attention.head_count", 4);
  b.key_u32("qwen2.attention.head_count_kv", 1);
  b.str("tokenizer.ggml.tokens").u32(9).u32(8).u64(kTokens);  // an array (9) of strings (8)
  for (std::uint64_t i = 0; i < kTokens; ++i) b.str("t" + std::to_string(i));
  // Data bytes (ggml: Q4_K 144 per 256 weights, F32 4 per weight), each a multiple of the 32-byte
  // alignment so that each tensor starts where the last ends.
  std::uint64_t offset = 0;
  auto tensor = [&](const std::string& name, std::uint64_t d0, std::uint64_t d1, std::uint32_t type) {
    b.tensor(name, d0, d1, type, offset);
    offset += type == kQ4K ? d0 / 256 * 144 * d1 : 4 * d0;
  };
  tensor("token_embd.weight", kWidth, kTokens, kQ4K);
  for (std::uint32_t l = 0; l < kLayers; ++l) {
    const std::string layer = "blk." + std::to_string(l) + ".";
    tensor(layer + "attn_norm.weight", kWidth, 0, kF32);
    tensor(layer + "attn_q.weight", kWidth, kWidth, kQ4K);
    tensor(layer + "attn_q.bias", kWidth, 0, kF32);
    tensor(layer + "attn_k.weight", kWidth, kKv, kQ4K);
    tensor(layer + "attn_k.bias", kKv, 0, kF32);
    tensor(layer + "attn_v.weight", kWidth, kKv, kQ4K);
    tensor(layer + "attn_v.bias", kKv, 0, kF32);
    tensor(layer + "attn_output.weight", kWidth, kWidth, kQ4K);
    tensor(layer + "ffn_norm.weight", kWidth, 0, kF32);
    tensor(layer + "ffn_gate.weight", kWidth, kFf, kQ4K);
    tensor(layer + "ffn_up.weight", kWidth, kFf, kQ4K);
    tensor(layer + "ffn_down.weight", kFf, kWidth, kQ4K);
  }
  tensor("output_norm.weight", kWidth, 0, kF32);
  tensor("output.weight", kWidth, kTokens, kQ4K);
  const std::string header = b.take();
  const double file_size = static_cast<double>(header.size() + offset);
  bool answered = true;
  for (int i = 0; i < rounds; ++i) {
    // A prefix that ends inside the vocabulary first, as the page's first reads of a large header
    // do (an error asking for more bytes), then the whole header.
    const std::string truncated = inspect_model_file(std::string_view(header).substr(0, header.size() / 4), file_size);
    answered = is_error_response(truncated) && truncated.find("\"needed_bytes\"") != std::string::npos && answered;
    answered = !is_error_response(inspect_model_file(header, file_size)) && answered;
  }
  return answered;
}

}  // namespace llmsizer
