// SPDX-License-Identifier: MIT
#pragma once
/// Training memory: model states (weights, gradients, optimizer states, fp32 master copy) plus
/// activations. The source article's rule: full fine-tuning with Adam in mixed precision needs
/// 2 + 2 + 8 + 4 = 16 bytes per parameter before activations.
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

enum class TrainingMethod { full, freeze, lora, qlora };
enum class Optimizer { adamw, sgd };
enum class TrainingPrecision { mixed_bf16, mixed_fp16, fp32, bf16 };

struct TrainingSettings {
  TrainingMethod method = TrainingMethod::full;
  Optimizer optimizer = Optimizer::adamw;
  TrainingPrecision precision = TrainingPrecision::mixed_bf16;
  std::int64_t seq_len = 2048;
  std::int64_t micro_batch = 1;
  bool gradient_checkpointing = false;
  bool flash_attention = true;
  int gpus = 1;
};

/** Bytes per parameter of the model states for full training (weights, gradients, optimizer
 *  states, master weights). Mixed precision with Adam: 2 + 2 + 8 + 4 = 16 (the article's table;
 *  ZeRO paper, Rajbhandari et al. 2020, §3.1: "2Ψ + 2Ψ + 12Ψ"). */
struct StateBytesPerParam {
  int weights = 0;
  int gradients = 0;
  int optimizer = 0;
  int master_weights = 0;
  int total() const { return weights + gradients + optimizer + master_weights; }
};
StateBytesPerParam full_training_state_bytes(TrainingPrecision precision, Optimizer optimizer);

/** Activation bytes kept for the backward pass, per Korthikanti et al. 2022 ("Reducing Activation
 *  Recomputation in Large Transformer Models", eq. 1: s·b·h·(34 + 5·a·s/h) per layer, 16-bit),
 *  with flash attention removing the 5·a·s² score terms and full checkpointing keeping only each
 *  layer's input (2·s·b·h). Plus the logits and cross-entropy buffers (s·b·vocab in fp32). */
std::int64_t training_activation_bytes(const ModelSpec& model, const TrainingSettings& settings);

MemoryEstimate estimate_training_memory(const ModelSpec& model, const TrainingSettings& settings);

}  // namespace llmsizer
