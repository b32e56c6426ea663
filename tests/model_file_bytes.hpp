// SPDX-License-Identifier: MIT
#pragma once
// The bytes of model-file headers, for the tests that write their own files: GGUF v3
// (ggml-org/ggml docs/gguf.md: little-endian integers, u64-length-prefixed strings, 32-aligned
// tensor data) and safetensors (8-byte little-endian header length, then the JSON header, per the
// huggingface/safetensors README).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/ggml_types.hpp"
#include "llmsizer/model.hpp"

namespace model_file_bytes {

inline std::string le32(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return s;
}
inline std::string le64(std::uint64_t v) { return le32(static_cast<std::uint32_t>(v)) + le32(static_cast<std::uint32_t>(v >> 32)); }

/// Writes GGUF bytes: little-endian integers, u64-length-prefixed strings.
struct GgufBuilder {
  std::string out;

  GgufBuilder& raw(const std::string& s) { out += s; return *this; }
  GgufBuilder& u8(std::uint8_t v) { out.push_back(static_cast<char>(v)); return *this; }
  GgufBuilder& u32(std::uint32_t v) { return raw(le32(v)); }
  GgufBuilder& u64(std::uint64_t v) { return raw(le64(v)); }
  GgufBuilder& str(const std::string& s) { u64(s.size()); out += s; return *this; }
  GgufBuilder& header(std::uint64_t tensors, std::uint64_t kvs, std::uint32_t version = 3) {
    return raw("GGUF").u32(version).u64(tensors).u64(kvs);
  }
  GgufBuilder& kv_u32(const std::string& key, std::uint32_t v) { return str(key).u32(4).u32(v); }      // type 4: uint32
  GgufBuilder& kv_str(const std::string& key, const std::string& v) { return str(key).u32(8).str(v); }  // type 8: string
  GgufBuilder& kv_str_array(const std::string& key, const std::vector<std::string>& values) {
    str(key).u32(9).u32(8).u64(values.size());
    for (const auto& v : values) str(v);
    return *this;
  }
  GgufBuilder& tensor(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type, std::uint64_t offset) {
    str(name).u32(static_cast<std::uint32_t>(dims.size()));
    for (auto d : dims) u64(d);
    return u32(type).u64(offset);
  }
  /// Zero bytes up to the next multiple of 32 (GGUF's default general.alignment).
  GgufBuilder& align() {
    while (out.size() % 32 != 0) out += '\0';
    return *this;
  }
  /** The tensor infos of `tensors`, each at the 32-aligned offset after the one before and as many
   *  bytes as its type's blocks take (ggml_types.hpp), then the padding to the data section.
   *  Returns the data section's size. */
  std::uint64_t tensors(const std::vector<llmsizer::GgufTensor>& list) {
    std::uint64_t offset = 0;
    for (const auto& t : list) {
      const llmsizer::GgmlTypeInfo* type = llmsizer::ggml_type_by_name(t.type);
      tensor(t.name, std::vector<std::uint64_t>(t.shape.begin(), t.shape.end()), static_cast<std::uint32_t>(type->id), offset);
      std::int64_t elements = 1;
      for (const std::int64_t d : t.shape) elements *= d;
      offset = (offset + static_cast<std::uint64_t>(elements / type->block_elements * type->block_bytes) + 31) / 32 * 32;
    }
    align();
    return offset;
  }
};

/// The first bytes of a safetensors file: the JSON header's length, then the header.
inline std::string safetensors_header(const std::string& json) { return le64(json.size()) + json; }

}  // namespace model_file_bytes
