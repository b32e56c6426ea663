// SPDX-License-Identifier: MIT
#include "llmsizer/precision.hpp"

#include <iterator>

namespace llmsizer {
namespace {

// Bytes per parameter of the plain formats: the source article's table (FP32 4 GB, FP16/BF16 2 GB,
// INT8 1 GB, INT4 0.5 GB per billion parameters), which is IEEE 754 binary32/binary16, bfloat16 and
// 8/4-bit integers. FP8: OCP 8-bit Floating Point Specification (OFP8) rev 1.0, 2023 (E4M3, E5M2).
constexpr WeightFormat kWeightFormats[] = {
    {"fp32", "FP32 (single precision)", "generic", 1, 4, "IEEE 754 binary32; article table: 4 GB per 1B params"},
    {"fp16", "FP16 (half precision)", "generic", 1, 2, "IEEE 754 binary16; article table: 2 GB per 1B params"},
    {"bf16", "BF16 (bfloat16)", "generic", 1, 2, "bfloat16 (8-bit exponent, 7-bit mantissa); article table: 2 GB per 1B params"},
    {"fp8", "FP8 (E4M3, per-tensor scale)", "generic", 1, 1, "OCP OFP8 spec rev 1.0 (2023): 1 byte per value"},
    {"int8", "INT8 (weight-only)", "generic", 1, 1, "article table: 1 GB per 1B params"},
    {"int4", "INT4 (weight-only)", "generic", 2, 1, "article table: 0.5 GB per 1B params"},
};

// KV cache element types. q8_0/q4_0: ggml block layouts (32 values with one fp16 scale:
// 34 and 18 bytes), ggml/src/ggml-common.h block_q8_0 / block_q4_0.
constexpr KvCacheFormat kKvCacheFormats[] = {
    {"fp32", "FP32", 1, 4, "IEEE 754 binary32"},
    {"fp16", "FP16", 1, 2, "IEEE 754 binary16"},
    {"bf16", "BF16", 1, 2, "bfloat16"},
    {"fp8", "FP8 (E4M3/E5M2)", 1, 1, "OCP OFP8 spec rev 1.0; vLLM --kv-cache-dtype fp8"},
    {"q8_0", "Q8_0 (llama.cpp)", 32, 34, "ggml block_q8_0: fp16 scale + 32 int8"},
    {"q4_0", "Q4_0 (llama.cpp)", 32, 18, "ggml block_q4_0: fp16 scale + 32 4-bit"},
};

}  // namespace

const WeightFormat* weight_formats_begin() { return std::begin(kWeightFormats); }
const WeightFormat* weight_formats_end() { return std::end(kWeightFormats); }

const WeightFormat* find_weight_format(std::string_view id) {
  for (const auto& format : kWeightFormats) {
    if (format.id == id) return &format;
  }
  return nullptr;
}

const KvCacheFormat* kv_cache_formats_begin() { return std::begin(kKvCacheFormats); }
const KvCacheFormat* kv_cache_formats_end() { return std::end(kKvCacheFormats); }

const KvCacheFormat* find_kv_cache_format(std::string_view id) {
  for (const auto& format : kKvCacheFormats) {
    if (format.id == id) return &format;
  }
  return nullptr;
}

std::int64_t bytes_for_elements(std::int64_t elements, std::int64_t block_elements, std::int64_t block_bytes) {
  const std::int64_t blocks = (elements + block_elements - 1) / block_elements;
  return blocks * block_bytes;
}

std::int64_t weight_bytes(const ModelSpec& model, const WeightFormat& format) {
  return bytes_for_elements(count_params(model).total, format.block_elements, format.block_bytes);
}

}  // namespace llmsizer
