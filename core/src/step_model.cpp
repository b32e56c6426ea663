// SPDX-License-Identifier: MIT
#include "llmsizer/step_model.hpp"

#include <algorithm>
#include <cmath>

#include "exact_math.hpp"
#include "llmsizer/speed_calibration.hpp"
#include "llmsizer/throughput.hpp"

namespace llmsizer {
namespace {

/// Kernels per decoder layer of a fused serving runtime (norm, QKV GEMM, rotary + cache write,
/// attention, output GEMM, residual + norm, gate/up GEMM, activation, down GEMM, all-reduces): 12,
/// as throughput.cpp counts a fused runtime's layer.
constexpr double kServingKernelsPerLayer = 12;

/// The 16-bit activations an all-reduce carries: tokens × hidden × 2 bytes.
constexpr double kActivationBytes = 2;

/// The 16-bit tensor rate `hw` sustains, TFLOPS: a probe's measurement, a vendor's measured
/// sustained rate, else the datasheet peak at kGpuMatmulEfficiency.
double sixteen_bit_tflops(const HardwareSpec& hw) {
  if (hw.measured_tflops > 0) return hw.measured_tflops;
  if (hw.achievable_matrix_tflops > 0) return hw.achievable_matrix_tflops;
  return effective_tflops(hw, false);
}

/// The dense tensor rate the GEMMs of `weights` sustain on `hw`, TFLOPS: FP8 checkpoints run W8A8
/// FP8 GEMMs where the device has FP8 units (vLLM's Fp8LinearMethod falls back to a weight-only
/// Marlin kernel elsewhere; TensorRT-LLM's FP8 needs them), NVFP4 the FP4 units; every other format
/// (weight-only INT4/INT8, GGUF) multiplies in 16 bits after dequantizing. A vendor's measured
/// sustained rate (hardware.hpp achievable_*) is used as it is; a datasheet peak at
/// kGpuMatmulEfficiency.
double linear_tflops(const WeightFormat& weights, const HardwareSpec& hw) {
  if (hw.measured_tflops > 0) return hw.measured_tflops;  // a probe's 16-bit GEMM rate
  if (weights.scheme == QuantScheme::fp8 && hw.fp8_tflops > 0) {
    return hw.achievable_fp8_tflops > 0 ? hw.achievable_fp8_tflops : hw.fp8_tflops * kGpuMatmulEfficiency;
  }
  if (weights.scheme == QuantScheme::nvfp4 && hw.fp4_tflops > 0) return hw.fp4_tflops * kGpuMatmulEfficiency;
  return sixteen_bit_tflops(hw);
}

/// Norms of `layer` (Gemma 2/3: four).
int layer_norm_count(const ModelSpec& m, int layer) {
  if (!m.layer_norms.empty()) return m.layer_norms[static_cast<std::size_t>(layer)];
  return m.norms_per_layer;
}

}  // namespace

ActivationElements activation_elements_per_token(const ModelSpec& m) {
  ActivationElements e;
  if (!m.has_architecture()) return e;
  const double hidden = static_cast<double>(m.hidden_size);
  const double gated = m.gated_mlp ? 3.0 : 2.0;  // read gate and up, write the product; or read and write
  for (int layer = 0; layer < m.num_layers; ++layer) {
    // The two residual norms read input and residual and write both; any further norm reads and writes.
    const int norms = layer_norm_count(m, layer);
    e.replicated += 4.0 * hidden * std::min(norms, 2) + 2.0 * hidden * std::max(0, norms - 2);
    const MixerKind mixer = m.mixer(layer);
    if (is_attention(mixer)) {
      const AttentionShape a = m.attention(layer);
      double q = static_cast<double>(a.q_heads) * a.head_dim;
      double k = static_cast<double>(a.kv_heads) * a.head_dim;
      double v = static_cast<double>(a.kv_heads) * (a.v_head_dim > 0 ? a.v_head_dim : a.head_dim);
      if (m.mla.kv_lora_rank > 0) {  // MLA: rotary on the decoupled rope parts; the latent is cached
        q = static_cast<double>(a.q_heads) * m.mla.qk_rope_head_dim;
        k = m.mla.qk_rope_head_dim;
        v = static_cast<double>(m.mla.kv_lora_rank);
      }
      if (a.owns_kv) {
        e.split += 2.0 * (q + k) + (k + v);
        e.attention_prep += 2.0 * (q + k) + (k + v);
      }
    }
    const MlpKind mlp = mlp_kind(m, layer);
    if (mlp == MlpKind::dense || mlp == MlpKind::dense_and_moe) e.split += gated * static_cast<double>(m.intermediate(layer));
    if (mlp == MlpKind::moe || mlp == MlpKind::dense_and_moe) {
      const double k = m.moe.experts_per_token;
      e.split += gated * (k * static_cast<double>(m.moe.expert_intermediate_size) +
                          m.moe.num_shared_experts * static_cast<double>(m.moe.shared_expert_intermediate_size));
      e.replicated += (k + 1.0) * hidden;
    }
  }
  return e;
}

StepModel make_step_model(const ModelSpec& m, const ModelCounts& counts, const WeightsLayout& layout, const WeightFormat& weights,
                          const KvCacheFormat& kv_cache, const HardwareSpec& hw, int tp, int pp, const ServeEngineProfile& engine) {
  StepModel s;
  s.tp = std::max(1, tp);
  s.pp = std::max(1, pp);
  const double shards = static_cast<double>(s.tp) * s.pp;
  const ParamCounts& c = counts.params;
  const double routed = static_cast<double>(layout.routed_expert_bytes);
  const double embeddings = static_cast<double>(layout.class_bytes(TensorClass::embeddings));
  const bool tied = c.lm_head == 0;
  // The embedding table is gathered (a row per token), not streamed; a tied table is read again as
  // the output layer.
  s.dense_weight_bytes = (static_cast<double>(layout.total_bytes) - routed - (tied ? 0.0 : embeddings)) / shards;
  s.routed_expert_bytes = routed / shards;
  if (m.moe.num_experts > 0 && routed > 0) {
    s.expert_share = static_cast<double>(m.moe.experts_per_token) / m.moe.num_experts;
    s.experts_per_layer = m.moe.num_experts;
  }
  const double head = static_cast<double>(tied ? c.embedding : c.lm_head);
  const double active_compute = static_cast<double>(c.active - (c.lm_head > 0 ? c.embedding : 0));  // throughput.cpp compute_params
  // Routed experts' active parameters: the stored routed bytes' share of parameters, k of E.
  const double routed_params = s.experts_per_layer > 0 ? static_cast<double>(c.total - m.extra_params - c.active) / (1.0 - s.expert_share) : 0.0;
  const double active_expert_params = routed_params * s.expert_share;
  s.expert_flops_per_token = 2.0 * active_expert_params / shards;
  s.lm_head_flops_per_token = 2.0 * head / s.tp;  // the last stage's
  s.dense_flops_per_token = 2.0 * std::max(0.0, active_compute - active_expert_params - head) / shards;

  const double element_bytes = static_cast<double>(kv_cache.block_bytes) / static_cast<double>(kv_cache.block_elements);
  // KV heads are split over tensor-parallel ranks (replicated when there are fewer heads than
  // ranks); MLA's latent cache is whole on every rank.
  double kv_share = 1.0 / shards;
  if (m.mla.kv_lora_rank > 0) kv_share = 1.0 / s.pp;
  else if (m.num_kv_heads > 0 && s.tp > m.num_kv_heads) kv_share = 1.0 / m.num_kv_heads / s.pp;
  s.kv_bytes_per_token = static_cast<double>(counts.kv_elements_per_token) * element_bytes * kv_share;
  double elements_per_token = static_cast<double>(counts.kv_elements_per_token);
  for (const ModelCounts::WindowedKv& w : counts.windowed_kv) {
    const double bytes = static_cast<double>(w.elements_per_token) * element_bytes * kv_share;
    if (engine.sliding_window) s.windowed.push_back({w.window, bytes});
    else s.kv_bytes_per_token += bytes;  // the engine keeps and reads every token in these layers too
    elements_per_token += static_cast<double>(w.elements_per_token);
  }
  s.state_bytes_per_sequence = static_cast<double>(counts.recurrent_state_bytes(4)) / shards;
  const double group = m.has_architecture() ? query_group(m) : 1.0;
  s.attention_flops_per_pair = 2.0 * group * elements_per_token / shards;
  s.attention_flops_per_kv_byte = element_bytes > 0 ? 2.0 * group / element_bytes : 0.0;
  s.hidden_size = static_cast<double>(m.hidden_size);
  s.layers = std::max(1, m.num_layers);
  const ActivationElements activations = activation_elements_per_token(m);
  s.activation_bytes_per_token = (activations.replicated + activations.split / s.tp) * kActivationBytes / s.pp;
  if (engine.decode_rope_in_attention) s.decode_prep_bytes_skipped = activations.attention_prep / s.tp * kActivationBytes / s.pp;

  s.bandwidth_bytes_per_s = effective_bandwidth_gb_per_s(hw, false) * 1e9;
  s.linear_flops_per_s = linear_tflops(weights, hw) * 1e12;
  s.attention_flops_per_s = sixteen_bit_tflops(hw) * 1e12;
  // The cited all-reduce time (the serving model's constants are not replaced by validate's
  // leave-one-source-out runs).
  s.allreduce_latency_s = all_reduce_latency_s(hw, kCitedSpeedCalibration);
  s.link_bytes_per_s = device_link_gb_per_s(hw) * 1e9;
  s.launch_s = s.layers / s.pp * kServingKernelsPerLayer * kKernelLaunchS;
  s.step_overhead_s = engine.step_overhead_s;
  s.graph_max_batch = engine.graph_max_batch;
  s.scheduler_steps = std::max(1, engine.scheduler_steps);
  if (engine.engine == ServeEngine::llama_cpp || engine.engine == ServeEngine::ollama) s.ubatch_tokens = engine.ubatch_tokens;
  s.graph_build_s = s.layers * engine.graph_build_s_per_layer;
  return s;
}

StepParts step_time(const StepModel& s, const StepBatch& b) {
  StepParts p;
  const double tokens = static_cast<double>(b.decode_sequences + b.prefill_tokens);
  if (tokens <= 0) return p;
  const double bw = s.bandwidth_bytes_per_s;
  const double linear = s.linear_flops_per_s;
  const double attention = s.attention_flops_per_s;
  // Each operation is bound by its bytes or its FLOPs; the step adds the operations.
  const auto roofline = [&p](double bytes_s, double flops_s, double& memory_part) {
    if (flops_s > bytes_s) p.compute_s += flops_s;
    else memory_part += bytes_s;
  };
  // llama.cpp splits a step into micro-batches of -ub tokens, each reading the weights again.
  const double passes = s.ubatch_tokens > 0 ? std::ceil(tokens / static_cast<double>(s.ubatch_tokens)) : 1.0;
  const double logits = static_cast<double>(b.decode_sequences + b.prefill_logit_sequences);
  roofline(passes * s.dense_weight_bytes / bw, (s.dense_flops_per_token * tokens + s.lm_head_flops_per_token * logits) / linear, p.weights_s);
  if (s.experts_per_layer > 0) {
    const double touched = std::min(1.0, 1.0 - exact::pow(1.0 - s.expert_share, std::max(1.0, tokens / passes)));
    roofline(passes * s.routed_expert_bytes * touched / bw, s.expert_flops_per_token * tokens / linear, p.weights_s);
  }
  roofline((b.decode_kv_bytes + b.prefill_kv_bytes) / bw,
           (b.decode_kv_bytes * s.attention_flops_per_kv_byte + b.prefill_attention_pairs * s.attention_flops_per_pair) / attention, p.kv_read_s);
  p.activations_s = (tokens * s.activation_bytes_per_token - static_cast<double>(b.decode_sequences) * s.decode_prep_bytes_skipped) / bw;
  const double gpu = p.weights_s + p.kv_read_s + p.compute_s + p.activations_s;
  // Decode-only steps of a captured batch size replay a CUDA graph; others launch every kernel,
  // which the GPU hides while it is busier than the host.
  const bool graph = b.prefill_tokens == 0 && b.decode_sequences <= s.graph_max_batch;
  const double launches = graph ? 0.0 : s.launch_s * passes;
  p.launch_s = std::max(0.0, launches - gpu);
  // Two all-reduces per layer (after attention and after the MLP): ring volume 2 (n − 1)/n.
  if (s.tp > 1) {
    const double volume = 2.0 * (s.tp - 1) / s.tp * tokens * s.hidden_size * kActivationBytes;
    p.communication_s += 2.0 * s.layers / s.pp * (s.allreduce_latency_s + volume / s.link_bytes_per_s);
  }
  // Pipeline stages run one after another for a step's tokens: each hands its activations on.
  if (s.pp > 1) p.communication_s += (s.pp - 1) * (s.allreduce_latency_s + tokens * s.hidden_size * kActivationBytes / s.link_bytes_per_s);
  // llama.cpp before graph reuse builds every micro-batch's graph on the host, the GPU waiting.
  p.engine_overhead_s = s.step_overhead_s / s.scheduler_steps + passes * s.graph_build_s;
  // Pipeline parallelism: the step runs its layers' stages one after another (each GPU holds
  // 1/pp of the layers: the per-GPU times above are per stage).
  const double stages = s.pp;
  p.weights_s *= stages;
  p.kv_read_s *= stages;
  p.compute_s *= stages;
  p.activations_s *= stages;
  p.launch_s *= stages;
  p.total_s = p.weights_s + p.kv_read_s + p.compute_s + p.activations_s + p.launch_s + p.communication_s + p.engine_overhead_s;
  const double largest = std::max({p.weights_s, p.kv_read_s, p.compute_s, p.activations_s, p.launch_s, p.communication_s, p.engine_overhead_s});
  if (largest == p.compute_s) p.bound = "bound.compute";
  else if (largest == p.weights_s || largest == p.activations_s) p.bound = "bound.memory_bandwidth";
  else if (largest == p.kv_read_s) p.bound = "bound.kv_cache_reads";
  else if (largest == p.launch_s) p.bound = "bound.kernel_launches";
  else if (largest == p.communication_s) p.bound = "bound.communication";
  else p.bound = "bound.engine_overhead";
  return p;
}

}  // namespace llmsizer
