// SPDX-License-Identifier: MIT
#pragma once
/// Number formats: how many bytes a block of weights (or KV-cache elements) takes in each storage
/// format. A table, like ggml's type_traits: bytes = ceil(elements / block_elements) × block_bytes.
#include <cstdint>
#include <string_view>

#include "llmsizer/model.hpp"

namespace llmsizer {

/** A storage format for weights. Plain formats have block_elements == 1 (bf16: 1 weight, 2 bytes);
 *  the article's INT4 is 2 weights per byte. Block-quantized formats carry their scales in
 *  block_bytes (GGUF Q4_K: 256 weights in 144 bytes). */
struct WeightFormat {
  std::string_view id;         ///< request value: "bf16", "int4", "q4_k_m", ...
  std::string_view name;       ///< human name
  std::string_view ecosystem;  ///< "transformers", "gguf", "vllm", "mlx", "generic"
  std::int64_t block_elements; ///< weights per block
  std::int64_t block_bytes;    ///< bytes per block, scales and zeros included
  std::string_view source;     ///< where the layout is defined

  double bits_per_weight() const { return 8.0 * static_cast<double>(block_bytes) / static_cast<double>(block_elements); }
};

/** A KV-cache element type (fp16/bf16 default; fp8 and llama.cpp's q8_0/q4_0). */
struct KvCacheFormat {
  std::string_view id;
  std::string_view name;
  std::int64_t block_elements;
  std::int64_t block_bytes;
  std::string_view source;
};

/// The weight format named `id`, or nullptr. Ids are lowercase.
const WeightFormat* find_weight_format(std::string_view id);
/// All weight formats, in display order.
const WeightFormat* weight_formats_begin();
const WeightFormat* weight_formats_end();

const KvCacheFormat* find_kv_cache_format(std::string_view id);
const KvCacheFormat* kv_cache_formats_begin();
const KvCacheFormat* kv_cache_formats_end();

/** Bytes of `elements` values stored in a format with the given block layout (whole blocks). */
std::int64_t bytes_for_elements(std::int64_t elements, std::int64_t block_elements, std::int64_t block_bytes);

/** Bytes of the model's weights in `format`: parameters × bytes per parameter (the article's table:
 *  FP32 4, FP16/BF16 2, INT8 1, INT4 0.5 bytes). */
std::int64_t weight_bytes(const ModelSpec& model, const WeightFormat& format);

}  // namespace llmsizer
