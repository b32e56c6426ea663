// SPDX-License-Identifier: MIT
#pragma once
/// The time of one serving-engine step: a batch that mixes decode tokens (one per running
/// sequence) with prompt chunks, on one replica of tp × pp GPUs. Each operation is a roofline of
/// its own — the larger of its bytes over achievable bandwidth and its FLOPs over achievable compute
/// for the format — and the step adds them, the kernel launches it cannot hide, the tensor-parallel
/// all-reduces and the engine's host time per step (serve_engine.hpp).
///
/// Bytes: the dense weights once per step (per micro-batch of llama.cpp's -ub), the routed
/// experts the step's tokens touch (E × (1 − (1 − k/E)^tokens) of E per layer), every decode
/// sequence's KV cache, and each token's activations through the kernels between the GEMMs
/// (activation_elements_per_token). FLOPs: 2 × active parameters per token (the output layer only for the
/// tokens that make logits), attention 4 × layers × heads × head_dim per query and context token
/// (QKᵀ and AV, half the context for a prompt's own causal block).
///
/// Achievable fractions (throughput.hpp, each with its source): kGpuBandwidthEfficiency 0.8 of the
/// datasheet bandwidth (kCpuBandwidthEfficiency 0.7 on unified memory), kGpuMatmulEfficiency 0.6
/// of the dense tensor peak of the format the GEMMs run in (FP8 weights on a device with FP8 units:
/// its FP8 rate; NVFP4 on one with FP4 units: its FP4 rate; else the 16-bit rate); all-reduces
/// cross NVLink at its datasheet rate and PCIe at kPcieLinkEfficiency 0.75 of its own (NCCL's
/// topology model, device_link_gb_per_s). None of them is
/// chosen by looking at the serving measurements (data/validation/serving.json).
///
/// Left out: kernel tile quantization at small batches, communication overlapped with compute,
/// expert-parallel all-to-all (experts are sharded as tensor parallelism shards them), the
/// sampler's cost per sequence.
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/serve_engine.hpp"

namespace llmsizer {

/// The model on one replica, counted once: what every step reads and computes per GPU.
struct StepModel {
  double dense_weight_bytes = 0;     ///< per GPU: attention, dense MLPs, shared experts, norms, lm_head
  double routed_expert_bytes = 0;    ///< per GPU: every routed expert
  double expert_share = 0;           ///< experts per token / experts (0: dense)
  double experts_per_layer = 0;      ///< E
  double dense_flops_per_token = 0;  ///< per GPU, without the output layer
  double expert_flops_per_token = 0; ///< per GPU: the k routed experts
  double lm_head_flops_per_token = 0;///< per GPU, for tokens that make logits
  double kv_bytes_per_token = 0;     ///< per GPU, layers that keep every token
  /// Per GPU: the bytes one token's activations move through the elementwise kernels of the
  /// replica's layers (norms, rotary, cache writes, the MLP's activation, MoE's sum), per stage.
  double activation_bytes_per_token = 0;
  /// Of those, rotary and the cache write (ActivationElements::attention_prep), which a decode
  /// token skips where the engine's decode attention kernel does them (ServeEngineProfile).
  double decode_prep_bytes_skipped = 0;
  struct Windowed {
    std::int64_t window = 0;
    double bytes_per_token = 0;      ///< per GPU
  };
  std::vector<Windowed> windowed;    ///< sliding / chunked layers
  double state_bytes_per_sequence = 0;  ///< recurrent state, per GPU
  /// Attention FLOPs per query token and context token (4 × Σ heads × head_dim over attention
  /// layers = 2 × query group × KV elements per token), per GPU.
  double attention_flops_per_pair = 0;
  /// Decode attention FLOPs per KV-cache byte read: 2 × query group / bytes per element.
  double attention_flops_per_kv_byte = 0;
  double hidden_size = 0;
  double layers = 0;                 ///< decoder layers of the whole model
  int tp = 1;
  int pp = 1;
  double bandwidth_bytes_per_s = 0;  ///< achievable, per GPU
  double linear_flops_per_s = 0;     ///< achievable, in the GEMMs' format
  double attention_flops_per_s = 0;  ///< achievable, 16-bit
  double allreduce_latency_s = 0;
  double link_bytes_per_s = 0;       ///< per direction
  double launch_s = 0;               ///< host time to launch one step's kernels without a CUDA graph
  double step_overhead_s = 0;        ///< the engine's host time per step
  std::int64_t graph_max_batch = 0;
  std::int64_t ubatch_tokens = 0;    ///< llama.cpp -ub: weights read once per micro-batch (0: once per step)
  double graph_build_s = 0;          ///< llama.cpp before graph reuse: host time to build one micro-batch's graph
  int scheduler_steps = 1;
};

/** The step model of `model` in `layout` (its tensors' bytes) on `hw` with `tp` × `pp` GPUs under `engine`. */
StepModel make_step_model(const ModelSpec& model, const ModelCounts& counts, const WeightsLayout& layout, const WeightFormat& weights,
                          const KvCacheFormat& kv_cache, const HardwareSpec& hw, int tp, int pp, const ServeEngineProfile& engine);

/// What one step computes.
struct StepBatch {
  std::int64_t decode_sequences = 0;
  double decode_kv_bytes = 0;        ///< per GPU, summed over the decode sequences
  std::int64_t prefill_tokens = 0;
  std::int64_t prefill_sequences = 0;       ///< sequences with a prompt chunk
  std::int64_t prefill_logit_sequences = 0; ///< of them, those whose prompt ends in this step
  double prefill_attention_pairs = 0;       ///< Σ chunk × (prefix + chunk / 2)
  double prefill_kv_bytes = 0;              ///< per GPU: the prefixes the chunks attend to
};

/// Its time, by part; the parts add up to `total_s`.
struct StepParts {
  double weights_s = 0;        ///< operations bound by reading weights
  double kv_read_s = 0;        ///< attention bound by reading the KV cache
  double compute_s = 0;        ///< operations bound by FLOPs
  double activations_s = 0;    ///< elementwise kernels: each token's activations read and written
  double launch_s = 0;         ///< kernel launches beyond what the GPU time hides
  double communication_s = 0;  ///< tensor-parallel all-reduces, pipeline hand-offs
  double engine_overhead_s = 0;///< the engine's host time per step
  double total_s = 0;
  std::string_view bound;      ///< term id of the largest part
};

StepParts step_time(const StepModel& model, const StepBatch& batch);

/** Activation elements one token reads and writes per decoder layer outside the GEMMs (whose
 *  inputs and outputs their FLOPs hide at the batch sizes where this matters) and outside the
 *  attention kernel (its cache reads are counted as KV), summed over the layers, the first of the
 *  pair on every tensor-parallel rank, the second split over the ranks. The kernels are vLLM's for a
 *  decoder layer (vllm/model_executor/models/llama.py LlamaDecoderLayer.forward):
 *  - on every rank, which holds the whole hidden state: each residual norm reads its input and the
 *    residual and writes both (layers/layernorm.py RMSNorm.forward_cuda → fused_add_rms_norm:
 *    4 × hidden), a layer's further norms read and write the hidden state (Gemma's pre/post norms);
 *    a MoE layer's moe_sum reads the k expert outputs and writes one (layers/fused_moe/fused_moe.py
 *    fused_experts_impl: intermediate_cache3 (M, topk, K) → ops.moe_sum);
 *  - split over the ranks: rotary in place on q and k (layers/rotary_embedding.py, reads and writes
 *    both), the cache write reading k and v (reshape_and_cache), the MLP's activation (SiluAndMul,
 *    layers/activation.py: reads gate and up, writes their product; a non-gated MLP reads and
 *    writes its width), for a MoE layer that of each of its k experts (silu_and_mul from
 *    intermediate_cache1 to intermediate_cache2) and of its shared experts.
 *  llama.cpp's graph moves about as much (src/llama-graph.cpp: RMS norm with its weight, two residual
 *  adds, rope on q and k, the cache copy, the fused GLU). TensorRT-LLM's decode attention kernel
 *  applies rotary and writes the cache itself (ServeEngineProfile::decode_rope_in_attention).
 *  Recurrent mixers' elementwise kernels are left out. */
struct ActivationElements {
  double replicated = 0;
  double split = 0;
  double attention_prep = 0;  ///< of `split`: rotary on q and k, and the cache write
};
ActivationElements activation_elements_per_token(const ModelSpec& model);

/// KV bytes per GPU of one sequence at `context` tokens. Inline: the serving simulation asks it of
/// every decoding sequence at every step it builds in full.
inline double sequence_kv_bytes(const StepModel& model, std::int64_t context) {
  double bytes = model.kv_bytes_per_token * static_cast<double>(context) + model.state_bytes_per_sequence;
  for (const StepModel::Windowed& w : model.windowed) bytes += w.bytes_per_token * static_cast<double>(std::min(context, w.window));
  return bytes;
}

}  // namespace llmsizer
