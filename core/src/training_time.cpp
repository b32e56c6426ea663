// SPDX-License-Identifier: MIT
// Training FLOPs, time and cost.
#include <algorithm>

#include "llmsizer/training.hpp"

namespace llmsizer {
namespace {

/// Default model FLOPs utilisation per method. Full training: 40% — below what tuned large-scale
/// runs report (Megatron-LM on A100: 163 of 312 TFLOPS = 52%, Narayanan et al. 2021, "Efficient
/// Large-Scale Language Model Training on GPU Clusters", Table 1; PaLM: 46.2% MFU, Chowdhery et al.
/// 2022, Table 3), as a single-node fine-tune with micro-batch 1 and checkpointing reaches less.
/// LoRA: its adapter matmuls are thin (rank r) and memory-bound: 35%. QLoRA: every frozen matmul
/// first dequantizes its 4-bit weight (Dettmers et al. 2023, "QLoRA", §4 notes the slower 4-bit
/// path): 25%. These are defaults to override with `training.mfu` from one's own measurement.
double default_mfu(TrainingMethod method) {
  switch (method) {
    case TrainingMethod::full:
    case TrainingMethod::freeze: return 0.40;
    case TrainingMethod::lora: return 0.35;
    case TrainingMethod::qlora: return 0.25;
  }
  return 0.40;
}

}  // namespace

TrainingTime training_time(const ModelSpec& m, const TrainingSettings& s) {
  TrainingTime t;
  const ParamCounts c = count_params(m);
  const TrainableParams tp = trainable_params(m, s);
  // Matmul parameters a token passes through: the decoder's active weights and the output layer
  // (tied or not); the input embedding is a lookup.
  double body = 0;
  double head = 0;
  double attention = 0;  // L · q · s summed over softmax-attention layers (window-limited)
  if (m.has_architecture()) {
    head = static_cast<double>(m.vocab_size) * static_cast<double>(m.hidden_size);
    body = static_cast<double>(c.active - c.embedding - c.lm_head - c.norms);
    const double q = static_cast<double>(m.num_attention_heads) * m.head_dim;
    for (int layer = 0; layer < m.num_layers; ++layer) {
      const MixerKind k = m.mixer(layer);
      if (!is_attention(k)) continue;
      const int window = m.attention_window(k);
      attention += q * static_cast<double>(window > 0 ? std::min<std::int64_t>(s.seq_len, window) : s.seq_len);
    }
  } else {
    body = static_cast<double>(c.total);
  }
  const double adapters = static_cast<double>(tp.adapters);
  const bool recompute = s.checkpointing == Checkpointing::full;
  const bool recompute_attention = s.checkpointing != Checkpointing::none;
  double trainable_fraction = 1.0;  // of the decoder body
  if (s.method == TrainingMethod::freeze && m.num_layers > 0) {
    trainable_fraction = std::min(1.0, static_cast<double>(s.trainable_layers) / m.num_layers);
  }
  switch (s.method) {
    case TrainingMethod::full:
      t.flops_per_token = 6 * (body + head) + 12 * attention;
      break;
    case TrainingMethod::freeze:
      // Frozen layers only run forward; trainable layers forward + both backward matmuls; the
      // frozen lm_head runs forward and the backward to its input.
      t.flops_per_token = 2 * body * (1 - trainable_fraction) + 6 * body * trainable_fraction + 4 * head +
                          attention * (4 * (1 - trainable_fraction) + 12 * trainable_fraction);
      break;
    case TrainingMethod::lora:
    case TrainingMethod::qlora:
      // Frozen weights: forward and the backward to the activations, no weight gradient (4·N);
      // adapters train fully (6·A); attention backward is needed in every layer.
      t.flops_per_token = 4 * (body + head) + 6 * adapters + 12 * attention;
      break;
  }
  if (recompute) t.flops_per_token += 2 * body * trainable_fraction + 2 * adapters + 4 * attention * trainable_fraction;
  if (!recompute && recompute_attention) t.flops_per_token += 4 * attention * trainable_fraction;

  const int data_parallel = std::max(1, s.gpus);
  t.tokens_per_step = s.seq_len * s.micro_batch * s.gradient_accumulation * data_parallel;
  t.tokens = s.dataset_tokens * s.epochs;
  t.flops = t.flops_per_token * t.tokens;
  t.mfu = s.mfu > 0 ? s.mfu : default_mfu(s.method);
  t.mfu_source = s.mfu > 0 ? "training.mfu" : "default for the method (see training_time.cpp)";
  if (s.peak_tflops > 0 && t.flops_per_token > 0) {
    t.tokens_per_s = data_parallel * s.peak_tflops * 1e12 * t.mfu / t.flops_per_token;
    if (t.tokens > 0) t.hours = t.tokens / t.tokens_per_s / 3600.0;
    if (s.usd_per_gpu_hour > 0) t.usd = t.hours * data_parallel * s.usd_per_gpu_hour;
  }
  return t;
}

}  // namespace llmsizer
