// SPDX-License-Identifier: MIT
#include "llmsizer/quantization.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "arithmetic.hpp"

namespace llmsizer {
namespace {

using detail::ceil_div;

/// Bytes of a 16-bit copy (the dtype Transformers/vLLM/MLX keep unquantized tensors in).
constexpr std::int64_t k16BitBytes = 2;


/// A stack of MoE experts (ffn_*_exps: experts in the third dimension).
bool is_expert(const TensorInfo& t) { return t.dims() > 2; }

/// A linear layer's weight inside the decoder: what GPTQ/AWQ/bnb/FP8 quantize (not the router, not
/// a vision tower's, which converters keep 16-bit; not biases or norms).
bool is_decoder_linear(const TensorInfo& t) {
  return t.is_matrix() && t.role != TensorRole::bias && t.role != TensorRole::norm && t.role != TensorRole::router &&
         t.role != TensorRole::extra &&
         (t.tensor_class == TensorClass::attention || t.tensor_class == TensorClass::mlp || t.tensor_class == TensorClass::other);
}

/// "_exps" in a tensor's name (ffn_*_exps: routed experts), looked for from its rare 'x': a plain
/// find of the whole word was half of what storing a tensor cost.
bool names_routed_experts(std::string_view name) {
  for (std::size_t x = name.find('x'); x != std::string_view::npos; x = name.find('x', x + 1)) {
    if (x >= 2 && name.substr(x - 2, 5) == "_exps") return true;
  }
  return false;
}

TensorStorage stored(const TensorInfo& t, std::string_view type, std::int64_t bytes, int entries = 1) {
  const bool routed_experts = names_routed_experts(t.name);
  return {type, t.tensor_class, t.elements(), bytes, entries, t.lump, t.dims() > 2 ? t.shape[2] : 1, routed_experts};
}

/// "gptq-4bit", "mlx-6bit", ...: the storage type of a GPTQ or MLX format of 1 to 8 bits (static
/// text, as TensorStorage::type must be). A format table entry outside that is a programming error.
std::string_view packed_type(QuantScheme scheme, int bits) {
  static constexpr std::string_view kGptq[] = {"gptq-1bit", "gptq-2bit", "gptq-3bit", "gptq-4bit",
                                               "gptq-5bit", "gptq-6bit", "gptq-7bit", "gptq-8bit"};
  static constexpr std::string_view kMlx[] = {"mlx-1bit", "mlx-2bit", "mlx-3bit", "mlx-4bit",
                                              "mlx-5bit", "mlx-6bit", "mlx-7bit", "mlx-8bit"};
  if (bits < 1 || bits > 8 || (scheme != QuantScheme::gptq && scheme != QuantScheme::mlx)) {
    throw std::logic_error("no packed storage type for " + std::to_string(bits) + " bits");
  }
  const auto i = static_cast<std::size_t>(bits - 1);
  return scheme == QuantScheme::gptq ? kGptq[i] : kMlx[i];
}

TensorStorage keep_16bit(const TensorInfo& t) { return stored(t, "BF16", t.elements() * k16BitBytes); }

// --- Hugging Face / vLLM / MLX conventions ------------------------------------------------------

TensorStorage hf_tensor(const TensorInfo& t, const WeightFormat& f, int group) {
  const std::int64_t in = t.row_elements();
  const std::int64_t out = t.rows();  // output features × experts
  const std::int64_t n = t.elements();
  switch (f.scheme) {
    case QuantScheme::plain:
      return stored(t, f.id, bytes_for_elements(n, f.block_elements, f.block_bytes));
    case QuantScheme::fp8: {
      if (!is_decoder_linear(t)) return keep_16bit(t);
      // weight (1 B each) + fp32 scales: one per tensor (per expert), one per output row, or one
      // per group × group block (block-wise FP8).
      const std::int64_t matrices = t.dims() > 2 ? t.shape[2] : 1;
      if (f.group_size > 0) {
        const std::int64_t blocks = ceil_div(in, f.group_size) * ceil_div(out / matrices, f.group_size) * matrices;
        return stored(t, f.id, n + 4 * blocks, 2);
      }
      return stored(t, f.id, n + 4 * (f.variant ? out : matrices), 2);
    }
    case QuantScheme::llm_int8:
      if (!is_decoder_linear(t)) return keep_16bit(t);
      return stored(t, "int8", n + 4 * out, 2);  // CB int8 + SCB fp32 per output row
    case QuantScheme::bnb_4bit: {
      if (!is_decoder_linear(t)) return keep_16bit(t);
      const std::int64_t blocks = ceil_div(n, f.group_size);
      std::int64_t bytes = ceil_div(n, 2);
      // Serialized quant state per tensor (bitsandbytes QuantState.as_dict): quant_map (16 fp32)
      // and a packed JSON of ~100 bytes; with DQ also nested_quant_map (256 fp32) and offset.
      constexpr std::int64_t kQuantStateBytes = 16 * 4 + 100;
      if (f.variant) {
        bytes += blocks + 4 * ceil_div(blocks, 256) + 256 * 4 + 4 + kQuantStateBytes;  // 8-bit absmax, fp32 per 256
      } else {
        bytes += 4 * blocks + kQuantStateBytes;  // fp32 absmax per block of 64
      }
      return stored(t, f.id, bytes, f.variant ? 5 : 3);
    }
    case QuantScheme::gptq: {
      if (!is_decoder_linear(t)) return keep_16bit(t);
      const std::int64_t g = group > 0 ? group : in;  // -1: one group per column
      const std::int64_t groups = ceil_div(in, g);
      const std::int64_t matrices = t.dims() > 2 ? t.shape[2] : 1;
      const std::int64_t qweight = ceil_div(in * f.bits, 32) * 4 * out;
      const std::int64_t qzeros = groups * ceil_div(out / matrices * f.bits, 32) * 4 * matrices;
      const std::int64_t scales = groups * out * 2;
      const std::int64_t g_idx = in * 4 * matrices;
      return stored(t, packed_type(QuantScheme::gptq, f.bits), qweight + qzeros + scales + g_idx, 4);
    }
    case QuantScheme::awq: {
      if (!is_decoder_linear(t)) return keep_16bit(t);
      const std::int64_t g = group > 0 ? group : 128;
      const std::int64_t groups = ceil_div(in, g);
      const std::int64_t qweight = in * ceil_div(out, 8) * 4;
      const std::int64_t qzeros = groups * ceil_div(out, 8) * 4;
      const std::int64_t scales = groups * out * 2;
      return stored(t, "awq-4bit", qweight + qzeros + scales, 3);
    }
    case QuantScheme::mxfp4: {
      // gpt-oss: only the experts; a model without experts gets all decoder linears.
      if (!is_decoder_linear(t)) return keep_16bit(t);
      return stored(t, "MXFP4", bytes_for_elements(n, 32, 17), 2);
    }
    case QuantScheme::nvfp4: {
      if (!is_decoder_linear(t)) return keep_16bit(t);
      // weight: two E2M1 values a byte; weight_scale: one E4M3 byte per 16 along the input; per
      // matrix (per expert) the fp32 weight_scale_2 and input_scale.
      const std::int64_t matrices = t.dims() > 2 ? t.shape[2] : 1;
      return stored(t, "NVFP4", ceil_div(in, 2) * out + ceil_div(in, 16) * out + 8 * matrices, 4);
    }
    case QuantScheme::mlx: {
      // mlx.nn.quantize: Linear and Embedding layers (the embedding and lm_head too).
      const bool quantizable = t.is_matrix() && t.role != TensorRole::bias && t.role != TensorRole::norm && t.role != TensorRole::extra &&
                               in % group == 0;
      if (!quantizable) return keep_16bit(t);
      const std::int64_t groups = n / group;
      return stored(t, packed_type(QuantScheme::mlx, f.bits), ceil_div(n * f.bits, 32) * 4 + groups * 2 * k16BitBytes, 3);
    }
    case QuantScheme::gguf:    // per tensor by GgufMixer, below
    case QuantScheme::stored:  // an imported file's bytes: weights_layout never asks per tensor
      break;
  }
  return keep_16bit(t);
}

// --- GGUF: llama.cpp's per-tensor type choice -----------------------------------------------------

/** Port of llama_tensor_get_type / llama_tensor_get_type_impl (ggml-org/llama.cpp
 *  src/llama-quant.cpp, read at commit 007dbbf3): the default type of the file type, bumped for
 *  output/token_embd, attn_v (and attn_qkv, attn_kv_b), ffn_down, attn_output, attn_k/attn_q,
 *  ffn_gate/ffn_up by the file type, the layer (use_more_bits), the GQA factor and the expert
 *  count; then the block-size fallback. Each tensor's role is classified once from its name
 *  (TensorInfo::role, as llama.cpp's tensor_get_category does). Falcon-specific branches are left
 *  out, and a Falcon's q, k and v are laid out as three tensors where its GGUF has one attn_qkv:
 *  the mix of the Falcon presets' GGUF files is approximate. */
class GgufMixer {
 public:
  using F = GgufFileType;
  using T = GgmlType;

  GgufMixer(const ModelSpec& m, const std::vector<TensorInfo>& tensors, GgufFileType ftype) : ftype_(ftype) {
    for (const auto& t : tensors) {
      if (is_attn_v(t.role)) ++n_attention_wv_;
      if (t.role == TensorRole::output) tied_ = false;
    }
    n_layer_ = m.num_layers;
    n_gqa_ = m.num_kv_heads > 0 ? m.num_attention_heads / m.num_kv_heads : 1;
    n_expert_ = m.moe.num_experts;
    // LLM_TYPE_70B (llama-model.cpp): Llama with 80 layers and GQA, Qwen2 with 80 layers.
    is_70b_ = m.num_layers == 80 && ((m.family == Family::llama && n_gqa_ > 1) || m.family == Family::qwen2);
    // Files that need an importance matrix are made with one (llama-quant.cpp
    // tensor_requires_imatrix), which changes a few choices (has_imatrix).
    has_imatrix_ = is(F::IQ1_S, F::IQ1_M, F::IQ2_XXS, F::IQ2_XS, F::IQ2_S, F::IQ2_M, F::IQ3_XXS, F::IQ3_XS, F::Q2_K_S);
  }

  /// The file type's default tensor type (llama_ftype_get_default_type).
  GgmlType default_type() const {
    switch (ftype_) {
      case F::F32: return T::F32;
      case F::F16: return T::F16;
      case F::BF16: return T::BF16;
      case F::Q8_0: return T::Q8_0;
      case F::Q6_K: return T::Q6_K;
      case F::Q5_K_M:
      case F::Q5_K_S: return T::Q5_K;
      case F::Q5_1: return T::Q5_1;
      case F::Q5_0: return T::Q5_0;
      case F::Q4_K_M:
      case F::Q4_K_S: return T::Q4_K;
      case F::Q4_1: return T::Q4_1;
      case F::Q4_0: return T::Q4_0;
      case F::IQ4_NL: return T::IQ4_NL;
      case F::IQ4_XS: return T::IQ4_XS;
      case F::Q3_K_L:
      case F::Q3_K_M:
      case F::Q3_K_S: return T::Q3_K;
      case F::IQ3_M:
      case F::IQ3_S:
      case F::IQ3_XS: return T::IQ3_S;
      case F::IQ3_XXS: return T::IQ3_XXS;
      case F::Q2_K:
      case F::Q2_K_S:
      case F::Q2_K_2023: return T::Q2_K;
      case F::IQ2_M: return T::IQ2_S;
      case F::IQ2_S: return T::IQ2_XS;
      case F::IQ2_XS: return T::IQ2_XS;
      case F::IQ2_XXS: return T::IQ2_XXS;
      case F::IQ1_M: return T::IQ1_M;
      case F::IQ1_S: return T::IQ1_S;
      case F::TQ2_0: return T::TQ2_0;
      case F::TQ1_0: return T::TQ1_0;
      case F::MXFP4_MOE: return T::MXFP4;
      case F::none: break;
    }
    return T::F16;
  }

  /// The stored type of tensor `t` (converted from a 16-bit checkpoint by convert_hf_to_gguf.py:
  /// 1-D tensors and the MoE router in F32, everything else in the file type's choice).
  GgmlType type_for(const TensorInfo& t) {
    const GgmlType base = default_type();
    const bool source_f32 = !t.is_matrix() || t.role == TensorRole::router;
    if (is(F::F32)) return T::F32;
    if (source_f32) return T::F32;
    if (t.role == TensorRole::extra) return T::F16;  // vision towers live in the separate mmproj file, F16
    if (is(F::F16, F::BF16)) return base;
    // tensor_allows_quantization: 2-D+ weights, not norms, not the router.
    if (t.role == TensorRole::bias || t.role == TensorRole::norm) return T::F32;
    return fallback(t, impl(t, base));
  }

 private:
  template <typename... Types>
  bool is(Types... types) const { return ((ftype_ == types) || ...); }
  static bool is_attn_v(TensorRole r) { return r == TensorRole::attn_v || r == TensorRole::attn_qkv || r == TensorRole::attn_kv_b; }
  static bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }
  int layer_of(const TensorInfo& t, int counter) const { return n_expert_ > 1 ? t.layer : counter; }

  GgmlType impl(const TensorInfo& t, GgmlType nt) {
    const TensorRole role = t.role;
    if (role == TensorRole::output || (tied_ && role == TensorRole::token_embd)) {
      if (is(F::MXFP4_MOE)) return T::Q8_0;
      if (t.row_elements() % ggml_type(nt).block_elements != 0) return T::Q8_0;
      if (is(F::IQ2_XXS, F::IQ2_XS, F::IQ3_XXS, F::IQ1_S, F::IQ2_S, F::IQ2_M, F::IQ1_M)) return T::Q5_K;
      if (nt != T::Q8_0) return T::Q6_K;
      return nt;
    }
    if (is(F::MXFP4_MOE)) return t.dims() > 2 ? T::MXFP4 : T::Q8_0;
    if (role == TensorRole::token_embd) {
      if (is(F::IQ2_XXS, F::IQ2_XS, F::IQ1_S, F::IQ1_M)) return T::Q2_K;
      if (is(F::IQ2_S, F::IQ2_M, F::IQ3_XXS)) return T::IQ3_S;
      if (is(F::TQ1_0, F::TQ2_0)) return T::Q4_K;
      return nt;
    }
    const bool attn_v = is_attn_v(role);
    const bool ffn_down = role == TensorRole::ffn_down;
    if (is(F::Q2_K_2023)) {
      // llama.cpp from PR #2707 (2023-08-22) to PR #5060 (2024-01-21): "All tensors are quantized
      // using Q3_K, except for attention K and Q, which are Q2_K, and output.weight, which is Q6_K";
      // the token embedding keeps the file type's Q2_K (PR #2707: Llama-2-7B 2.63 GiB, which only
      // that reading gives). PR #2807 (2023-08-26): the 70B's attn_v in Q5_K (27.11 -> 27.27 GiB).
      if (attn_v) return is_70b_ ? T::Q5_K : T::Q3_K;
      if (role == TensorRole::attn_q || role == TensorRole::attn_k) return nt;
      return T::Q3_K;
    }
    if (is(F::IQ2_XXS, F::IQ2_XS, F::IQ1_S, F::IQ2_S, F::IQ2_M, F::IQ1_M)) {
      if (attn_v) {
        if (n_gqa_ >= 4 || n_expert_ >= 4) nt = T::Q4_K;
        else nt = is(F::IQ2_S, F::IQ2_M) ? T::IQ3_S : T::Q2_K;
        ++i_attention_wv_;
      } else if (n_expert_ == 8 && role == TensorRole::attn_k) {
        nt = T::Q4_K;
      } else if (ffn_down) {
        if (i_ffn_down_ < n_layer_ / 8) nt = is(F::IQ2_S, F::IQ2_M) ? T::IQ3_S : T::Q2_K;
        ++i_ffn_down_;
      } else if (role == TensorRole::attn_output) {
        if (n_expert_ == 8) nt = T::Q5_K;
        else if (is(F::IQ1_S, F::IQ1_M)) nt = T::IQ2_XXS;
        else if (is(F::IQ2_S, F::IQ2_M)) nt = T::IQ3_S;
      }
      return nt;
    }
    if (attn_v) {
      if (is(F::Q2_K)) nt = n_gqa_ >= 4 ? T::Q4_K : T::Q3_K;
      else if (is(F::Q2_K_S) && n_gqa_ >= 4) nt = T::Q4_K;
      else if (is(F::IQ3_XXS)) nt = n_gqa_ >= 4 ? T::Q4_K : (!has_imatrix_ ? T::IQ3_S : T::IQ3_XXS);
      else if (is(F::IQ3_XS, F::IQ3_S) && n_gqa_ >= 4) nt = T::Q4_K;
      else if (is(F::IQ3_M)) nt = T::Q4_K;
      else if (is(F::Q3_K_M)) nt = i_attention_wv_ < 2 ? T::Q5_K : T::Q4_K;
      else if (is(F::Q3_K_L)) nt = T::Q5_K;
      else if (is(F::IQ4_NL, F::IQ4_XS) && n_gqa_ >= 4) nt = T::Q5_K;
      else if (is(F::Q4_K_M, F::Q5_K_M) && use_more_bits(i_attention_wv_, n_attention_wv_)) nt = T::Q6_K;
      else if (is(F::Q4_K_S) && i_attention_wv_ < 4) nt = T::Q5_K;
      if (is_70b_ && (nt == T::Q3_K || nt == T::Q4_K)) nt = T::Q5_K;
      if (n_expert_ == 8) nt = T::Q8_0;
      ++i_attention_wv_;
    } else if (role == TensorRole::attn_k) {
      if (n_expert_ == 8) nt = T::Q8_0;
      else if (is(F::IQ3_XS)) nt = T::IQ3_XXS;
      else if (is(F::IQ3_XXS)) nt = T::IQ2_S;
    } else if (role == TensorRole::attn_q) {
      if (is(F::IQ3_XS)) nt = T::IQ3_XXS;
      else if (is(F::IQ3_XXS)) nt = T::IQ2_S;
    } else if (ffn_down) {
      const int i = layer_of(t, i_ffn_down_);
      const int n = n_layer_;
      if (is(F::Q2_K)) nt = T::Q3_K;
      else if (is(F::Q2_K_S)) { if (i < n / 8) nt = T::Q4_K; }
      else if (is(F::IQ3_XXS) && !has_imatrix_) nt = i < n / 8 ? T::Q4_K : T::Q3_K;
      else if (is(F::Q3_K_M)) nt = i < n / 16 ? T::Q5_K : T::Q4_K;
      else if (is(F::IQ3_M) && (i < n / 8 || (n_expert_ == 8 && use_more_bits(i, n)))) nt = T::Q4_K;
      else if (is(F::Q3_K_L)) nt = T::Q5_K;
      else if (is(F::Q4_K_M)) { if (use_more_bits(i, n)) nt = T::Q6_K; }
      else if (i < n / 8 && is(F::IQ4_NL, F::IQ4_XS) && !has_imatrix_) nt = T::Q5_K;
      else if (is(F::Q5_K_M) && use_more_bits(i, n)) nt = T::Q6_K;
      else if (is(F::Q4_K_S) && i < n / 8) nt = T::Q5_K;
      ++i_ffn_down_;
    } else if (role == TensorRole::attn_output) {
      if (n_expert_ == 8) {
        if (is(F::Q2_K, F::IQ3_XS, F::IQ3_XXS, F::Q3_K_S, F::Q3_K_M, F::IQ4_NL, F::Q4_K_S, F::Q4_K_M, F::IQ3_S, F::IQ3_M, F::IQ4_XS)) nt = T::Q5_K;
      } else {
        if (is(F::Q2_K)) nt = T::Q3_K;
        else if (is(F::IQ3_XXS)) nt = T::IQ3_S;
        else if (is(F::Q3_K_M)) nt = T::Q4_K;
        else if (is(F::Q3_K_L)) nt = T::Q5_K;
        else if (is(F::IQ3_M)) nt = T::Q4_K;
      }
    } else if (role == TensorRole::ffn_gate || role == TensorRole::ffn_up) {
      int& counter = role == TensorRole::ffn_gate ? i_ffn_gate_ : i_ffn_up_;
      const int i = layer_of(t, counter);
      if (is(F::IQ3_XS) && i >= n_layer_ / 8 && i < 7 * n_layer_ / 8) nt = T::IQ3_XXS;
      ++counter;
    }
    return nt;
  }

  /// tensor_type_fallback: a row that is not a whole number of blocks takes a 32-block type.
  static GgmlType fallback(const TensorInfo& t, GgmlType type) {
    const std::int64_t cols = t.row_elements();
    if (cols % ggml_type(type).block_elements == 0) return type;
    static constexpr std::pair<GgmlType, GgmlType> kFallback[] = {
        {T::IQ1_S, T::IQ4_NL}, {T::IQ1_M, T::IQ4_NL}, {T::IQ2_XXS, T::IQ4_NL}, {T::IQ2_XS, T::IQ4_NL}, {T::IQ2_S, T::IQ4_NL},
        {T::IQ3_XXS, T::IQ4_NL}, {T::IQ3_S, T::IQ4_NL}, {T::IQ4_XS, T::IQ4_NL}, {T::Q2_K, T::Q4_0}, {T::Q3_K, T::Q4_0},
        {T::TQ1_0, T::Q4_0}, {T::TQ2_0, T::Q4_0}, {T::Q4_K, T::Q5_0}, {T::Q5_K, T::Q5_1}, {T::Q6_K, T::Q8_0}};
    GgmlType next = T::F16;
    for (const auto& [from, to] : kFallback) {
      if (from == type) next = to;
    }
    if (cols % ggml_type(next).block_elements != 0) next = T::F16;
    return next;
  }

  GgufFileType ftype_;
  bool tied_ = true;
  int n_layer_ = 0;
  int n_gqa_ = 1;
  int n_expert_ = 0;
  bool is_70b_ = false;
  bool has_imatrix_ = false;
  int n_attention_wv_ = 0;
  int i_attention_wv_ = 0;
  int i_ffn_down_ = 0;
  int i_ffn_gate_ = 0;
  int i_ffn_up_ = 0;
};

TensorStorage gguf_tensor(const TensorInfo& t, GgmlType type) {
  const GgmlTypeInfo& b = ggml_type(type);
  // ggml_row_size per row × rows (rows are whole blocks after the fallback).
  const std::int64_t bytes = ceil_div(t.row_elements(), b.block_elements) * b.block_bytes * t.rows();
  return stored(t, b.name, t.is_matrix() ? bytes : bytes_for_elements(t.elements(), b.block_elements, b.block_bytes));
}

}  // namespace

double WeightsLayout::bits_per_weight() const {
  return elements > 0 ? 8.0 * static_cast<double>(total_bytes) / static_cast<double>(elements) : 0.0;
}

const TensorStorage* WeightsLayout::find(const std::vector<TensorInfo>& infos, std::string_view name) const {
  for (std::size_t i = 0; i < infos.size() && i < tensors.size(); ++i) {
    if (infos[i].name == name) return &tensors[i];
  }
  return nullptr;
}

std::int64_t WeightsLayout::tensor_bytes(const std::vector<TensorInfo>& infos, std::string_view name) const {
  const TensorStorage* t = find(infos, name);
  return t != nullptr ? t->bytes : 0;
}

WeightsLayout weights_layout(const ModelSpec& model, const WeightFormat& format, int group_size) {
  // The preset's tensor list, built once (tensor_list caches it while the model keeps its shape).
  const std::shared_ptr<const TensorList> list = tensor_list(model);
  return weights_layout(model, format, list->tensors, group_size);
}

WeightsLayout weights_layout(const ModelSpec& model, const WeightFormat& format, const std::vector<TensorInfo>& tensors, int group_size) {
  WeightsLayout layout;
  layout.tensors.reserve(tensors.size());
  const int group = group_size != 0 ? group_size : format.group_size;
  if (format.scheme == QuantScheme::stored) {
    // An imported file's bytes are known only in total: share them over the tensors by element
    // count (so per-layer splits such as partial offload stay meaningful), the rounding remainder
    // on the largest tensor, so that the total is exactly the file's.
    std::int64_t assigned = 0;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const std::int64_t elements = tensors[i].elements();
      const auto bytes = static_cast<std::int64_t>(static_cast<long double>(elements) * format.block_bytes / format.block_elements);
      assigned += bytes;
      if (elements > tensors[largest].elements()) largest = i;
      layout.tensors.push_back(stored(tensors[i], "stored", bytes));
    }
    if (!layout.tensors.empty()) layout.tensors[largest].bytes += format.block_bytes - assigned;
  } else if (format.scheme == QuantScheme::gguf) {
    GgufMixer mixer(model, tensors, format.gguf_type);
    for (const auto& t : tensors) layout.tensors.push_back(gguf_tensor(t, mixer.type_for(t)));
  } else {
    const bool has_experts = std::any_of(tensors.begin(), tensors.end(), is_expert);
    for (const auto& t : tensors) {
      if (format.scheme == QuantScheme::mxfp4 && has_experts && !is_expert(t)) {
        layout.tensors.push_back(keep_16bit(t));  // gpt-oss: only the experts are MXFP4
      } else {
        layout.tensors.push_back(hf_tensor(t, format, group));
      }
    }
  }
  for (const auto& t : layout.tensors) {
    layout.total_bytes += t.bytes;
    layout.elements += t.elements;
    layout.bytes_by_class[static_cast<std::size_t>(t.tensor_class)] += t.bytes;
    if (t.routed_experts) layout.routed_expert_bytes += t.bytes;
  }
  return layout;
}

namespace {
/** GGUF header estimate (ggml docs/gguf.md): 24 B fixed header; general.* and <arch>.* key/values
 *  and the chat template, ~8 KiB; the tokenizer arrays: each token a uint64 length + its bytes
 *  (~7 B on average) + an int32 token type + a float32 score (SentencePiece) or, for BPE
 *  vocabularies, about two merges per token of ~13 B each: 48 B per vocabulary entry covers both.
 *  Per tensor: name (uint64 length + ~24 B) + n_dims uint32 + dims uint64 each + type uint32 +
 *  offset uint64, and up to 31 B of padding to the 32-byte alignment (GGUF_DEFAULT_ALIGNMENT). */
constexpr std::int64_t kGgufFixedBytes = 24 + 8 * 1024;
constexpr std::int64_t kGgufBytesPerVocabEntry = 48;
constexpr std::int64_t kGgufTensorInfoBytes = 8 + 24 + 4 + 4 + 8;
constexpr std::int64_t kGgufAlignment = 32;
/** safetensors (huggingface/safetensors docs): an 8-byte header length, then a JSON header with
 *  one entry per stored tensor: {"model.layers.N.mlp.down_proj.weight":{"dtype":"BF16",
 *  "shape":[4096,14336],"data_offsets":[a,b]}} ≈ 130 B, padded to 8 bytes; ~5 GB per shard. */
constexpr std::int64_t kSafetensorsEntryBytes = 130;
constexpr std::int64_t kSafetensorsShardBytes = 5'000'000'000;
}  // namespace

DiskSize checkpoint_disk_size(const ModelSpec& model, const WeightFormat& format, const WeightsLayout& layout) {
  DiskSize d;
  d.weights_bytes = layout.total_bytes;
  if (format.scheme == QuantScheme::stored) return d;  // the imported file's tensor bytes, header not known
  if (format.scheme == QuantScheme::gguf) {
    // Tensor infos (dims as 4 uint64 at most) and the average alignment padding per tensor.
    const std::int64_t infos = static_cast<std::int64_t>(layout.tensors.size()) * (kGgufTensorInfoBytes + 8 * 4 + kGgufAlignment / 2);
    d.metadata_bytes = kGgufFixedBytes + model.vocab_size * kGgufBytesPerVocabEntry + infos;
    return d;
  }
  std::int64_t entries = 0;
  for (const auto& t : layout.tensors) entries += t.stored_tensors;
  const std::int64_t shards = std::max<std::int64_t>(1, ceil_div(layout.total_bytes, kSafetensorsShardBytes));
  d.metadata_bytes = shards * 8 + entries * kSafetensorsEntryBytes;
  return d;
}

std::int64_t bnb_dequant_buffer_bytes(const ModelSpec& model, const WeightsLayout& layout) {
  std::int64_t largest = 0;
  bool quantized = false;
  for (const auto& t : layout.tensors) {
    if (t.type != "nf4" && t.type != "nf4-dq" && t.type != "fp4" && t.type != "fp4-dq") continue;
    quantized = true;
    // A lump stands for many matrices: the one dequantized at a time is a layer's, not the lump;
    // stacked experts are separate Linear modules in Transformers, dequantized one at a time.
    if (!t.lump) largest = std::max(largest, t.elements / std::max<std::int64_t>(1, t.matrices));
  }
  if (quantized && largest == 0 && model.shape_assumed) {
    // A bare parameter count with its shape: the largest matrix of that shape (H × MLP width).
    largest = model.hidden_size * std::max(model.hidden_size, model.intermediate_size);
  }
  return largest * k16BitBytes;
}

std::int64_t gptq_exllama_scratch_bytes(const ModelSpec& model) {
  std::int64_t largest = 0;
  const std::shared_ptr<const TensorList> list = tensor_list(model);
  for (const auto& t : list->tensors) {
    if (!is_decoder_linear(t) || t.dims() != 2) continue;
    const std::int64_t in = t.shape[0];
    const std::int64_t out = t.shape[1];
    largest = std::max(largest, (in * out * 2 + 128) + (out * kExllamaMaxInputLen * kExllamaMaxBatchSize * 4 + 128));
  }
  return largest;
}

std::int64_t awq_fused_kv_cache_bytes(const ModelSpec& model, std::int64_t fuse_max_seq_len, std::int64_t batch) {
  return 2LL * model.num_layers * model.num_kv_heads * model.head_dim * fuse_max_seq_len * batch * k16BitBytes;
}

}  // namespace llmsizer
