// SPDX-License-Identifier: MIT
#pragma once
/// Quantized weights tensor by tensor: which storage type each tensor of a model gets in a format
/// (llama.cpp's per-tensor mixes over the ggml block types of gguf.hpp's kGgmlTypes, the tensors Transformers/vLLM/MLX keep at 16 bits), the bytes
/// that follow (group scales and zeros, block constants), the download size of the checkpoint,
/// and the engine buffers that quantized inference adds.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/ggml_types.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/tensors.hpp"

namespace llmsizer {

/// One tensor as a format stores it.
struct TensorStorage {
  // No name: the layout's tensors are those of the list it was made from, in its order (a copy of
  // each name was a third of an estimate's instructions, and an allocation per tensor in WASM).
  /// storage type: "Q6_K", "F32", "BF16", "gptq-4bit", "nf4", ...: always static text (a format's
  /// id, a ggml type's name, a literal), so that a layout of hundreds of tensors copies no string.
  std::string_view type;
  TensorClass tensor_class = TensorClass::other;
  std::int64_t elements = 0;
  std::int64_t bytes = 0;    ///< bytes of the tensor with its scales, zeros and indices
  int stored_tensors = 1;    ///< entries in the file (GPTQ: qweight, qzeros, scales, g_idx → 4)
  bool lump = false;         ///< TensorInfo::lump: many tensors' elements, not one matrix
  std::int64_t matrices = 1; ///< matrices stacked in it (MoE experts: shape[2]); 1 otherwise
  bool routed_experts = false;  ///< a stack of routed experts ("_exps" in its name)
};

/** The weights of a model in one format. */
struct WeightsLayout {
  std::vector<TensorStorage> tensors;
  std::int64_t total_bytes = 0;
  std::int64_t elements = 0;
  std::array<std::int64_t, 6> bytes_by_class{};  ///< indexed by TensorClass
  /// Bytes of the routed experts' stacked tensors (names with "_exps"), summed once here: every
  /// speed step needs them, and scanning the names per step was a third of a recommendation.
  std::int64_t routed_expert_bytes = 0;

  std::int64_t class_bytes(TensorClass c) const { return bytes_by_class[static_cast<std::size_t>(c)]; }
  /// Effective bits per weight over the whole model: total bytes × 8 / parameters.
  double bits_per_weight() const;
  /// The storage of the tensor named `name` in `tensors`, the list this layout was made from; or nullptr.
  const TensorStorage* find(const std::vector<TensorInfo>& tensors, std::string_view name) const;
  /// Bytes of that tensor, or 0.
  std::int64_t tensor_bytes(const std::vector<TensorInfo>& tensors, std::string_view name) const;
};

/** The model's tensors in `format`. `group_size` overrides the format's default group for
 *  GPTQ/AWQ/MLX (0: default; -1 for GPTQ: one group per column, "per-channel"). */
WeightsLayout weights_layout(const ModelSpec& model, const WeightFormat& format, int group_size = 0);

/** The same over a given list of the model's tensors (a runtime's own layout of them, e.g.
 *  llama_cpp_tensor_infos in llama_cpp.hpp), in the list's order. */
WeightsLayout weights_layout(const ModelSpec& model, const WeightFormat& format, const std::vector<TensorInfo>& tensors,
                             int group_size = 0);

/** What a checkpoint in this format weighs on disk: the tensors plus the file's own metadata. */
struct DiskSize {
  std::int64_t weights_bytes = 0;
  std::int64_t metadata_bytes = 0;  ///< GGUF header + KV metadata (tokenizer) + tensor infos; safetensors JSON headers
  std::int64_t total() const { return weights_bytes + metadata_bytes; }
};

/** Download size of the model in `format`: GGUF files hold every tensor once (a tied embedding
 *  too) after a header whose size is estimated from the vocabulary and the tensor count;
 *  safetensors files hold the tensors after an 8-byte length and a JSON header per file. */
DiskSize checkpoint_disk_size(const ModelSpec& model, const WeightFormat& format, const WeightsLayout& layout);

// --- Engine effects of quantized inference, each a documented buffer --------------------------

/** bitsandbytes 4-bit in Transformers: for more than one token per step, `bnb.matmul_4bit`
 *  dequantizes the whole weight to 16 bits (`F.dequantize_4bit`) and runs a 16-bit matmul, so the
 *  largest quantized matrix exists once more in 16 bits during the forward
 *  (bitsandbytes/autograd/_functions.py MatMul4Bit.forward). Bytes: largest quantized matrix's
 *  elements × 2. */
std::int64_t bnb_dequant_buffer_bytes(const ModelSpec& model, const WeightsLayout& layout);

/** GPTQ ExLlamaV2 kernels (AutoGPTQ/GPTQModel/optimum): one scratch buffer per device sized for
 *  the largest layer: temp_dq = in × out × 2 + 128 bytes (the dequantized fp16 weight) plus
 *  temp_fwd = out × max_input_len (2048) × max_batch_size (8) × 4 + 128 bytes
 *  (auto_gptq/nn_modules/qlinear/qlinear_exllamav2.py scratch_space_fixed defaults). */
std::int64_t gptq_exllama_scratch_bytes(const ModelSpec& model);
constexpr std::int64_t kExllamaMaxInputLen = 2048;
constexpr std::int64_t kExllamaMaxBatchSize = 8;

/** AutoAWQ fused modules (Transformers `AwqConfig(do_fuse=True, fuse_max_seq_len=...)`) allocate
 *  the KV cache up front for fuse_max_seq_len tokens × batch, fp16:
 *  2 × layers × kv_heads × head_dim × max_seq_len × batch × 2 bytes
 *  (Transformers docs, "AWQ: Fused modules"; awq/modules/fused/cache.py WindowedCache). */
std::int64_t awq_fused_kv_cache_bytes(const ModelSpec& model, std::int64_t fuse_max_seq_len, std::int64_t batch);

}  // namespace llmsizer
