// SPDX-License-Identifier: MIT
#include "llmsizer/training.hpp"

#include <algorithm>

#include "format.hpp"
#include "llmsizer/error.hpp"

namespace llmsizer {

StateBytesPerParam full_training_state_bytes(TrainingPrecision precision, Optimizer optimizer) {
  StateBytesPerParam b;
  // Adam keeps momentum and variance in fp32 (2 × 4 B); SGD here is plain SGD with momentum (4 B).
  const int optimizer_bytes = optimizer == Optimizer::adamw ? 8 : 4;
  switch (precision) {
    case TrainingPrecision::mixed_bf16:
    case TrainingPrecision::mixed_fp16:
      b = {2, 2, optimizer_bytes, 4};
      break;
    case TrainingPrecision::fp32:
      b = {4, 4, optimizer_bytes, 0};
      break;
    case TrainingPrecision::bf16:
      // Pure bf16: no fp32 master copy; optimizer states kept in bf16 too.
      b = {2, 2, optimizer_bytes / 2, 0};
      break;
  }
  return b;
}

std::int64_t training_activation_bytes(const ModelSpec& m, const TrainingSettings& s) {
  if (!m.has_architecture()) return 0;
  const std::int64_t sbh = s.seq_len * s.micro_batch * m.hidden_size;
  const std::int64_t logits = s.seq_len * s.micro_batch * m.vocab_size * 4;
  if (s.gradient_checkpointing) {
    // Full recomputation keeps each layer's input (2·s·b·h in 16-bit) and recomputes one layer
    // at a time during backward: one layer's full activations on top.
    const std::int64_t one_layer = sbh * 34 + (s.flash_attention ? 0 : 5LL * m.num_attention_heads * s.seq_len * s.seq_len * s.micro_batch);
    return 2 * sbh * m.num_layers + one_layer + logits;
  }
  const std::int64_t per_layer = sbh * 34 + (s.flash_attention ? 0 : 5LL * m.num_attention_heads * s.seq_len * s.seq_len * s.micro_batch);
  return per_layer * m.num_layers + logits;
}

MemoryEstimate estimate_training_memory(const ModelSpec& m, const TrainingSettings& s) {
  if (s.method != TrainingMethod::full) {
    throw InputError("training.method", "only \"full\" fine-tuning is estimated in this version; LoRA, QLoRA and freeze come with the training issue");
  }
  MemoryEstimate e;
  const std::int64_t params = count_params(m).total;
  const StateBytesPerParam b = full_training_state_bytes(s.precision, s.optimizer);
  e.parts.weights = params * b.weights;
  e.parts.gradients = params * b.gradients;
  e.parts.optimizer = params * b.optimizer;
  e.parts.master_weights = params * b.master_weights;
  e.parts.activations = training_activation_bytes(m, s);
  const std::string p = fmt::count(params) + " params";
  e.explain.push_back({"weights", "parameters × bytes per parameter", p + " × " + std::to_string(b.weights) + " B = " + fmt::gb(e.parts.weights), e.parts.weights});
  e.explain.push_back({"gradients", "parameters × gradient bytes", p + " × " + std::to_string(b.gradients) + " B = " + fmt::gb(e.parts.gradients), e.parts.gradients});
  e.explain.push_back({"optimizer", "parameters × optimizer state bytes (Adam: momentum + variance in fp32)", p + " × " + std::to_string(b.optimizer) + " B = " + fmt::gb(e.parts.optimizer), e.parts.optimizer});
  e.explain.push_back({"master_weights", "parameters × fp32 master copy", p + " × " + std::to_string(b.master_weights) + " B = " + fmt::gb(e.parts.master_weights), e.parts.master_weights});
  e.explain.push_back({"activations", s.gradient_checkpointing ? "2·s·b·h per layer (checkpoints) + one layer's 34·s·b·h + s·b·vocab·4 logits" : "layers × s·b·h·(34 + 5·a·s/h) (Korthikanti et al. 2022) + s·b·vocab·4 logits",
                       "s " + fmt::count(s.seq_len) + ", b " + fmt::count(s.micro_batch) + ", h " + fmt::count(m.hidden_size) + ", " + std::to_string(m.num_layers) + " layers = " + fmt::gb(e.parts.activations), e.parts.activations});
  if (s.gpus == 0) {
    e.host_bytes = e.parts.sum();
  } else {
    e.parts.overhead = kCudaContextBytes;
    e.explain.push_back({"overhead", "CUDA context with lazy module loading, per GPU", "426 MiB = " + fmt::gb(e.parts.overhead), e.parts.overhead});
    e.tensor_peak_bytes = e.parts.sum() - e.parts.overhead;
    e.device_bytes = e.parts.sum();
  }
  return e;
}

}  // namespace llmsizer
