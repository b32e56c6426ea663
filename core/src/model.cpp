// SPDX-License-Identifier: MIT
#include "llmsizer/model.hpp"

#include <algorithm>
#include <cstdio>

#include "arithmetic.hpp"

namespace llmsizer {

bool is_attention(MixerKind kind) {
  return kind == MixerKind::full_attention || kind == MixerKind::sliding_attention || kind == MixerKind::chunked_attention;
}

MixerKind ModelSpec::mixer(int layer) const {
  if (!layer_mixers.empty()) return layer_mixers[static_cast<std::size_t>(layer)];
  return sliding_window > 0 ? MixerKind::sliding_attention : MixerKind::full_attention;
}

namespace {
/// `a` with every zero taken from the model-wide fields (and the model-wide sinks when `a` is
/// not a per-layer override).
AttentionShape filled(AttentionShape a, const ModelSpec& m, bool override_given) {
  if (a.q_heads == 0) a.q_heads = m.num_attention_heads;
  if (a.kv_heads == 0) a.kv_heads = m.num_kv_heads;
  if (a.head_dim == 0) a.head_dim = m.head_dim;
  if (a.v_head_dim == 0) a.v_head_dim = a.head_dim;
  if (!override_given) a.sinks = m.attention_sinks;
  return a;
}
}  // namespace

AttentionShape ModelSpec::attention(int layer) const {
  if (layer_attention.empty()) return filled(AttentionShape{}, *this, false);
  return filled(layer_attention[static_cast<std::size_t>(layer)], *this, true);
}

std::int64_t ModelSpec::intermediate(int layer) const {
  if (!layer_intermediate.empty() && layer_intermediate[static_cast<std::size_t>(layer)] > 0) {
    return layer_intermediate[static_cast<std::size_t>(layer)];
  }
  return intermediate_size;
}

int ModelSpec::attention_window(MixerKind kind) const {
  if (kind == MixerKind::sliding_attention) return sliding_window;
  if (kind == MixerKind::chunked_attention) return attention_chunk_size;
  return 0;
}

bool is_moe_layer(const ModelSpec& m, int layer) {
  if (m.moe.num_experts <= 0) return false;
  if (!m.layer_mlp.empty()) {
    const MlpKind k = m.layer_mlp[static_cast<std::size_t>(layer)];
    if (k != MlpKind::automatic) return k == MlpKind::moe || k == MlpKind::dense_and_moe;
  }
  if (layer < m.moe.first_dense_layers) return false;
  if (std::find(m.moe.dense_layers.begin(), m.moe.dense_layers.end(), layer) != m.moe.dense_layers.end()) return false;
  const int period = std::max(1, m.moe.moe_layer_period);
  return layer % period == m.moe.moe_layer_offset % period;
}

MlpKind mlp_kind(const ModelSpec& m, int layer) {
  if (!m.layer_mlp.empty()) {
    const MlpKind k = m.layer_mlp[static_cast<std::size_t>(layer)];
    if (k != MlpKind::automatic) return k;
  }
  return is_moe_layer(m, layer) ? MlpKind::moe : MlpKind::dense;
}

namespace {

/// The model-wide attention shape (what every layer has when there are no overrides).
AttentionShape uniform_attention(const ModelSpec& m) { return filled(AttentionShape{}, m, false); }

/// DeepSeek sparse attention indexer (DeepSeek-V3.2 inference/model.py Indexer; mlx-lm
/// deepseek_v32.py): wq_b (q_lora_rank → heads × head_dim), wk (hidden → head_dim), k_norm
/// (LayerNorm over head_dim, weight and bias), weights_proj (hidden → heads).
std::int64_t indexer_params(const ModelSpec& m) {
  if (m.indexer.num_heads <= 0) return 0;
  const std::int64_t h = m.hidden_size;
  const std::int64_t n = m.indexer.num_heads;
  const std::int64_t d = m.indexer.head_dim;
  const std::int64_t q_in = m.mla.q_lora_rank > 0 ? m.mla.q_lora_rank : h;
  return q_in * n * d + h * d + 2 * d + h * n;
}

/// q, k, v, o projections (with their biases, q/k norms, output gate and sinks) of one
/// softmax-attention layer of shape `a`.
std::int64_t softmax_attention_params(const ModelSpec& m, const AttentionShape& a) {
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
    return q + kv_a + kv_b + o + indexer_params(m);
  }
  // DeciLM `replace_with_linear` (Nemotron-NAS): the block is one hidden × hidden linear.
  if (a.linear_replacement) return h * h;
  const std::int64_t q_out = static_cast<std::int64_t>(a.q_heads) * a.head_dim;
  const std::int64_t k_out = a.owns_kv ? static_cast<std::int64_t>(a.kv_heads) * a.head_dim : 0;
  const std::int64_t v_out = a.owns_kv && a.v_proj ? static_cast<std::int64_t>(a.kv_heads) * a.v_head_dim : 0;
  const std::int64_t o_in = static_cast<std::int64_t>(a.q_heads) * a.v_head_dim;
  // Qwen3-Next gated attention (modeling_qwen3_next.py, Qwen3NextAttention): q_proj emits the
  // query and a same-sized output gate, heads × head_dim × 2.
  const std::int64_t q_proj_out = m.attention_output_gate ? 2 * q_out : q_out;
  std::int64_t params = h * q_proj_out + h * k_out + h * v_out + o_in * h;
  if (m.qkv_bias) params += q_proj_out + k_out + v_out;
  if (m.o_bias) params += h;
  if (m.qk_norm) {
    // Qwen3 / Gemma 3: RMSNorm(head_dim) shared by all heads; OLMo 2 (modeling_olmo2.py):
    // q_norm over heads × head_dim, k_norm over kv_heads × head_dim. A layer that reuses another
    // layer's keys has no k_norm (Gemma 3n/4 KV-shared layers).
    if (m.qk_norm_full_width) params += q_out + k_out;
    else params += a.head_dim + (a.owns_kv ? a.head_dim : 0);
  }
  // gpt-oss (modeling_gpt_oss.py, GptOssAttention): sinks = nn.Parameter(num_attention_heads).
  if (a.sinks) params += a.q_heads;
  return params;
}

std::int64_t softmax_attention_params(const ModelSpec& m) { return softmax_attention_params(m, uniform_attention(m)); }

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
  if (r.mamba_version == 2) {
    // Mamba-2 (modeling_nemotron_h.py NemotronHMamba2Mixer, modeling_granitemoehybrid.py):
    // in_proj (h → z, x, B, C, dt: 2·d_inner + 2·groups·d_state + heads), depthwise conv1d over
    // x, B, C (conv_dim × d_conv, + bias), dt_bias, A_log and D per head, a gated RMSNorm over
    // d_inner, out_proj (d_inner → h).
    const std::int64_t h = m.hidden_size;
    const std::int64_t d_inner = static_cast<std::int64_t>(r.mamba_num_heads) * r.mamba_head_dim;
    const std::int64_t conv_dim = d_inner + 2LL * r.mamba_n_groups * r.mamba_d_state;
    const std::int64_t in_out = d_inner + conv_dim + r.mamba_num_heads;
    std::int64_t params = h * in_out + conv_dim * r.mamba_d_conv + 3LL * r.mamba_num_heads + d_inner + d_inner * h;
    if (r.mamba_conv_bias) params += conv_dim;
    if (r.mamba_proj_bias) params += in_out + h;
    return params;
  }
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
  // Gemma 4 Router (modeling_gemma4.py): proj (hidden → experts), an RMSNorm scale over hidden
  // and a per-expert output scale.
  const std::int64_t router = h * m.moe.num_experts + (m.moe.router_bias ? m.moe.num_experts : 0) + (m.moe.router_norm ? h : 0);
  std::int64_t shared = static_cast<std::int64_t>(m.moe.num_shared_experts) *
                        dense_mlp_params(m, m.moe.shared_expert_intermediate_size, false);
  if (m.moe.shared_expert_gate) shared += h;
  LayerParams p;
  p.total = router + shared + expert * m.moe.num_experts;
  p.active = router + shared + expert * std::min(m.moe.experts_per_token, m.moe.num_experts);
  return p;
}

std::int64_t mixer_params(const ModelSpec& m, int layer) {
  switch (m.mixer(layer)) {
    case MixerKind::full_attention:
    case MixerKind::sliding_attention:
    case MixerKind::chunked_attention: return softmax_attention_params(m, m.attention(layer));
    case MixerKind::linear_attention: return linear_attention_params(m);
    case MixerKind::ssm: return ssm_params(m);
    case MixerKind::none: return 0;
  }
  return 0;
}

/// One multi-token-prediction layer: a decoder layer with full attention and the model's MoE (or
/// dense) MLP, plus enorm and hnorm, eh_proj (2h → h) and a final norm.
///  - DeepSeek-V3 (README "MTP"; checkpoint layer 61; enorm/hnorm/eh_proj/shared_head.norm) also
///    stores copies of the embedding and output head inside the layer: 13.46B, the README's "14B
///    of MTP Module weights".
///  - GLM-4.5 (modeling glm4_moe, checkpoint layer 92) has the same parts; Qwen3-Next and Qwen3.5
///    (vLLM qwen3_next_mtp.py: fc, pre_fc_norm_embedding, pre_fc_norm_hidden, layers.0, norm)
///    have the same count with other names; their output head and embedding are the model's.
std::int64_t mtp_layer_params(const ModelSpec& m) {
  const std::int64_t h = m.hidden_size;
  const std::int64_t norm = (m.norm_has_bias ? 2 : 1) * h;
  const LayerParams mlp = m.moe.num_experts > 0 ? moe_mlp_params(m) : LayerParams{dense_mlp_params(m, m.intermediate_size, m.mlp_bias), 0};
  std::int64_t params = softmax_attention_params(m) + mlp.total + m.norms_per_layer * norm + 2 * norm + 2 * h * h + norm;
  if (m.mtp_embedding_copies) params += 2 * m.vocab_size * h;
  return params;
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
    c.per_layer_attention += mixer_params(m, layer);
    const MlpKind kind = mlp_kind(m, layer);
    if (kind == MlpKind::moe || kind == MlpKind::dense_and_moe) {
      const LayerParams p = moe_mlp_params(m);
      c.per_layer_mlp += p.total;
      inactive += p.total - p.active;
    }
    if (kind == MlpKind::dense || kind == MlpKind::dense_and_moe) {
      c.per_layer_mlp += dense_mlp_params(m, m.intermediate(layer), m.mlp_bias);
    }
    // Gemma 4 26B-A4B (modeling_gemma4.py Gemma4TextDecoderLayer): a layer with both MLPs has
    // three more norms (pre_feedforward_layernorm_2, post_feedforward_layernorm_1 and _2).
    const int norms = m.layer_norms.empty() ? m.norms_per_layer : m.layer_norms[static_cast<std::size_t>(layer)];
    c.norms += (norms + (kind == MlpKind::dense_and_moe ? 3 : 0)) * norm_params;
    if (m.layer_scalar) c.norms += 1;
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

namespace {
/// KV-cache elements one token of context takes in `layer` (0: the layer keeps no cache of its own).
std::int64_t layer_kv_elements_per_token(const ModelSpec& m, int layer, MixerKind kind) {
  if (!is_attention(kind)) return 0;
  if (m.mla.kv_lora_rank > 0) {
    // MLA caches the compressed latent and the rope key; a DSA indexer adds its own key
    // (DeepSeek-V3.2 inference/model.py: Indexer.k_cache, index_head_dim per token and layer).
    return static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim + m.indexer.head_dim;
  }
  const AttentionShape a = m.attention(layer);
  if (!a.owns_kv || a.linear_replacement) return 0;  // reads another layer's cache / no attention
  return static_cast<std::int64_t>(a.kv_heads) * (a.head_dim + a.v_head_dim);
}
}  // namespace

std::int64_t kv_cache_elements(const ModelSpec& m, std::int64_t context_tokens) {
  if (!m.has_architecture()) return 0;
  std::int64_t elements = 0;
  for (int layer = 0; layer < m.num_layers; ++layer) {
    const MixerKind kind = m.mixer(layer);
    const std::int64_t per_token = layer_kv_elements_per_token(m, layer, kind);
    if (per_token == 0) continue;
    const int window = m.attention_window(kind);
    elements += per_token * (window > 0 ? std::min<std::int64_t>(context_tokens, window) : context_tokens);
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
  if (kind == MixerKind::ssm && r.mamba_version == 2) {
    // Mamba-2 (mamba_ssm Mamba2 / vLLM MambaStateShapeCalculator.mamba2_state_shape): an SSM
    // state of heads × head_dim × d_state, and the conv's last d_conv − 1 inputs over x, B, C
    // (d_inner + 2 × groups × d_state channels).
    const std::int64_t d_inner = static_cast<std::int64_t>(r.mamba_num_heads) * r.mamba_head_dim;
    const std::int64_t conv_dim = d_inner + 2LL * r.mamba_n_groups * r.mamba_d_state;
    return d_inner * r.mamba_d_state + conv_dim * std::max(0, r.mamba_d_conv - 1);
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

std::int64_t ModelCounts::kv_cache_elements(std::int64_t context_tokens) const {
  std::int64_t elements = kv_elements_per_token * context_tokens;
  for (const WindowedKv& w : windowed_kv) elements += w.elements_per_token * std::min<std::int64_t>(context_tokens, w.window);
  return elements;
}

ModelCounts count_model(const ModelSpec& m) {
  ModelCounts c;
  c.params = count_params(m);
  for (int layer = 0; layer < m.num_layers; ++layer) {
    const MixerKind kind = m.mixer(layer);
    c.recurrent_state_elements += layer_state_elements(m, kind);
    if (is_moe_layer(m, layer)) c.moe_layers += 1;
    if (!m.has_architecture()) continue;  // kv_cache_elements: none without an architecture
    const std::int64_t per_token = layer_kv_elements_per_token(m, layer, kind);
    if (per_token == 0) continue;
    const int window = m.attention_window(kind);
    if (window <= 0) {
      c.kv_elements_per_token += per_token;
      continue;
    }
    auto same = std::find_if(c.windowed_kv.begin(), c.windowed_kv.end(), [window](const ModelCounts::WindowedKv& w) { return w.window == window; });
    if (same == c.windowed_kv.end()) c.windowed_kv.push_back({window, per_token});
    else same->elements_per_token += per_token;
  }
  return c;
}

std::int64_t image_tokens(const ModelSpec& m, int width, int height) {
  const VisionSpec& v = m.vision;
  if (v.params <= 0 || width <= 0 || height <= 0) return 0;
  if (v.tokens_per_image > 0 && m.family != Family::llama4) return v.tokens_per_image;
  using detail::ceil_div;
  if (m.family == Family::llama4 && v.default_image_size > 0) {
    // Llama 4 (processing_llama4.py): the image is cut into tiles of 336 pixels (at most 16), each
    // tile 144 tokens (24 × 24 patches after a 2 × 2 pixel shuffle); more than one tile adds a
    // global thumbnail tile.
    const std::int64_t tiles = std::min<std::int64_t>(16, ceil_div(width, v.default_image_size) * ceil_div(height, v.default_image_size));
    return v.tokens_per_image * (tiles + (tiles > 1 ? 1 : 0));
  }
  if (v.patch_size <= 0) return 0;
  // Qwen2.5-VL / Qwen3-VL / Pixtral: one token per merge × merge block of patch × patch pixels.
  const std::int64_t side = static_cast<std::int64_t>(v.patch_size) * std::max(1, v.merge_size);
  return ceil_div(width, side) * ceil_div(height, side);
}

// ---------------------------------------------------------------------------------------------
// Feature sentences.

namespace {

void attention_features(const ModelSpec& m, std::vector<Message>& out) {
  int attention_layers = 0;
  for (int i = 0; i < m.num_layers; ++i) attention_layers += is_attention(m.mixer(i)) ? 1 : 0;
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
  if (m.indexer.num_heads > 0) {
    out.push_back(Message("feature.sparse_indexer").integer("heads", m.indexer.num_heads).grouped("topk", m.indexer.topk)
                      .integer("head_dim", m.indexer.head_dim));
  }
  if (!m.layer_attention.empty() && m.mla.kv_lora_rank == 0) {
    // Name the distinct (KV heads, key dim, value dim) of the attention layers.
    struct Shape {
      int kv_heads, head_dim, v_head_dim;
      bool operator==(const Shape& o) const { return kv_heads == o.kv_heads && head_dim == o.head_dim && v_head_dim == o.v_head_dim; }
    };
    std::vector<Shape> kinds;
    int shared = 0;
    for (int i = 0; i < m.num_layers; ++i) {
      if (!is_attention(m.mixer(i))) continue;
      const AttentionShape a = m.attention(i);
      if (!a.owns_kv) { ++shared; continue; }
      if (a.linear_replacement) continue;
      const Shape k{a.kv_heads, a.head_dim, a.v_head_dim};
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    if (kinds.size() > 1) {
      Message list("feature.per_layer_kv_shapes");
      for (std::size_t i = 0; i < kinds.size(); ++i) {
        if (i > 0) list.then(Message("feature.list_separator"));
        list.then(Message("feature.kv_shape").integer("kv_heads", kinds[i].kv_heads).integer("head_dim", kinds[i].head_dim));
        if (kinds[i].v_head_dim != kinds[i].head_dim) list.then(Message("feature.kv_shape_values").integer("v_head_dim", kinds[i].v_head_dim));
      }
      out.push_back(std::move(list));
    }
    if (shared > 0) out.push_back(Message("feature.shared_kv_layers").integer("layers", shared));
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
  int chunked = 0;
  int attention = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    const MixerKind k = m.mixer(i);
    if (k == MixerKind::sliding_attention) ++sliding;
    if (k == MixerKind::chunked_attention) ++chunked;
    if (is_attention(k)) ++attention;
  }
  if (chunked > 0) {
    out.push_back(Message("feature.chunked").integer("chunked", chunked).integer("layers", m.num_layers).grouped("chunk", m.attention_chunk_size)
                      .integer("full", attention - chunked));
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
  if (ssm > 0) sentence(ssm, MixerKind::ssm, m.recurrent.mamba_version == 2 ? "mixer.mamba2" : "mixer.mamba");
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
  int without_mlp = 0;
  for (int i = 0; i < m.num_layers; ++i) without_mlp += mlp_kind(m, i) == MlpKind::none ? 1 : 0;
  if (moe_layers < m.num_layers && without_mlp == 0) {
    out.push_back(Message("feature.moe_some_layers").integer("moe", moe_layers).integer("layers", m.num_layers).integer("dense", m.num_layers - moe_layers));
  } else if (without_mlp > 0) {
    out.push_back(Message("feature.moe_some_layers_no_mlp").integer("moe", moe_layers).integer("layers", m.num_layers)
                      .integer("dense", m.num_layers - moe_layers - without_mlp).integer("without_mlp", without_mlp));
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
  if (m.norms_per_layer == 1) out.push_back(Message("feature.one_norm_per_layer"));
  else if (m.norms_per_layer != 2) out.push_back(Message("feature.norms_per_layer").integer("norms", m.norms_per_layer));
  if (m.vision.params > 0 && (m.vision.tokens_per_image > 0 || m.vision.patch_size > 0)) {
    const int side = m.vision.default_image_size > 0 ? m.vision.default_image_size : 1024;
    out.push_back(Message("feature.image_tokens").integer("side", side).grouped("tokens", image_tokens(m, side, side)));
  }
  if (m.mtp_layers > 0) {
    out.push_back(Message(m.mtp_layers == 1 ? "feature.mtp_one" : "feature.mtp").integer("layers", m.mtp_layers).short_count("params", c.mtp));
  }
  if (!m.stored_weights.empty()) out.push_back(Message("feature.stored_weights").text("format", m.stored_weights));
  if (m.extra_params > 0) {
    // A vision encoder the config describes is named by its kind (feature.vision.<kind>).
    Message extra = m.vision.kind.empty() ? Message("feature.extra_params") : Message("feature.vision." + m.vision.kind).integer("layers", m.vision.layers);
    extra.then(Message("feature.extra_params_rest").short_count("params", m.extra_params));
    out.push_back(std::move(extra));
  }
  return out;
}

}  // namespace llmsizer
