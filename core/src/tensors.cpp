// SPDX-License-Identifier: MIT
#include "llmsizer/tensors.hpp"

#include <algorithm>
#include <utility>

namespace llmsizer {

const char* tensor_class_id(TensorClass c) {
  switch (c) {
    case TensorClass::embeddings: return "embeddings";
    case TensorClass::attention: return "attention";
    case TensorClass::mlp: return "mlp";
    case TensorClass::lm_head: return "lm_head";
    case TensorClass::norms: return "norms";
    case TensorClass::other: return "other";
  }
  return "other";
}

std::int64_t TensorInfo::elements() const {
  std::int64_t n = 1;
  for (const std::int64_t d : shape) n *= d;
  return shape.empty() ? 0 : n;
}

std::int64_t TensorInfo::rows() const {
  std::int64_t n = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) n *= shape[i];
  return n;
}

namespace {

struct Builder {
  std::vector<TensorInfo> out;
  void add(std::string name, std::vector<std::int64_t> shape, TensorClass c, int layer = -1) {
    const TensorRole role = tensor_role(name);
    out.push_back({std::move(name), std::move(shape), c, layer, role});
  }
  /// Elements of class `c`; `attention_norms` selects the q/k norms (attn_q_norm, attn_kv_a_norm,
  /// ...) that count_params counts with the attention, not with the layer norms.
  std::int64_t sum(TensorClass c, bool attention_norms = false) const {
    std::int64_t n = 0;
    for (const auto& t : out) {
      const bool attn_norm = t.name.find("attn_") != std::string::npos && t.name.find("_norm") != std::string::npos &&
                             t.name.find("attn_norm.") == std::string::npos;
      if (t.tensor_class == c && attn_norm == attention_norms) n += t.elements();
    }
    return n;
  }
  /// `elements` stored as a 2-D tensor of 256-wide rows (what quantizers act on) plus a 1-D rest.
  void add_lump(const std::string& name, std::int64_t elements, TensorClass c, int layer = -1) {
    if (elements <= 0) return;
    constexpr std::int64_t kRow = 256;
    if (elements >= kRow) add(name + ".weight", {kRow, elements / kRow}, c, layer);
    if (elements % kRow != 0) add(name + ".bias", {elements % kRow}, c, layer);
    for (std::size_t i = out.size() - (elements >= kRow && elements % kRow != 0 ? 2 : 1); i < out.size(); ++i) out[i].lump = true;
  }
};

void add_norm(Builder& b, const ModelSpec& m, const std::string& name, int layer) {
  b.add(name + ".weight", {m.hidden_size}, TensorClass::norms, layer);
  if (m.norm_has_bias) b.add(name + ".bias", {m.hidden_size}, TensorClass::norms, layer);
}

void add_attention(Builder& b, const ModelSpec& m, const std::string& p, int layer) {
  const std::int64_t h = m.hidden_size;
  const auto A = TensorClass::attention;
  if (m.mla.kv_lora_rank > 0) {
    // DeepSeek-V2/V3 multi-head latent attention (convert_hf_to_gguf.py DeepseekV2Model).
    const std::int64_t heads = m.num_attention_heads;
    const std::int64_t q_head = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
    if (m.mla.q_lora_rank > 0) {
      b.add(p + "attn_q_a.weight", {h, m.mla.q_lora_rank}, A, layer);
      b.add(p + "attn_q_a_norm.weight", {m.mla.q_lora_rank}, TensorClass::norms, layer);
      b.add(p + "attn_q_b.weight", {m.mla.q_lora_rank, heads * q_head}, A, layer);
    } else {
      b.add(p + "attn_q.weight", {h, heads * q_head}, A, layer);
    }
    b.add(p + "attn_kv_a_mqa.weight", {h, static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim}, A, layer);
    b.add(p + "attn_kv_a_norm.weight", {m.mla.kv_lora_rank}, TensorClass::norms, layer);
    b.add(p + "attn_kv_b.weight", {m.mla.kv_lora_rank, heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim)}, A, layer);
    b.add(p + "attn_output.weight", {heads * m.mla.v_head_dim, h}, A, layer);
    return;
  }
  const AttentionShape a = m.attention(layer);
  if (a.linear_replacement) {
    b.add(p + "attn_linear.weight", {h, h}, A, layer);  // DeciLM replace_with_linear
    return;
  }
  // The output gate of Qwen3-Next / Qwen3.5 doubles q_proj (llama.cpp stores it inside attn_q).
  const std::int64_t q_out = static_cast<std::int64_t>(a.q_heads) * a.head_dim * (m.attention_output_gate ? 2 : 1);
  const std::int64_t k_out = a.owns_kv ? static_cast<std::int64_t>(a.kv_heads) * a.head_dim : 0;
  const std::int64_t v_out = a.owns_kv && a.v_proj ? static_cast<std::int64_t>(a.kv_heads) * a.v_head_dim : 0;
  const std::int64_t o_in = static_cast<std::int64_t>(a.q_heads) * a.v_head_dim;
  b.add(p + "attn_q.weight", {h, q_out}, A, layer);
  if (k_out > 0) b.add(p + "attn_k.weight", {h, k_out}, A, layer);
  if (v_out > 0) b.add(p + "attn_v.weight", {h, v_out}, A, layer);
  b.add(p + "attn_output.weight", {o_in, h}, A, layer);
  if (m.qkv_bias) {
    b.add(p + "attn_q.bias", {q_out}, A, layer);
    if (k_out > 0) b.add(p + "attn_k.bias", {k_out}, A, layer);
    if (v_out > 0) b.add(p + "attn_v.bias", {v_out}, A, layer);
  }
  if (m.o_bias) b.add(p + "attn_output.bias", {h}, A, layer);
  if (m.qk_norm) {
    // Per-head norms (Qwen3, Gemma 3) or over the whole projection (OLMo 2, MiniMax-M2).
    const std::int64_t qn = m.qk_norm_full_width ? static_cast<std::int64_t>(a.q_heads) * a.head_dim : a.head_dim;
    const std::int64_t kn = m.qk_norm_full_width ? k_out : a.head_dim;
    b.add(p + "attn_q_norm.weight", {qn}, TensorClass::norms, layer);
    if (a.owns_kv) b.add(p + "attn_k_norm.weight", {kn}, TensorClass::norms, layer);
  }
  if (a.sinks) b.add(p + "attn_sinks.weight", {a.q_heads}, A, layer);
}

void add_dense_mlp(Builder& b, const ModelSpec& m, const std::string& p, const std::string& suffix, std::int64_t width, bool bias, int layer) {
  if (width <= 0) return;
  const std::int64_t h = m.hidden_size;
  const auto M = TensorClass::mlp;
  if (m.gated_mlp) b.add(p + "ffn_gate" + suffix + ".weight", {h, width}, M, layer);
  b.add(p + "ffn_up" + suffix + ".weight", {h, width}, M, layer);
  b.add(p + "ffn_down" + suffix + ".weight", {width, h}, M, layer);
  if (bias) {
    if (m.gated_mlp) b.add(p + "ffn_gate" + suffix + ".bias", {width}, M, layer);
    b.add(p + "ffn_up" + suffix + ".bias", {width}, M, layer);
    b.add(p + "ffn_down" + suffix + ".bias", {h}, M, layer);
  }
}

void add_moe(Builder& b, const ModelSpec& m, const std::string& p, int layer) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t n = m.moe.num_experts;
  const std::int64_t w = m.moe.expert_intermediate_size;
  const auto M = TensorClass::mlp;
  b.add(p + "ffn_gate_inp.weight", {h, n}, M, layer);  // router: never quantized by llama.cpp
  if (m.moe.router_bias) b.add(p + "ffn_gate_inp.bias", {n}, M, layer);
  if (m.gated_mlp) b.add(p + "ffn_gate_exps.weight", {h, w, n}, M, layer);
  b.add(p + "ffn_up_exps.weight", {h, w, n}, M, layer);
  b.add(p + "ffn_down_exps.weight", {w, h, n}, M, layer);
  if (m.moe.expert_bias) {
    if (m.gated_mlp) b.add(p + "ffn_gate_exps.bias", {w, n}, M, layer);
    b.add(p + "ffn_up_exps.bias", {w, n}, M, layer);
    b.add(p + "ffn_down_exps.bias", {h, n}, M, layer);
  }
  if (m.moe.num_shared_experts > 0) {
    add_dense_mlp(b, m, p, "_shexp", static_cast<std::int64_t>(m.moe.num_shared_experts) * m.moe.shared_expert_intermediate_size, false, layer);
    if (m.moe.shared_expert_gate) b.add(p + "ffn_gate_inp_shexp.weight", {h}, M, layer);
  }
}

}  // namespace

TensorRole tensor_role(std::string_view name) {
  auto has = [&](std::string_view part) { return name.find(part) != std::string_view::npos; };
  auto ends = [&](std::string_view suffix) { return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix; };
  if (name == "token_embd.weight") return TensorRole::token_embd;
  if (name == "output.weight") return TensorRole::output;
  if (name.substr(0, 6) == "extra.") return TensorRole::extra;
  if (!ends("weight")) return TensorRole::bias;
  if (has("_norm.weight")) return TensorRole::norm;
  if (has("ffn_gate_inp")) return TensorRole::router;
  // llama-quant.cpp matches these by substring: ".attn_v.weight" also in its attn_qkv/attn_kv_b forms.
  if (has("attn_qkv.weight")) return TensorRole::attn_qkv;
  if (has("attn_kv_b.weight")) return TensorRole::attn_kv_b;
  if (has("attn_v.weight")) return TensorRole::attn_v;
  if (has("attn_k.weight")) return TensorRole::attn_k;
  if (has("attn_q.weight")) return TensorRole::attn_q;
  if (has("attn_output.weight")) return TensorRole::attn_output;
  if (has("ffn_down")) return TensorRole::ffn_down;
  if (has("ffn_gate")) return TensorRole::ffn_gate;
  if (has("ffn_up")) return TensorRole::ffn_up;
  return TensorRole::other;
}

std::vector<TensorInfo> model_tensors(const ModelSpec& m) {
  Builder b;
  const ParamCounts counts = count_params(m);
  // A config with a file's exact count (params_override) lists its real tensors, the exact count
  // adding the rest as "other" below, unless its architecture holds more than the file does (a
  // partial file): then, as for a bare parameter count, the file's count wins.
  bool architecture_fits_count = true;
  if (m.has_architecture() && m.params_override > 0) {
    ModelSpec architecture = m;
    architecture.params_override = 0;
    architecture_fits_count = count_params(architecture).total <= m.params_override;
  }
  if (!m.has_architecture() || m.shape_assumed || !architecture_fits_count) {
    // A bare parameter count (its layers and hidden_size, if given, size only the KV cache and
    // activations): one lump of that many weights, as count_params takes the count as given.
    b.add_lump("weights", counts.total, TensorClass::other);
    return std::move(b.out);  // a member: no copy elision without the move
  }
  const std::int64_t h = m.hidden_size;
  b.add("token_embd.weight", {h, m.vocab_size}, TensorClass::embeddings);
  for (int layer = 0; layer < m.num_layers; ++layer) {
    const std::string p = "blk." + std::to_string(layer) + ".";
    add_norm(b, m, p + "attn_norm", layer);
    const MixerKind kind = m.mixer(layer);
    if (is_attention(kind)) add_attention(b, m, p, layer);
    if (m.norms_per_layer >= 4) add_norm(b, m, p + "post_attention_norm", layer);
    if (m.norms_per_layer >= 2) add_norm(b, m, p + "ffn_norm", layer);
    const MlpKind mlp = mlp_kind(m, layer);
    if (mlp == MlpKind::dense || mlp == MlpKind::dense_and_moe) add_dense_mlp(b, m, p, "", m.intermediate(layer), m.mlp_bias, layer);
    if (mlp == MlpKind::moe || mlp == MlpKind::dense_and_moe) add_moe(b, m, p, layer);
    if (m.norms_per_layer >= 4) add_norm(b, m, p + "post_ffw_norm", layer);
  }
  // Linear-attention and SSM mixers (and any norm count the names above do not cover) are
  // counted by count_params; they come here as lumps of the right size.
  b.add_lump("blk.mixers", counts.per_layer_attention - b.sum(TensorClass::attention) - b.sum(TensorClass::norms, true),
             TensorClass::attention);
  add_norm(b, m, "output_norm", -1);
  b.add_lump("norms.extra", counts.norms - b.sum(TensorClass::norms), TensorClass::norms);
  if (!m.tie_word_embeddings) b.add("output.weight", {h, m.vocab_size}, TensorClass::lm_head);
  b.add_lump("extra", m.extra_params, TensorClass::other);
  std::int64_t listed = 0;
  for (const auto& t : b.out) listed += t.elements();
  b.add_lump("other", counts.total - listed, TensorClass::other);
  return std::move(b.out);
}

bool TensorList::matches(const ModelSpec& m) const {
  return hidden_size == m.hidden_size && num_layers == m.num_layers && vocab_size == m.vocab_size &&
         intermediate_size == m.intermediate_size && params_override == m.params_override &&
         extra_params == m.extra_params && tie_word_embeddings == m.tie_word_embeddings && shape_assumed == m.shape_assumed &&
         total_params == count_params(m).total;  // any other change of shape changes the count (no strings: cheap)
}

std::shared_ptr<const TensorList> make_tensor_list(const ModelSpec& m) {
  auto list = std::make_shared<TensorList>();
  list->tensors = model_tensors(m);
  list->total_params = count_params(m).total;
  list->hidden_size = m.hidden_size;
  list->num_layers = m.num_layers;
  list->vocab_size = m.vocab_size;
  list->intermediate_size = m.intermediate_size;
  list->params_override = m.params_override;
  list->extra_params = m.extra_params;
  list->tie_word_embeddings = m.tie_word_embeddings;
  list->shape_assumed = m.shape_assumed;
  return list;
}

std::shared_ptr<const TensorList> tensor_list(const ModelSpec& m) {
  if (m.tensor_cache && m.tensor_cache->matches(m)) return m.tensor_cache;
  return make_tensor_list(m);
}

}  // namespace llmsizer
