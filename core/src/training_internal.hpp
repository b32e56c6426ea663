// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the training sources (private to core/src).
#include <algorithm>
#include <cstdint>

#include "llmsizer/training.hpp"
#include "llmsizer/training_frameworks.hpp"

namespace llmsizer::training_detail {

/// Bytes of one activation value: 16-bit compute keeps 16-bit activations, fp32 keeps 4 bytes.
inline std::int64_t activation_bytes(TrainingPrecision p) { return p == TrainingPrecision::fp32 ? 4 : 2; }

/// Hugging Face QLoRA on a bitsandbytes base: PEFT's prepare_model_for_kbit_training (called by
/// TRL's SFTTrainer and the QLoRA recipes) casts every parameter that is not a Params4bit to fp32
/// (peft/src/peft/utils/other.py: "cast all non INT8 parameters to fp32"): embeddings, norms,
/// lm_head. Unsloth keeps them 16-bit (its own prepare_model_for_kbit_training upcasts only LoRA
/// weights); GPTQ bases are left alone (is_gptq_quantized); litgpt does not call it.
inline bool kbit_upcast(const TrainingSettings& s) {
  return s.method == TrainingMethod::qlora && s.framework == TrainingFramework::trainer && s.quantized_base != QuantizedBase::gptq_int4 &&
         s.precision != TrainingPrecision::fp32;
}

/// Unsloth's fused LoRA kernels (unsloth/kernels/fast_lora.py LoRA_QKV, LoRA_MLP, LoRA_W) run when
/// every adapter of a layer has no dropout: they save only each block's input and the gate/up
/// outputs, dequantizing the 4-bit weight inside.
inline bool unsloth_fast_lora(const TrainingSettings& s) {
  return s.framework == TrainingFramework::unsloth && (s.method == TrainingMethod::lora || s.method == TrainingMethod::qlora) && s.lora_dropout == 0;
}

/// Unsloth's loss above kUnslothLogitsTokens tokens per micro-batch: Cut Cross-Entropy, whose logits
/// are never stored, so a longer micro-batch can need less memory than a shorter one (said in the answer).
inline bool unsloth_cut_cross_entropy(const TrainingSettings& s) {
  return s.framework == TrainingFramework::unsloth && !s.chunked_loss && s.seq_len * s.micro_batch > kUnslothLogitsTokens;
}

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
