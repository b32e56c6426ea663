// SPDX-License-Identifier: MIT
// Training FLOPs, time and cost.
#include <algorithm>

#include "llmsizer/training.hpp"
#include "arithmetic.hpp"

namespace llmsizer {
namespace {

/// Model FLOPs utilisation per method on the GPU's dense 16-bit peak, from published runs where
/// the per-step overheads are amortised: the Qwen-1 README "Profiling of Memory and Speed"
/// (QwenLM/Qwen@712d922; A100-SXM4-80G, bf16/fp16, flash-attention 2, micro-batch 1 × 8
/// accumulation, gradient checkpointing), its rows at 4096 and 8192 tokens, FLOPs counted as
/// training_time does (6N/4N + 12·L·q·s + recomputation):
/// - full (DeepSpeed ZeRO-2): Qwen-1.8B 2.8 s/it at 4096 tokens and 5.6 s/it at 8192: 0.56, 0.68 → 0.62;
/// - LoRA: Qwen-1.8B 0.39, 0.48 (LoRA (emb) 0.38, 0.46), Qwen-14B 0.58, 0.63 (0.57, 0.62) → 0.52;
/// - QLoRA (GPTQ-Int4 base): Qwen-1.8B 0.38, 0.50, Qwen-14B 0.49, 0.59 → 0.49.
double default_mfu(TrainingMethod method) {
  switch (method) {
    case TrainingMethod::full:
    case TrainingMethod::freeze: return 0.62;
    case TrainingMethod::lora: return 0.52;
    case TrainingMethod::qlora: return 0.49;
  }
  return 0.52;
}

/// Host time per decoder layer of one micro-batch (forward, recomputation and backward of eager
/// PyTorch): 5 ms. The same README at 256 tokens, where the GPU waits on the host: Qwen-1.8B LoRA
/// 1.0 s per 8 micro-batches of 24 layers (5.2 ms per layer), Qwen-14B LoRA 1.6 s for 40 layers (5.0 ms).
constexpr double kTrainingHostPerLayerS = 5e-3;

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
  t.mfu_source = s.mfu > 0 ? "training.mfu" : "published runs for the method (Qwen-1 README on A100, see training_time.cpp)";
  if (s.peak_tflops > 0 && t.flops_per_token > 0) {
    // A micro-batch takes its FLOPs at the method's MFU, and never less than the host needs to
    // run its layers.
    const double micro_tokens = static_cast<double>(s.seq_len * s.micro_batch);
    const double compute_s = micro_tokens * t.flops_per_token / (s.peak_tflops * 1e12 * t.mfu);
    const double host_s = std::max(1, m.num_layers) * kTrainingHostPerLayerS;
    t.tokens_per_s = data_parallel * micro_tokens / std::max(compute_s, host_s);
    if (t.tokens > 0) t.hours = t.tokens / t.tokens_per_s / detail::kSecondsPerHour;
    if (s.usd_per_gpu_hour > 0) t.usd = t.hours * data_parallel * s.usd_per_gpu_hour;
  }
  return t;
}

}  // namespace llmsizer
