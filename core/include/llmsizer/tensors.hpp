// SPDX-License-Identifier: MIT
#pragma once
/// The stored tensors of a model, one entry per tensor as a checkpoint holds them, named as
/// llama.cpp names them in GGUF files (token_embd, blk.N.attn_q, ffn_down_exps, output_norm, ...).
/// Quantized formats choose a storage type per tensor from this list, so the bytes of a whole
/// model come out tensor by tensor.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/model.hpp"

namespace llmsizer {

/// What a tensor is for, as the response's `weights_detail.bytes` groups it.
enum class TensorClass { embeddings, attention, mlp, lm_head, norms, other };

const char* tensor_class_id(TensorClass c);

/** What a tensor does, as quantizers choose its type: classified once from its GGUF name, as
 *  llama.cpp does (src/llama-quant.cpp tensor_get_category: token_embd, attn_q/k/v/qkv/kv_b/output,
 *  ffn_gate/up/down, output), plus the tensors no quantizer touches (biases, norms, the MoE router)
 *  and those outside the text model (a vision tower, "extra."). */
enum class TensorRole {
  token_embd, output, attn_q, attn_k, attn_v, attn_qkv, attn_kv_b, attn_output, ffn_gate, ffn_up, ffn_down,
  router, norm, bias, extra, other,
};
/// The role of the tensor named `name` ("blk.3.ffn_down_exps.weight" → ffn_down).
TensorRole tensor_role(std::string_view name);

/** One stored tensor. `shape` is in ggml order: shape[0] is the contiguous row (a linear layer's
 *  input features), shape[1] its output features, shape[2] the experts of a stacked MoE tensor.
 *  Hugging Face stores the same linear weight as [out, in]. */
struct TensorInfo {
  std::string name;                 ///< GGUF name, e.g. "blk.0.attn_v.weight"
  std::vector<std::int64_t> shape;  ///< ggml order (ne[0] first)
  TensorClass tensor_class = TensorClass::other;
  int layer = -1;                   ///< decoder layer, -1 outside the layers
  TensorRole role = TensorRole::other;  ///< tensor_role(name)
  /// Stands for many tensors the list does not spell out (a bare parameter count, SSM mixers): its
  /// elements are right, its shape (256-wide rows) is not a layer's.
  bool lump = false;

  std::int64_t elements() const;
  int dims() const { return static_cast<int>(shape.size()); }
  /// A linear layer's weight (2-D, or 3-D stacked experts), the kind quantizers act on.
  bool is_matrix() const { return shape.size() >= 2; }
  /// Input features of a matrix (shape[0]); rows of it are what block formats cut into blocks.
  std::int64_t row_elements() const { return shape.empty() ? 0 : shape[0]; }
  /// Output features × experts of a matrix (all dims after the first).
  std::int64_t rows() const;
};

/** The tensors of `model`, in GGUF file order (token_embd, the layers in order, output_norm,
 *  output). Their elements add up to count_params(model).total: parts the list does not spell
 *  out tensor by tensor (linear-attention and SSM mixers, vision towers, a bare parameter count)
 *  come as one 2-D "other" tensor per part with the right element count; a model given as a
 *  parameter count (`params_override`) is one such lump.
 *  Names and shapes: llama.cpp convert_hf_to_gguf.py / gguf-py/gguf/constants.py (MODEL_TENSOR
 *  names: token_embd, attn_q/k/v/output, attn_q_norm/attn_k_norm, ffn_gate/up/down,
 *  ffn_gate_inp (router), ffn_*_exps (stacked experts), ffn_*_shexp (shared experts),
 *  attn_q_a/attn_q_b/attn_kv_a_mqa/attn_kv_b (DeepSeek MLA), post_attention_norm and
 *  post_ffw_norm (Gemma 2/3), output_norm, output). */
std::vector<TensorInfo> model_tensors(const ModelSpec& model);

/** model_tensors(model) with the shape fields it was computed from, so that a copy of a spec whose
 *  fields were changed afterwards is never given a stale list. */
struct TensorList {
  std::vector<TensorInfo> tensors;
  std::int64_t total_params = 0;  ///< count_params(model).total
  std::int64_t hidden_size = 0;
  int num_layers = 0;
  std::int64_t vocab_size = 0;
  std::int64_t intermediate_size = 0;
  std::int64_t params_override = 0;
  std::int64_t extra_params = 0;
  bool tie_word_embeddings = false;
  bool shape_assumed = false;
  /// Whether `model` still has the shape this list was made from.
  bool matches(const ModelSpec& model) const;
};

/// The tensor list of `model`, made now.
std::shared_ptr<const TensorList> make_tensor_list(const ModelSpec& model);

/** The tensors of `model`: its `tensor_cache` when that still matches it, else made now (kept
 *  alive by the returned pointer). */
std::shared_ptr<const TensorList> tensor_list(const ModelSpec& model);

}  // namespace llmsizer
