// SPDX-License-Identifier: MIT
#include "llmsizer/model.hpp"

#include <algorithm>
#include <cstdio>

namespace llmsizer {

MixerKind ModelSpec::mixer(int layer) const {
  if (!layer_mixers.empty()) return layer_mixers[static_cast<std::size_t>(layer)];
  return sliding_window > 0 ? MixerKind::sliding_attention : MixerKind::full_attention;
}

bool is_moe_layer(const ModelSpec& m, int layer) {
  if (m.moe.num_experts <= 0) return false;
  if (layer < m.moe.first_dense_layers) return false;
  if (std::find(m.moe.dense_layers.begin(), m.moe.dense_layers.end(), layer) != m.moe.dense_layers.end()) return false;
  const int period = std::max(1, m.moe.moe_layer_period);
  return layer % period == m.moe.moe_layer_offset % period;
}

namespace {

/// q, k, v, o projections (with their biases, q/k norms, output gate and sinks) of one
/// softmax-attention layer.
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
  // Qwen3-Next gated attention (modeling_qwen3_next.py, Qwen3NextAttention): q_proj emits the
  // query and a same-sized output gate, heads × head_dim × 2.
  const std::int64_t q_proj_out = m.attention_output_gate ? 2 * q_out : q_out;
  std::int64_t params = h * q_proj_out + 2 * h * kv_out + q_out * h;
  if (m.qkv_bias) params += q_proj_out + 2 * kv_out;
  if (m.o_bias) params += h;
  if (m.qk_norm) {
    // Qwen3 / Gemma 3: RMSNorm(head_dim) shared by all heads; OLMo 2 (modeling_olmo2.py):
    // q_norm over heads × head_dim, k_norm over kv_heads × head_dim.
    params += m.qk_norm_full_width ? q_out + kv_out : 2LL * m.head_dim;
  }
  // gpt-oss (modeling_gpt_oss.py, GptOssAttention): sinks = nn.Parameter(num_attention_heads).
  if (m.attention_sinks) params += m.num_attention_heads;
  return params;
}

/// Qwen3-Next gated delta net (modeling_qwen3_next.py, Qwen3NextGatedDeltaNet): in_proj_qkvz,
/// in_proj_ba, a depthwise causal conv over q/k/v (no bias), dt_bias and A_log per value head, a
/// gated RMSNorm over the value head dim, out_proj.
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

/// Mamba-1 mixer as in Jamba (modeling_jamba.py, JambaMambaMixer): in_proj (h → 2·d_inner),
/// depthwise conv1d (d_inner × d_conv, + bias), x_proj (d_inner → dt_rank + 2·d_state), dt_proj
/// (dt_rank → d_inner, + bias), A_log (d_inner × d_state), D (d_inner), out_proj (d_inner → h),
/// and Jamba's RMSNorms on dt, B and C.
std::int64_t ssm_params(const ModelSpec& m) {
  const auto& r = m.recurrent;
  const std::int64_t d = r.mamba_d_inner;
  const std::int64_t h = m.hidden_size;
  std::int64_t params = h * 2 * d + d * r.mamba_d_conv + d * (r.mamba_dt_rank + 2 * r.mamba_d_state) +
                        static_cast<std::int64_t>(r.mamba_dt_rank) * d + d + d * r.mamba_d_state + d + d * h;
  if (r.mamba_conv_bias) params += d;
  if (r.mamba_proj_bias) params += 2 * d + h;
  if (r.mamba_inner_norms) params += r.mamba_dt_rank + 2 * r.mamba_d_state;
  return params;
}

std::int64_t dense_mlp_params(const ModelSpec& m, std::int64_t width, bool bias) {
  const std::int64_t h = m.hidden_size;
  std::int64_t params = (m.gated_mlp ? 3 : 2) * h * width;
  if (bias) params += (m.gated_mlp ? 2 : 1) * width + h;
  return params;
}

struct LayerParams {
  std::int64_t total = 0;
  std::int64_t active = 0;
};

LayerParams moe_mlp_params(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t expert = dense_mlp_params(m, m.moe.expert_intermediate_size, m.moe.expert_bias);
  const std::int64_t router = h * m.moe.num_experts + (m.moe.router_bias ? m.moe.num_experts : 0);
  std::int64_t shared = static_cast<std::int64_t>(m.moe.num_shared_experts) *
                        dense_mlp_params(m, m.moe.shared_expert_intermediate_size, false);
  if (m.moe.shared_expert_gate) shared += h;
  LayerParams p;
  p.total = router + shared + expert * m.moe.num_experts;
  p.active = router + shared + expert * std::min(m.moe.experts_per_token, m.moe.num_experts);
  return p;
}

std::int64_t mixer_params(const ModelSpec& m, MixerKind kind) {
  switch (kind) {
    case MixerKind::full_attention:
    case MixerKind::sliding_attention: return softmax_attention_params(m);
    case MixerKind::linear_attention: return linear_attention_params(m);
    case MixerKind::ssm: return ssm_params(m);
  }
  return 0;
}

/// DeepSeek-V3 multi-token-prediction layer (DeepSeek-V3 README, "MTP"; checkpoint layer 61):
/// one more decoder layer (MLA + MoE, at an index past first_k_dense_replace) plus enorm, hnorm,
/// eh_proj (2h → h), shared_head.norm, and copies of the embedding and output head that the
/// checkpoint stores inside the layer. 1 layer = 13.46B: the README's "14B of MTP Module weights".
std::int64_t mtp_layer_params(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t norm = (m.norm_has_bias ? 2 : 1) * h;
  const LayerParams mlp = m.moe.num_experts > 0 ? moe_mlp_params(m) : LayerParams{dense_mlp_params(m, m.intermediate_size, m.mlp_bias), 0};
  return softmax_attention_params(m) + mlp.total + m.norms_per_layer * norm + 2 * norm + 2 * h * h + norm +
         2 * m.vocab_size * h;
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
    c.per_layer_attention += mixer_params(m, m.mixer(layer));
    if (is_moe_layer(m, layer)) {
      const LayerParams p = moe_mlp_params(m);
      c.per_layer_mlp += p.total;
      inactive += p.total - p.active;
    } else {
      c.per_layer_mlp += dense_mlp_params(m, m.intermediate_size, m.mlp_bias);
    }
    c.norms += m.norms_per_layer * norm_params;
  }
  c.norms += norm_params;  // final norm before the LM head
  c.extra = m.extra_params;
  c.mtp = m.mtp_layers * (m.num_layers > 0 ? mtp_layer_params(m) : 0);
  c.total = c.embedding + c.lm_head + c.per_layer_attention + c.per_layer_mlp + c.norms + c.extra;
  c.active = c.total - inactive - c.extra;
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

namespace {
/// Recurrent state elements of one layer of `kind` (0 for attention layers).
std::int64_t layer_state_elements(const ModelSpec& m, MixerKind kind) {
  const auto& r = m.recurrent;
  if (kind == MixerKind::linear_attention) {
    // Gated delta net: a key_dim × value_dim matrix per value head, plus the causal conv's last
    // kernel − 1 inputs over q, k and v.
    const std::int64_t key_dim = static_cast<std::int64_t>(r.linear_num_key_heads) * r.linear_key_head_dim;
    const std::int64_t value_dim = static_cast<std::int64_t>(r.linear_num_value_heads) * r.linear_value_head_dim;
    return static_cast<std::int64_t>(r.linear_num_value_heads) * r.linear_key_head_dim * r.linear_value_head_dim +
           (2 * key_dim + value_dim) * std::max(0, r.linear_conv_kernel_dim - 1);
  }
  if (kind == MixerKind::ssm) {
    // Mamba: d_inner × d_state SSM state plus the conv's last d_conv − 1 inputs.
    return r.mamba_d_inner * r.mamba_d_state + r.mamba_d_inner * std::max(0, r.mamba_d_conv - 1);
  }
  return 0;
}
}  // namespace

std::int64_t recurrent_state_bytes(const ModelSpec& m, int state_bytes_per_element) {
  std::int64_t elements = 0;
  for (int layer = 0; layer < m.num_layers; ++layer) elements += layer_state_elements(m, m.mixer(layer));
  return elements * state_bytes_per_element;
}

// ---------------------------------------------------------------------------------------------
// Feature sentences.

namespace {

void attention_features(const ModelSpec& m, std::vector<Message>& out) {
  int attention_layers = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    const MixerKind k = m.mixer(i);
    if (k == MixerKind::full_attention || k == MixerKind::sliding_attention) ++attention_layers;
  }
  if (attention_layers == 0) return;
  if (m.mla.kv_lora_rank > 0) {
    // What multi-head attention with the same heads would cache: keys of qk_nope + qk_rope and
    // values of v_head_dim per head.
    const std::int64_t latent = static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim;
    const std::int64_t mha = static_cast<std::int64_t>(m.num_attention_heads) *
                             (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim + m.mla.v_head_dim);
    out.push_back(Message("feature.mla").grouped("latent", latent).integer("kv_lora_rank", m.mla.kv_lora_rank).integer("rope_dim", m.mla.qk_rope_head_dim)
                      .grouped("mha", mha).integer("heads", m.num_attention_heads).ratio("smaller", mha, latent));
  } else if (m.num_kv_heads == 1 && m.num_attention_heads > 1) {
    out.push_back(Message("feature.mqa").integer("heads", m.num_attention_heads));
  } else if (m.num_kv_heads < m.num_attention_heads) {
    out.push_back(Message("feature.gqa").integer("heads", m.num_attention_heads).integer("kv_heads", m.num_kv_heads)
                      .ratio("smaller", m.num_attention_heads, m.num_kv_heads));
  } else {
    out.push_back(Message("feature.mha").integer("heads", m.num_attention_heads));
  }
  if (m.mla.kv_lora_rank == 0 && m.num_attention_heads > 0 &&
      static_cast<std::int64_t>(m.head_dim) * m.num_attention_heads != m.hidden_size) {
    out.push_back(Message("feature.explicit_head_dim").integer("head_dim", m.head_dim).integer("implied_head_dim", m.hidden_size / m.num_attention_heads)
                      .integer("heads", m.num_attention_heads).integer("query_width", static_cast<std::int64_t>(m.head_dim) * m.num_attention_heads)
                      .integer("hidden", m.hidden_size));
  }
}

void attention_detail_features(const ModelSpec& m, std::vector<Message>& out) {
  if (m.attention_output_gate) out.push_back(Message("feature.attention_output_gate"));
  if (m.attention_sinks) out.push_back(Message("feature.attention_sinks").integer("heads", m.num_attention_heads));
  if (m.qkv_bias && m.o_bias) out.push_back(Message("feature.qkvo_bias"));
  else if (m.qkv_bias) out.push_back(Message("feature.qkv_bias"));
  if (m.qk_norm) out.push_back(Message(m.qk_norm_full_width ? "feature.qk_norm_full_width" : "feature.qk_norm"));
}

void window_features(const ModelSpec& m, std::vector<Message>& out) {
  int sliding = 0;
  int attention = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    const MixerKind k = m.mixer(i);
    if (k == MixerKind::sliding_attention) ++sliding;
    if (k == MixerKind::full_attention || k == MixerKind::sliding_attention) ++attention;
  }
  if (sliding == 0) return;
  if (sliding == m.num_layers) {
    out.push_back(Message("feature.sliding_all").integer("layers", m.num_layers).grouped("window", m.sliding_window));
    return;
  }
  // Name a repeating pattern: the shortest period p whose first p layers hold one global layer and
  // that every later layer repeats (Gemma 2 / gpt-oss: 2, Gemma 3: 6).
  int period = 0;
  for (int p = 2; p <= 16 && p < m.num_layers && period == 0; ++p) {
    int globals = 0;
    bool repeats = true;
    for (int i = 0; i < m.num_layers && repeats; ++i) {
      if (i < p && m.mixer(i) != MixerKind::sliding_attention) ++globals;
      repeats = m.mixer(i) == m.mixer(i % p);
    }
    if (repeats && globals == 1) period = p;
  }
  Message sentence = Message("feature.sliding_some").integer("sliding", sliding).integer("layers", m.num_layers).grouped("window", m.sliding_window);
  if (period == 2) sentence.then(Message("feature.sliding_pattern_alternating"));
  else if (period > 2) sentence.then(Message("feature.sliding_pattern").integer("local", period - 1));
  sentence.then(Message("feature.sliding_some_rest").integer("full", attention - sliding));
  out.push_back(std::move(sentence));
}

void recurrent_features(const ModelSpec& m, std::vector<Message>& out) {
  int linear = 0;
  int ssm = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    if (m.mixer(i) == MixerKind::linear_attention) ++linear;
    if (m.mixer(i) == MixerKind::ssm) ++ssm;
  }
  auto sentence = [&](int layers, MixerKind kind, const char* what) {
    const std::int64_t elements = layer_state_elements(m, kind);
    out.push_back(Message("feature.hybrid").integer("recurrent", layers).integer("layers", m.num_layers).term("mixer", what)
                      .grouped("state", elements).bytes_short("state", elements * 4).integer("attention", m.num_layers - layers));
  };
  if (linear > 0) sentence(linear, MixerKind::linear_attention, "mixer.gated_delta_net");
  if (ssm > 0) sentence(ssm, MixerKind::ssm, "mixer.mamba");
}

void moe_features(const ModelSpec& m, const ParamCounts& c, std::vector<Message>& out) {
  if (m.moe.num_experts <= 0) return;
  int moe_layers = 0;
  for (int i = 0; i < m.num_layers; ++i) moe_layers += is_moe_layer(m, i) ? 1 : 0;
  Message s = Message("feature.moe").integer("active", m.moe.experts_per_token).integer("experts", m.moe.num_experts);
  if (m.moe.num_shared_experts == 1) s.then(Message("feature.moe_shared_one"));
  else if (m.moe.num_shared_experts > 1) s.then(Message("feature.moe_shared").integer("shared", m.moe.num_shared_experts));
  s.then(Message("feature.moe_params").short_count("active", c.active).short_count("total", c.total - c.extra));
  out.push_back(std::move(s));
  if (moe_layers < m.num_layers) {
    out.push_back(Message("feature.moe_some_layers").integer("moe", moe_layers).integer("layers", m.num_layers).integer("dense", m.num_layers - moe_layers));
  }
  if (m.moe.expert_bias) out.push_back(Message("feature.moe_expert_bias"));
  else if (m.moe.router_bias) out.push_back(Message("feature.moe_router_bias"));
}

}  // namespace

std::vector<Message> describe_features(const ModelSpec& m) {
  std::vector<Message> out;
  if (!m.has_architecture()) return out;
  const ParamCounts c = count_params(m);
  attention_features(m, out);
  window_features(m, out);
  recurrent_features(m, out);
  moe_features(m, c, out);
  attention_detail_features(m, out);
  if (!m.gated_mlp) out.push_back(Message("feature.plain_mlp"));
  if (m.mlp_bias) out.push_back(Message("feature.mlp_bias"));
  if (m.tie_word_embeddings) {
    out.push_back(Message("feature.tied_embeddings").grouped("vocab", m.vocab_size).grouped("hidden", m.hidden_size).short_count("params", c.embedding));
  } else {
    out.push_back(Message("feature.untied_embeddings").grouped("vocab", m.vocab_size).grouped("hidden", m.hidden_size).short_count("params", c.embedding));
  }
  if (m.embedding_scaled) out.push_back(Message("feature.embedding_scaled"));
  if (m.norms_per_layer != 2) out.push_back(Message("feature.norms_per_layer").integer("norms", m.norms_per_layer));
  if (m.mtp_layers > 0) {
    out.push_back(Message(m.mtp_layers == 1 ? "feature.mtp_one" : "feature.mtp").integer("layers", m.mtp_layers).short_count("params", c.mtp));
  }
  if (m.extra_params > 0) {
    Message extra("feature.extra_params");
    if (m.vision_tower_layers > 0) {
      extra = Message("feature.extra_params_vision").integer("layers", m.vision_tower_layers);
      if (m.multimodal_projector) extra.then(Message("feature.extra_params_projector"));
    }
    extra.then(Message("feature.extra_params_rest").short_count("params", m.extra_params));
    out.push_back(std::move(extra));
  }
  return out;
}

}  // namespace llmsizer
