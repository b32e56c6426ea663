// SPDX-License-Identifier: MIT
#include "llmsizer/model.hpp"

#include <algorithm>

namespace llmsizer {

MixerKind ModelSpec::mixer(int layer) const {
  if (!layer_mixers.empty()) return layer_mixers[static_cast<std::size_t>(layer)];
  return sliding_window > 0 ? MixerKind::sliding_attention : MixerKind::full_attention;
}

bool is_moe_layer(const ModelSpec& m, int layer) {
  if (m.moe.num_experts <= 0) return false;
  if (layer < m.moe.first_dense_layers) return false;
  const int step = std::max(1, m.moe.moe_layer_step);
  // Qwen2-MoE: layer i is sparse when (i + 1) % decoder_sparse_step == 0 (modeling_qwen2_moe.py).
  return (layer + 1) % step == 0;
}

namespace {

/// q, k, v, o projections (with their biases and q/k norms) of one softmax-attention layer.
std::int64_t softmax_attention_params(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  if (m.mla.kv_lora_rank > 0) {
    // DeepSeek-V2/V3 MLA (modeling_deepseek.py, DeepseekV3Attention): low-rank q (with its RMSNorm),
    // joint compressed kv + decoupled rope key (with its RMSNorm), up-projection to per-head
    // nope key and value, output projection from heads × v_head_dim.
    const std::int64_t heads = m.num_attention_heads;
    const std::int64_t q_head = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
    std::int64_t q = 0;
    if (m.mla.q_lora_rank > 0) {
      q = h * m.mla.q_lora_rank + m.mla.q_lora_rank + static_cast<std::int64_t>(m.mla.q_lora_rank) * heads * q_head;
    } else {
      q = h * heads * q_head;
    }
    const std::int64_t kv_a = h * (m.mla.kv_lora_rank + m.mla.qk_rope_head_dim) + m.mla.kv_lora_rank;
    const std::int64_t kv_b = static_cast<std::int64_t>(m.mla.kv_lora_rank) * heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim);
    const std::int64_t o = heads * m.mla.v_head_dim * h;
    return q + kv_a + kv_b + o;
  }
  const std::int64_t q_out = static_cast<std::int64_t>(m.num_attention_heads) * m.head_dim;
  const std::int64_t kv_out = static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim;
  std::int64_t params = h * q_out + 2 * h * kv_out + q_out * h;
  if (m.qkv_bias) params += q_out + 2 * kv_out;
  if (m.o_bias) params += h;
  if (m.qk_norm) params += 2 * m.head_dim;
  return params;
}

/// Qwen3-Next gated delta net (modeling_qwen3_next.py, Qwen3NextGatedDeltaNet): in_proj_qkvz,
/// in_proj_ba, a depthwise causal conv over q/k/v, dt_bias and A_log per value head, a gated
/// RMSNorm over the value head dim, out_proj.
std::int64_t linear_attention_params(const ModelSpec& m) {
  const auto& r = m.recurrent;
  const std::int64_t key_dim = static_cast<std::int64_t>(r.linear_num_key_heads) * r.linear_key_head_dim;
  const std::int64_t value_dim = static_cast<std::int64_t>(r.linear_num_value_heads) * r.linear_value_head_dim;
  const std::int64_t h = m.hidden_size;
  const std::int64_t in_proj = h * (2 * key_dim + 2 * value_dim) + h * 2 * r.linear_num_value_heads;
  const std::int64_t conv = (2 * key_dim + value_dim) * r.linear_conv_kernel_dim;
  const std::int64_t per_head = 2 * static_cast<std::int64_t>(r.linear_num_value_heads);
  const std::int64_t norm = r.linear_value_head_dim;
  const std::int64_t out = value_dim * h;
  return in_proj + conv + per_head + norm + out;
}

/// Mamba-1 mixer (Jamba, modeling_jamba.py JambaMambaMixer without its dt/B/C norms).
std::int64_t ssm_params(const ModelSpec& m) {
  const auto& r = m.recurrent;
  const std::int64_t d = r.mamba_d_inner;
  const std::int64_t h = m.hidden_size;
  return h * 2 * d + d * r.mamba_d_conv + d + d * (r.mamba_dt_rank + 2 * r.mamba_d_state) +
         static_cast<std::int64_t>(r.mamba_dt_rank) * d + d + d * r.mamba_d_state + d + d * h;
}

std::int64_t dense_mlp_params(const ModelSpec& m, std::int64_t width) {
  const std::int64_t h = m.hidden_size;
  std::int64_t params = (m.gated_mlp ? 3 : 2) * h * width;
  if (m.mlp_bias) params += (m.gated_mlp ? 2 : 1) * width + h;
  return params;
}

struct MoeLayerParams {
  std::int64_t total = 0;
  std::int64_t active = 0;
};

MoeLayerParams moe_mlp_params(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t width = m.moe.expert_intermediate_size;
  std::int64_t expert = (m.gated_mlp ? 3 : 2) * h * width;
  if (m.moe.expert_bias) expert += (m.gated_mlp ? 2 : 1) * width + h;
  std::int64_t router = h * m.moe.num_experts + (m.moe.router_bias ? m.moe.num_experts : 0);
  std::int64_t shared = static_cast<std::int64_t>(m.moe.num_shared_experts) *
                        (m.gated_mlp ? 3 : 2) * h * m.moe.shared_expert_intermediate_size;
  if (m.moe.shared_expert_gate) shared += h;
  MoeLayerParams p;
  p.total = router + shared + expert * m.moe.num_experts;
  p.active = router + shared + expert * std::min(m.moe.experts_per_token, m.moe.num_experts);
  return p;
}

}  // namespace

ParamCounts count_params(const ModelSpec& m) {
  ParamCounts c;
  if (!m.has_architecture()) {
    c.total = c.active = m.params_override;
    return c;
  }
  const std::int64_t h = m.hidden_size;
  c.embedding = m.vocab_size * h;
  c.lm_head = m.tie_word_embeddings ? 0 : m.vocab_size * h;
  const std::int64_t norm_params = (m.norm_has_bias ? 2 : 1) * h;
  std::int64_t inactive = 0;
  for (int layer = 0; layer < m.num_layers; ++layer) {
    switch (m.mixer(layer)) {
      case MixerKind::full_attention:
      case MixerKind::sliding_attention: c.per_layer_attention += softmax_attention_params(m); break;
      case MixerKind::linear_attention: c.per_layer_attention += linear_attention_params(m); break;
      case MixerKind::ssm: c.per_layer_attention += ssm_params(m); break;
    }
    if (is_moe_layer(m, layer)) {
      const MoeLayerParams p = moe_mlp_params(m);
      c.per_layer_mlp += p.total;
      inactive += p.total - p.active;
    } else {
      c.per_layer_mlp += dense_mlp_params(m, m.intermediate_size);
    }
    c.norms += m.norms_per_layer * norm_params;
  }
  c.norms += norm_params;  // final norm before the LM head
  c.total = c.embedding + c.lm_head + c.per_layer_attention + c.per_layer_mlp + c.norms + m.extra_params;
  c.active = c.total - inactive - m.extra_params;
  if (m.params_override > 0) {
    c.total = m.params_override;
    c.active = std::min(c.active, c.total);
  }
  return c;
}

std::int64_t kv_cache_elements(const ModelSpec& m, std::int64_t context_tokens) {
  if (!m.has_architecture()) return 0;
  const std::int64_t per_token_layer =
      m.mla.kv_lora_rank > 0 ? static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim
                             : 2LL * m.num_kv_heads * m.head_dim;
  std::int64_t elements = 0;
  for (int layer = 0; layer < m.num_layers; ++layer) {
    switch (m.mixer(layer)) {
      case MixerKind::full_attention: elements += per_token_layer * context_tokens; break;
      case MixerKind::sliding_attention:
        elements += per_token_layer * std::min<std::int64_t>(context_tokens, m.sliding_window);
        break;
      case MixerKind::linear_attention:
      case MixerKind::ssm: break;
    }
  }
  return elements;
}

std::int64_t recurrent_state_bytes(const ModelSpec& m, int state_bytes_per_element) {
  std::int64_t elements = 0;
  const auto& r = m.recurrent;
  for (int layer = 0; layer < m.num_layers; ++layer) {
    const MixerKind kind = m.mixer(layer);
    if (kind == MixerKind::linear_attention) {
      const std::int64_t key_dim = static_cast<std::int64_t>(r.linear_num_key_heads) * r.linear_key_head_dim;
      const std::int64_t value_dim = static_cast<std::int64_t>(r.linear_num_value_heads) * r.linear_value_head_dim;
      elements += static_cast<std::int64_t>(r.linear_num_value_heads) * r.linear_key_head_dim * r.linear_value_head_dim;
      elements += (2 * key_dim + value_dim) * std::max(0, r.linear_conv_kernel_dim - 1);
    } else if (kind == MixerKind::ssm) {
      elements += r.mamba_d_inner * r.mamba_d_state + r.mamba_d_inner * std::max(0, r.mamba_d_conv - 1);
    }
  }
  return elements * state_bytes_per_element;
}

}  // namespace llmsizer
