// SPDX-License-Identifier: MIT
#include "llmsizer/config_fields.hpp"

#include "llmsizer/error.hpp"

namespace llmsizer {

void check_attention_heads(ConfigFields& f, const std::string& prefix) {
  if (f.head_dim == 0) {
    if (f.hidden_size % f.num_attention_heads != 0) {
      throw InputError(prefix + ".num_attention_heads", Message("error.config.heads_divide_hidden").integer("hidden", f.hidden_size).integer("heads", f.num_attention_heads));
    }
    f.head_dim = f.hidden_size / f.num_attention_heads;
  }
  if (f.num_attention_heads % f.num_kv_heads != 0) {
    throw InputError(prefix + ".num_key_value_heads", Message("error.config.kv_heads_divide_heads").integer("heads", f.num_attention_heads).integer("kv_heads", f.num_kv_heads));
  }
}

ModelSpec model_from_config_fields(const ConfigFields& f, const FamilyTraits& family) {
  ModelSpec m;
  m.family = family.family;
  m.hidden_size = f.hidden_size;
  m.num_layers = static_cast<int>(f.num_layers);
  m.num_attention_heads = static_cast<int>(f.num_attention_heads);
  m.num_kv_heads = static_cast<int>(f.num_kv_heads);
  m.vocab_size = f.vocab_size;
  m.head_dim = static_cast<int>(f.head_dim);
  m.max_position_embeddings = f.max_position_embeddings;
  m.rope_scaling_factor = f.rope_scaling_factor;
  m.rope_scaling_original_tokens = f.rope_scaling_original_tokens;
  // What the family's config class leaves unsaid comes from its row (architecture.hpp): the
  // scaled embedding, biases, QK-norm, the attention's gate and sinks, the MLP kind and the norms;
  // the config's own fields decide where the row says so.
  m.tie_word_embeddings = f.tie_word_embeddings;
  m.embedding_scaled = family.embedding_scaled;
  switch (family.attention_bias) {
    case AttentionBias::qkv: m.qkv_bias = true; break;
    case AttentionBias::qkv_from_config: m.qkv_bias = f.attention_bias; break;
    // `attention_bias` (q, k, v and o: gpt-oss sets it), Falcon's `bias`.
    case AttentionBias::from_config: m.qkv_bias = m.o_bias = f.attention_bias || f.bias; break;
  }
  m.mlp_bias = f.mlp_bias;
  m.qk_norm = family.qk_norm == QkNorm::per_head || family.qk_norm == QkNorm::full_width ||
              (f.qk_norm && family.qk_norm != QkNorm::weightless);
  m.qk_norm_full_width = family.qk_norm == QkNorm::full_width || family.qk_norm == QkNorm::from_config_full_width;
  m.attention_output_gate = family.attention_output_gate || f.attention_output_gate;
  m.attention_sinks = family.attention_sinks;
  m.gated_mlp = family.gated_mlp;
  m.norms_per_layer = family.norms_per_layer;
  if (family.norm_bias == NormBias::from_config) m.norm_has_bias = f.layer_norm_bias;
  if (family.norm_bias == NormBias::always) m.norm_has_bias = true;
  if (m.family == Family::falcon) {
    // Falcon (modeling_falcon.py FalconDecoderLayer): `bias` on query_key_value, dense and both MLP
    // linears. Norms: ln_attn and ln_mlp with the new decoder architecture (num_ln_in_parallel_attn,
    // 2 by default there), one input_layernorm for parallel attention without it, and
    // input_layernorm + post_attention_layernorm for sequential attention.
    m.mlp_bias = f.bias;
    const std::int64_t parallel_norms = f.num_ln_in_parallel_attn > 0 ? f.num_ln_in_parallel_attn : (f.new_decoder_architecture ? 2 : 1);
    m.norms_per_layer = f.parallel_attn ? static_cast<int>(parallel_norms) : 2;
  }
  return m;
}

}  // namespace llmsizer
