// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the training sources (private to core/src).
#include <algorithm>
#include <cstdint>

#include "llmsizer/training.hpp"

namespace llmsizer::training_detail {

/// Bytes of one activation value: 16-bit compute keeps 16-bit activations, fp32 keeps 4 bytes.
inline std::int64_t activation_bytes(TrainingPrecision p) { return p == TrainingPrecision::fp32 ? 4 : 2; }

/// Bytes kept per token by one decoder layer whose weights train, and by one whose weights are
/// frozen but which backward still goes through (LoRA's base).
struct LayerActivationBytes {
  std::int64_t trainable = 0;
  std::int64_t frozen = 0;
};
LayerActivationBytes layer_activation_bytes(const ModelSpec& model, const TrainingSettings& settings);

/// Elements of the largest weight matrix of one decoder layer (attention projections or MLP).
inline std::int64_t largest_matrix_elements(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t q = static_cast<std::int64_t>(m.num_attention_heads) * m.head_dim;
  const std::int64_t width = std::max({m.intermediate_size, m.moe.expert_intermediate_size, m.moe.shared_expert_intermediate_size, q});
  return h * width;
}

}  // namespace llmsizer::training_detail
