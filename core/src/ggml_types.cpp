// SPDX-License-Identifier: MIT
#include "llmsizer/ggml_types.hpp"

#include <algorithm>
#include <cctype>

namespace llmsizer {

const GgmlTypeInfo* ggml_type_info(int id) {
  for (const auto& t : kGgmlTypes) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

const GgmlTypeInfo& ggml_type(GgmlType type) {
  const GgmlTypeInfo* info = ggml_type_info(static_cast<int>(type));
  return info != nullptr ? *info : kGgmlTypes[0];
}

const GgmlTypeInfo* ggml_type_by_name(std::string_view name) {
  // Exact (upper-case) names first: the quantization tables look types up per tensor.
  for (const auto& t : kGgmlTypes) {
    if (t.name == name) return &t;
  }
  for (const auto& t : kGgmlTypes) {
    if (t.name.size() == name.size() &&
        std::equal(t.name.begin(), t.name.end(), name.begin(), [](char a, char b) {
          return std::toupper(static_cast<unsigned char>(a)) == std::toupper(static_cast<unsigned char>(b));
        })) {
      return &t;
    }
  }
  return nullptr;
}

}  // namespace llmsizer
