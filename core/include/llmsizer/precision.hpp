// SPDX-License-Identifier: MIT
#pragma once
/// Number formats: how many bytes a block of weights (or KV-cache elements) takes in each storage
/// format. A table, like ggml's type_traits: bytes = ceil(elements / block_elements) × block_bytes.
/// Which tensor of a model gets which layout (embeddings kept 16-bit, GGUF mixes, group scales)
/// is in quantization.hpp; this header is the catalog.
#include <cstdint>
#include <string_view>

#include "llmsizer/ggml_types.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/// How a format lays out a model's tensors (quantization.cpp implements each).
enum class QuantScheme {
  plain,     ///< every tensor at one element type (fp32/fp16/bf16; the article's int8/int4)
  fp8,       ///< FP8 E4M3 linear weights + fp32 scales (per tensor or per output channel)
  llm_int8,  ///< bitsandbytes LLM.int8(): int8 linear weights + fp32 scale per output row
  bnb_4bit,  ///< bitsandbytes NF4/FP4: 4-bit + absmax per 64 weights (fp32, or 8-bit with DQ)
  gptq,      ///< GPTQ: packed b-bit weights, fp16 scale and b-bit zero per group and column, g_idx
  awq,       ///< AWQ (GEMM packing): packed 4-bit weights, fp16 scale and 4-bit zero per group
  mxfp4,     ///< OCP MXFP4: 32 FP4 (E2M1) values share an E8M0 scale (gpt-oss: MoE experts only)
  nvfp4,     ///< NVIDIA NVFP4: 16 FP4 (E2M1) values share an FP8 E4M3 scale, + fp32 scales per tensor
  mlx,       ///< MLX affine: packed b-bit weights, a scale and a bias per group in the model dtype
  gguf,      ///< a llama.cpp file type: a per-tensor mix of ggml block types (llama-quant.cpp)
  stored,    ///< an imported file's exact weight bytes (block_bytes) over all its parameters
};

/// A floating-point element type of activations and caches.
enum class Dtype { f32, f16, bf16 };

/// Where a format comes from, and so which runtimes and conventions apply.
enum class Ecosystem { generic, transformers, gguf, vllm, mlx, file };
const char* ecosystem_id(Ecosystem ecosystem);

/** A storage format for weights. `block_elements`/`block_bytes` give the nominal layout of the
 *  quantized tensors (bf16: 1 weight in 2 bytes; GGUF Q4_K_M: its main type Q4_K, 256 weights in
 *  144 bytes; GPTQ: the packed weights alone). The real bytes of a model come per tensor from
 *  `weights_layout` (quantization.hpp): scales, zeros, tensors kept at higher precision. */
struct WeightFormat {
  std::string_view id;         ///< request value: "bf16", "nf4", "gptq-int4", "q4_k_m", ...
  std::string_view name;       ///< human name
  Ecosystem ecosystem;         ///< generic, transformers, vllm, gguf, mlx (file: an imported file's bytes)
  std::int64_t block_elements; ///< weights per block of the main type
  std::int64_t block_bytes;    ///< bytes per block of the main type, scales included where in-block
  std::string_view source;     ///< where the layout is defined
  QuantScheme scheme = QuantScheme::plain;
  int bits = 0;                ///< packed bits per weight (gptq/awq/mlx/bnb), 0 for the rest
  int group_size = 0;          ///< default group (gptq/awq 128, mlx 64, bnb block 64); 0: none
  bool variant = false;        ///< bnb: double quantization; fp8: per-channel scales
  GgufFileType gguf_type = GgufFileType::none;  ///< gguf: llama.cpp's file type (Q4_K_M, F16, ...)
  /// What activations and, by default, the KV cache are held in: the model's dtype in
  /// Transformers/vLLM (bf16 for quantized checkpoints of bf16 models), f16 for llama.cpp's
  /// default cache (-ctk/-ctv f16), f32 and f16 for those plain formats.
  Dtype compute = Dtype::bf16;

  /// Bits per weight of the main type's layout (not of the whole model: see WeightsLayout).
  double bits_per_weight() const { return 8.0 * static_cast<double>(block_bytes) / static_cast<double>(block_elements); }
};

/** A KV-cache element type (fp16/bf16 default; fp8; llama.cpp's -ctk/-ctv q8_0, q4_0, q4_1,
 *  q5_0, q5_1, iq4_nl). */
struct KvCacheFormat {
  std::string_view id;
  std::string_view name;
  std::int64_t block_elements;
  std::int64_t block_bytes;
  std::string_view source;
};

/// The weight format named `id`, or nullptr. Ids are lowercase.
const WeightFormat* find_weight_format(std::string_view id);
/// All weight formats, in display order (grouped by ecosystem).
const WeightFormat* weight_formats_begin();
const WeightFormat* weight_formats_end();

const KvCacheFormat* find_kv_cache_format(std::string_view id);
/// The KV cache a request gets when it names none: the weights' compute type (the dtype the engines
/// run the layers in: fp32, fp16 or bf16; a quantized format's activations are its compute type), as
/// vLLM's kv_cache_dtype "auto" ("use the model data type") and llama.cpp's F16 cache do for 16-bit.
const char* default_kv_cache_id(const WeightFormat& weights);
const KvCacheFormat* kv_cache_formats_begin();
const KvCacheFormat* kv_cache_formats_end();

/** Bytes of `elements` values stored in a format with the given block layout (whole blocks). */
std::int64_t bytes_for_elements(std::int64_t elements, std::int64_t block_elements, std::int64_t block_bytes);

/** Bytes of the model's weights in `format` as they sit in memory, summed tensor by tensor
 *  (weights_layout in quantization.hpp, default group size). For the article's plain formats
 *  this is parameters × bytes per parameter (FP32 4, FP16/BF16 2, INT8 1, INT4 0.5 bytes). */
std::int64_t weight_bytes(const ModelSpec& model, const WeightFormat& format);

}  // namespace llmsizer
