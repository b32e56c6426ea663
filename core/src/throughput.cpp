// SPDX-License-Identifier: MIT
#include "llmsizer/throughput.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "llmsizer/precision.hpp"

namespace llmsizer {
namespace {

/// Kernels per decoder layer of a fused runtime (norm, QKV GEMM, rotary, cache write, attention,
/// output GEMM, norm, gate/up GEMM, activation, down GEMM, residual adds): 12.
constexpr int kFusedKernelsPerLayer = 12;
/// PyTorch operators per decoder layer in eager transformers (two RMSNorms of ~8 ops each, three
/// projections, rotary ~12 ops, cache concatenation, repeat_kv, attention, output projection, MLP
/// 5 ops, residual adds): ~45.
constexpr int kEagerOpsPerLayer = 45;

double bytes_per_param(const InferenceSettings& s) {
  return static_cast<double>(s.weights->block_bytes) / static_cast<double>(s.weights->block_elements);
}

/// Weight bytes per step as the memory system sees them: a dequantizing kernel streams its bytes
/// at kDequantBandwidthFactor of the plain kernels' rate, i.e. they cost 1/0.7 as much time.
double weight_time_bytes(const InferenceSettings& s, double weight_bytes) {
  const std::string_view id = s.weights->id;
  const bool dequantizes = s.weights->bits_per_weight() < 16.0 && id.rfind("fp8", 0) != 0;
  return dequantizes ? weight_bytes / kDequantBandwidthFactor : weight_bytes;
}

/// Parameters whose FLOPs every token pays: active parameters less the embedding lookup (a tied
/// table is used again as the output layer, which is a GEMM).
double compute_params(const ModelSpec& m) {
  const ParamCounts c = count_params(m);
  return static_cast<double>(c.active - (c.lm_head > 0 ? c.embedding : 0));
}

/// Attention FLOPs per generated token per sequence at `context`: every cached K and V element
/// meets (query heads per KV head) queries with a multiply-add: 2 × group × KV elements.
double attention_flops_per_token(const ModelSpec& m, std::int64_t context) {
  if (!m.has_architecture()) return 0;
  const double group = m.mla.kv_lora_rank > 0 ? m.num_attention_heads
                                              : static_cast<double>(m.num_attention_heads) / std::max(1, m.num_kv_heads);
  return 2.0 * group * static_cast<double>(kv_cache_elements(m, context));
}

/// Bytes of KV cache (and recurrent state) read per step on one of `tp` devices.
double kv_bytes_per_device(const ModelSpec& m, const InferenceSettings& s, std::int64_t context, int tp) {
  if (!m.has_architecture()) return 0;
  double whole = static_cast<double>(kv_cache_bytes(m, *s.kv_cache, context, s.batch)) +
                 static_cast<double>(recurrent_state_bytes(m, 4) * s.batch);
  if (tp <= 1 || m.mla.kv_lora_rank > 0 || m.num_kv_heads == 0) return whole;
  const double here = std::max(1, m.num_kv_heads / tp);
  return whole / m.num_kv_heads * here;
}

struct Overheads {
  double host_launch_s = 0;
  double fixed_s = 0;
};

Overheads engine_overheads(const ModelSpec& m, const InferenceSettings& s, std::int64_t context, bool cpu,
                           const SpeedOptions& options) {
  Overheads o;
  const double layers = std::max(1, m.num_layers);
  if (cpu) return o;  // CPU kernels are function calls; thread hand-offs are inside the compute time
  switch (s.engine) {
    case Engine::generic:
      o.host_launch_s = kFusedKernelsPerLayer * layers * kKernelLaunchS;
      break;
    case Engine::transformers:
      o.host_launch_s = kEagerOpsPerLayer * layers * kEagerOpS;
      break;
    case Engine::vllm: {
      const bool graphs = !options.enforce_eager && context <= kVllmGraphMaxContext;
      o.host_launch_s = graphs ? 0.0 : kFusedKernelsPerLayer * layers * kEagerOpS;
      o.fixed_s = kVllmStepOverheadS;
      break;
    }
    case Engine::llama_cpp:
      // llama.cpp replays a CUDA graph per token (ggml-cuda, since 2024): launches are replays.
      o.host_launch_s = 0;
      break;
  }
  return o;
}

double link_gb_per_s(const HardwareSpec& hw) {
  if (hw.link_gb_per_s > 0) return hw.link_gb_per_s;
  return hw.pcie_gb_per_s > 0 ? hw.pcie_gb_per_s : 16.0;  // PCIe 3.0 x16 per direction as a floor
}

double allreduce_seconds(const HardwareSpec& hw, int tp, double bytes) {
  if (tp <= 1) return 0;
  const double latency = hw.link_gb_per_s > hw.pcie_gb_per_s ? kAllReduceLatencyNvlinkS : kAllReduceLatencyPcieS;
  // Ring all-reduce moves 2 (n − 1)/n of the buffer over each link.
  return latency + 2.0 * (tp - 1) / tp * bytes / (link_gb_per_s(hw) * 1e9);
}

}  // namespace

double effective_bandwidth_gb_per_s(const HardwareSpec& hw, bool cpu) {
  if (cpu) return (hw.measured_bandwidth_gb_per_s > 0 && hw.is_cpu() ? hw.measured_bandwidth_gb_per_s
                                                                      : hw.host_bandwidth_gb_per_s * kCpuBandwidthEfficiency);
  if (hw.measured_bandwidth_gb_per_s > 0) return hw.measured_bandwidth_gb_per_s;
  return hw.memory_bandwidth_gb_per_s * (hw.unified_memory ? kCpuBandwidthEfficiency : kGpuBandwidthEfficiency);
}

double effective_tflops(const HardwareSpec& hw, bool cpu) {
  if (cpu) return (hw.measured_tflops > 0 && hw.is_cpu() ? hw.measured_tflops : hw.host_tflops * kCpuMatmulEfficiency);
  if (hw.measured_tflops > 0) return hw.measured_tflops;
  return hw.matrix_tflops * kGpuMatmulEfficiency;
}

double params_read_per_step(const ModelSpec& m, std::int64_t batch) {
  const ParamCounts c = count_params(m);
  // The embedding table is gathered (one row per token), not streamed; a tied table is streamed as
  // the output layer.
  double read = static_cast<double>(c.active - (c.lm_head > 0 ? c.embedding : 0));
  if (m.moe.num_experts > 0 && m.moe.experts_per_token < m.moe.num_experts) {
    const double share = static_cast<double>(m.moe.experts_per_token) / m.moe.num_experts;
    const double routed_total = static_cast<double>(c.total - m.extra_params - c.active) / (1.0 - share);
    const double touched = 1.0 - std::pow(1.0 - share, static_cast<double>(batch));
    read += routed_total * (touched - share);
  }
  return read;
}

StepTime decode_step(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where,
                     std::int64_t context, const SpeedOptions& options) {
  StepTime t;
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  const int tp = cpu ? 1 : std::max(1, where.gpus);
  const double batch = static_cast<double>(s.batch);
  const double weights = weight_time_bytes(s, params_read_per_step(m, s.batch) * bytes_per_param(s));
  const double flops = (2.0 * compute_params(m) + attention_flops_per_token(m, context)) * batch;
  const double bw = effective_bandwidth_gb_per_s(hw, cpu) * 1e9;
  const double tf = effective_tflops(hw, cpu) * 1e12;
  const Overheads o = engine_overheads(m, s, context, cpu, options);
  t.host_launch_s = o.host_launch_s;
  t.fixed_s = o.fixed_s;
  const int layers = std::max(1, m.num_layers);
  const bool offload = !cpu && where.gpu_layers >= 0 && where.gpu_layers < m.num_layers;
  if (offload) {
    // Output layer and gpu_layers on the GPU; the other layers are read and computed by the CPU.
    const ParamCounts c = count_params(m);
    const double output = static_cast<double>(c.lm_head > 0 ? c.lm_head : c.embedding) * bytes_per_param(s);
    const double kv = kv_bytes_per_device(m, s, context, 1);
    const double gpu_share = static_cast<double>(where.gpu_layers) / layers;
    const double layer_part = std::max(0.0, weights - output) + kv;
    t.memory_s = (output + gpu_share * layer_part) / bw;
    t.compute_s = tf > 0 ? flops * gpu_share / tf : 0;
    const double host_bw = effective_bandwidth_gb_per_s(hw, true) * 1e9;
    const double host_tf = effective_tflops(hw, true) * 1e12;
    const double cpu_memory = (1.0 - gpu_share) * layer_part / host_bw;
    const double cpu_compute = host_tf > 0 ? flops * (1.0 - gpu_share) / host_tf : 0;
    t.offload_s = std::max(cpu_memory, cpu_compute);
  } else if (s.engine == Engine::transformers) {
    // transformers' DynamicCache appends with torch.cat: each step reads the layer's cache and
    // writes a one-token-longer copy, besides attention's read: 3 × the cache's bytes.
    // With several GPUs, accelerate's device_map="auto" puts layers on each and runs them one
    // GPU after another, so the devices do not add bandwidth.
    t.memory_s = (weights + 3.0 * kv_bytes_per_device(m, s, context, 1)) / bw;
    t.compute_s = tf > 0 ? flops / tf : 0;
  } else {
    t.memory_s = (weights / tp + kv_bytes_per_device(m, s, context, tp)) / bw;
    t.compute_s = tf > 0 ? flops / tp / tf : 0;
    if (tp > 1 && m.has_architecture()) {
      // Two all-reduces per layer (after attention and after the MLP) of batch × hidden × 2 bytes.
      t.communication_s = 2.0 * layers * allreduce_seconds(hw, tp, batch * static_cast<double>(m.hidden_size) * 2.0);
    }
  }
  const double device = std::max({t.memory_s, t.compute_s, t.host_launch_s});
  t.total_s = device + t.offload_s + t.communication_s + t.fixed_s;
  if (t.offload_s > device) t.bound = "bound.cpu_layers";
  else if (device == t.host_launch_s) t.bound = "bound.kernel_launches";
  else if (device == t.compute_s) t.bound = "bound.compute";
  else t.bound = cpu ? "bound.memory_bandwidth_cpu" : "bound.memory_bandwidth";
  if (t.fixed_s > device && t.offload_s <= device) t.bound = "bound.engine_overhead";
  return t;
}

double prefill_seconds(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where) {
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  const int tp = cpu ? 1 : std::max(1, where.gpus);
  const double tokens = static_cast<double>(s.input_tokens) * static_cast<double>(s.batch);
  // Causal attention over the prompt: token t meets t keys; summed, half of T × KV(T) per sequence.
  const double attention = 0.5 * attention_flops_per_token(m, s.input_tokens) * tokens;
  const double flops = 2.0 * compute_params(m) * tokens + attention;
  const double tf = effective_tflops(hw, cpu) * 1e12;
  if (tf <= 0) return 0;
  const double weights = params_read_per_step(m, s.batch) * bytes_per_param(s);
  const double bw = effective_bandwidth_gb_per_s(hw, cpu) * 1e9;
  const bool offload = !cpu && where.gpu_layers >= 0 && where.gpu_layers < m.num_layers;
  double seconds = 0;
  if (offload) {
    // llama.cpp runs large prompt batches of CPU layers on the GPU too, copying their weights over
    // PCIe (ggml-cuda offloads ops with batch ≥ 32): those layers cost max(copy, compute).
    const double gpu_share = static_cast<double>(where.gpu_layers) / std::max(1, m.num_layers);
    const double pcie = (hw.pcie_gb_per_s > 0 ? hw.pcie_gb_per_s : 16.0) * 1e9;
    seconds = std::max(flops * gpu_share / tf, weights * gpu_share / bw) +
              std::max(flops * (1 - gpu_share) / tf, weights * (1 - gpu_share) / pcie);
  } else if (s.engine == Engine::transformers && tp > 1) {
    seconds = std::max(flops / tf, weights / bw);
  } else {
    seconds = std::max(flops / tp / tf, weights / tp / bw);
    if (tp > 1 && m.has_architecture()) {
      seconds += 2.0 * std::max(1, m.num_layers) * allreduce_seconds(hw, tp, tokens * static_cast<double>(m.hidden_size) * 2.0);
    }
  }
  return seconds;
}

Throughput estimate_throughput(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw,
                               const SpeedPlacement& where, const SpeedOptions& options) {
  Throughput r;
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  if (effective_bandwidth_gb_per_s(hw, cpu) <= 0) return r;
  r.known = true;
  const std::int64_t middle = s.input_tokens + std::max<std::int64_t>(1, s.output_tokens / 2);
  r.step = decode_step(m, s, hw, where, middle, options);
  r.decode_tokens_per_s = 1.0 / r.step.total_s;
  r.decode_tokens_per_s_total = static_cast<double>(s.batch) / r.step.total_s;
  const int tp = cpu ? 1 : std::max(1, where.gpus);
  r.bytes_per_step = static_cast<std::int64_t>(params_read_per_step(m, s.batch) * bytes_per_param(s) / tp +
                                               kv_bytes_per_device(m, s, middle, tp));
  r.flops_per_step = (2.0 * compute_params(m) + attention_flops_per_token(m, middle)) * static_cast<double>(s.batch);
  const double prefill = prefill_seconds(m, s, hw, where);
  if (prefill > 0) {
    // The prompt pass pays the engine's per-step costs once too.
    const StepTime first = decode_step(m, s, hw, where, s.input_tokens + 1, options);
    const double prompt_pass = prefill + first.fixed_s + first.communication_s;
    r.prefill_tokens_per_s = static_cast<double>(s.input_tokens) * static_cast<double>(s.batch) / prompt_pass;
    r.time_to_first_token_s = prompt_pass;
    if (s.output_tokens > 0) {
      r.generation_tokens_per_s = static_cast<double>(s.output_tokens) /
                                  (r.time_to_first_token_s + static_cast<double>(s.output_tokens - 1) * r.step.total_s);
    }
  } else if (s.output_tokens > 0) {
    r.generation_tokens_per_s = r.decode_tokens_per_s;
  }
  return r;
}

CpuVsGpu compare_cpu_gpu(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& cpu_hw, const HardwareSpec& gpu_hw,
                         const SpeedPlacement& gpu_where) {
  CpuVsGpu r;
  InferenceSettings one = s;
  one.batch = 1;
  const std::int64_t middle = s.input_tokens + std::max<std::int64_t>(1, s.output_tokens / 2);
  const SpeedPlacement on_cpu{0, -1};
  r.cpu_tokens_per_s = 1.0 / decode_step(m, one, cpu_hw, on_cpu, middle).total_s;
  r.gpu_tokens_per_s = 1.0 / decode_step(m, one, gpu_hw, gpu_where, middle).total_s;
  for (std::int64_t b = 1; b <= 1024; b *= 2) {
    InferenceSettings batched = s;
    batched.batch = b;
    const double cpu = static_cast<double>(b) / decode_step(m, batched, cpu_hw, on_cpu, middle).total_s;
    const double gpu = static_cast<double>(b) / decode_step(m, batched, gpu_hw, gpu_where, middle).total_s;
    if (gpu > cpu) {
      r.crossover_batch = b;
      break;
    }
  }
  r.cpu_is_enough = r.cpu_tokens_per_s >= kReadingTokensPerS;
  r.note = Message(r.cpu_is_enough ? "cpu_vs_gpu.cpu_is_enough" : "cpu_vs_gpu.use_the_gpu")
               .text("cpu", cpu_hw.name)
               .decimal("cpu_tokens_per_s", r.cpu_tokens_per_s, 1)
               .decimal("reading_tokens_per_s", kReadingTokensPerS, 1)
               .text("format", s.weights->id)
               .decimal("gpu_tokens_per_s", r.gpu_tokens_per_s, 0);
  if (r.crossover_batch == 0) r.note.then(Message("cpu_vs_gpu.cpu_stays_ahead"));
  else if (r.crossover_batch > 1) r.note.then(Message("cpu_vs_gpu.gpu_ahead_from_batch").integer("batch", r.crossover_batch));
  return r;
}


}  // namespace llmsizer
