// SPDX-License-Identifier: MIT
#include "llmsizer/throughput.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "llmsizer/hardware.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/machine.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/serve_engine.hpp"

namespace llmsizer {
namespace {

/// Kernels per decoder layer of a fused runtime (norm, QKV GEMM, rotary, cache write, attention,
/// output GEMM, norm, gate/up GEMM, activation, down GEMM, residual adds): 12.
constexpr int kFusedKernelsPerLayer = 12;
/// PyTorch operators per decoder layer in eager transformers (two RMSNorms of ~8 ops each, three
/// projections, rotary ~12 ops, cache concatenation, repeat_kv, attention, output projection, MLP
/// 5 ops, residual adds): ~45. Each is at least one kernel on the GPU.
constexpr int kEagerOpsPerLayer = 45;

// ---- Engines as they run one step ---------------------------------------------------------------

/// How attention reads the cache in a decode step.
enum class AttentionRead {
  shared_kv,       ///< each KV head's cache is read once for its whole query group (PagedAttention, FlashInfer, ggml)
  per_query_head,  ///< every query head reads its K and V on its own, at the engine's own rate
};

/// How the experts of an MoE layer run.
enum class MoeRun {
  fused,             ///< one grouped kernel reads the touched experts (vLLM/SGLang fused_moe, ggml mul_mat_id)
  loop_all_experts,  ///< Python loop over every expert, each iteration synchronizing (transformers < 4.53)
  loop_hit_experts,  ///< the same loop over the experts the step's tokens chose (transformers ≥ 4.53)
};

/// What one engine does per step, besides reading weights.
struct EngineModel {
  double host_per_layer_s = 0;    ///< host time per decoder layer and forward (eager engines)
  double host_per_step_s = 0;     ///< host time per forward outside the layers (embedding, head, sampling)
  int kernels_per_layer = kFusedKernelsPerLayer;
  bool graphs = false;            ///< decode replays a CUDA graph: no per-kernel host time
  double fixed_s = 0;             ///< per step outside the model, serialized with it (scheduler, sampler)
  AttentionRead attention = AttentionRead::shared_kv;
  double per_head_bytes_per_s = 0;  ///< per_query_head: K/V bytes per second read for one query head's share
  double cache_copies = 0;        ///< whole-cache copies per step (torch.cat: a read and a write = 2)
  bool kernel_floor = false;      ///< eager kernels each take at least kKernelFloorS on the GPU
  MoeRun moe = MoeRun::fused;
  bool pipeline = false;          ///< several GPUs hold consecutive layers (device_map), not tensor parallel
};

bool version_before(int version, int threshold) { return version > 0 && version < threshold; }

/// The host time to build one forward's graph for `s`'s engine: llama.cpp builds before graph reuse
/// (throughput.hpp kLlamaCppGraphBuildSecondsPerLayer), per decoder layer; nothing for other engines.
double llama_cpp_graph_build_s(const ModelSpec& m, const InferenceSettings& s) {
  if (s.engine != Engine::llama_cpp) return 0.0;
  return std::max(1, m.num_layers) * llama_cpp_graph_build_s_per_layer(s.engine_version);
}

/** The GPU time llama.cpp's small decode kernels take, for `share` of its layers on the GPU: each
 *  kernel runs at least a fixed time whatever its work (Metal on Apple silicon: kMetalDispatchS;
 *  CUDA, its graph replayed: kLlamaCppCudaKernelS), max(work, floor). Both figures are a tiny
 *  kernel's whole time in the chain (an rms_norm of one token), so they bound a kernel from below
 *  and say nothing of a gap added to a large one: the matrix products and flash attention, whose
 *  work is the weights and the cache at the bandwidth (counted above), are taken to exceed it; the
 *  others (norms, rope, cache writes, softmax, adds, activations on one token's activations, a few
 *  KB) are far under it and take the floor each. Nothing for other engines or a forward of several
 *  tokens. */
double llama_cpp_dispatch_s(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, std::int64_t tokens, double share) {
  if ((s.engine != Engine::llama_cpp && s.engine != Engine::ollama) || tokens != 1 || share <= 0) return 0.0;
  const double per_dispatch = is_apple(hw) ? kMetalDispatchS : kLlamaCppCudaKernelS;
  return share * static_cast<double>(llama_cpp_decode_dispatches(m, s.flash_attention, s.cache)) * per_dispatch;
}

/// PyTorch operators one litgpt Block.forward launches at decode (throughput.hpp: counted from
/// lit_gpt/model.py and rmsnorm.py).
int litgpt_ops_per_layer(const ModelSpec& m) {
  const int norm = m.norm_has_bias ? kLitgptLayerNormOps : kLitgptRmsNormOps;
  const bool grouped = m.num_kv_heads > 0 && m.num_kv_heads < m.num_attention_heads;
  return m.norms_per_layer * norm + kLitgptAttentionOps + (grouped ? kLitgptGroupedKvCopyOps : 0) +
         (m.gated_mlp ? kLitgptGatedMlpOps : kLitgptMlpOps) + kLitgptResidualOps;
}

EngineModel engine_model(const ModelSpec& m, const InferenceSettings& s, std::int64_t context, const SpeedOptions& options) {
  const SpeedCalibration& cal = *options.calibration;
  EngineModel e;
  switch (s.engine) {
    case Engine::generic:
      e.host_per_layer_s = kFusedKernelsPerLayer * kKernelLaunchS;
      break;
    case Engine::transformers:
      e.host_per_layer_s =
          version_before(s.engine_version, kTransformersFastHostVersion) ? cal.transformers_layer_host_old_s : cal.transformers_layer_host_s;
      e.kernels_per_layer = kEagerOpsPerLayer;
      e.attention = AttentionRead::per_query_head;
      e.per_head_bytes_per_s = cal.transformers_decode_attention_bytes_per_s;
      e.kernel_floor = true;
      e.cache_copies = 2.0;  // DynamicCache.update: torch.cat([cache, new]) per layer and step
      e.moe = version_before(s.engine_version, kTransformersHitExpertsVersion) ? MoeRun::loop_all_experts : MoeRun::loop_hit_experts;
      e.pipeline = true;
      break;
    case Engine::autoawq:
      e.host_per_layer_s = cal.auto_awq_fused_layer_host_s;
      e.attention = AttentionRead::per_query_head;
      e.per_head_bytes_per_s = cal.auto_awq_decode_attention_bytes_per_s;
      e.moe = MoeRun::loop_hit_experts;
      e.pipeline = true;
      break;
    case Engine::litgpt:
      e.kernels_per_layer = litgpt_ops_per_layer(m);
      e.host_per_layer_s = e.kernels_per_layer * kEagerGptOpS;
      e.host_per_step_s = kLitgptStepOps * kEagerGptOpS;
      e.kernel_floor = true;
      e.attention = AttentionRead::per_query_head;
      e.per_head_bytes_per_s = cal.transformers_decode_attention_bytes_per_s;
      e.moe = MoeRun::loop_hit_experts;
      e.pipeline = true;
      break;
    case Engine::vllm: {
      e.graphs = !options.enforce_eager && context <= kVllmGraphMaxContext;
      e.host_per_layer_s = e.graphs ? 0.0 : kFusedKernelsPerLayer * cal.eager_op_s;
      // The host time per step of the serving engine at this version (serve_engine.hpp): V0's
      // measured 3.8 ms before 0.8, V1's from 0.8 and when no version is named.
      e.fixed_s = serve_engine_profile(ServeEngine::vllm, s.engine_version, 1, false, 0, {}).step_overhead_s;
      break;
    }
    case Engine::sglang:
      e.graphs = true;
      e.host_per_layer_s = 0;
      e.fixed_s = cal.sglang_step_overhead_s;
      break;
    case Engine::llama_cpp:
    case Engine::ollama:  // llama.cpp's llama-server
      // llama.cpp replays a CUDA graph per token (ggml-cuda, since 2024): launches are replays.
      e.graphs = true;
      e.host_per_layer_s = 0;
      // A build before graph reuse first builds the forward's graph on the host, the device idle
      // (Ollama's own version numbering names no llama.cpp build: taken as the current one).
      e.fixed_s = llama_cpp_graph_build_s(m, s);
      break;
  }
  return e;
}

/// How an engine runs one weight format's matrix-vector products at decode.
struct LinearKernel {
  double bandwidth_share = 1.0;  ///< of the device's effective bandwidth the kernel reaches
  double host_s = 0;             ///< host time per linear call beyond the engine's per-layer time
  bool synchronizes = false;     ///< the call waits for the device (host and GPU take turns)
};

/// Host time a bitsandbytes linear adds to the F.linear call it replaces (throughput.hpp: counted
/// from bitsandbytes 0.41.1), its operators at the engine's `op_s` each.
double bnb_linear_host_s(const WeightFormat& f, double op_s) {
  if (f.scheme == QuantScheme::llm_int8) return (kBnbInt8LaunchingOps - 1) * op_s;  // one replaces F.linear
  double host = kBnb4bitDispatchOnlyCalls * kDispatchOnlyOpS;
  if (f.variant) host += kBnbNestedLaunchingOps * op_s + kBnbNestedDispatchOnlyCalls * kDispatchOnlyOpS;
  return host;
}

LinearKernel linear_kernel(const InferenceSettings& s, const SpeedCalibration& cal) {
  LinearKernel k;
  const WeightFormat& f = *s.weights;
  const bool sixteen = f.bits_per_weight() >= 16.0;
  switch (s.engine) {
    case Engine::transformers:
      switch (f.scheme) {
        case QuantScheme::fp8:
          k = {cal.transformers_fp8_bandwidth_share, cal.transformers_fp8_linear_host_s, true};
          break;
        case QuantScheme::gptq:
          if (f.bits < 8) k.bandwidth_share = cal.exllama_bandwidth_share;
          else if (version_before(s.engine_version, kTransformersFastHostVersion)) k.host_s = cal.auto_gptq_int8_linear_host_s;
          else k.host_s = cal.gptq_model_int8_linear_host_s;
          break;
        case QuantScheme::awq:
          k.host_s = cal.awq_gemm_linear_host_s;
          k.bandwidth_share = cal.awq_gemm_bandwidth_share;
          break;
        case QuantScheme::bnb_4bit:
        case QuantScheme::llm_int8:
          k.host_s = bnb_linear_host_s(f, cal.eager_op_s);
          break;
        default:
          if (!sixteen) k.bandwidth_share = kDequantBandwidthFactor;
      }
      break;
    case Engine::litgpt:
      if (f.scheme == QuantScheme::bnb_4bit || f.scheme == QuantScheme::llm_int8) k.host_s = bnb_linear_host_s(f, kEagerGptOpS);
      else if (!sixteen) k.bandwidth_share = kDequantBandwidthFactor;
      break;
    case Engine::autoawq:
      if (f.scheme == QuantScheme::awq) k.bandwidth_share = cal.auto_awq_gemm_bandwidth_share;
      break;
    case Engine::vllm:
      // vLLM ≥ 0.5: GPTQ 4/8-bit and FP8 run Marlin/CUTLASS kernels near the memory-bound ideal;
      // its plain AWQ GEMM kernel (before awq_marlin became the default) does not.
      if (f.scheme == QuantScheme::awq) k.bandwidth_share = cal.vllm_awq_bandwidth_share;
      break;
    case Engine::sglang:
      // BF16 cuBLAS, FP8 block kernels, awq_marlin (the Qwen3 table's settings); gptq_marlin like FP8.
      k.bandwidth_share = f.scheme == QuantScheme::awq ? cal.sglang_awq_bandwidth_share
                          : sixteen                    ? cal.sglang_bf16_bandwidth_share
                                                       : cal.sglang_fp8_bandwidth_share;
      break;
    case Engine::generic:
    case Engine::llama_cpp:
    case Engine::ollama: {
      const bool dequantizes = !sixteen && f.scheme != QuantScheme::fp8 && f.ecosystem != Ecosystem::gguf;
      if (dequantizes) k.bandwidth_share = kDequantBandwidthFactor;
      break;
    }
  }
  return k;
}

// ---- Model quantities -----------------------------------------------------------------------------

// The functions below take the model's counts (model.hpp: ModelCounts), counted once per request
// (MemoryByDevices) or per speed estimate: counting walks every layer, and counted again in each
// function it was a large part of a whole-catalog recommendation's time.

/// Parameters whose FLOPs every token pays: active parameters less the embedding lookup (a tied
/// table is used again as the output layer, which is a GEMM).
double compute_params(const ParamCounts& c) {
  return static_cast<double>(c.active - (c.lm_head > 0 ? c.embedding : 0));
}

/// Attention FLOPs per generated token per sequence at `context`: every cached K and V element
/// meets (query heads per KV head) queries with a multiply-add: 2 × group × KV elements.
double attention_flops_per_token(const ModelSpec& m, const ModelCounts& c, std::int64_t context) {
  if (!m.has_architecture()) return 0;
  return 2.0 * query_group(m) * static_cast<double>(c.kv_cache_elements(context));
}

/// Bytes of KV cache (and recurrent state) read per step on one of `tp` devices.
double kv_bytes_per_device(const ModelSpec& m, const ModelCounts& c, const InferenceSettings& s, std::int64_t context, int tp) {
  if (!m.has_architecture()) return 0;
  // kv_cache_bytes(m, *s.kv_cache, context, s.batch), from the counted layers.
  const std::int64_t kv = bytes_for_elements(c.kv_cache_elements(context) * s.batch, s.kv_cache->block_elements, s.kv_cache->block_bytes);
  double whole = static_cast<double>(kv) + static_cast<double>(c.recurrent_state_bytes(4) * s.batch);
  if (tp <= 1 || m.mla.kv_lora_rank > 0 || m.num_kv_heads == 0) return whole;
  const double here = std::max(1, m.num_kv_heads / tp);
  return whole / m.num_kv_heads * here;
}

/// Linear layers a decoder layer calls per forward: q, k, v, o (MLA: its four projections), then
/// gate/up/down (up/down without a gate); MoE layers the router and the shared expert(s), their
/// experts counted apart.
double linears_per_step(const ModelSpec& m, const ModelCounts& c) {
  if (!m.has_architecture()) return 0;
  const int mlp = m.gated_mlp ? 3 : 2;
  const int moe = c.moe_layers;
  const int dense = m.num_layers - moe;
  const double shared = m.moe.num_shared_experts > 0 || m.moe.shared_expert_intermediate_size > 0 ? mlp + (m.moe.shared_expert_gate ? 1 : 0) : 0;
  return 4.0 * m.num_layers + static_cast<double>(dense) * mlp + static_cast<double>(moe) * (1.0 + shared);
}

/// Linear calls one forward of `engine` makes. litgpt (lit_gpt/model.py of Lightning-AI/litgpt
/// 8641822, the commit of its resource tables) fuses q, k and v into one `attn` linear
/// (CausalSelfAttention: attn, proj), and its lm_head is an nn.Linear that Fabric's
/// BitsandbytesPrecision replaces like the others (no ignore_modules in generate/base.py): two
/// calls fewer per layer, one more per token.
double linear_calls_per_step(const ModelSpec& m, const ModelCounts& c, Engine engine) {
  const double linears = linears_per_step(m, c);
  if (engine != Engine::litgpt || !m.has_architecture() || m.mla.kv_lora_rank > 0) return linears;
  return linears - 2.0 * m.num_layers + 1.0;
}

/// Weight bytes one step reads, split into what every token uses and the routed experts the
/// batch touches, from the format's tensor-by-tensor layout (16-bit embeddings and lm_head of
/// GPTQ/AWQ/FP8 checkpoints included).
struct StepWeights {
  double dense = 0;    ///< attention, dense MLPs, shared experts, norms, lm_head
  double experts = 0;  ///< routed experts touched this step
  double total() const { return dense + experts; }
};

StepWeights step_weights(const ModelSpec& m, const ParamCounts& c, const WeightsLayout& layout, std::int64_t batch) {
  StepWeights w;
  const double embeddings = static_cast<double>(layout.class_bytes(TensorClass::embeddings));
  const bool tied = c.lm_head == 0;
  const auto routed = static_cast<double>(layout.routed_expert_bytes);
  // The embedding table is gathered (one row per token), not streamed; a tied table is streamed
  // as the output layer.
  w.dense = static_cast<double>(layout.total_bytes) - routed - (tied ? 0.0 : embeddings);
  if (routed > 0 && m.moe.num_experts > 0) {
    const double share = static_cast<double>(m.moe.experts_per_token) / m.moe.num_experts;
    const double touched = std::min(1.0, 1.0 - std::pow(1.0 - share, static_cast<double>(batch)));
    w.experts = routed * touched;
  }
  return w;
}

double allreduce_seconds(const HardwareSpec& hw, int tp, double bytes, const SpeedCalibration& cal) {
  if (tp <= 1) return 0;
  const double latency = all_reduce_latency_s(hw, cal);
  // Ring all-reduce moves 2 (n − 1)/n of the buffer over each link.
  return latency + 2.0 * (tp - 1) / tp * bytes / (device_link_gb_per_s(hw) * 1e9);
}

/// One forward over `tokens` new tokens per sequence at `context` cached tokens, on the GPU(s).
struct ForwardInput {
  std::int64_t tokens = 1;     ///< new tokens per sequence (1: decode)
  std::int64_t context = 1;    ///< tokens attended to by the last new token
};

}  // namespace

double query_group(const ModelSpec& m) {
  if (m.mla.kv_lora_rank > 0) return m.num_attention_heads;
  return static_cast<double>(m.num_attention_heads) / std::max(1, m.num_kv_heads);
}

double device_link_gb_per_s(const HardwareSpec& hw) {
  if (hw.link_gb_per_s > hw.pcie_gb_per_s) return hw.link_gb_per_s;  // NVLink (hardware_json: the larger of the two)
  return host_link_gb_per_s(hw);
}

double host_link_gb_per_s(const HardwareSpec& hw) {
  // A probe's device carries its measured pinned host-to-device rate: already what the link moves.
  if (!is_offered(hw) && hw.pcie_gb_per_s > 0) return hw.pcie_gb_per_s;
  return (hw.pcie_gb_per_s > 0 ? hw.pcie_gb_per_s : 16.0) * kPcieLinkEfficiency;  // PCIe 3.0 x16 as a floor
}

double all_reduce_latency_s(const HardwareSpec& hw, const SpeedCalibration& cal) {
  return hw.link_gb_per_s > hw.pcie_gb_per_s ? cal.all_reduce_latency_nvlink_s : kAllReduceLatencyPcieS;
}

HostSampling host_sampling(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where) {
  HostSampling h;
  if ((s.engine != Engine::llama_cpp && s.engine != Engine::ollama) || m.vocab_size <= 0) return h;
  const double vocab = static_cast<double>(m.vocab_size);
  h.sample_s = vocab * kLlamaCppSamplerSecondsPerLogit;
  // On a discrete GPU the output layer runs on the device (as device_step places it, a partial
  // offload too): its logits cross the host link.
  const bool over_link = where.gpus > 0 && !hw.is_cpu() && !hw.unified_memory;
  if (over_link) h.copy_s = vocab * kLogitBytes / (host_link_gb_per_s(hw) * 1e9);
  return h;
}

double effective_bandwidth_gb_per_s(const HardwareSpec& hw, bool cpu) {
  if (cpu) return (hw.measured_bandwidth_gb_per_s > 0 && hw.is_cpu() ? hw.measured_bandwidth_gb_per_s
                                                                      : hw.host_bandwidth_gb_per_s * kCpuBandwidthEfficiency);
  if (hw.measured_bandwidth_gb_per_s > 0) return hw.measured_bandwidth_gb_per_s;
  return hw.memory_bandwidth_gb_per_s * (hw.unified_memory ? kCpuBandwidthEfficiency : kGpuBandwidthEfficiency);
}

Message speed_basis(const HardwareSpec& hw, bool cpu) {
  if (!hw.speed_basis.id.empty()) return hw.speed_basis;
  const bool measured = hw.measured_bandwidth_gb_per_s > 0 && (!cpu || hw.is_cpu());
  if (measured) return Message("speed.basis.measured").text("name", hw.name).decimal("bandwidth", hw.measured_bandwidth_gb_per_s, 1);
  const double datasheet = cpu ? hw.host_bandwidth_gb_per_s : hw.memory_bandwidth_gb_per_s;
  if (!(datasheet > 0)) return Message();
  return Message(cpu && !hw.is_cpu() ? "speed.basis.host" : "speed.basis.datasheet").text("name", hw.name).decimal("bandwidth", datasheet, 1);
}

double effective_tflops(const HardwareSpec& hw, bool cpu) {
  if (cpu) return (hw.measured_tflops > 0 && hw.is_cpu() ? hw.measured_tflops : hw.host_tflops * kCpuMatmulEfficiency);
  if (hw.measured_tflops > 0) return hw.measured_tflops;
  return hw.matrix_tflops * kGpuMatmulEfficiency;
}

namespace {

double params_read_per_step(const ModelSpec& m, const ParamCounts& c, std::int64_t batch) {
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

}  // namespace

double params_read_per_step(const ModelSpec& m, std::int64_t batch) { return params_read_per_step(m, count_params(m), batch); }

double llama_cpp_graph_build_s_per_layer(int build) {
  return build > 0 && build <= kLlamaCppLastGraphRebuildBuild ? kLlamaCppGraphBuildSecondsPerLayer : 0.0;
}

namespace {

/// The GPU part of one forward (decode step or prefill) of an engine, by cause.
StepTime gpu_forward(const ModelSpec& m, const ModelCounts& counts, const InferenceSettings& s, const HardwareSpec& hw, int gpus,
                     const WeightsLayout& layout, const ForwardInput& in, const SpeedOptions& options) {
  const ParamCounts& c = counts.params;
  StepTime t;
  const SpeedCalibration& cal = *options.calibration;
  const EngineModel e = engine_model(m, s, in.context, options);
  const LinearKernel k = linear_kernel(s, cal);
  const bool pipeline = e.pipeline && gpus > 1;
  const int tp = pipeline ? 1 : std::max(1, gpus);
  const double batch = static_cast<double>(s.batch);
  const double tokens = static_cast<double>(in.tokens) * batch;
  const double layers = std::max(1, m.num_layers);
  const double bw = effective_bandwidth_gb_per_s(hw, false) * 1e9;
  const double tf = effective_tflops(hw, false) * 1e12;

  // Weights: the format's kernel streams them at its share of the bandwidth. A prefill of many
  // tokens touches every expert.
  const std::int64_t touching = in.tokens > 1 ? in.tokens * s.batch : s.batch;
  const StepWeights w = step_weights(m, c, layout, touching);
  double weights_s = w.total() / tp / (bw * k.bandwidth_share);

  // Attention over the cache (decode) and FLOPs.
  double attention_s = 0;
  const double kv = kv_bytes_per_device(m, counts, s, in.context, tp);
  if (in.tokens == 1) {
    if (e.attention == AttentionRead::per_query_head && m.has_architecture() && !(s.engine == Engine::transformers && !s.flash_attention)) {
      const double per_head = kv * query_group(m);  // every query head reads its K/V share
      attention_s = per_head / std::min(e.per_head_bytes_per_s, bw);
    } else if (e.attention == AttentionRead::per_query_head && m.has_architecture()) {
      // transformers SDPA/eager: repeat_kv copies K and V out to every query head (read the
      // cache, write the copies; no copy for MHA), then attention reads the copies.
      const double group = query_group(m);
      attention_s = (group > 1.0 ? kv + 2.0 * kv * group : kv) / bw;
    } else {
      attention_s = kv / bw;
    }
    attention_s += e.cache_copies * kv / bw;
  }
  // A prompt's causal attention: half the context per token on average; AutoAWQ's eager prompt
  // attention computes every score of the square (the mask added afterwards).
  const bool eager_prompt_scores = s.engine == Engine::autoawq && in.tokens > 1 && m.has_architecture();
  const double prompt_attention = in.tokens > 1 ? (eager_prompt_scores ? 1.0 : 0.5) * attention_flops_per_token(m, counts, in.context) * tokens : 0.0;
  const double flops = (2.0 * compute_params(c) * tokens + (in.tokens == 1 ? attention_flops_per_token(m, counts, in.context) * batch : prompt_attention)) / tp;
  t.compute_s = tf > 0 ? flops / tf : 0;

  // Small kernels: each takes a minimum time on the GPU whatever its size.
  const double floor_s = e.kernel_floor ? layers * e.kernels_per_layer * kKernelFloorS : 0.0;
  // AutoAWQ's eager prompt attention: memory-bound element-wise kernels over the materialized
  // scores, run between the GEMMs rather than under them (throughput.hpp kAutoAwqPromptScoreBytes).
  const double prompt_scores_s =
      eager_prompt_scores ? layers * batch * m.num_attention_heads / tp * static_cast<double>(in.tokens) * static_cast<double>(in.context) * kAutoAwqPromptScoreBytes / bw : 0.0;
  t.attention_s = attention_s + prompt_scores_s;
  t.dispatch_s = llama_cpp_dispatch_s(m, s, hw, in.tokens, 1.0);
  t.memory_s = weights_s + attention_s + floor_s + t.dispatch_s;

  // Host: Python and the dispatcher per layer, and per linear call of the format's wrapper.
  const double linears = linear_calls_per_step(m, counts, s.engine);
  t.host_launch_s = e.host_per_layer_s * layers + e.host_per_step_s + (e.graphs ? 0.0 : k.host_s * linears);
  // Quantized GEMM kernels (Marlin, AWQ) take a minimum time per call on the GPU whatever the
  // matrix: vLLM/SGLang fuse QKV and gate/up, so 4 calls per layer.
  if ((s.engine == Engine::vllm || s.engine == Engine::sglang) && s.weights->bits_per_weight() < 16.0) {
    t.memory_s += layers * 4.0 * cal.quant_gemm_floor_s;
  }

  // MoE experts run in a Python loop: each iteration synchronizes (torch.where on the mask).
  if (m.moe.num_experts > 0 && e.moe != MoeRun::fused) {
    const double experts = e.moe == MoeRun::loop_all_experts || in.tokens > 1
                               ? m.moe.num_experts
                               : std::min<double>(m.moe.num_experts, m.moe.num_experts * (1.0 - std::pow(1.0 - static_cast<double>(m.moe.experts_per_token) / m.moe.num_experts, batch)));
    const double mlp = m.gated_mlp ? 3 : 2;
    const double per_iteration = cal.moe_loop_iteration_s + (k.synchronizes ? mlp * k.host_s : 0.0);
    t.serial_s = counts.moe_layers * experts * per_iteration;
  } else if (m.moe.num_experts > 0) {
    // Fused MoE kernels read the touched experts at their own share of the bandwidth.
    double fused_share = 1.0;
    if (s.engine == Engine::vllm) fused_share = cal.vllm_fused_moe_bandwidth_share / k.bandwidth_share;
    if (s.engine == Engine::sglang) fused_share = cal.sglang_fused_moe_share_of_dense;
    t.memory_s += w.experts / tp / (bw * k.bandwidth_share) * (1.0 / fused_share - 1.0);
    if (s.engine == Engine::sglang && s.weights->scheme == QuantScheme::gptq) {
      // GPTQ-Marlin MoE: both GEMMs of every expert launched, each at its floor.
      t.memory_s += counts.moe_layers * static_cast<double>(m.moe.num_experts) * 2.0 * cal.marlin_moe_expert_gemm_s;
    }
  }

  // Several GPUs: tensor parallel all-reduces, or pipeline hand-offs between consecutive GPUs.
  if (tp > 1 && m.has_architecture()) {
    // Two all-reduces per layer (after attention and after the MLP) of tokens × hidden × 2 bytes.
    t.communication_s = 2.0 * layers * allreduce_seconds(hw, tp, tokens * static_cast<double>(m.hidden_size) * 2.0, cal);
  } else if (pipeline && m.has_architecture()) {
    // accelerate device_map: the hidden state moves to the next GPU (gpus − 1 copies) and every
    // module's forward runs through an AlignDevicesHook (host time per layer).
    t.communication_s = (gpus - 1) * (kDeviceCopyLatencyS + tokens * static_cast<double>(m.hidden_size) * 2.0 / (device_link_gb_per_s(hw) * 1e9));
    t.host_launch_s += layers * kAccelerateHookLayerS;
  }
  t.fixed_s = e.fixed_s;
  const double device = std::max(t.memory_s, t.compute_s) + prompt_scores_s;
  // A synchronizing kernel makes host and device take turns; otherwise the host runs ahead.
  const double overlapped = k.synchronizes ? t.host_launch_s + device : std::max(device, t.host_launch_s);
  t.overlapped_s = overlapped;
  t.host_waits = k.synchronizes;
  t.total_s = overlapped + t.serial_s + t.communication_s + t.fixed_s;
  if (t.serial_s > overlapped) t.bound = "bound.expert_loop";
  else if (k.synchronizes) t.bound = "bound.synchronizing_kernels";
  else if (t.host_launch_s >= device) t.bound = "bound.kernel_launches";
  else if (device == t.compute_s) t.bound = "bound.compute";
  else t.bound = "bound.memory_bandwidth";
  if (t.fixed_s > overlapped) t.bound = "bound.engine_overhead";
  return t;
}

/// The settings' weights layout, else one laid out into `own`. Empty until needed: a recommendation
/// asks for thousands of steps, all with a layout, and an empty layout made for each was memory
/// cleared for nothing.
const WeightsLayout& layout_of(const ModelSpec& m, const InferenceSettings& s, std::optional<WeightsLayout>& own) {
  if (s.weights_layout != nullptr) return *s.weights_layout;
  return own.emplace(weights_layout(m, *s.weights, s.group_size));
}

/// The model's counts: the settings' when the caller counted them once (MemoryByDevices), else counted into `own`.
const ModelCounts& counts_of(const ModelSpec& m, const InferenceSettings& s, ModelCounts& own) {
  if (s.model_counts != nullptr) return *s.model_counts;
  own = count_model(m);
  return own;
}

double bytes_per_param(const InferenceSettings& s) {
  return static_cast<double>(s.weights->block_bytes) / static_cast<double>(s.weights->block_elements);
}

/// The decode step on the device(s), without the host's sampling.
StepTime device_step(const ModelSpec& m, const ModelCounts& counts, const InferenceSettings& s, const HardwareSpec& hw,
                     const SpeedPlacement& where, std::int64_t context, const SpeedOptions& options) {
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  const bool offload = !cpu && where.gpu_layers >= 0 && where.gpu_layers < m.num_layers;
  if (!cpu && !offload) {
    std::optional<WeightsLayout> own;
    return gpu_forward(m, counts, s, hw, where.gpus, layout_of(m, s, own), ForwardInput{1, context}, options);
  }
  const ParamCounts& c = counts.params;
  StepTime t;
  const double batch = static_cast<double>(s.batch);
  const double weights = params_read_per_step(m, c, s.batch) * bytes_per_param(s);
  const double flops = (2.0 * compute_params(c) + attention_flops_per_token(m, counts, context)) * batch;
  const double bw = effective_bandwidth_gb_per_s(hw, cpu) * 1e9;
  const double tf = effective_tflops(hw, cpu) * 1e12;
  const int layers = std::max(1, m.num_layers);
  if (offload) {
    // Output layer and gpu_layers on the GPU; the other layers are read and computed by the CPU
    // (llama.cpp -ngl: the engine that offloads layers).
    const double output = static_cast<double>(c.lm_head > 0 ? c.lm_head : c.embedding) * bytes_per_param(s);
    const double kv = kv_bytes_per_device(m, counts, s, context, 1);
    const double gpu_share = static_cast<double>(where.gpu_layers) / layers;
    const double layer_part = std::max(0.0, weights - output) + kv;
    t.dispatch_s = llama_cpp_dispatch_s(m, s, hw, 1, gpu_share);
    t.memory_s = (output + gpu_share * layer_part) / bw + t.dispatch_s;
    t.compute_s = tf > 0 ? flops * gpu_share / tf : 0;
    const double host_bw = effective_bandwidth_gb_per_s(hw, true) * 1e9;
    const double host_tf = effective_tflops(hw, true) * 1e12;
    const double cpu_memory = (1.0 - gpu_share) * layer_part / host_bw;
    const double cpu_compute = host_tf > 0 ? flops * (1.0 - gpu_share) / host_tf : 0;
    t.offload_s = std::max(cpu_memory, cpu_compute);
  } else {
    // CPU kernels are function calls; thread hand-offs are inside the compute time.
    t.memory_s = (weights + kv_bytes_per_device(m, counts, s, context, 1)) / bw;
    t.compute_s = tf > 0 ? flops / tf : 0;
  }
  const double device = std::max(t.memory_s, t.compute_s);
  t.overlapped_s = device;  // no host launches here: CPU kernels are function calls
  // The graph is built before the forward runs, on the CPU as on a GPU (llama.cpp before graph reuse).
  t.fixed_s = llama_cpp_graph_build_s(m, s);
  t.total_s = device + t.offload_s + t.fixed_s;
  if (t.offload_s > device) t.bound = "bound.cpu_layers";
  else if (device == t.compute_s) t.bound = "bound.compute";
  else t.bound = cpu ? "bound.memory_bandwidth_cpu" : "bound.memory_bandwidth";
  if (t.fixed_s > std::max(device, t.offload_s)) t.bound = "bound.engine_overhead";
  return t;
}

/// The decode step with llama.cpp's sampling of every sequence's row: the host reads the logits back
/// and samples while the device waits for the next token (serialized, in fixed_s).
StepTime decode_step(const ModelSpec& m, const ModelCounts& counts, const InferenceSettings& s, const HardwareSpec& hw,
                     const SpeedPlacement& where, std::int64_t context, const SpeedOptions& options) {
  StepTime t = device_step(m, counts, s, hw, where, context, options);
  const double sampling = static_cast<double>(s.batch) * host_sampling(m, s, hw, where).per_row();
  if (sampling > 0) {
    t.fixed_s += sampling;
    t.total_s += sampling;
    if (t.fixed_s > t.overlapped_s) t.bound = "bound.engine_overhead";
  }
  return t;
}

double prefill_seconds(const ModelSpec& m, const ModelCounts& counts, const InferenceSettings& s, const HardwareSpec& hw,
                       const SpeedPlacement& where, const SpeedCalibration& cal) {
  const ParamCounts& c = counts.params;
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  const double tokens = static_cast<double>(s.input_tokens) * static_cast<double>(s.batch);
  const double tf = effective_tflops(hw, cpu) * 1e12;
  if (tf <= 0) return 0;
  const bool offload = !cpu && where.gpu_layers >= 0 && where.gpu_layers < m.num_layers;
  if (!cpu && !offload) {
    // One forward over the prompt: FLOPs or the weights, and never under the host's time to
    // issue one forward (an eager engine's per-layer floor), plus the synchronizing MoE loop;
    // AutoAWQ's benchmark times the first forward of a freshly loaded model, which pays a fixed
    // first-call cost on top (speed_calibration.hpp auto_awq_first_forward_s).
    std::optional<WeightsLayout> own;
    // The prompt's forward with the same constants (the other speed options at their defaults).
    SpeedOptions prompt;
    prompt.calibration = &cal;
    const StepTime t = gpu_forward(m, counts, s, hw, where.gpus, layout_of(m, s, own), ForwardInput{s.input_tokens, s.input_tokens}, prompt);
    const double first_forward = s.engine == Engine::autoawq ? cal.auto_awq_first_forward_s : 0.0;
    return t.total_s - t.fixed_s + first_forward;
  }
  // Causal attention over the prompt: token t meets t keys; summed, half of T × KV(T) per sequence.
  const double attention = 0.5 * attention_flops_per_token(m, counts, s.input_tokens) * tokens;
  const double flops = 2.0 * compute_params(c) * tokens + attention;
  const double weights = params_read_per_step(m, c, s.batch) * bytes_per_param(s);
  const double bw = effective_bandwidth_gb_per_s(hw, cpu) * 1e9;
  if (offload) {
    // llama.cpp runs large prompt batches of CPU layers on the GPU too, copying their weights over
    // PCIe (ggml-cuda offloads ops with batch ≥ 32): those layers cost max(copy, compute). The copy
    // moves at the host link's achievable rate (host_link_gb_per_s: kPcieLinkEfficiency of the
    // datasheet, a probe's measured pinned rate as it is), as the logits' copy does.
    const double gpu_share = static_cast<double>(where.gpu_layers) / std::max(1, m.num_layers);
    const double pcie = host_link_gb_per_s(hw) * 1e9;
    return std::max(flops * gpu_share / tf, weights * gpu_share / bw) + std::max(flops * (1 - gpu_share) / tf, weights * (1 - gpu_share) / pcie);
  }
  return std::max(flops / tf, weights / bw);
}

}  // namespace

StepTime decode_step(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where,
                     std::int64_t context, const SpeedOptions& options) {
  ModelCounts own;
  return decode_step(m, counts_of(m, s, own), s, hw, where, context, options);
}

StepTime device_decode_step(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where,
                            std::int64_t context, const SpeedOptions& options) {
  ModelCounts own;
  return device_step(m, counts_of(m, s, own), s, hw, where, context, options);
}

double prefill_seconds(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where) {
  ModelCounts own;
  return prefill_seconds(m, counts_of(m, s, own), s, hw, where, kCitedSpeedCalibration);
}

Throughput estimate_throughput(const ModelSpec& m, const InferenceSettings& s, const HardwareSpec& hw,
                               const SpeedPlacement& where, const SpeedOptions& options) {
  Throughput r;
  const bool cpu = where.gpus == 0 || hw.is_cpu();
  if (effective_bandwidth_gb_per_s(hw, cpu) <= 0) return r;
  r.known = true;
  // The settings with the weights laid out (on a GPU the step reads them tensor by tensor), copied
  // only when the caller has not laid them out.
  const InferenceSettings* laid_out = &s;
  std::optional<InferenceSettings> with_layout;
  std::optional<WeightsLayout> own;
  if (!cpu && s.weights_layout == nullptr) {
    with_layout.emplace(s);
    with_layout->weights_layout = &layout_of(m, s, own);
    laid_out = &*with_layout;
  }
  const InferenceSettings& settings = *laid_out;
  // Decode steps cost a linear function of the context: the step at the middle of the generation
  // is their mean.
  const std::int64_t middle = s.input_tokens + std::max<std::int64_t>(1, s.output_tokens / 2);
  ModelCounts own_counts;
  const ModelCounts& counts = counts_of(m, s, own_counts);
  const ParamCounts& c = counts.params;
  r.step = decode_step(m, counts, settings, hw, where, middle, options);
  r.decode_tokens_per_s = 1.0 / r.step.total_s;
  r.decode_tokens_per_s_total = static_cast<double>(s.batch) / r.step.total_s;
  const bool pipeline = !cpu && where.gpus > 1 && (s.engine == Engine::transformers || s.engine == Engine::autoawq || s.engine == Engine::litgpt);
  const int tp = cpu || pipeline ? 1 : std::max(1, where.gpus);
  r.bytes_per_step = static_cast<std::int64_t>(params_read_per_step(m, c, s.batch) * bytes_per_param(s) / tp +
                                               kv_bytes_per_device(m, counts, s, middle, tp));
  r.flops_per_step = (2.0 * compute_params(c) + attention_flops_per_token(m, counts, middle)) * static_cast<double>(s.batch);
  const double prefill = prefill_seconds(m, counts, settings, hw, where, *options.calibration);
  if (prefill > 0) {
    // The prompt pass pays the engine's per-step costs once too.
    const StepTime first = decode_step(m, counts, settings, hw, where, s.input_tokens + 1, options);
    const double prompt_pass = prefill + first.fixed_s + (cpu ? first.communication_s : 0.0);
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
  WeightsLayout own;
  if (one.weights_layout == nullptr) {
    own = weights_layout(m, *s.weights, s.group_size);
    one.weights_layout = &own;
  }
  ModelCounts own_counts;
  if (one.model_counts == nullptr) {
    own_counts = count_model(m);
    one.model_counts = &own_counts;
  }
  const std::int64_t middle = s.input_tokens + std::max<std::int64_t>(1, s.output_tokens / 2);
  const SpeedPlacement on_cpu{0, -1};
  r.cpu_tokens_per_s = 1.0 / decode_step(m, one, cpu_hw, on_cpu, middle).total_s;
  r.gpu_tokens_per_s = 1.0 / decode_step(m, one, gpu_hw, gpu_where, middle).total_s;
  for (std::int64_t b = 1; b <= 1024; b *= 2) {
    InferenceSettings batched = one;
    batched.batch = b;
    const double cpu = static_cast<double>(b) / decode_step(m, batched, cpu_hw, on_cpu, middle).total_s;
    const double gpu = static_cast<double>(b) / decode_step(m, batched, gpu_hw, gpu_where, middle).total_s;
    if (gpu > cpu) {
      r.crossover_batch = b;
      break;
    }
  }
  r.cpu_is_enough = r.cpu_tokens_per_s >= kReadingTokensPerS;
  // A laptop's or a Mac's own CPU (machine.hpp own_cpu) is said as such, not by the device's name.
  const bool is_own = cpu_hw.id == kOwnCpuId;
  Message note(r.cpu_is_enough ? (is_own ? "cpu_vs_gpu.own_cpu_is_enough" : "cpu_vs_gpu.cpu_is_enough")
                               : (is_own ? "cpu_vs_gpu.own_cpu_use_the_gpu" : "cpu_vs_gpu.use_the_gpu"));
  if (!is_own) note.text("cpu", cpu_hw.name);
  r.note = note
               .decimal("cpu_tokens_per_s", r.cpu_tokens_per_s, 1)
               .decimal("cpu_tokens_per_s", r.cpu_tokens_per_s, 1)
               .decimal("reading_tokens_per_s", kReadingTokensPerS, 1)
               .text("format", s.weights->id)
               .decimal("gpu_tokens_per_s", r.gpu_tokens_per_s, 0);
  if (r.crossover_batch == 0) r.note.then(Message("cpu_vs_gpu.cpu_stays_ahead"));
  else if (r.crossover_batch > 1) r.note.then(Message("cpu_vs_gpu.gpu_ahead_from_batch").integer("batch", r.crossover_batch));
  return r;
}


}  // namespace llmsizer
