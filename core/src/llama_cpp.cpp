// SPDX-License-Identifier: MIT
#include "llmsizer/llama_cpp.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "llama_cpp_graph.hpp"
#include "llama_cpp_weights.hpp"
#include "regex_lite.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/estimate_cache.hpp"
#include "llmsizer/ggml_types.hpp"
#include "llmsizer/quantization.hpp"

namespace llmsizer {
namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

/// "blk.7." for layer 7.
std::string layer_prefix(int layer) { return "blk." + std::to_string(layer) + "."; }

/// Lumps model_tensors() adds for parameters it does not name (tensors.cpp add_lump): a llama.cpp
/// layout names them, or they are not in the model's GGUF file — a vision tower ("extra.") is a
/// separate mmproj file that llama.cpp loads only with --mmproj.
bool is_lump(const TensorInfo& t) {
  return starts_with(t.name, "blk.mixers.") || starts_with(t.name, "norms.extra.") || starts_with(t.name, "other.") ||
         starts_with(t.name, "extra.");
}

const TensorInfo* find(const std::vector<TensorInfo>& list, const std::string& name) {
  for (const auto& t : list) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace

std::vector<TensorInfo> llama_cpp_tensor_infos(const ModelSpec& m) {
  const std::vector<TensorInfo> hf = model_tensors(m);
  if (!m.has_architecture() || m.params_override > 0) return hf;
  const bool phi3 = m.family == Family::phi3;
  const bool mla = m.mla.kv_lora_rank > 0;
  std::vector<TensorInfo> out;
  out.reserve(hf.size() + static_cast<std::size_t>(m.num_layers));
  for (const auto& t : hf) {
    if (is_lump(t)) continue;
    const std::string p = t.layer >= 0 ? layer_prefix(t.layer) : std::string();
    if (phi3 && t.layer >= 0) {
      // convert_hf_to_gguf keeps Phi-3's fused qkv_proj and gate_up_proj (src/models/phi3.cpp:
      // attn_qkv optional, ffn_up {n_embd, 2 * n_ff} required, no ffn_gate).
      if (t.name == p + "attn_q.weight") {
        const TensorInfo* k = find(hf, p + "attn_k.weight");
        const TensorInfo* v = find(hf, p + "attn_v.weight");
        const std::int64_t rows = t.shape[1] + (k ? k->shape[1] : 0) + (v ? v->shape[1] : 0);
        out.push_back({p + "attn_qkv.weight", {t.shape[0], rows}, t.tensor_class, t.layer});
        continue;
      }
      if (t.name == p + "attn_k.weight" || t.name == p + "attn_v.weight" || t.name == p + "ffn_gate.weight") continue;
      if (t.name == p + "ffn_up.weight" && find(hf, p + "ffn_gate.weight") != nullptr) {
        out.push_back({t.name, {t.shape[0], 2 * t.shape[1]}, t.tensor_class, t.layer});
        continue;
      }
    }
    if (mla && t.name == p + "attn_kv_b.weight") {
      // convert_hf_to_gguf (conversion/deepseek.py) splits kv_b_proj per head into the key
      // decompression k_b {nope, kv_lora_rank, heads} and the value one v_b {kv_lora_rank, v, heads}.
      const std::int64_t heads = m.num_attention_heads;
      out.push_back({p + "attn_k_b.weight", {m.mla.qk_nope_head_dim, m.mla.kv_lora_rank, heads}, t.tensor_class, t.layer});
      out.push_back({p + "attn_v_b.weight", {m.mla.kv_lora_rank, m.mla.v_head_dim, heads}, t.tensor_class, t.layer});
      continue;
    }
    if (mla && t.name == p + "ffn_gate_inp.bias") {
      out.push_back({p + "exp_probs_b.bias", t.shape, t.tensor_class, t.layer});  // DeepSeek-V3 e_score_correction_bias
      continue;
    }
    if (m.family == Family::gpt_oss && t.name == p + "ffn_norm.weight") {
      // src/models/openai-moe.cpp: the norm before the experts is LLM_TENSOR_ATTN_POST_NORM
      out.push_back({p + "post_attention_norm.weight", t.shape, t.tensor_class, t.layer});
      continue;
    }
    // The sinks go after attn_output.weight, where convert_hf_to_gguf writes them (model_tensors
    // lists them elsewhere).
    if (t.name == p + "attn_sinks.weight") continue;
    out.push_back(t);
    if (m.attention_sinks && t.name == p + "attn_output.weight") {
      out.push_back({p + "attn_sinks.weight", {m.num_attention_heads}, TensorClass::attention, t.layer});
    }
  }
  return out;
}

std::vector<GgufTensor> llama_cpp_tensors(const ModelSpec& m, const WeightFormat& format) {
  const std::vector<TensorInfo> infos = llama_cpp_tensor_infos(m);
  // Plain 16/32-bit formats are the GGUF F16/BF16/F32 file types (1-D tensors stay F32).
  const WeightFormat* f = &format;
  if (format.scheme == QuantScheme::plain) {
    if (format.id == "fp16") f = find_weight_format("gguf-f16");
    if (format.id == "bf16") f = find_weight_format("gguf-bf16");
    if (format.id == "fp32") f = find_weight_format("gguf-f32");
    if (f == nullptr) f = &format;
  }
  const WeightsLayout layout = weights_layout(m, *f, infos);
  std::vector<GgufTensor> out;
  out.reserve(infos.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const TensorStorage& s = layout.tensors[i];
    out.push_back({infos[i].name, infos[i].shape, std::string(s.type), s.bytes});
  }
  return out;
}

std::string llama_cpp_architecture(const ModelSpec& m) { return std::string(family_traits(m.family).gguf_architecture); }

namespace {

constexpr std::int64_t kTensorAlignment = 32;  // ggml-impl.h TENSOR_ALIGNMENT (CPU and CPU_REPACK buffers)
constexpr std::int64_t kCudaAlignment = 128;   // ggml-cuda.cu ggml_backend_cuda_buffer_type_get_alignment
constexpr int kMaxSequences = 256;             // llama-cparams.h LLAMA_MAX_SEQ

constexpr std::int64_t pad(std::int64_t n, std::int64_t to) { return (n + to - 1) / to * to; }

/// The layer a tensor belongs to ("blk.12.attn_q.weight" -> 12), or -1 for the input/output tensors.
int tensor_layer(std::string_view name) {
  if (!starts_with(name, "blk.")) return -1;
  int layer = 0;
  for (std::size_t i = 4; i < name.size() && name[i] != '.'; ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    layer = layer * 10 + (name[i] - '0');
  }
  return layer;
}

/// A weight llama.cpp multiplies with GGML_OP_MUL_MAT (2-D) or GGML_OP_MUL_MAT_ID (3-D experts)
/// (llama-arch.cpp LLM_TENSOR_INFOS): what CPU_REPACK may hold. The token embedding is read with
/// GET_ROWS, norms and biases with MUL/ADD; attn_k_b/attn_v_b are 3-D operands of MUL_MAT, which
/// the repack buffer does not take (repack.cpp supports_op: MUL_MAT needs ggml_n_dims == 2).
bool matrix_operand(const LlamaCppWeight& t) {
  if (!ends_with(t.name, ".weight") || t.name == "token_embd.weight") return false;
  if (contains(t.name, "norm") || contains(t.name, "attn_sinks") || contains(t.name, "rope_freqs")) return false;
  if (contains(t.name, "attn_k_b") || contains(t.name, "attn_v_b")) return false;
  if (t.shape->size() == 2) return true;
  return t.shape->size() == 3 && contains(t.name, "_exps");
}

/// ggml_repack_get_optimal_repack_type: the types each CPU family repacks and the row multiple
/// (ne[1]) their interleaved layout needs.
bool repacked(const LlamaCppWeight& t, LlamaCppCpu cpu) {
  if (cpu == LlamaCppCpu::none || !matrix_operand(t) || t.shape->size() < 2) return false;
  const std::int64_t rows = (*t.shape)[1];
  const std::string_view ty = t.type;
  switch (cpu) {
    case LlamaCppCpu::x86_avx2:
      return (ty == "Q4_0" || ty == "Q4_K" || ty == "IQ4_NL" || ty == "MXFP4") && rows % 8 == 0;
    case LlamaCppCpu::x86_avx512:
      return (ty == "Q4_0" || ty == "Q4_K" || ty == "IQ4_NL" || ty == "MXFP4" || ty == "Q2_K") && rows % 8 == 0;
    case LlamaCppCpu::arm_dotprod:
    case LlamaCppCpu::arm_i8mm:
      if (ty == "Q4_0" || ty == "IQ4_NL" || ty == "MXFP4" || ty == "Q8_0") return rows % 4 == 0;
      return (ty == "Q4_K" || ty == "Q5_K" || ty == "Q6_K") && rows % 8 == 0;
    case LlamaCppCpu::none:
      return false;
  }
  return false;
}

/// ggml type id of a -ctk/-ctv name (common/arg.cpp kv_cache_types), or throws naming the field.
int cache_type_id(const std::string& name, const char* field) {
  static const char* const kAllowed[] = {"F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "IQ4_NL", "Q5_0", "Q5_1"};
  std::string upper = name;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* allowed : kAllowed) {
    if (upper == allowed) return ggml_type_by_name(upper)->id;
  }
  throw InputError(field, Message("error.llama_cpp.cache_type").text("got", name));
}

/// A -ot pattern compiled, or an InputError naming `field` and what is wrong with it.
RegexLite compile_pattern(const std::string& pattern, const std::string& field) {
  try {
    return RegexLite(pattern);
  } catch (const std::invalid_argument& e) {
    throw InputError(field, Message("error.llama_cpp.override_tensor").text("pattern", pattern).text("detail", e.what()));
  }
}

std::int64_t row_bytes(int type, std::int64_t elements) {
  const GgmlTypeInfo* t = ggml_type_info(type);
  return elements / t->block_elements * t->block_bytes;
}

/// Whether llama.cpp caches the model's sliding-window layers separately (llama_kv_cache_iswa):
/// src/models/gemma2.cpp, gemma3.cpp, openai-moe.cpp set swa_type = LLAMA_SWA_TYPE_STANDARD
/// (architecture.hpp llama_cpp_sliding_cache). Phi-3 reads the window and switches it off
/// (src/models/phi3.cpp: "Phi SWA is currently disabled", swa_type NONE); llama/qwen2/mistral do
/// not read it.
bool sliding_cache(const ModelSpec& m) { return family_traits(m.family).llama_cpp_sliding_cache; }

llama_cpp_graph::GraphParams graph_params(const ModelSpec& m) {
  llama_cpp_graph::GraphParams g;
  // A family without its own graph here: the nearest one built (MLA models: deepseek2's K-only
  // latent cache; others: llama's).
  const LlamaCppGraph own = family_traits(m.family).llama_cpp_graph;
  g.graph = own != LlamaCppGraph::none ? own : m.mla.kv_lora_rank > 0 ? LlamaCppGraph::deepseek2 : LlamaCppGraph::llama;
  g.n_layer = m.num_layers;
  g.n_embd = m.hidden_size;
  g.n_head = m.num_attention_heads;
  g.n_head_kv = m.num_kv_heads;
  g.n_embd_head_k = m.head_dim;
  g.n_embd_head_v = m.head_dim;
  g.n_ff = m.intermediate_size;
  g.n_vocab = m.vocab_size;
  g.qkv_bias = m.qkv_bias;
  g.o_bias = m.o_bias;
  g.qk_norm = m.qk_norm;
  g.n_expert = m.moe.num_experts;
  g.n_expert_used = m.moe.experts_per_token;
  g.n_ff_exp = m.moe.expert_intermediate_size;
  g.n_ff_shexp = static_cast<std::int64_t>(m.moe.num_shared_experts) * m.moe.shared_expert_intermediate_size;
  g.n_layer_dense_lead = m.moe.first_dense_layers;
  if (m.mla.kv_lora_rank > 0) {
    g.kv_lora_rank = m.mla.kv_lora_rank;
    g.q_lora_rank = m.mla.q_lora_rank;
    g.n_embd_head_qk_rope = m.mla.qk_rope_head_dim;
    g.n_embd_head_k_mla = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
    g.n_embd_head_v_mla = m.mla.v_head_dim;
    // DeepSeek-V3 (e_score_correction_bias): sigmoid gating with a selection bias and normalized
    // top-k weights (conversion/deepseek.py writes expert_weights_norm from norm_topk_prob).
    g.exp_probs_b = m.moe.router_bias;
    g.expert_weights_norm = m.moe.router_bias;
  }
  g.attn_logit_softcap = m.family == Family::gemma2;
  g.final_logit_softcap = m.family == Family::gemma2;
  const bool swa = sliding_cache(m);
  for (int il = 0; il < m.num_layers; ++il) g.is_swa.push_back(swa && m.mixer(il) == MixerKind::sliding_attention);
  return g;
}

/// What tells one of the model's graphs from another (estimate_cache.hpp).
LlamaCppGraphKey graph_key(const llama_cpp_graph::GraphParams& g) {
  return {g.n_tokens, g.n_outputs, g.n_seqs, g.n_stream, g.kv_size, g.kv_size_swa, g.kv_unified, g.flash_attn, g.type_k, g.type_v};
}

/// Whether two graphs differ at most in their caches' sizes.
bool same_micro_batch(const LlamaCppGraphKey& a, const LlamaCppGraphKey& b) {
  return a.n_tokens == b.n_tokens && a.n_outputs == b.n_outputs && a.n_seqs == b.n_seqs && a.n_stream == b.n_stream &&
         a.kv_unified == b.kv_unified && a.flash_attn == b.flash_attn && a.type_k == b.type_k && a.type_v == b.type_v;
}

/// `cache`'s entry for the graph of `key`, or null; `cache` is null where it is another model's.
LlamaCppGraphBytes* cached_graph(const ModelSpec& m, const LlamaCppGraphKey& key, EstimateCache*& cache) {
  if (cache != nullptr && cache->model != &m) cache = nullptr;  // another model's cache
  if (cache == nullptr) return nullptr;
  for (auto& [known, bytes] : cache->graphs) {
    if (known == key) return &bytes;
  }
  return nullptr;
}

/// The graph's buffer and inputs (llama_cpp_graph::graph_bytes), from `cache` where this model's
/// graph of the same micro-batch and cache was built before.
LlamaCppGraphBytes graph_bytes(const ModelSpec& m, const llama_cpp_graph::GraphParams& g, EstimateCache* cache) {
  const LlamaCppGraphKey key = graph_key(g);
  LlamaCppGraphBytes* known = cached_graph(m, key, cache);
  if (known != nullptr && !known->bound_only) return *known;
  const llama_cpp_graph::GraphBytes built = llama_cpp_graph::graph_bytes(g);
  const LlamaCppGraphBytes bytes{built.compute, built.inputs, false, -1};
  if (known != nullptr) *known = bytes;
  else if (cache != nullptr) cache->graphs.emplace_back(key, bytes);
  return bytes;
}

/// max(floor, the graph's buffer) (llama_cpp_graph::compute_buffer_bytes_above), from `cache`
/// where this model's graph of the same micro-batch and cache was built or bounded before.
std::int64_t compute_at_least(const ModelSpec& m, const llama_cpp_graph::GraphParams& g, std::int64_t floor, EstimateCache* cache) {
  const LlamaCppGraphKey key = graph_key(g);
  LlamaCppGraphBytes* known = cached_graph(m, key, cache);
  if (known != nullptr && (!known->bound_only || known->compute <= floor)) return std::max(floor, known->compute);
  if (cache != nullptr) {
    // The same micro-batch over a cache at least as large, its tensors together at most the floor:
    // so are this graph's (compute_buffer_bytes_above), and the floor is the answer.
    for (const auto& [other, bytes] : cache->graphs) {
      if (bytes.tensors_sum >= 0 && bytes.tensors_sum <= floor && other.kv_size >= key.kv_size && other.kv_size_swa >= key.kv_size_swa &&
          same_micro_batch(other, key)) {
        return floor;
      }
    }
  }
  std::int64_t tensors_sum = -1;
  const std::int64_t compute = llama_cpp_graph::compute_buffer_bytes_above(g, floor, &tensors_sum);
  const LlamaCppGraphBytes bytes{compute, 0, compute <= floor, tensors_sum};
  if (known != nullptr) *known = bytes;
  else if (cache != nullptr) cache->graphs.emplace_back(key, bytes);
  return std::max(floor, compute);
}

/// The weights' buffers (llama-model-loader.cpp create_tensor: the buffer type of each tensor, in
/// the file's order), the layers from `first_gpu_layer` on on the GPU.
LlamaCppWeights place_weights(const LlamaCppWeightList& tensors, const LlamaCppSettings& s, const std::vector<RegexLite>& overrides,
                              int first_gpu_layer, bool output_on_gpu) {
  const auto layer_on_gpu = [&](int il) { return il >= first_gpu_layer; };
  LlamaCppWeights w;
  std::int64_t file_offset = 0, mapped_first = -1, mapped_last = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> repacked_ranges;
  bool has_output = false;
  LlamaCppWeight token_embd;
  bool has_token_embd = false;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const LlamaCppWeight t = tensors[i];
    const std::int64_t offset = file_offset;
    file_offset = pad(offset + t.bytes, kTensorAlignment);  // GGUF data are aligned to 32 (gguf.md)
    // As views: a length compared first.
    const std::string_view name = t.name;
    const bool input_layer = name == std::string_view("token_embd.weight");
    if (name == std::string_view("output.weight")) has_output = true;
    if (input_layer) {
      token_embd = t;
      has_token_embd = true;
    }
    const int layer = tensor_layer(t.name);
    bool gpu = input_layer ? false : (layer >= 0 ? layer_on_gpu(layer) : output_on_gpu);
    if (!overrides.empty()) {
      const std::string text(t.name);
      for (const auto& re : overrides) {
        if (re.search(text)) gpu = false;
      }
    }
    if (gpu) {
      w.device += pad(t.bytes, kCudaAlignment);
      ++w.tensors_device;
    } else if (repacked(t, s.cpu)) {
      w.repack += pad(t.bytes, kTensorAlignment);
      repacked_ranges.emplace_back(offset, offset + t.bytes);
      ++w.tensors_repack;
    } else if (s.mmap) {
      if (mapped_first < 0) mapped_first = offset;
      mapped_last = std::max(mapped_last, offset + t.bytes);
      ++w.tensors_mapped;
    } else {
      w.cpu += pad(t.bytes, kTensorAlignment);
      ++w.tensors_cpu;
    }
  }
  if (mapped_first >= 0) {
    // the CPU_Mapped buffer is the file range from the first to the last CPU tensor
    w.mapped = mapped_last - mapped_first;
    for (const auto& [a, b] : repacked_ranges) {
      if (a >= mapped_first && b <= mapped_last) w.mapped_repacked += b - a;
    }
  }
  if (!has_output && has_token_embd) {
    // Tied embeddings: the output layer gets the token embedding as a duplicated tensor; it is a
    // second copy unless it lands in the token embedding's own buffer (TENSOR_DUPLICATED).
    if (output_on_gpu) {
      w.device += pad(token_embd.bytes, kCudaAlignment);
      ++w.tensors_device;
    } else if (repacked({"output.weight", token_embd.shape, token_embd.type, token_embd.bytes}, s.cpu)) {
      w.repack += pad(token_embd.bytes, kTensorAlignment);
      ++w.tensors_repack;
    }
  }
  return w;
}

}  // namespace

const char* llama_cpp_cpu_id(LlamaCppCpu cpu) {
  switch (cpu) {
    case LlamaCppCpu::none: return "none";
    case LlamaCppCpu::x86_avx2: return "x86_avx2";
    case LlamaCppCpu::x86_avx512: return "x86_avx512";
    case LlamaCppCpu::arm_dotprod: return "arm_dotprod";
    case LlamaCppCpu::arm_i8mm: return "arm_i8mm";
  }
  return "none";
}

void check_override_pattern(const std::string& pattern, const std::string& field) { (void)compile_pattern(pattern, field); }

std::string llama_cpp_command_line(const LlamaCppSettings& s, const std::string& model_file) {
  std::string cmd = "llama-server -m " + model_file + " -c " + std::to_string(s.n_ctx) + " -np " + std::to_string(s.n_seq);
  if (s.kv_unified) cmd += " -kvu";
  cmd += " -b " + std::to_string(s.n_batch) + " -ub " + std::to_string(s.n_ubatch);
  cmd += std::string(" -fa ") + (s.flash_attn == LlamaCppFlashAttn::on ? "on" : s.flash_attn == LlamaCppFlashAttn::off ? "off" : "auto");
  cmd += " -ctk " + ascii_lower(s.type_k) + " -ctv " + ascii_lower(s.type_v);
  cmd += " -ngl " + (!s.gpu ? std::string("0") : s.n_gpu_layers < 0 ? std::string("all") : std::to_string(s.n_gpu_layers));
  if (s.gpu && !s.offload_kqv) cmd += " -nkvo";
  if (s.swa_full) cmd += " --swa-full";
  if (!s.mmap) cmd += " --load-mode none";
  if (!s.cpu_tensor_patterns.empty()) {
    std::string list;
    for (const auto& p : s.cpu_tensor_patterns) list += (list.empty() ? "" : ",") + p + "=CPU";
    cmd += " -ot \"" + list + "\"";
  }
  return cmd;
}

std::string llama_cpp_cache_type(const KvCacheFormat& format) {
  const std::string id(format.id);
  if (id == "fp16") return "F16";
  if (id == "bf16") return "BF16";
  if (id == "fp32") return "F32";
  if (id == "fp8") return "Q8_0";
  std::string upper = id;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

LlamaCppMemory llama_cpp_memory(const ModelSpec& m, const std::vector<GgufTensor>& tensors, const LlamaCppSettings& s, EstimateCache* cache) {
  return llama_cpp_memory(m, LlamaCppWeightList::of_file(tensors), s, cache);
}

LlamaCppMemory llama_cpp_memory(const ModelSpec& m, const LlamaCppWeightList& tensors, const LlamaCppSettings& s, EstimateCache* cache) {
  LlamaCppMemory r;
  const int n_layer = m.num_layers;
  const int type_k = cache_type_id(s.type_k, "kv_cache");
  const int type_v = cache_type_id(s.type_v, "kv_cache");
  if (!m.has_architecture()) throw InputError("model", Message("error.llama_cpp.needs_architecture"));
  auto out_of_range = [](std::int64_t min, std::int64_t max, std::int64_t got) {
    return Message("error.whole_number").integer("min", min).integer("max", max).text("got", std::to_string(got));
  };
  if (s.n_ctx < 0) throw InputError("n_ctx", Message("error.llama_cpp.n_ctx").text("got", std::to_string(s.n_ctx)));
  if (s.n_batch < 1) throw InputError("n_batch", out_of_range(1, kLlamaCppMaxBatch, s.n_batch));
  if (s.n_ubatch < 1) throw InputError("ubatch", out_of_range(1, kLlamaCppMaxUbatch, s.n_ubatch));
  // llama-context.cpp: "n_seq_max must be <= LLAMA_MAX_SEQ" (256, llama-cparams.h)
  if (s.n_seq < 1 || s.n_seq > kMaxSequences) throw InputError("parallel", out_of_range(1, kMaxSequences, s.n_seq));

  // --- llama-context.cpp constructor --------------------------------------------------------
  const std::int64_t n_seq = s.n_seq;
  std::int64_t n_ctx = s.n_ctx == 0 ? std::max<std::int64_t>(m.max_position_embeddings, 1) : s.n_ctx;
  // "with causal attention, the batch size is limited by the context size" (before padding)
  r.n_batch = std::min(n_ctx, s.n_batch);
  r.n_ubatch = std::min(r.n_batch, s.n_ubatch);
  const std::int64_t n_outputs_max = s.n_outputs_max > 0 ? s.n_outputs_max : r.n_batch;
  n_ctx = pad(n_ctx, kLlamaCppContextPad);
  if (s.kv_unified) {
    r.n_ctx_seq = n_ctx;
  } else {
    r.n_ctx_seq = pad(n_ctx / n_seq, kLlamaCppContextPad);
    n_ctx = r.n_ctx_seq * n_seq;
  }
  r.n_ctx = n_ctx;
  r.n_stream = s.kv_unified ? 1 : n_seq;
  // -fa auto resolves to on: the CPU backend supports FLASH_ATTN_EXT for every type
  // (ggml-cpu.cpp supports_op default), as do CUDA and Metal for the usual head sizes.
  r.flash_attn = s.flash_attn != LlamaCppFlashAttn::off;
  if (m.mla.kv_lora_rank > 0 && type_k != type_v) {
    // llama-context.cpp llama_init_from_model: "model does not support different K and V cache types" (MLA)
    throw InputError("kv_cache", Message("error.llama_cpp.mla_cache_types").text("type_k", s.type_k).text("type_v", s.type_v));
  }
  if (!r.flash_attn && ggml_type_info(type_v)->block_elements > 1) {
    // llama-context.cpp: "quantized V cache was requested, but this requires Flash Attention"
    throw InputError("kv_cache", Message("error.llama_cpp.quantized_v_needs_flash_attention").text("type_v", s.type_v));
  }

  // --- which device holds each layer (llama-model.cpp load_tensors) -------------------------
  const int ngl = !s.gpu ? 0 : (s.n_gpu_layers < 0 ? n_layer + 1 : std::min(s.n_gpu_layers, n_layer + 1));
  r.n_gpu_layers = ngl;
  const int i_gpu_start = std::max(n_layer + 1 - ngl, 0);  // the output layer is offloaded first
  auto layer_on_gpu = [&](int il) { return s.gpu && il >= i_gpu_start && ngl > 0; };
  const bool output_on_gpu = layer_on_gpu(n_layer);

  // --- KV cache (llama-model.cpp create_memory, llama-kv-cache.cpp, llama-kv-cache-iswa.cpp) ---
  const bool swa = sliding_cache(m);
  r.cells_full = r.n_ctx_seq;
  bool any_sliding = false;
  for (int il = 0; il < n_layer; ++il) any_sliding = any_sliding || (swa && m.mixer(il) == MixerKind::sliding_attention);
  if (any_sliding) {
    // "the SWA cache is always padded to 256 for performance": the window of every sequence of the
    // stream plus one micro-batch, at most the context (--swa-full: the whole context).
    const std::int64_t window = static_cast<std::int64_t>(m.sliding_window) * (s.kv_unified ? n_seq : 1) + r.n_ubatch;
    r.cells_sliding = s.swa_full ? r.n_ctx_seq : pad(std::min(r.n_ctx_seq, window), kLlamaCppContextPad);
  }
  r.layers.reserve(static_cast<std::size_t>(std::max(n_layer, 0)));
  for (int il = 0; il < n_layer; ++il) {
    LlamaCppLayerKv l;
    l.layer = il;
    l.streams = r.n_stream;
    l.on_device = s.offload_kqv && layer_on_gpu(il);
    const MixerKind mixer = m.mixer(il);
    if (mixer == MixerKind::linear_attention || mixer == MixerKind::ssm) {
      l.kind = LlamaCppLayerCache::recurrent;
      r.layers.push_back(l);
      continue;
    }
    if (m.mla.kv_lora_rank > 0) {
      // MLA stored as MQA: one "head" of kv_lora_rank + rope dims, no V tensor (has_v = !is_mla).
      l.kind = LlamaCppLayerCache::mla;
      l.cells = r.cells_full;
      l.k_bytes = row_bytes(type_k, static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim) * l.cells * l.streams;
    } else {
      const bool sliding = swa && mixer == MixerKind::sliding_attention;
      l.kind = sliding ? LlamaCppLayerCache::sliding : LlamaCppLayerCache::full;
      l.cells = sliding ? r.cells_sliding : r.cells_full;
      const std::int64_t gqa = static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim;
      l.k_bytes = row_bytes(type_k, gqa) * l.cells * l.streams;
      l.v_bytes = row_bytes(type_v, gqa) * l.cells * l.streams;
    }
    (l.on_device ? r.kv_device : r.kv_host) += pad(l.k_bytes, kTensorAlignment) + pad(l.v_bytes, kTensorAlignment);
    r.layers.push_back(l);
  }
  // llama_memory_recurrent: r and s states per sequence in F32 (n_seq_max cells).
  r.recurrent_state = recurrent_state_bytes(m, 4) * n_seq;
  r.kv_host += r.recurrent_state;

  // --- weights (llama-model-loader.cpp create_tensor: buffer type per tensor) ---------------
  // The same for every context and batch: placed once per cache (estimate_cache.hpp) where the list
  // is one the cache names.
  std::vector<RegexLite> overrides;
  for (const auto& pattern : s.cpu_tensor_patterns) overrides.push_back(compile_pattern(pattern, "override_tensor"));
  const bool file_list = m.file_tensors != nullptr && tensors.file() == m.file_tensors.get();
  if (cache != nullptr && cache->model != &m) cache = nullptr;  // another model's cache
  // The cache's own list: the model's planned list in the cache's layout.
  const bool cacheable = cache != nullptr && overrides.empty() && (file_list || (tensors.layout() != nullptr && tensors.layout() == cache->layout));
  const int first_gpu_layer = ngl > 0 ? i_gpu_start : std::numeric_limits<int>::max();
  const LlamaCppWeightsKey weights_key{file_list, first_gpu_layer, s.gpu, s.mmap, s.cpu};
  const LlamaCppWeights* placed = nullptr;
  if (cacheable) {
    for (const auto& [known, weights] : cache->weights) {
      if (known == weights_key) placed = &weights;
    }
  }
  LlamaCppWeights own;
  if (placed == nullptr) {
    own = place_weights(tensors, s, overrides, first_gpu_layer, output_on_gpu);
    if (cacheable) cache->weights.emplace_back(weights_key, own);
    placed = &own;
  }
  r.weights_mapped = placed->mapped;
  r.weights_cpu = placed->cpu;
  r.weights_repack = placed->repack;
  r.weights_device = placed->device;
  r.weights_mapped_repacked = placed->mapped_repacked;
  r.tensors_device = placed->tensors_device;
  r.tensors_mapped = placed->tensors_mapped;
  r.tensors_cpu = placed->tensors_cpu;
  r.tensors_repack = placed->tensors_repack;

  // --- output buffer (llama-context.cpp output_reserve(n_seq_max)): logits of n_seq rows ----
  r.output = m.vocab_size * n_seq * 4;

  // --- compute buffer (llama-context.cpp sched_reserve: pp, tg, pp graphs; the largest) -----
  // Not monotone in n_ctx: the buffer is ggml-alloc's high-water mark (ggml_dyn_tallocr_alloc: best
  // fit among the free blocks but the last, else the last), and a larger KQ mask can move where the
  // logits land (Gemma-3-4B: 724,984,064 B at n_ctx 93,952, 662,331,648 B at 94,208).
  llama_cpp_graph::GraphParams g = graph_params(m);
  g.n_seqs = n_seq;
  g.n_stream = r.n_stream;
  g.kv_unified = s.kv_unified;
  g.kv_size = r.cells_full;
  g.kv_size_swa = r.cells_sliding > 0 ? r.cells_sliding : r.cells_full;
  g.flash_attn = r.flash_attn;
  g.type_k = type_k;
  g.type_v = type_v;
  std::int64_t pp_tokens = std::min(r.n_ctx, r.n_ubatch);
  pp_tokens = (pp_tokens + n_seq - 1) / n_seq * n_seq;  // graph_reserve: a multiple of n_seqs
  g.n_tokens = pp_tokens;
  g.n_outputs = std::min(pp_tokens, n_outputs_max);
  const LlamaCppGraphBytes pp = graph_bytes(m, g, cache);
  g.n_tokens = n_seq;
  g.n_outputs = n_seq;
  // The token-generation graph's buffer counts only where it exceeds the prompt graph's.
  const std::int64_t compute = compute_at_least(m, g, pp.compute, cache);
  if (s.gpu && ngl > 0) {
    // Not measured here (no GPU in the tests): the device's buffer is taken as the same graph laid
    // out by the same allocator; the CPU keeps the graph inputs and the token embedding lookup
    // (the whole graph's buffer too while some layers still run on the CPU).
    r.compute_device = compute;
    r.compute_host = ngl >= n_layer + 1 ? pp.inputs : compute;
  } else {
    r.compute_host = compute;
  }

  if (m.sliding_window > 0 && !swa) {
    r.notes.push_back(Message(m.family == Family::phi3 ? "note.llama_cpp.phi3_window_off" : "note.llama_cpp.window_unused"));
  }
  if (r.cells_sliding > 0) {
    r.notes.push_back(Message("note.llama_cpp.sliding_cells").grouped("cells", r.cells_sliding).integer("window", m.sliding_window).integer("ubatch", r.n_ubatch));
  }
  if (r.n_stream > 1) r.notes.push_back(Message("note.llama_cpp.streams").integer("streams", r.n_stream).grouped("cells", r.n_ctx_seq));
  if (r.weights_repack > 0) r.notes.push_back(Message("note.llama_cpp.repacked").bytes("repack", r.weights_repack).text("cpu", llama_cpp_cpu_id(s.cpu)));

  r.host_bytes = r.weights_mapped + r.weights_cpu + r.weights_repack + r.kv_host + r.compute_host + r.output;
  r.device_bytes = r.weights_device + r.kv_device + r.compute_device;
  return r;
}

std::int64_t llama_cpp_decode_dispatches(const ModelSpec& m, bool flash_attn, EstimateCache* cache) {
  if (!m.has_architecture() || m.num_attention_heads <= 0 || m.head_dim <= 0 || m.vocab_size <= 0) return 0;
  std::int64_t* known = cache != nullptr && cache->model == &m ? &cache->llama_cpp_decode_dispatches[flash_attn ? 1 : 0] : nullptr;
  if (known != nullptr && *known >= 0) return *known;
  llama_cpp_graph::GraphParams g = graph_params(m);
  // One token of one sequence; the nodes depend on no cache size (llama_cpp_graph.hpp
  // compute_buffer_bytes_above), so a small cache builds the same ones.
  g.n_tokens = 1;
  g.n_outputs = 1;
  g.kv_size = 256;
  g.kv_size_swa = 256;
  g.flash_attn = flash_attn;
  // Less the token embedding's get_rows: token_embd stays in host memory and its lookup runs on
  // the CPU (ggml-backend.cpp ggml_backend_sched_backend_id_from_cur; llama_cpp_graph.hpp input_bytes).
  const llama_cpp_graph::DispatchedNodes nodes = llama_cpp_graph::dispatched_nodes(g);
  const std::int64_t n = std::max<std::int64_t>(0, nodes.all - nodes.streaming - 1);
  if (known != nullptr) *known = n;
  return n;
}

}  // namespace llmsizer
