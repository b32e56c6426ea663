// SPDX-License-Identifier: MIT
#include "llmsizer/file_config.hpp"

#include <algorithm>
#include <string>

#include "llmsizer/config_fields.hpp"
#include "llmsizer/error.hpp"

namespace llmsizer {

FileConfig file_config_from_weights(const PartialArchitecture& a) {
  // A count the header does not give is 0 (partial_architecture.hpp); a negative one is no count.
  const auto count = [](std::int64_t v) { return std::max<std::int64_t>(v, 0); };
  FileConfig c;
  c.hidden_size = count(a.hidden_size);
  c.num_hidden_layers = count(a.num_layers);
  c.num_attention_heads = count(a.num_attention_heads);
  c.num_key_value_heads = count(a.num_kv_heads);
  c.head_dim = count(a.head_dim);
  c.intermediate_size = count(a.intermediate_size);
  c.vocab_size = count(a.vocab_size);
  c.max_position_embeddings = count(a.max_position_embeddings);
  c.num_experts = count(a.num_experts);
  c.num_experts_per_tok = count(a.experts_per_token);
  c.sliding_window = count(a.sliding_window);
  c.tie_word_embeddings = a.tie_word_embeddings;
  return c;
}

FileConfig file_config_from_gguf(const PartialArchitecture& a, const GgufMetadataInt& metadata_int) {
  FileConfig c = file_config_from_weights(a);
  // The family's Hugging Face model_type, so that its rules apply (Gemma 2/3 windows, gpt-oss
  // alternation, Qwen biases and QK-norm).
  c.family = family_for_gguf_architecture(a.architecture);
  if (c.family != Family::other) c.model_type = std::string(family_traits(c.family).model_types[0]);
  const auto get = [&](const char* key) { return std::max<std::int64_t>(metadata_int(a.architecture + "." + key), 0); };
  // llama.cpp src/llama-arch.cpp: LLM_KV_EXPERT_FEED_FORWARD_LENGTH, LLM_KV_EXPERT_SHARED_FEED_FORWARD_LENGTH,
  // LLM_KV_LEADING_DENSE_BLOCK_COUNT.
  c.moe_intermediate_size = get("expert_feed_forward_length");
  c.shared_expert_intermediate_size = get("expert_shared_feed_forward_length");
  c.first_k_dense_replace = get("leading_dense_block_count");
  if (c.family == Family::deepseek_v3) {
    // MLA: the cached latent (kv_lora_rank) and the decoupled rope key (rope.dimension_count);
    // key_length is nope + rope per head, value_length the value head.
    c.kv_lora_rank = get("attention.kv_lora_rank");
    c.q_lora_rank = get("attention.q_lora_rank");
    c.n_shared_experts = get("expert_shared_count");
    const std::int64_t rope = get("rope.dimension_count");
    const std::int64_t key = get("attention.key_length");
    const std::int64_t value = get("attention.value_length");
    if (rope > 0 && key > rope && value > 0) {
      c.qk_rope_head_dim = rope;
      c.qk_nope_head_dim = key - rope;
      c.v_head_dim = value;
    }
    c.head_dim = 0;  // key_length is MLA's nope + rope, not an attention head's width
  }
  // llama.cpp (llama-model.cpp, LLM_ARCH_OPENAI_MOE): sliding layers alternate, layer 0 sliding.
  c.alternating_layer_types = c.family == Family::gpt_oss && c.num_hidden_layers > 0 && c.sliding_window > 0;
  if (c.num_experts > 0 && c.moe_intermediate_size == 0 && c.intermediate_size > 0) {
    c.moe_intermediate_size = c.intermediate_size;  // Mixtral-style GGUF: one width
  }
  return c;
}

namespace {

/// The family's config-class default for `key` (architecture.hpp ClassDefault), or nullptr.
const ClassDefault* class_default(const FamilyTraits& family, std::string_view key) {
  for (std::size_t i = 0; i < family.class_default_count; ++i) {
    if (family.class_defaults[i].key == key) return &family.class_defaults[i];
  }
  return nullptr;
}

/// Reads the config's keys as the config reader (config_read::read_int) does: an absent key is
/// the family's class default or `fallback`, a required one must be there, and a value must lie
/// in [min, max]; errors name `prefix.key`.
struct Reader {
  const FamilyTraits& family;
  const std::string& prefix;

  std::int64_t operator()(std::int64_t value, std::string_view key, bool required, std::int64_t min, std::int64_t max,
                          std::int64_t fallback = 0) const {
    const ClassDefault* default_value = value > 0 ? nullptr : class_default(family, key);
    if (default_value) value = default_value->value;
    const std::string field = prefix + "." + std::string(key);
    if (value <= 0 && !default_value) {
      if (required) throw InputError(field, Message("error.config.missing").text("key", key).integer("min", min).integer("max", max));
      return fallback;
    }
    if (value < min || value > max) {
      throw InputError(field, Message("error.whole_number").integer("min", min).integer("max", max).text("got", std::to_string(value)));
    }
    return value;
  }
};

}  // namespace

ModelSpec model_from_file_config(const FileConfig& c, const std::string& prefix) {
  const FamilyTraits& family = family_traits(c.family);
  const Reader read{family, prefix};
  // The decoder's shape (config_fields.hpp), checked in the config reader's order.
  ConfigFields f;
  f.hidden_size = read(c.hidden_size, "hidden_size", true, 1, 1'000'000);
  f.num_layers = read(c.num_hidden_layers, "num_hidden_layers", true, 1, 10'000);
  f.num_attention_heads = read(c.num_attention_heads, "num_attention_heads", true, 1, 100'000);
  f.num_kv_heads = read(c.num_key_value_heads, "num_key_value_heads", false, 1, 100'000, f.num_attention_heads);
  f.vocab_size = read(c.vocab_size, "vocab_size", true, 1, 100'000'000);
  f.head_dim = read(c.head_dim, "head_dim", false, 1, 100'000);
  check_attention_heads(f, prefix);
  f.max_position_embeddings = read(c.max_position_embeddings, "max_position_embeddings", false, 1, 1'000'000'000);
  const ClassDefault* tie_default = class_default(family, "tie_word_embeddings");
  f.tie_word_embeddings = c.tie_word_embeddings ? *c.tie_word_embeddings : tie_default ? tie_default->value != 0 : family.tie_word_embeddings;
  ModelSpec m = model_from_config_fields(f, family);
  m.model_type_name = family.one_name ? std::string(family.model_types[0]) : c.model_type;

  // Sliding windows (config_layers.cpp read_layer_mixers): Qwen's apply only with
  // use_sliding_window, which a file's config does not carry.
  const std::int64_t window = read(c.sliding_window, "sliding_window", false, 1, 1'000'000'000);
  if (family.window_layers != WindowLayers::from_max_window_layers && window > 0) m.sliding_window = static_cast<int>(window);
  const auto each_layer = [&](auto sliding) {
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(sliding(i) && m.sliding_window > 0 ? MixerKind::sliding_attention : MixerKind::full_attention);
  };
  if (c.alternating_layer_types) {
    each_layer([](int i) { return i % 2 == 0; });
  } else if (family.window_layers == WindowLayers::alternating && m.sliding_window > 0) {
    each_layer([](int i) { return i % 2 == 0; });  // Gemma 2: local first
  } else if (family.window_layers == WindowLayers::pattern && m.sliding_window > 0) {
    // Gemma 3: layer i slides when (i + 1) % sliding_window_pattern != 0.
    const ClassDefault* class_pattern = class_default(family, "sliding_window_pattern");
    const std::int64_t pattern = class_pattern && class_pattern->value > 0 ? class_pattern->value : family.window_pattern;
    each_layer([&](int i) { return (i + 1) % pattern != 0; });
  }

  // MLA (DeepSeek-V2/V3).
  m.mla.kv_lora_rank = static_cast<int>(read(c.kv_lora_rank, "kv_lora_rank", false, 0, 1'000'000));
  if (m.mla.kv_lora_rank > 0) {
    m.mla.q_lora_rank = static_cast<int>(read(c.q_lora_rank, "q_lora_rank", false, 0, 1'000'000));
    m.mla.qk_rope_head_dim = static_cast<int>(read(c.qk_rope_head_dim, "qk_rope_head_dim", true, 1, 100'000));
    m.mla.qk_nope_head_dim = static_cast<int>(read(c.qk_nope_head_dim, "qk_nope_head_dim", true, 1, 100'000));
    m.mla.v_head_dim = static_cast<int>(read(c.v_head_dim, "v_head_dim", true, 1, 100'000));
  }

  // Mixture of experts (config_layers.cpp read_moe): one "expert" is a dense model.
  std::int64_t experts = read(c.num_experts, "num_experts", false, 0, 1'000'000);
  if (experts == 1) experts = 0;
  m.intermediate_size = read(c.intermediate_size, "intermediate_size", experts == 0, 1, 100'000'000);
  if (experts > 0) {
    m.moe.num_experts = static_cast<int>(experts);
    const std::int64_t top_k = read(c.num_experts_per_tok, "num_experts_per_tok", false, 0, 1'000'000);
    if (top_k > experts) {
      throw InputError(prefix + ".num_experts_per_tok", Message("error.config.experts_per_token_above_experts").integer("experts", experts).integer("got", top_k));
    }
    m.moe.experts_per_token = static_cast<int>(top_k == 0 ? std::min<std::int64_t>(2, experts) : top_k);
    m.moe.expert_intermediate_size = read(c.moe_intermediate_size, "moe_intermediate_size", false, 0, 100'000'000, m.intermediate_size);
    if (m.moe.expert_intermediate_size == 0) throw InputError(prefix + ".moe_intermediate_size", Message("error.config.moe_width_required"));
    m.moe.num_shared_experts = static_cast<int>(read(c.n_shared_experts, "n_shared_experts", false, 0, 1'000));
    m.moe.shared_expert_intermediate_size = m.moe.expert_intermediate_size;
    const std::int64_t shared_width = read(c.shared_expert_intermediate_size, "shared_expert_intermediate_size", false, 0, 100'000'000);
    if (shared_width > 0) {
      // Qwen2-MoE: one shared expert of that width behind a sigmoid gate (modeling_qwen2_moe.py).
      m.moe.num_shared_experts = 1;
      m.moe.shared_expert_intermediate_size = shared_width;
      m.moe.shared_expert_gate = true;
    }
    m.moe.first_dense_layers = static_cast<int>(read(c.first_k_dense_replace, "first_k_dense_replace", false, 0, 10'000));
    m.moe.moe_layer_period = 1;  // decoder_sparse_step's default: every layer from first_k_dense_replace on
    m.moe.moe_layer_offset = 0;
    m.moe.router_bias = family.moe_router_bias;
    m.moe.expert_bias = family.moe_expert_bias;
  }
  m.mtp_embedding_copies = family.mtp_embedding_copies;
  m.id = "custom";
  m.name = m.model_type_name.empty() ? "custom model" : m.model_type_name;
  return m;
}

}  // namespace llmsizer
