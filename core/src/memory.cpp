// SPDX-License-Identifier: MIT
#include "llmsizer/memory.hpp"

#include <algorithm>

#include "format.hpp"

namespace llmsizer {

const char* engine_id(Engine engine) {
  switch (engine) {
    case Engine::generic: return "generic";
    case Engine::transformers: return "transformers";
    case Engine::vllm: return "vllm";
    case Engine::llama_cpp: return "llama.cpp";
  }
  return "generic";
}

std::int64_t kv_cache_bytes(const ModelSpec& model, const KvCacheFormat& format, std::int64_t context_tokens,
                            std::int64_t batch) {
  // Quantized KV types are stored in blocks along the head dimension (ggml: per row of head_dim);
  // for the byte count per element the block ratio is exact when head_dim is a multiple of 32.
  const std::int64_t elements = kv_cache_elements(model, context_tokens) * batch;
  return bytes_for_elements(elements, format.block_elements, format.block_bytes);
}

namespace {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// vLLM's paged KV cache stores whole 16-token blocks (vllm/config: default block_size 16).
constexpr std::int64_t kVllmBlockTokens = 16;
/// vLLM tokens per profile/prefill step: max_num_batched_tokens default 8192 for the LLM class
/// (vllm/engine/arg_utils.py, V1 defaults); the activation profile runs at this many tokens.
constexpr std::int64_t kVllmBatchedTokens = 8192;
/// vLLM CUDA-graph capture memory: vLLM logs "Graph capturing finished ... took 0.2-1 GiB" for
/// 7B-70B models on one GPU; 0.5 GiB is the middle of that range.
constexpr std::int64_t kVllmCudaGraphBytes = 512LL * 1024 * 1024;
/// llama.cpp micro-batch (n_ubatch default 512, common/common.h) and context padding to 256
/// tokens (llama-context.cpp pads n_ctx to GGML_PAD(n_ctx, 256)).
constexpr std::int64_t kLlamaCppUbatch = 512;
constexpr std::int64_t kLlamaCppContextPad = 256;

struct Shapes {
  std::int64_t hidden;        ///< H (replicated under tensor parallelism)
  std::int64_t q_dim;         ///< heads × head_dim on this device
  std::int64_t kv_dim;        ///< kv heads × head_dim on this device
  std::int64_t heads;         ///< attention heads on this device
  std::int64_t mlp_width;     ///< widest MLP temporary per token on this device (dense or active experts)
  std::int64_t vocab;
  std::int64_t act_bytes;     ///< bytes of one activation value (bf16/fp16: 2, fp32: 4)
  bool gqa;                   ///< keys/values shared by groups of query heads
};

Shapes shapes_for(const ModelSpec& m, const InferenceSettings& s) {
  const std::int64_t tp = std::max(1, s.gpus);
  Shapes sh{};
  sh.hidden = m.hidden_size;
  sh.heads = std::max<std::int64_t>(1, m.num_attention_heads / tp);
  sh.q_dim = sh.heads * m.head_dim;
  sh.kv_dim = std::max<std::int64_t>(1, m.num_kv_heads / tp) * m.head_dim;
  if (m.mla.kv_lora_rank > 0) {
    sh.q_dim = sh.heads * (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    sh.kv_dim = sh.heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim);
  }
  std::int64_t width = m.intermediate_size;
  if (m.moe.num_experts > 0) {
    // A token's MoE temporaries: its top-k routed experts plus the shared experts.
    width = std::max(width, m.moe.experts_per_token * m.moe.expert_intermediate_size +
                                m.moe.num_shared_experts * m.moe.shared_expert_intermediate_size);
  }
  sh.mlp_width = ceil_div(width, tp);
  sh.vocab = m.vocab_size;
  sh.act_bytes = (s.weights && s.weights->id == "fp32") ? 4 : 2;
  sh.gqa = m.num_kv_heads < m.num_attention_heads && m.mla.kv_lora_rank == 0;
  return sh;
}

/** Peak temporary bytes inside one decoder layer for `tokens` query tokens attending to `context`
 *  keys, PyTorch eager semantics (a tensor lives until its last use):
 *  - MLP: act(gate) + up + act(gate)·up alive at once: 3 × tokens × width (plus the layer input
 *    and the residual: 2 × tokens × H);
 *  - attention: q, k, v, rotated q and k, (GQA: k and v repeated to every head for SDPA —
 *    transformers' repeat_kv), the attention output and its reshaped copy; without flash
 *    attention the scores (tokens × context per head) in the activation type, their fp32 softmax
 *    and the cast back;
 *  - RMSNorm upcasts its input to fp32 (LlamaRMSNorm/Qwen2RMSNorm): two fp32 copies of the layer
 *    input. */
std::int64_t layer_peak_bytes(const Shapes& sh, std::int64_t tokens, std::int64_t context, bool flash, bool framework_copies) {
  const std::int64_t a = sh.act_bytes;
  const std::int64_t mlp = tokens * (2 * sh.hidden + 3 * sh.mlp_width) * a;
  std::int64_t attention_values = 2 * sh.hidden + 2 * sh.q_dim + 2 * sh.kv_dim;
  if (framework_copies) {
    attention_values += sh.q_dim + 2 * sh.kv_dim;          // rotated q, k and v before the cache append
    if (sh.gqa) attention_values += 2 * sh.q_dim;          // repeat_kv for SDPA
    attention_values += sh.q_dim;                          // transpose(...).contiguous() before o_proj
  }
  std::int64_t attention = tokens * attention_values * a;
  if (!flash) attention += sh.heads * tokens * context * (2 * a + 4);
  const std::int64_t norm = framework_copies ? tokens * sh.hidden * (a + 8) : 0;
  return std::max({mlp, attention, norm});
}

/// Logits of the last position per sequence: the LM head output, its fp32 upcast, and the
/// sampling copy and probabilities that `generate` makes (transformers ≥ 4.45 computes only the
/// last position: `logits_to_keep`/`num_logits_to_keep`).
std::int64_t last_logits_bytes(const Shapes& sh, std::int64_t batch, bool framework_copies) {
  return batch * sh.vocab * (framework_copies ? (sh.act_bytes + 3 * 4) : 4);
}

void add_line(MemoryEstimate& e, std::string part, std::string formula, std::string values, std::int64_t bytes) {
  e.explain.push_back({std::move(part), std::move(formula), std::move(values) + " = " + fmt::gb(bytes), bytes});
}

}  // namespace

MemoryEstimate estimate_inference_memory(const ModelSpec& m, const InferenceSettings& s) {
  MemoryEstimate e;
  const bool cpu_only = s.gpus == 0;
  const std::int64_t tp = std::max(1, s.gpus);
  const ParamCounts params = count_params(m);
  const std::int64_t context = s.input_tokens + s.output_tokens;
  const std::int64_t batch = s.batch;

  // Weights: params × bytes per parameter, split evenly over tensor-parallel devices.
  const std::int64_t all_weights = weight_bytes(m, *s.weights);
  e.parts.weights = ceil_div(all_weights, tp);
  {
    std::string values = fmt::count(params.total) + " params × " + fmt::bytes_per(s.weights->bits_per_weight() / 8.0) + " (" + std::string(s.weights->id) + ")";
    if (tp > 1) values += " ÷ " + std::to_string(tp) + " GPUs";
    add_line(e, "weights", "parameters × bytes per parameter", values, e.parts.weights);
  }

  if (!m.has_architecture()) {
    e.warnings.push_back("model: only a parameter count was given, so the KV cache and activations are unknown and counted as 0; give layers and hidden_size, or a config");
    e.parts.overhead = cpu_only ? 0 : kCudaContextBytes;
    if (!cpu_only) add_line(e, "overhead", "CUDA context (lazy module loading)", "426 MiB", e.parts.overhead);
    e.tensor_peak_bytes = cpu_only ? 0 : e.parts.weights;
    e.device_bytes = cpu_only ? 0 : e.parts.sum();
    e.host_bytes = cpu_only ? e.parts.sum() : 0;
    return e;
  }

  const Shapes sh = shapes_for(m, s);
  // Share of the KV heads on one device: heads split over devices; fewer KV heads than devices
  // means each device keeps a copy of one (vLLM replicates KV heads in that case).
  const std::int64_t kv_heads_here = m.mla.kv_lora_rank > 0 ? m.num_kv_heads : std::max<std::int64_t>(1, m.num_kv_heads / tp);
  auto kv_here = [&](std::int64_t tokens) {
    const std::int64_t whole = kv_cache_bytes(m, *s.kv_cache, tokens, batch);
    if (m.mla.kv_lora_rank > 0 || m.num_kv_heads == 0) return whole;  // MLA latent is replicated
    return whole / m.num_kv_heads * kv_heads_here;
  };
  if (tp > 1 && m.num_attention_heads % tp != 0) {
    e.warnings.push_back("gpus: " + std::to_string(m.num_attention_heads) + " attention heads do not divide over " + std::to_string(tp) + " GPUs; engines such as vLLM refuse this tensor-parallel size");
  }
  const std::string kv_values_head = std::to_string(m.num_layers) + " layers × " +
                                     (m.mla.kv_lora_rank > 0 ? "(" + std::to_string(m.mla.kv_lora_rank) + " + " + std::to_string(m.mla.qk_rope_head_dim) + ") latent"
                                                             : "2 × " + std::to_string(kv_heads_here) + " KV heads × " + std::to_string(m.head_dim) + " head_dim");
  const std::string kv_formula = m.mla.kv_lora_rank > 0 ? "layers × (kv_lora_rank + qk_rope_head_dim) × tokens × batch × bytes per element"
                                                         : "2 × layers × KV heads × head_dim × tokens × batch × bytes per element";
  const double kv_elem_bytes = static_cast<double>(s.kv_cache->block_bytes) / static_cast<double>(s.kv_cache->block_elements);
  const bool flash = s.flash_attention;

  switch (s.engine) {
    case Engine::generic: {
      e.parts.kv_cache = kv_here(context);
      const std::int64_t layer = layer_peak_bytes(sh, s.input_tokens * batch, s.input_tokens, flash, false);
      e.parts.activations = std::max(layer, last_logits_bytes(sh, batch, false));
      add_line(e, "activations", "max(one layer's prefill temporaries, last-token logits)",
               "max(" + fmt::count(s.input_tokens * batch) + " tokens × (2 × " + fmt::count(sh.hidden) + " + 3 × " + fmt::count(sh.mlp_width) + ") × " + std::to_string(sh.act_bytes) + " B, " +
                   std::to_string(batch) + " × " + fmt::count(sh.vocab) + " vocab × 4 B)",
               e.parts.activations);
      break;
    }
    case Engine::transformers: {
      // Prefill: the cache holds the prompt while one layer's temporaries peak; decode: the cache
      // at full context, DynamicCache's torch.cat copy of one layer's keys and values, and the
      // logits buffers. The larger of the two is the peak.
      const std::int64_t prefill_act = std::max(layer_peak_bytes(sh, s.input_tokens * batch, s.input_tokens, flash, true),
                                                s.input_tokens * batch * sh.hidden * sh.act_bytes * 2 + last_logits_bytes(sh, batch, true));
      const std::int64_t kv_full = kv_here(context);
      const std::int64_t cache_copy = s.output_tokens > 0 ? kv_full / std::max(1, m.num_layers) : 0;
      const std::int64_t decode_act = std::max(layer_peak_bytes(sh, batch, context, flash, true), last_logits_bytes(sh, batch, true)) + cache_copy;
      const std::int64_t kv_prompt = kv_here(s.input_tokens);
      e.parts.kv_cache = kv_full;
      if (kv_prompt + prefill_act > kv_full + decode_act) {
        // The prefill peak comes before the cache is full: report the temporaries that sit on
        // top of the full cache's share so that the parts still add up to the peak.
        e.parts.activations = kv_prompt + prefill_act - kv_full;
        add_line(e, "activations", "prefill peak: one layer's temporaries (MLP: 3 × tokens × intermediate; attention: q, k, v, rotary and repeat_kv copies; RMSNorm fp32 upcast) and last-token logits, above the cache not yet filled",
                 fmt::count(s.input_tokens * batch) + " prompt tokens × (2 × " + fmt::count(sh.hidden) + " + 3 × " + fmt::count(sh.mlp_width) + ") × " + std::to_string(sh.act_bytes) + " B (MLP)",
                 e.parts.activations);
      } else {
        e.parts.activations = decode_act;
        add_line(e, "activations", "decode peak: one layer's temporaries for one token per sequence + last-token logits (fp32 upcast, sampling copies) + DynamicCache's copy of one layer's keys and values",
                 std::to_string(batch) + " × " + fmt::count(sh.vocab) + " vocab × (" + std::to_string(sh.act_bytes) + " + 12) B + cache copy " + fmt::gb(cache_copy),
                 e.parts.activations);
      }
      break;
    }
    case Engine::vllm: {
      const std::int64_t paged_context = ceil_div(context, kVllmBlockTokens) * kVllmBlockTokens;
      e.parts.kv_cache = kv_here(paged_context);
      const std::int64_t profile_tokens = std::min<std::int64_t>(kVllmBatchedTokens, std::max<std::int64_t>(s.input_tokens * batch, kVllmBatchedTokens));
      e.parts.activations = layer_peak_bytes(sh, profile_tokens, std::min<std::int64_t>(profile_tokens, context), true, false) +
                            last_logits_bytes(sh, std::min<std::int64_t>(batch, 256), false) + kVllmCudaGraphBytes;
      add_line(e, "activations", "profile run at max_num_batched_tokens (one layer's temporaries) + sampler logits + CUDA graphs",
               fmt::count(profile_tokens) + " tokens × (2 × " + fmt::count(sh.hidden) + " + 3 × " + fmt::count(sh.mlp_width) + ") × " + std::to_string(sh.act_bytes) + " B + 0.5 GiB graphs",
               e.parts.activations);
      e.warnings.push_back("engine vllm: vLLM reserves gpu_memory_utilization (default 0.9) of the GPU and fills the rest of it with KV-cache blocks, so nvidia-smi shows ~90% of the card whatever the request; the figure here is what the request needs");
      break;
    }
    case Engine::llama_cpp: {
      const std::int64_t padded_context = ceil_div(context, kLlamaCppContextPad) * kLlamaCppContextPad;
      e.parts.kv_cache = kv_here(padded_context);
      const std::int64_t ubatch = std::min<std::int64_t>(kLlamaCppUbatch, std::max<std::int64_t>(1, s.input_tokens * batch));
      // ggml's graph allocator reuses buffers: the compute buffer is the largest node set, the
      // logits (n_ubatch × vocab × f32) or, without flash attention, the KQ scores
      // (n_ctx × n_ubatch × heads × f32) next to the MLP temporaries.
      const std::int64_t logits = ubatch * sh.vocab * 4;
      const std::int64_t scores = flash ? 0 : padded_context * ubatch * sh.heads * 4;
      const std::int64_t mlp = ubatch * (2 * sh.hidden + 3 * sh.mlp_width) * 4;
      e.parts.activations = std::max({logits, scores + ubatch * sh.hidden * 4, mlp});
      add_line(e, "activations", "compute buffer: max(n_ubatch × vocab × 4 B logits, n_ctx × n_ubatch × heads × 4 B scores without flash attention, MLP)",
               "n_ubatch " + std::to_string(ubatch) + ", vocab " + fmt::count(sh.vocab) + ", n_ctx " + fmt::count(padded_context), e.parts.activations);
      if (!flash && s.kv_cache->block_elements > 1) {
        e.warnings.push_back("kv_cache: llama.cpp needs flash attention (-fa) for a quantized V cache");
      }
      break;
    }
  }
  {
    std::string values = kv_values_head + " × " + fmt::count(context) + " tokens × " + std::to_string(batch) + " × " + fmt::bytes_per(kv_elem_bytes) + " (" + std::string(s.kv_cache->id) + ")";
    if (m.sliding_window > 0) values += "; sliding layers stop at " + std::to_string(m.sliding_window) + " tokens";
    add_line(e, "kv_cache", kv_formula, values, e.parts.kv_cache);
  }
  const std::int64_t state = recurrent_state_bytes(m, 4) * batch;
  if (state > 0) {
    e.parts.kv_cache += state;
    add_line(e, "kv_cache", "fixed-size recurrent state of linear-attention/SSM layers (fp32)", "per sequence × " + std::to_string(batch), state);
  }

  // Explain in the article's order: weights, KV cache, activations, overhead.
  std::stable_sort(e.explain.begin(), e.explain.end(), [](const ExplainLine& a, const ExplainLine& b) {
    auto rank = [](const std::string& part) { return part == "weights" ? 0 : part == "kv_cache" ? 1 : part == "activations" ? 2 : 3; };
    return rank(a.part) < rank(b.part);
  });
  const std::int64_t tensors = e.parts.weights + e.parts.kv_cache + e.parts.activations;
  if (cpu_only) {
    e.host_bytes = tensors;
    e.device_bytes = 0;
    e.tensor_peak_bytes = 0;
    e.warnings.push_back("gpus 0: CPU inference, everything is in RAM (host_bytes); the runtime's own memory (process, libraries) is not included");
  } else {
    e.parts.overhead = kCudaContextBytes;
    add_line(e, "overhead", "CUDA context with lazy module loading (driver, kernels), per GPU", "426 MiB (measured, PyTorch 2.10 + CUDA 13)", e.parts.overhead);
    e.tensor_peak_bytes = tensors;
    e.device_bytes = tensors + e.parts.overhead;
  }
  return e;
}

}  // namespace llmsizer
