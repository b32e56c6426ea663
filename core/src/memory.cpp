// SPDX-License-Identifier: MIT
#include "llmsizer/memory.hpp"

#include <algorithm>
#include <optional>

#include "llmsizer/caching_allocator.hpp"
#include "llmsizer/device_map.hpp"
#include "llmsizer/estimate_cache.hpp"
#include "llmsizer/ggml_types.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/ollama.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/tensors.hpp"
#include "arithmetic.hpp"
#include "llama_cpp_weights.hpp"
#include "stable_order.hpp"

namespace llmsizer {

const char* engine_id(Engine engine) {
  switch (engine) {
    case Engine::generic: return "generic";
    case Engine::transformers: return "transformers";
    case Engine::vllm: return "vllm";
    case Engine::llama_cpp: return "llama.cpp";
    case Engine::sglang: return "sglang";
    case Engine::autoawq: return "autoawq";
    case Engine::litgpt: return "litgpt";
    case Engine::ollama: return "ollama";
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

using detail::ceil_div;

/// AutoAWQ's fused modules allocate their KV cache for max_seq_len tokens (awq/models/base.py
/// from_quantized(max_seq_len=2048), fuse_layers=True).
constexpr std::int64_t kAutoAwqMaxSeqLen = 2048;
/// vLLM's paged KV cache stores whole 16-token blocks (vllm/config: default block_size 16).
constexpr std::int64_t kVllmBlockTokens = 16;
/// vLLM tokens per profile/prefill step: max_num_batched_tokens default 8192 for the LLM class
/// (vllm/engine/arg_utils.py, V1 defaults); the activation profile runs at this many tokens.
constexpr std::int64_t kVllmBatchedTokens = 8192;
/// vLLM CUDA-graph capture memory: vLLM logs "Graph capturing finished ... took 0.2-1 GiB" for
/// 7B-70B models on one GPU; 0.5 GiB is the middle of that range.
constexpr std::int64_t kVllmCudaGraphBytes = 512LL * 1024 * 1024;

struct Shapes {
  std::int64_t hidden;        ///< H (replicated under tensor parallelism)
  std::int64_t q_dim;         ///< heads × head_dim on this device
  std::int64_t kv_dim;        ///< kv heads × head_dim on this device
  std::int64_t heads;         ///< attention heads on this device
  std::int64_t mlp_width;     ///< widest MLP temporary per token on this device (dense or active experts)
  std::int64_t vocab;
  std::int64_t act_bytes;     ///< bytes of one activation value (bf16/fp16: 2, fp32: 4)
  bool bf16_activations;      ///< activations in bf16 (not fp16 or fp32)
  bool gqa;                   ///< keys/values shared by groups of query heads
  // Mixture of experts as transformers runs it (one expert at a time, in a Python loop).
  std::int64_t experts;       ///< routed experts (0: dense MLP)
  std::int64_t top_k;         ///< experts per token
  std::int64_t expert_width;  ///< one routed expert's intermediate size on this device
  std::int64_t shared_width;  ///< all shared experts' intermediate size on this device
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
  sh.act_bytes = (s.weights && s.weights->compute == Dtype::f32) ? 4 : 2;
  sh.bf16_activations = !s.weights || s.weights->compute == Dtype::bf16;
  sh.gqa = m.num_kv_heads < m.num_attention_heads && m.mla.kv_lora_rank == 0;
  sh.experts = m.moe.num_experts;
  sh.top_k = m.moe.experts_per_token;
  sh.expert_width = ceil_div(m.moe.expert_intermediate_size, tp);
  sh.shared_width = ceil_div(m.moe.num_shared_experts * m.moe.shared_expert_intermediate_size, tp);
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
  std::int64_t mlp = tokens * (2 * sh.hidden + 3 * sh.mlp_width) * a;
  if (framework_copies && sh.experts > 0) {
    // transformers' sparse MoE block (Qwen2MoeSparseMoeBlock.forward, MixtralSparseMoeBlock.forward,
    // Qwen3MoeSparseMoeBlock.forward, v4.38-4.51): router logits (tokens × experts) and their fp32
    // softmax, the one_hot expert mask (tokens × top_k × experts, int64) and the zeroed output
    // (tokens × H) live through a Python loop that runs ONE expert at a time on the tokens routed
    // to it (tokens × top_k / experts on average) — not all top_k experts at once. The shared
    // expert then runs on every token.
    const std::int64_t routing = tokens * sh.experts * (a + 4) + tokens * sh.top_k * sh.experts * 8 + tokens * sh.hidden * a;
    const std::int64_t per_expert_tokens = ceil_div(tokens * sh.top_k, sh.experts);
    const std::int64_t expert = per_expert_tokens * (sh.hidden + 3 * sh.expert_width) * a;
    const std::int64_t shared = tokens * 3 * sh.shared_width * a;
    mlp = tokens * 2 * sh.hidden * a + routing + std::max(expert, shared);
  }
  std::int64_t attention_values = 2 * sh.hidden + 2 * sh.q_dim + 2 * sh.kv_dim;
  if (framework_copies) {
    attention_values += sh.q_dim + 2 * sh.kv_dim;          // rotated q, k and v before the cache append
    if (sh.gqa) attention_values += 2 * sh.q_dim;          // repeat_kv for SDPA
    attention_values += sh.q_dim;                          // transpose(...).contiguous() before o_proj
  }
  std::int64_t attention = tokens * attention_values * a;
  if (!flash) {
    // Eager attention's scores in the activation type, their fp32 softmax and the cast back: 2a + 4
    // bytes per score. transformers' eager path calls softmax(scores, dtype=torch.float32); for a
    // bf16 input ATen first copies the scores to fp32 (SoftMax.cpp, `input_.toType(dtype)`; only
    // fp16 on CUDA has a half-to-float kernel) and allocates the fp32 output beside both, so the
    // peak is 2 + 4 + 4 = 10 B per score (the copy is freed before the cast back). DeepSeek-LLM 7B
    // at batch 4 × 4096 prompt tokens, eager bf16 (its README: out of memory on an A100 40GB):
    // 41.2 GB estimated with 8 B per score, 45.5 GB with 10.
    const std::int64_t per_score = (framework_copies && sh.bf16_activations && a == 2) ? a + 4 + 4 : 2 * a + 4;
    attention += sh.heads * tokens * context * per_score;
  }
  std::int64_t norm = framework_copies ? tokens * sh.hidden * (a + 8) : 0;
  if (framework_copies) {
    // Two more hidden-size tensors stay referenced from outside the layer (transformers
    // Qwen2Model/LlamaModel.forward, 4.38-4.51): `inputs_embeds`, a local of the model's forward
    // kept for the whole layer loop, and the loop variable `hidden_states` holding this layer's
    // input until the layer returns (the layer's own `residual` is rebound after attention).
    // Qwen2.5 at 30720 prompt tokens (transformers 4.46, A100): 0.5B 2.34 GiB, 7B 19.97 GiB
    // measured vs 2.21 and 19.49 without these two (Qwen2.5 docs, speed_benchmark.rst).
    const std::int64_t held = 2 * tokens * sh.hidden * a;
    mlp += held;
    attention += held;
    norm += held;
  }
  return std::max({mlp, attention, norm});
}

/// Logits of the last position per sequence: the LM head output, its fp32 upcast, and the
/// sampling copy and probabilities that `generate` makes (transformers ≥ 4.45 computes only the
/// last position: `logits_to_keep`/`num_logits_to_keep`).
std::int64_t last_logits_bytes(const Shapes& sh, std::int64_t batch, bool framework_copies) {
  return batch * sh.vocab * (framework_copies ? (sh.act_bytes + 3 * 4) : 4);
}

/// The peak of Hugging Face `generate` on one device, and the full-context KV cache under it.
struct TransformersPeak {
  std::int64_t peak = 0;     ///< weights excluded: KV cache + temporaries + model buffers
  std::int64_t kv_full = 0;  ///< the cache at the end of generation
  std::int64_t buffers = 0;  ///< buffers that live through the call (in peak)
  Message formula;
  Message values;
};

/// What the device whose peak is computed holds: everything, or under a layer split
/// (device_map.hpp) some of the decoder layers, with or without the output head.
struct DeviceRole {
  int layers = -1;           ///< decoder layers here; -1: all of them
  bool output_head = true;   ///< the logits are made here
  int layers_of(const ModelSpec& m) const { return layers < 0 ? m.num_layers : layers; }
};

/// transformers release from which Llama computes cos/sin per call (major × 100 + minor).
constexpr int kTransformersLlamaRopePerCall = 438;

/// Layers holding their own rotary cos/sin table before transformers 4.45: Qwen2, Qwen2-MoE,
/// Mistral and Mixtral (modeling_qwen2.py "Copied from transformers.models.mistral").
/// Llama computes cos/sin per call since 4.38; before, every LlamaAttention built its own
/// LlamaRotaryEmbedding, whose __init__ calls _set_cos_sin_cache(seq_len=max_position_embeddings,
/// dtype=torch.get_default_dtype()) and registers cos_cached and sin_cached (modeling_llama.py, 4.31-4.37).
bool rope_table_per_layer(const ModelSpec& m, int version) {
  if (m.family == Family::llama) return version < kTransformersLlamaRopePerCall;
  return m.family == Family::qwen2 || m.family == Family::qwen2_moe || m.family == Family::mistral || m.family == Family::mixtral;
}

/// Largest quantized linear layer, in weights (in_features × out_features) on this device.
std::int64_t largest_linear_elements(const Shapes& sh) {
  std::int64_t width = std::max({sh.q_dim, sh.experts > 0 ? std::max(sh.expert_width, sh.shared_width) : sh.mlp_width});
  return sh.hidden * width;
}

template <typename KvBytes>
TransformersPeak transformers_peak(const ModelSpec& m, const InferenceSettings& s, const Shapes& sh, KvBytes kv_here, bool explain,
                                   const DeviceRole& role = {}) {
  TransformersPeak p;
  const std::int64_t layers_here = role.layers_of(m);
  const int version = s.engine_version;  // 0: current
  const bool whole_prompt_logits = version > 0 && version < kTransformersLastLogitsOnly;
  const bool tuple_cache = version > 0 && version < kTransformersCacheObject;
  const std::int64_t batch = s.batch;
  const std::int64_t prompt = s.input_tokens * batch;
  const std::int64_t a = sh.act_bytes;
  const std::int64_t context = s.input_tokens + s.output_tokens;

  // Buffers that live through the whole call.
  std::int64_t buffers = 0;
  std::vector<Message> buffer_parts;
  if (version > 0 && version < kTransformersRopeAtModel && rope_table_per_layer(m, version) && m.max_position_embeddings > 0) {
    // transformers 4.37-4.44 modeling_qwen2.py / modeling_mistral.py: every attention layer builds
    // Qwen2RotaryEmbedding(max_position_embeddings) whose _set_cos_sin_cache registers cos_cached
    // and sin_cached buffers of max_position_embeddings × head_dim in torch.get_default_dtype()
    // (the load dtype, bf16/fp16). 4.45 moved one rotary module to Qwen2Model, computing cos/sin
    // for the current positions only.
    buffers += layers_here * m.max_position_embeddings * m.head_dim * 2 * a;
    if (explain) buffer_parts.push_back(Message("explain.activations.plus_rotary_tables").bytes("tables", buffers));
  }
  if (s.weights != nullptr && s.weights->scheme == QuantScheme::gptq && s.weights->bits == 4 && layers_here > 0) {
    // 4-bit GPTQ runs on the ExLlama (v1) kernel by default (transformers GPTQConfig
    // exllama_config {"version": 1}); auto_gptq/modeling/_utils.py autogptq_post_init allocates
    // one fp16 temp_dq buffer per device of max(qweight.numel() × 8) = the largest quantized
    // linear layer's in_features × out_features, to dequantize into.
    const std::int64_t temp_dq = largest_linear_elements(sh) * 2;
    buffers += temp_dq;
    if (explain) buffer_parts.push_back(Message("explain.activations.plus_exllama_temp_dq").bytes("temp_dq", temp_dq));
  }

  // Prefill: the cache holds the prompt while one layer's temporaries or the logits peak.
  // Under a layer split a device without layers has no layer temporaries, one without the output
  // head no logits.
  const std::int64_t layer_prefill = layers_here > 0 ? layer_peak_bytes(sh, prompt, s.input_tokens, s.flash_attention, true) : 0;
  std::int64_t logits_prefill = 0;
  if (!role.output_head) {
    // no logits on this device
  } else if (whole_prompt_logits) {
    // Before 4.45 (e.g. modeling_qwen2.py Qwen2ForCausalLM.forward, 4.38): `logits =
    // self.lm_head(hidden_states); logits = logits.float()` for EVERY prompt position: the
    // activation-type logits and their fp32 copy are alive together, next to the final hidden
    // states. PR #31292 (4.45) added num_logits_to_keep so generate computes the last position only.
    logits_prefill = prompt * sh.vocab * (a + 4) + prompt * sh.hidden * a;
  } else {
    logits_prefill = prompt * sh.hidden * a * 2 + last_logits_bytes(sh, batch, true);
  }
  const std::int64_t kv_prompt = kv_here(s.input_tokens);
  const std::int64_t prefill = kv_prompt + std::max(layer_prefill, logits_prefill);

  // Decode: the cache grows by torch.cat (cache_utils.py DynamicCache.update), which allocates
  // the longer tensor before the shorter one is freed.
  p.kv_full = kv_here(context);
  std::int64_t decode = 0;
  Message decode_text;
  if (s.output_tokens > 0) {
    const std::int64_t step = std::max(layers_here > 0 ? layer_peak_bytes(sh, batch, context, s.flash_attention, true) : 0,
                                       role.output_head ? last_logits_bytes(sh, batch, true) : 0);
    std::int64_t previous_cache = 0;
    if (tuple_cache) {
      // Before 4.42 generate passed the legacy tuple of tensors: the model wrapped it with
      // DynamicCache.from_legacy_cache (no copy) and torch.cat built a new tensor per layer, while
      // the previous step's tuple (model_kwargs["past_key_values"]) and `outputs` still referenced
      // every old tensor until the forward returned: two whole caches at once.
      previous_cache = kv_here(context - 1);
      if (explain) decode_text = Message("explain.activations.transformers.decode_tuple_cache.values").bytes("previous_cache", previous_cache);
    } else {
      // Since 4.42 the DynamicCache object is updated in place: one layer's keys (then values)
      // exist twice during torch.cat.
      previous_cache = p.kv_full / std::max<std::int64_t>(1, 2 * layers_here);
      if (explain) decode_text = Message("explain.activations.transformers.decode.values").bytes("copy", previous_cache);
    }
    decode = p.kv_full + previous_cache + step;
    if (whole_prompt_logits) {
      // The first decode step runs while the prefill `outputs` (fp32 logits of every prompt
      // position) is still referenced by generate's loop.
      const std::int64_t first = kv_here(s.input_tokens + 1) + (tuple_cache ? kv_prompt : 0) + (role.output_head ? prompt * sh.vocab * 4 : 0) + step;
      decode = std::max(decode, first);
    }
  }

  p.peak = std::max(prefill, decode) + buffers;
  p.buffers = buffers;
  if (!explain) return p;
  if (prefill >= decode && whole_prompt_logits && role.output_head) {
    p.formula = Message("explain.activations.transformers.prefill_all_logits.formula");
    p.values = Message("explain.activations.transformers.prefill_all_logits.values").count("prompt_tokens", prompt).count("vocab", sh.vocab).integer("element_size", a);
  } else if (prefill >= decode) {
    p.formula = Message("explain.activations.transformers.prefill.formula");
    p.values = Message("explain.activations.transformers.prefill.values").count("prompt_tokens", prompt).count("hidden", sh.hidden)
                   .count("mlp_width", sh.mlp_width).integer("element_size", a);
  } else {
    p.formula = Message("explain.activations.transformers.decode.formula");
    p.values = std::move(decode_text);
    p.values.integer("batch", batch).count("vocab", sh.vocab).integer("element_size", a);
  }
  for (auto& part : buffer_parts) p.values.then(std::move(part));
  return p;
}

/// An explanation line: its formula, and the numbers put in followed by " = <bytes>".
void add_line(MemoryEstimate& e, std::string part, Message formula, Message values, std::int64_t bytes) {
  values.then(Message("explain.equals").bytes("total", bytes));
  e.explain.push_back({std::move(part), std::move(formula), std::move(values), bytes});
}


/// llama.cpp's sequences for the request: `parallel` (Ollama: num_parallel) when given, else the
/// request's batch, at most LLAMA_MAX_SEQ (256, llama-cparams.h).
int llama_cpp_sequences(int requested, std::int64_t batch, std::vector<Message>& warnings) {
  if (requested > 0) {
    if (requested < batch) warnings.push_back(Message("warning.llama_cpp.parallel_below_batch").integer("parallel", requested).integer("batch", batch));
    return requested;
  }
  if (batch > kLlamaCppMaxSequences) warnings.push_back(Message("warning.batch.llama_cpp_max_sequences").integer("max", kLlamaCppMaxSequences));
  return static_cast<int>(llama_cpp_sequences_for(0, batch));
}

/// Bytes per element of a ggml cache type ("F16" → 2, "Q8_0" → 34 / 32).
double cache_element_bytes(const std::string& type) {
  const GgmlTypeInfo* t = ggml_type_by_name(type);
  return t == nullptr ? 0.0 : static_cast<double>(t->block_bytes) / t->block_elements;
}

/** Engines llama.cpp and ollama: llama.cpp's own buffers (llama_cpp.hpp, each rule from llama.cpp's
 *  source) for the request under its llama-server settings (request fields ubatch, n_batch,
 *  parallel, ..., llama_cpp.hpp LlamaCppOptions) or under the flags Ollama starts llama-server with
 *  (ollama.hpp). Weights, KV cache, compute and output buffers are what llama.cpp logs; GPUs
 *  beyond one share the device buffers evenly. */
MemoryEstimate llama_cpp_estimate(const ModelSpec& m, const InferenceSettings& s, const WeightsLayout& layout, bool explain) {
  MemoryEstimate e;
  const bool cpu_only = s.gpus == 0;
  const std::int64_t tp = std::max(1, s.gpus);
  const std::int64_t context = s.input_tokens + s.output_tokens;
  const std::int64_t batch = s.batch;
  const LlamaCppOptions& o = s.llama_cpp;

  // The weights tensor by tensor in the request's format, in the GGUF file's order: an imported
  // GGUF file's own tensors when the request keeps its weights as stored, else the list planned from
  // the layout, made once for the model and layout where the caller keeps a cache beside its layout.
  const bool from_file = s.weights->scheme == QuantScheme::stored && m.file_tensors != nullptr;
  EstimateCache* cache = s.cache;
  const bool cached_list = cache != nullptr && cache->model == &m && cache->layout == &layout;
  std::shared_ptr<const TensorList> own_list;
  std::shared_ptr<const TensorList>& list = cached_list ? cache->planned : own_list;
  // The list the layout was made from (weights_layout: tensor_list), read index for index in the layout's types.
  if (!from_file && list == nullptr) list = tensor_list(m);
  const LlamaCppWeightList tensors = from_file ? LlamaCppWeightList::of_file(*m.file_tensors) : LlamaCppWeightList::planned(list->tensors, layout);
  const std::string cache_type = llama_cpp_cache_type(*s.kv_cache);
  bool flash = s.flash_attention;
  if (!flash && s.kv_cache->block_elements > 1) {
    // llama-context.cpp refuses a quantized V cache without flash attention: counted as it runs with -fa on
    e.warnings.push_back(Message("warning.kv_cache.quantized_v_needs_flash_attention"));
    flash = true;
  }

  LlamaCppRun run;
  if (s.engine == Engine::ollama) {
    OllamaSettings os;
    os.num_ctx = context;
    os.num_parallel = llama_cpp_sequences(s.ollama.num_parallel, batch, e.warnings);
    os.num_batch = s.ollama.num_batch;
    // OLLAMA_KV_CACHE_TYPE takes f16, q8_0 and q4_0 (docs/faq.md); any other type runs as f16
    // (bf16's bytes are f16's).
    os.kv_cache_type = cache_type == "Q8_0" || cache_type == "Q4_0" ? cache_type : std::string("F16");
    os.flash_attention = s.ollama.flash_attention >= 0 ? s.ollama.flash_attention : (s.flash_attention ? -1 : 0);
    if (flash && !s.flash_attention) os.flash_attention = 1;
    os.gpu = !cpu_only;
    os.num_gpu = cpu_only ? -1 : s.ollama.num_gpu;
    os.use_mmap = s.ollama.use_mmap;
    os.cpu = o.cpu_family;
    OllamaMemory om = ollama_memory(m, tensors, os, cache);
    if (om.num_ctx < context) e.warnings.push_back(Message("warning.engine.ollama_num_ctx_clamped").grouped("num_ctx", om.num_ctx));
    if (om.num_parallel < os.num_parallel) e.warnings.push_back(Message("warning.engine.ollama_single_sequence"));
    e.warnings.push_back(Message(cpu_only ? "warning.engine.ollama_ps" : "warning.engine.ollama_ps_gpu"));
    run.settings = om.llama;
    run.memory = std::move(om.memory);
    om.memory = LlamaCppMemory{};
    if (explain) run.ollama_command_line = ollama_command_line(os);
    run.ollama = std::move(om);
  } else {
    LlamaCppSettings& ls = run.settings;
    ls.n_seq = llama_cpp_sequences(o.parallel, batch, e.warnings);
    ls.n_ctx = context * ls.n_seq;
    ls.n_batch = o.n_batch;
    ls.n_ubatch = o.ubatch;
    ls.n_outputs_max = o.n_outputs_max;
    ls.kv_unified = o.kv_unified;
    ls.flash_attn = flash ? LlamaCppFlashAttn::on : LlamaCppFlashAttn::off;
    ls.type_k = ls.type_v = cache_type;
    ls.swa_full = o.swa_full;
    ls.mmap = o.mmap;
    ls.gpu = !cpu_only;
    ls.n_gpu_layers = cpu_only ? 0 : o.n_gpu_layers;
    ls.offload_kqv = o.offload_kqv;
    ls.cpu = o.cpu_family;
    ls.cpu_tensor_patterns = o.override_tensor;
    run.memory = llama_cpp_memory(m, tensors, ls, cache);
  }
  if (explain) run.command_line = llama_cpp_command_line(run.settings);
  const LlamaCppMemory& r = run.memory;
  const LlamaCppSettings& ls = run.settings;

  // Weights: the GPU's model buffer, the mapped file range, --no-mmap's CPU buffer, CPU_REPACK.
  const std::int64_t device_weights = ceil_div(r.weights_device, tp);
  const std::int64_t host_weights = r.weights_mapped + r.weights_cpu + r.weights_repack;
  e.parts.weights = device_weights + host_weights;
  if (explain && r.weights_device > 0) {
    Message values = Message("explain.llama_cpp.weights_device.values").count("tensors", r.tensors_device).integer("gpu_layers", r.n_gpu_layers).integer("layers", m.num_layers);
    if (tp > 1) values.then(Message("explain.divided_over_gpus").integer("gpus", tp));
    add_line(e, "weights", Message("explain.llama_cpp.weights_device.formula"), std::move(values), device_weights);
  }
  if (explain && r.weights_mapped > 0) {
    add_line(e, "weights", Message("explain.llama_cpp.weights_mapped.formula"),
             Message("explain.llama_cpp.weights_mapped.values").count("tensors", r.tensors_mapped).text("format", s.weights->id), r.weights_mapped);
  }
  if (explain && r.weights_cpu > 0) {
    add_line(e, "weights", Message("explain.llama_cpp.weights_cpu.formula"),
             Message("explain.llama_cpp.weights_cpu.values").count("tensors", r.tensors_cpu).text("format", s.weights->id), r.weights_cpu);
  }
  if (explain && r.weights_repack > 0) {
    add_line(e, "weights", Message("explain.llama_cpp.weights_repack.formula"),
             Message("explain.llama_cpp.weights_repack.values").count("tensors", r.tensors_repack).text("cpu", llama_cpp_cpu_id(ls.cpu)), r.weights_repack);
    e.warnings.push_back(Message("warning.weights.llama_cpp_repack").bytes("repack", r.weights_repack).bytes("mapped", r.weights_mapped_repacked));
  }

  // KV cache by layer kind: cells per stream × streams, K and V rows of each layer.
  struct Kind {
    LlamaCppLayerCache kind;
    const char* id;
    int layers = 0;
    std::int64_t cells = 0;
    std::int64_t device = 0;
    std::int64_t host = 0;
  };
  Kind kinds[] = {{LlamaCppLayerCache::full, "explain.llama_cpp.kv_full"}, {LlamaCppLayerCache::sliding, "explain.llama_cpp.kv_sliding"},
                  {LlamaCppLayerCache::mla, "explain.llama_cpp.kv_mla"}};
  for (const auto& l : r.layers) {
    for (Kind& k : kinds) {
      if (k.kind != l.kind) continue;
      k.layers += 1;
      k.cells = l.cells;
      const std::int64_t bytes = ceil_div(l.k_bytes, 32) * 32 + ceil_div(l.v_bytes, 32) * 32;  // TENSOR_ALIGNMENT
      (l.on_device ? k.device : k.host) += bytes;
    }
  }
  const double element = cache_element_bytes(ls.type_k);
  const std::int64_t state = r.recurrent_state;
  e.parts.kv_cache = ceil_div(r.kv_device, tp) + r.kv_host;
  for (const Kind& k : kinds) {
    if (!explain || k.layers == 0) continue;
    Message values = k.kind == LlamaCppLayerCache::mla
                         ? Message("explain.llama_cpp.kv_mla.values").integer("layers", k.layers).integer("kv_lora_rank", m.mla.kv_lora_rank).integer("rope_dim", m.mla.qk_rope_head_dim)
                         : Message("explain.llama_cpp.kv.values").integer("layers", k.layers).integer("kv_heads", m.num_kv_heads).integer("head_dim", m.head_dim);
    values.grouped("cells", k.cells).bytes_each("per_element", element).text("format", ls.type_k);
    if (r.n_stream > 1) values.then(Message("explain.llama_cpp.kv_streams").integer("streams", r.n_stream));
    if (tp > 1 && k.device > 0) values.then(Message("explain.divided_over_gpus").integer("gpus", tp));
    add_line(e, "kv_cache", Message(std::string(k.id) + ".formula"), std::move(values), ceil_div(k.device, tp) + k.host);
  }
  if (explain && state > 0) {
    add_line(e, "kv_cache", Message("explain.kv_cache.recurrent_state.formula"), Message("explain.kv_cache.recurrent_state.values").integer("batch", ls.n_seq), state);
  }

  // Compute buffers (sched_reserve's high-water mark of one micro-batch's graph) and the output buffer.
  const std::int64_t outputs_max = ls.n_outputs_max > 0 ? ls.n_outputs_max : r.n_batch;
  const std::int64_t pp_tokens = ceil_div(r.n_ubatch, ls.n_seq) * ls.n_seq;
  auto compute_values = [&] {
    Message v = Message("explain.llama_cpp.compute.values").integer("ubatch", r.n_ubatch).integer("outputs", std::min(pp_tokens, outputs_max)).grouped("cells", r.cells_full);
    v.then(r.flash_attn ? Message("explain.llama_cpp.compute.flash") : Message("explain.llama_cpp.compute.scores").integer("heads", m.num_attention_heads));
    return v;
  };
  e.parts.activations = r.compute_device + r.compute_host + r.output;
  if (explain && r.compute_device > 0) add_line(e, "activations", Message("explain.llama_cpp.compute_device.formula"), compute_values(), r.compute_device);
  if (explain && r.compute_host > 0) {
    if (r.compute_device > 0 && r.n_gpu_layers >= m.num_layers + 1) {
      add_line(e, "activations", Message("explain.llama_cpp.compute_inputs.formula"),
               Message("explain.llama_cpp.compute_inputs.values").integer("ubatch", r.n_ubatch).count("hidden", m.hidden_size).grouped("cells", r.cells_full), r.compute_host);
    } else {
      add_line(e, "activations", Message("explain.llama_cpp.compute_host.formula"), compute_values(), r.compute_host);
    }
  }
  if (explain) {
    add_line(e, "activations", Message("explain.llama_cpp.output.formula"),
             Message("explain.llama_cpp.output.values").integer("sequences", ls.n_seq).count("vocab", m.vocab_size), r.output);
  }

  if (explain && s.weights->ecosystem == Ecosystem::mlx) e.warnings.push_back(Message("warning.weights.mlx_format").text("format", s.weights->id));

  // Host memory: the mapped, CPU and repacked weights, the KV cache of layers kept on the CPU, the
  // host compute buffer and the output buffer. A recurrent state is on the GPU with the layers.
  const std::int64_t host_kv = r.kv_host - (cpu_only ? 0 : state);
  const std::int64_t host = host_weights + host_kv + r.compute_host + r.output;
  const std::int64_t tensors_total = e.parts.weights + e.parts.kv_cache + e.parts.activations;
  if (cpu_only) {
    e.host_bytes = tensors_total;
    if (explain) e.warnings.push_back(Message("warning.gpus.cpu_inference"));
  } else {
    e.parts.overhead = kCudaContextBytes;
    if (explain) add_line(e, "overhead", Message("explain.overhead.cuda_context.formula"), Message("explain.overhead.cuda_context.values"), e.parts.overhead);
    e.tensor_peak_bytes = tensors_total - host;
    e.device_bytes = e.tensor_peak_bytes + e.parts.overhead;
    e.host_bytes = host;
  }
  if (!explain) {
    e.warnings.clear();  // the few a llama.cpp run may raise on the way (its sequences, its cache type)
    return e;
  }
  e.llama_cpp = std::move(run);
  return e;
}

}  // namespace

std::int64_t last_input_of_same_cache(const InferenceSettings& s, std::int64_t input) {
  if (s.engine != Engine::llama_cpp && s.engine != Engine::ollama) return input;
  std::vector<Message> unread;
  const std::int64_t sequences = llama_cpp_sequences(s.engine == Engine::ollama ? s.ollama.num_parallel : s.llama_cpp.parallel, s.batch, unread);
  const std::int64_t cells = (input + s.output_tokens) * sequences;
  const std::int64_t padded = (cells + kLlamaCppContextPad - 1) / kLlamaCppContextPad * kLlamaCppContextPad;
  return std::max(input, padded / sequences - s.output_tokens);
}

std::int64_t batch_where_memory_stops_growing(const ModelSpec& m, const InferenceSettings& s) {
  // The same engines and models as estimate_inference_memory's llama_cpp_estimate, whose only use
  // of the batch is llama_cpp_sequences.
  if ((s.engine != Engine::llama_cpp && s.engine != Engine::ollama) || !m.has_architecture()) return 0;
  const int requested = s.engine == Engine::ollama ? s.ollama.num_parallel : s.llama_cpp.parallel;
  return requested > 0 ? 1 : kLlamaCppMaxSequences;
}

MemoryEstimate estimate_inference_memory(const ModelSpec& m, const InferenceSettings& s, EstimateDetail detail) {
  MemoryEstimate e;
  const bool explain = detail == EstimateDetail::full;
  const bool cpu_only = s.gpus == 0;
  const std::int64_t tp = std::max(1, s.gpus);
  const std::int64_t context = s.input_tokens + s.output_tokens;
  const std::int64_t batch = s.batch;

  // Weights: summed tensor by tensor in the format (quantized blocks with their scales, tensors
  // the format keeps at higher precision), split evenly over tensor-parallel devices.
  std::optional<WeightsLayout> own_layout;
  if (s.weights_layout == nullptr) own_layout = weights_layout(m, *s.weights, s.group_size);
  const WeightsLayout& layout = s.weights_layout != nullptr ? *s.weights_layout : *own_layout;
  const bool llama_cpp_engine = s.engine == Engine::llama_cpp || s.engine == Engine::ollama;
  if (llama_cpp_engine && m.has_architecture()) return llama_cpp_estimate(m, s, layout, explain);
  std::optional<ModelCounts> own_counts;
  if (s.model_counts == nullptr) own_counts = count_model(m);
  const ModelCounts& counts = s.model_counts != nullptr ? *s.model_counts : *own_counts;
  const ParamCounts& params = counts.params;
  const std::int64_t all_weights = layout.total_bytes;

  // transformers and AutoAWQ spread a model over several GPUs with accelerate's device_map: a layer
  // split (device_map.hpp), each GPU computing every head of its own layers, the last one the
  // logits. The estimate is that of the GPU with the highest peak (torch.cuda.max_memory_allocated
  // of that device; the others hold less). Tensor parallelism (vLLM, SGLang, the textbook formula)
  // splits every layer's heads and MLP instead.
  const bool layer_split = !cpu_only && tp > 1 && m.has_architecture() &&
                           splits_layers(s.engine);
  InferenceSettings whole_layers = s;
  whole_layers.gpus = 1;
  const Shapes sh = shapes_for(m, layer_split ? whole_layers : s);
  // Share of the KV heads on one device: heads split over devices; fewer KV heads than devices
  // means each device keeps a copy of one (vLLM replicates KV heads in that case).
  const std::int64_t kv_heads_here = m.mla.kv_lora_rank > 0 || layer_split ? m.num_kv_heads : std::max<std::int64_t>(1, m.num_kv_heads / tp);
  auto kv_here = [&](std::int64_t tokens) {
    // kv_cache_bytes(m, *s.kv_cache, tokens, batch), from the counted layers.
    const std::int64_t whole = bytes_for_elements(counts.kv_cache_elements(tokens) * batch, s.kv_cache->block_elements, s.kv_cache->block_bytes);
    if (m.mla.kv_lora_rank > 0 || m.num_kv_heads == 0) return whole;  // MLA latent is replicated
    return whole / m.num_kv_heads * kv_heads_here;
  };
  // The KV cache of the decoder layers a device holds: their share of the layers (exact when every
  // layer caches alike; sliding and full layers alternate, so a share of them is close).
  auto kv_for = [&](const DeviceRole& role) {
    return [&kv_here, &m, role](std::int64_t tokens) {
      return role.layers < 0 ? kv_here(tokens) : kv_here(tokens) * role.layers / std::max(1, m.num_layers);
    };
  };
  const std::int64_t autoawq_cache_tokens = std::max<std::int64_t>(context, kAutoAwqMaxSeqLen);
  // One forward's temporaries of the generic formula (litgpt and AutoAWQ too): a layer's, or the
  // last positions' logits.
  auto simple_activations = [&](const DeviceRole& role) {
    const std::int64_t layer = role.layers_of(m) > 0 ? layer_peak_bytes(sh, s.input_tokens * batch, s.input_tokens, s.flash_attention, false) : 0;
    return std::max(layer, role.output_head ? last_logits_bytes(sh, batch, false) : 0);
  };
  DeviceRole role;
  DeviceShare share;
  int split_gpu = 0;  ///< the fullest GPU, counted from 0 as CUDA numbers them
  if (layer_split) {
    const std::vector<DeviceShare> shares = balanced_device_map(tensor_list(m)->tensors, layout, static_cast<int>(tp));
    std::int64_t fullest = -1;
    for (std::size_t g = 0; g < shares.size(); ++g) {
      if (shares[g].weight_bytes == 0) continue;
      const DeviceRole here{shares[g].layers, shares[g].output_head};
      const std::int64_t tensors_here =
          shares[g].weight_bytes + (s.engine == Engine::transformers ? transformers_peak(m, s, sh, kv_for(here), false, here).peak
                                                                      : kv_for(here)(autoawq_cache_tokens) + simple_activations(here));
      if (tensors_here > fullest) {
        fullest = tensors_here;
        role = here;
        share = shares[g];
        split_gpu = static_cast<int>(g);
      }
    }
  }
  const std::int64_t device_weights = layer_split ? share.weight_bytes : ceil_div(all_weights, tp);
  e.parts.weights = device_weights;
  if (explain) {
    const bool plain = s.weights->scheme == QuantScheme::plain;
    Message values = plain ? Message("explain.weights.plain.values").count("params", params.total).bytes_each("per_param", s.weights->bits_per_weight() / 8.0).text("format", s.weights->id)
                           : Message("explain.weights.quantized.values").count("params", params.total).significant("bits", layout.bits_per_weight()).text("format", s.weights->id);
    if (layer_split) {
      values.then(Message("explain.device_map.share").integer("gpus", tp).integer("gpu", split_gpu).integer("layers", role.layers_of(m))
                      .integer("all_layers", m.num_layers).integer("first", share.first_layer).integer("last", share.first_layer + std::max(0, share.layers - 1)));
      if (share.embeddings) values.then(Message("explain.device_map.embeddings"));
      if (share.output_head) values.then(Message("explain.device_map.output_head"));
    } else if (tp > 1) {
      values.then(Message("explain.divided_over_gpus").integer("gpus", tp));
    }
    add_line(e, "weights", Message(plain ? "explain.weights.plain.formula" : "explain.weights.quantized.formula"), std::move(values), device_weights);
  }

  if (!m.has_architecture()) {
    if (explain) e.warnings.push_back(Message("warning.model.params_only"));
    e.parts.overhead = cpu_only ? 0 : kCudaContextBytes;
    if (explain && !cpu_only) add_line(e, "overhead", Message("explain.overhead.cuda_context_short.formula"), Message("explain.overhead.cuda_context_short.values"), e.parts.overhead);
    e.tensor_peak_bytes = cpu_only ? 0 : e.parts.weights;
    e.device_bytes = cpu_only ? 0 : e.parts.sum();
    e.host_bytes = cpu_only ? e.parts.sum() : 0;
    return e;
  }

  if (explain && tp > 1 && !layer_split && m.num_attention_heads % tp != 0) {
    e.warnings.push_back(Message("warning.gpus.heads_do_not_divide").integer("heads", m.num_attention_heads).integer("gpus", tp));
  }
  const double kv_elem_bytes = static_cast<double>(s.kv_cache->block_bytes) / static_cast<double>(s.kv_cache->block_elements);
  switch (s.engine) {
    case Engine::generic:
    case Engine::litgpt:  // litgpt generate/base.py: KV cache of prompt + max_new_tokens, one forward's temporaries
    case Engine::autoawq: {
      // AutoAWQ fused modules preallocate their cache for max_seq_len (from_quantized default 2048).
      e.parts.kv_cache = kv_for(role)(s.engine == Engine::autoawq ? autoawq_cache_tokens : context);
      e.parts.activations = simple_activations(role);
      if (!explain) break;
      add_line(e, "activations", Message("explain.activations.generic.formula"),
               Message("explain.activations.generic.values").count("tokens", s.input_tokens * batch).count("hidden", sh.hidden).count("mlp_width", sh.mlp_width)
                   .integer("element_size", sh.act_bytes).integer("batch", batch).count("vocab", sh.vocab),
               e.parts.activations);
      break;
    }
    case Engine::transformers: {
      const TransformersPeak p = transformers_peak(m, s, sh, kv_for(role), explain, role);
      e.parts.kv_cache = p.kv_full;
      e.parts.activations = p.peak - p.kv_full;
      e.buffer_bytes = p.buffers;
      e.device_index = split_gpu;
      e.device_layers = role.layers;
      e.device_output_head = role.output_head;
      if (explain) add_line(e, "activations", p.formula, p.values, e.parts.activations);
      break;
    }
    case Engine::sglang:  // SGLang: the same preallocation and profile, pages of one token (page_size 1)
    case Engine::vllm: {
      const std::int64_t block = s.engine == Engine::sglang ? 1 : kVllmBlockTokens;
      const std::int64_t paged_context = ceil_div(context, block) * block;
      e.parts.kv_cache = kv_here(paged_context);
      const std::int64_t profile_tokens = std::min<std::int64_t>(kVllmBatchedTokens, std::max<std::int64_t>(s.input_tokens * batch, kVllmBatchedTokens));
      e.parts.activations = layer_peak_bytes(sh, profile_tokens, std::min<std::int64_t>(profile_tokens, context), true, false) +
                            last_logits_bytes(sh, std::min<std::int64_t>(batch, 256), false) + kVllmCudaGraphBytes;
      if (!explain) break;
      add_line(e, "activations", Message("explain.activations.vllm.formula"),
               Message("explain.activations.vllm.values").count("tokens", profile_tokens).count("hidden", sh.hidden).count("mlp_width", sh.mlp_width).integer("element_size", sh.act_bytes),
               e.parts.activations);
      e.warnings.push_back(Message("warning.engine.vllm_reserves_gpu"));
      break;
    }
    case Engine::ollama:
    case Engine::llama_cpp:
      break;  // llama_cpp_estimate (a model without its architecture has only its weights here)
  }
  if (explain) {
    const bool mla = m.mla.kv_lora_rank > 0;
    Message values = mla ? Message("explain.kv_cache.mla.values").integer("layers", m.num_layers).integer("kv_lora_rank", m.mla.kv_lora_rank).integer("rope_dim", m.mla.qk_rope_head_dim)
                         : Message("explain.kv_cache.attention.values").integer("layers", role.layers_of(m)).integer("kv_heads", kv_heads_here).integer("head_dim", m.head_dim);
    values.count("tokens", context).integer("batch", batch).bytes_each("per_element", kv_elem_bytes).text("format", s.kv_cache->id);
    if (m.sliding_window > 0) values.then(Message("explain.kv_cache.sliding_stop").integer("window", m.sliding_window));
    add_line(e, "kv_cache", Message(mla ? "explain.kv_cache.mla.formula" : "explain.kv_cache.attention.formula"), std::move(values), e.parts.kv_cache);
  }
  const std::int64_t state = counts.recurrent_state_bytes(4) * batch;
  if (state > 0) {
    e.parts.kv_cache += state;
    if (explain) add_line(e, "kv_cache", Message("explain.kv_cache.recurrent_state.formula"), Message("explain.kv_cache.recurrent_state.values").integer("batch", batch), state);
  }

  // Engine buffers of quantized inference (quantization.hpp, each with its source).
  if (s.engine == Engine::transformers && !cpu_only) {
    if (s.weights->scheme == QuantScheme::bnb_4bit && s.input_tokens * batch > 1) {
      const std::int64_t dq = bnb_dequant_buffer_bytes(m, layout);
      e.parts.activations += dq;
      if (explain) add_line(e, "activations", Message("explain.activations.bnb_dequant.formula"), Message("explain.activations.bnb_dequant.values").count("weights", dq / 2), dq);
    }
    if (explain && s.weights->scheme == QuantScheme::gptq) {
      // Not counted: the published Transformers GPTQ peaks (Qwen1.5 hf_infer.rst) sit at the
      // AWQ rows' level, without this buffer, so the kernel in use is not known to allocate it.
      e.warnings.push_back(Message("warning.weights.gptq_exllamav2_scratch").text("format", s.weights->id).bytes("scratch", gptq_exllama_scratch_bytes(m)));
    }
    if (explain && s.weights->scheme == QuantScheme::awq) {
      e.warnings.push_back(Message("warning.weights.awq_fused_cache").text("format", s.weights->id).bytes("cache", awq_fused_kv_cache_bytes(m, 2048, batch)));
    }
  }
  if (explain && s.weights->ecosystem == Ecosystem::gguf && (s.engine == Engine::transformers || s.engine == Engine::vllm)) {
    e.warnings.push_back(Message("warning.weights.gguf_in_other_engine").text("format", s.weights->id).text("engine", engine_id(s.engine)));
  }
  if (explain && s.weights->ecosystem == Ecosystem::mlx && s.engine != Engine::generic) {
    e.warnings.push_back(Message("warning.weights.mlx_format").text("format", s.weights->id));
  }

  // Explain in the article's order: weights, KV cache, activations, overhead.
  stable_sort_by(e.explain, [](const ExplainLine& a, const ExplainLine& b) {
    auto rank = [](const std::string& part) { return part == "weights" ? 0 : part == "kv_cache" ? 1 : part == "activations" ? 2 : 3; };
    return rank(a.part) < rank(b.part);
  });
  const std::int64_t tensors = e.parts.weights + e.parts.kv_cache + e.parts.activations;
  if (cpu_only) {
    e.host_bytes = tensors;
    e.device_bytes = 0;
    e.tensor_peak_bytes = 0;
    if (explain) e.warnings.push_back(Message("warning.gpus.cpu_inference"));
  } else {
    e.parts.overhead = kCudaContextBytes;
    if (explain) add_line(e, "overhead", Message("explain.overhead.cuda_context.formula"), Message("explain.overhead.cuda_context.values"), e.parts.overhead);
    e.tensor_peak_bytes = tensors;
    e.device_bytes = e.tensor_peak_bytes + e.parts.overhead;
  }
  return e;
}

bool allocator_replay_applies(const ModelSpec& m, const InferenceSettings& s) {
  // The trace follows modeling_llama.py (Mistral and Qwen2 share its layer): dense MLP, no MLA, no
  // quantized kernels with buffers of their own; eager attention only (SDPA and FlashAttention
  // never materialize the scores whose cached segments fragment).
  if (s.engine != Engine::transformers || s.flash_attention || s.gpus < 1) return false;  // before the names' compares
  const bool llama_shaped = m.family == Family::llama || m.family == Family::mistral || m.family == Family::qwen2;
  return m.has_architecture() && llama_shaped &&
         m.moe.num_experts == 0 && m.mla.kv_lora_rank == 0 && s.weights != nullptr && s.weights->scheme == QuantScheme::plain &&
         m.num_attention_heads > 0 && m.head_dim > 0;
}

std::int64_t allocator_capacity_bytes(const MemoryEstimate& e, std::int64_t usable_device_bytes) {
  return usable_device_bytes - e.parts.overhead - e.parts.weights - e.buffer_bytes;
}

namespace {

/// Tensors through the allocator until the first request that fails (then every step is skipped).
class AllocatorTrace {
 public:
  explicit AllocatorTrace(std::int64_t capacity) : allocator_(capacity) {}
  int take(std::int64_t bytes) {
    if (allocator_.out_of_memory()) return -1;
    return allocator_.allocate(bytes);
  }
  void drop(int handle) {
    if (!allocator_.out_of_memory()) allocator_.release(handle);
  }
  bool failed() const { return allocator_.out_of_memory(); }
  const CachingAllocator& allocator() const { return allocator_; }

 private:
  CachingAllocator allocator_;
};

}  // namespace

AllocatorReplay replay_transformers_prefill(const ModelSpec& m, const InferenceSettings& s, const MemoryEstimate& e,
                                            std::int64_t allocator_capacity) {
  InferenceSettings one = s;
  one.gpus = 1;  // a layer split keeps every head of its layers on its device
  const Shapes sh = shapes_for(m, one);
  const std::int64_t a = sh.act_bytes;
  const std::int64_t batch = s.batch;
  const std::int64_t seq = s.input_tokens;
  const std::int64_t tokens = batch * seq;
  const std::int64_t scores = sh.heads * tokens * seq;  // batch × heads × seq × seq, one layer
  const int layers = e.device_layers < 0 ? m.num_layers : e.device_layers;
  AllocatorTrace t(allocator_capacity);

  // The 4D causal mask (batch × 1 × seq × seq) is built on GPU 0 and lives through the forward; on
  // another GPU of a layer split, accelerate's hook copies it to the device for each layer.
  const bool mask_per_layer = e.device_index > 0;
  const int mask = mask_per_layer ? -1 : t.take(batch * seq * seq * a);
  int hidden = t.take(tokens * sh.hidden * a);  // the layer input (the embeddings, or the previous GPU's output)
  std::vector<int> cache;
  // LlamaRMSNorm: hidden_states.to(float32), its pow(2) and mean, rsqrt, the product, the cast back,
  // times the weight.
  auto rms_norm = [&]() {
    const int x32 = t.take(tokens * sh.hidden * 4);
    const int squared = t.take(tokens * sh.hidden * 4);
    const int variance = t.take(tokens * 4);
    t.drop(squared);
    const int rsqrt = t.take(tokens * 4);
    const int y32 = t.take(tokens * sh.hidden * 4);
    t.drop(rsqrt);
    t.drop(variance);
    t.drop(x32);
    const int y = t.take(tokens * sh.hidden * a);
    const int out = t.take(tokens * sh.hidden * a);
    t.drop(y);
    t.drop(y32);
    return out;
  };
  // apply_rotary_pos_emb: x * cos + rotate_half(x) * sin (rotate_half: -x2 concatenated with x1).
  auto rotate = [&](std::int64_t width) {
    const int times_cos = t.take(tokens * width * a);
    const int negated = t.take(tokens * width / 2 * a);
    const int rotated = t.take(tokens * width * a);
    t.drop(negated);
    const int times_sin = t.take(tokens * width * a);
    t.drop(rotated);
    const int out = t.take(tokens * width * a);
    t.drop(times_cos);
    t.drop(times_sin);
    return out;
  };
  for (int layer = 0; layer < layers && !t.failed(); ++layer) {
    const int layer_mask = mask_per_layer ? t.take(batch * seq * seq * a) : -1;
    int x = rms_norm();
    const int q = t.take(tokens * sh.q_dim * a);
    const int k = t.take(tokens * sh.kv_dim * a);
    const int v = t.take(tokens * sh.kv_dim * a);
    t.drop(x);
    const int cos = t.take(seq * m.head_dim * a);
    const int sin = t.take(seq * m.head_dim * a);
    const int cos_at = t.take(batch * seq * m.head_dim * a);
    const int sin_at = t.take(batch * seq * m.head_dim * a);
    const int q_rotated = rotate(sh.q_dim);
    t.drop(q);
    const int k_rotated = rotate(sh.kv_dim);
    t.drop(k);
    t.drop(cos_at);
    t.drop(sin_at);
    t.drop(cos);
    t.drop(sin);
    cache.push_back(k_rotated);  // the KV cache keeps K and V to the end
    cache.push_back(v);
    // repeat_kv: K and V copied to every query head (GQA).
    const int k_repeated = sh.gqa ? t.take(tokens * sh.q_dim * a) : -1;
    const int v_repeated = sh.gqa ? t.take(tokens * sh.q_dim * a) : -1;
    // QKᵀ, / √d, + mask; softmax(dtype=float32): ATen copies a bf16 input to fp32 first (SoftMax.cpp
    // input_.toType), fp16 has a half-to-float kernel, fp32 needs neither; then the cast back.
    const int product = t.take(scores * a);
    const int scaled = t.take(scores * a);
    t.drop(product);
    const int masked = t.take(scores * a);
    t.drop(scaled);
    const int copy32 = (a == 2 && sh.bf16_activations) ? t.take(scores * 4) : -1;
    const int softmax = t.take(scores * 4);
    t.drop(copy32);
    const int weights = a == 2 ? t.take(scores * a) : -1;
    if (a == 2) t.drop(softmax);
    t.drop(masked);
    const int attention = t.take(tokens * sh.q_dim * a);
    t.drop(a == 2 ? weights : softmax);
    t.drop(q_rotated);
    t.drop(k_repeated);
    t.drop(v_repeated);
    const int contiguous = t.take(tokens * sh.q_dim * a);  // transpose(1, 2).contiguous()
    t.drop(attention);
    const int projected = t.take(tokens * sh.hidden * a);
    t.drop(contiguous);
    int next = t.take(tokens * sh.hidden * a);  // residual + attention
    t.drop(projected);
    t.drop(hidden);
    hidden = next;
    x = rms_norm();
    const int gate = t.take(tokens * sh.mlp_width * a);
    const int activated = t.take(tokens * sh.mlp_width * a);
    t.drop(gate);
    const int up = t.take(tokens * sh.mlp_width * a);
    const int gated = t.take(tokens * sh.mlp_width * a);
    t.drop(activated);
    t.drop(up);
    const int down = t.take(tokens * sh.hidden * a);
    t.drop(gated);
    t.drop(x);
    next = t.take(tokens * sh.hidden * a);  // residual + MLP
    t.drop(down);
    t.drop(hidden);
    hidden = next;
    t.drop(layer_mask);
  }
  if (e.device_output_head && !t.failed()) {
    // The final norm, then the LM head: before transformers 4.45 for every prompt position and
    // upcast to fp32 (logits.float()), since then for the last position only.
    const bool whole_prompt = s.engine_version > 0 && s.engine_version < kTransformersLastLogitsOnly;
    const std::int64_t positions = whole_prompt ? tokens : batch;
    const int x = rms_norm();
    t.drop(hidden);
    const int logits = t.take(positions * sh.vocab * a);
    t.drop(x);
    t.take(positions * sh.vocab * 4);
    t.drop(logits);
  }
  (void)mask;
  AllocatorReplay r;
  r.out_of_memory = t.failed();
  r.peak_reserved_bytes = t.allocator().peak_reserved_bytes();
  r.peak_allocated_bytes = t.allocator().peak_allocated_bytes();
  return r;
}

MemoryEstimate without_cuda_context(MemoryEstimate e) {
  e.device_bytes -= e.parts.overhead;
  e.parts.overhead = 0;
  e.explain.erase(std::remove_if(e.explain.begin(), e.explain.end(), [](const ExplainLine& line) { return line.part == "overhead"; }), e.explain.end());
  return e;
}

std::vector<std::string_view> suggested_weight_formats(Engine engine) {
  switch (engine) {
    case Engine::llama_cpp:
    case Engine::ollama: return {"q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m"};
    case Engine::vllm:
    case Engine::sglang: return {"bf16", "fp8", "awq-int4", "gptq-int4"};
    case Engine::transformers: return {"bf16", "llm-int8", "nf4", "gptq-int4", "awq-int4"};
    case Engine::autoawq: return {"awq-int4"};
    case Engine::litgpt: return {"bf16", "llm-int8", "nf4"};
    case Engine::generic: break;
  }
  return {"fp32", "fp16", "bf16", "int8", "int4"};
}

std::vector<Engine> engines_for_file(Ecosystem ecosystem) {
  if (ecosystem == Ecosystem::gguf) return {Engine::llama_cpp, Engine::ollama};
  return {};
}

}  // namespace llmsizer
