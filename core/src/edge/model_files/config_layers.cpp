// SPDX-License-Identifier: MIT
// Which layer of a Hugging Face config is what: the attention kind of each layer (sliding windows,
// chunked, linear, Mamba) and the mixture of experts (how many, how wide, which layers).
#include <algorithm>
#include <cmath>
#include <string>

#include "llmsizer/error.hpp"
#include "model_files/config_read.hpp"

namespace llmsizer::config_read {

void read_layer_mixers(const json& cfg, const std::string& prefix, const FamilyTraits& family, ModelSpec& m) {
  // Sliding-window attention. Qwen2/Qwen3 configs carry `sliding_window` but only use it when
  // `use_sliding_window` is true, and then only from layer `max_window_layers` on
  // (configuration_qwen2.py layer_types); Mistral v0.1 and Phi-3 apply it to every layer.
  const bool qwen_windows = family.window_layers == WindowLayers::from_max_window_layers;
  const bool sliding_enabled = read_bool(cfg, "use_sliding_window", !qwen_windows);
  const std::int64_t window = read_int(cfg, "sliding_window", prefix, false, 1, 1'000'000'000, 0);
  if (sliding_enabled && window > 0) m.sliding_window = static_cast<int>(window);

  const auto layer_types = cfg.find("layer_types");
  if (layer_types != cfg.end() && layer_types->is_array()) {
    if (layer_types->size() != static_cast<std::size_t>(m.num_layers)) {
      throw InputError(prefix + ".layer_types", Message("error.config.layer_types_count").integer("layers", m.num_layers).integer("got", static_cast<std::int64_t>(layer_types->size())));
    }
    for (const auto& t : *layer_types) {
      const std::string name = t.is_string() ? t.get<std::string>() : "";
      if (name == "sliding_attention") m.layer_mixers.push_back(MixerKind::sliding_attention);
      else if (name == "chunked_attention") m.layer_mixers.push_back(MixerKind::chunked_attention);
      else if (name == "linear_attention") m.layer_mixers.push_back(MixerKind::linear_attention);
      else if (name == "mamba") m.layer_mixers.push_back(MixerKind::ssm);
      else m.layer_mixers.push_back(MixerKind::full_attention);
    }
  } else if (family.window_layers == WindowLayers::alternating && m.sliding_window > 0) {
    // Gemma 2 alternates, local first: layer i slides when i is even (modeling_gemma2.py is_sliding).
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i % 2 == 0 ? MixerKind::sliding_attention : MixerKind::full_attention);
  } else if (family.window_layers == WindowLayers::pattern && m.sliding_window > 0) {
    // Gemma 3, Cohere2: layer i slides when (i + 1) % sliding_window_pattern != 0 (newer Gemma 3
    // configs name it _sliding_window_pattern); the period's default is the family's.
    std::int64_t pattern = read_int(cfg, "sliding_window_pattern", prefix, false, 1, 10'000, 0);
    if (pattern == 0) pattern = read_int(cfg, "_sliding_window_pattern", prefix, false, 1, 10'000, family.window_pattern);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back((i + 1) % pattern != 0 ? MixerKind::sliding_attention : MixerKind::full_attention);
  } else if (cfg.contains("full_attention_interval")) {
    // Qwen3-Next: every `full_attention_interval`-th layer is full attention, the rest linear.
    const std::int64_t interval = read_int(cfg, "full_attention_interval", prefix, false, 1, 10'000, 4);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back((i + 1) % interval == 0 ? MixerKind::full_attention : MixerKind::linear_attention);
  } else if (m.family == Family::jamba) {
    // Jamba (configuration_jamba.py): layer i is attention when i % attn_layer_period ==
    // attn_layer_offset, else a Mamba layer.
    const std::int64_t period = read_int(cfg, "attn_layer_period", prefix, false, 1, 10'000, 8);
    const std::int64_t offset = read_int(cfg, "attn_layer_offset", prefix, false, 0, 10'000, 4);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i % period == offset ? MixerKind::full_attention : MixerKind::ssm);
  } else if (qwen_windows && m.sliding_window > 0) {
    const std::int64_t first = read_int(cfg, "max_window_layers", prefix, false, 0, 10'000, m.num_layers);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i >= first ? MixerKind::sliding_attention : MixerKind::full_attention);
  }
  if (!m.layer_mixers.empty() && m.sliding_window == 0) {
    for (auto& kind : m.layer_mixers) if (kind == MixerKind::sliding_attention) kind = MixerKind::full_attention;
  }
}

void read_moe(const json& cfg, const std::string& prefix, const FamilyTraits& family, ModelSpec& m) {
  // Mixture of experts. Names differ by family: Mixtral/gpt-oss `num_local_experts`,
  // Qwen-MoE/Jamba `num_experts`, DeepSeek `n_routed_experts`.
  std::int64_t experts = read_int(cfg, "num_local_experts", prefix, false, 0, 1'000'000);
  if (experts == 0) experts = read_int(cfg, "num_experts", prefix, false, 0, 1'000'000);
  if (experts == 0) experts = read_int(cfg, "n_routed_experts", prefix, false, 0, 1'000'000);
  if (experts == 1) experts = 0;  // Jamba-style configs with one "expert" are dense
  const bool per_layer_widths = m.family == Family::nemotron_nas;  // widths come from block_configs
  const std::int64_t dense_width = read_int(cfg, "intermediate_size", prefix, experts == 0 && !per_layer_widths, 1, 100'000'000, 0);
  m.intermediate_size = dense_width;
  if (experts > 0) {
    m.moe.num_experts = static_cast<int>(experts);
    const char* top_k_key = "num_experts_per_tok";
    std::int64_t top_k = read_int(cfg, top_k_key, prefix, false, 0, 1'000'000);
    if (top_k == 0) {
      top_k_key = "experts_per_token";
      top_k = read_int(cfg, top_k_key, prefix, false, 0, 1'000'000);
    }
    // A token routed to more experts than the layer has is no mixture of experts: refused, not clamped.
    if (top_k > experts) {
      throw InputError(prefix + "." + top_k_key, Message("error.config.experts_per_token_above_experts").integer("experts", experts).integer("got", top_k));
    }
    m.moe.experts_per_token = static_cast<int>(top_k == 0 ? std::min<std::int64_t>(2, experts) : top_k);
    m.moe.expert_intermediate_size = read_int(cfg, "moe_intermediate_size", prefix, false, 0, 100'000'000, dense_width);
    if (m.moe.expert_intermediate_size == 0) throw InputError(prefix + ".moe_intermediate_size", Message("error.config.moe_width_required"));
    // DeepSeek: n_shared_experts experts of moe_intermediate_size each.
    m.moe.num_shared_experts = static_cast<int>(read_int(cfg, "n_shared_experts", prefix, false, 0, 1'000));
    m.moe.shared_expert_intermediate_size = m.moe.expert_intermediate_size;
    const std::int64_t shared_width = read_int(cfg, "shared_expert_intermediate_size", prefix, false, 0, 100'000'000);
    if (shared_width > 0) {
      // Qwen1.5-MoE / Qwen2-MoE / Qwen3-Next: one shared expert of that width behind a sigmoid
      // gate, shared_expert_gate = Linear(hidden, 1, bias=False) (modeling_qwen2_moe.py).
      m.moe.num_shared_experts = 1;
      m.moe.shared_expert_intermediate_size = shared_width;
      m.moe.shared_expert_gate = true;
    }
    m.moe.first_dense_layers = static_cast<int>(read_int(cfg, "first_k_dense_replace", prefix, false, 0, 10'000));
    if (m.family == Family::jamba) {
      // Jamba: layer i is MoE when i % expert_layer_period == expert_layer_offset.
      m.moe.moe_layer_period = static_cast<int>(read_int(cfg, "expert_layer_period", prefix, false, 1, 10'000, 2));
      m.moe.moe_layer_offset = static_cast<int>(read_int(cfg, "expert_layer_offset", prefix, false, 0, 10'000, 1));
    } else if (cfg.contains("moe_layer_freq") && cfg["moe_layer_freq"].is_number()) {
      // DeepSeek: layer i ≥ first_k_dense_replace is MoE when i % moe_layer_freq == 0.
      m.moe.moe_layer_period = static_cast<int>(read_int(cfg, "moe_layer_freq", prefix, false, 1, 10'000, 1));
      m.moe.moe_layer_offset = 0;
    } else {
      // Qwen-MoE: layer i is MoE when (i + 1) % decoder_sparse_step == 0 and i is not in
      // mlp_only_layers (modeling_qwen2_moe.py / modeling_qwen3_moe.py).
      const int step = static_cast<int>(read_int(cfg, "decoder_sparse_step", prefix, false, 1, 10'000, 1));
      m.moe.moe_layer_period = step;
      m.moe.moe_layer_offset = step - 1;
    }
    const auto dense_only = cfg.find("mlp_only_layers");
    if (dense_only != cfg.end() && dense_only->is_array()) {
      for (const auto& v : *dense_only) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= m.num_layers) {
          throw InputError(prefix + ".mlp_only_layers", Message("error.config.mlp_only_layers").integer("last", m.num_layers - 1).text("got", v.dump()));
        }
        m.moe.dense_layers.push_back(static_cast<int>(v.get<std::int64_t>()));
      }
    }
    m.moe.router_bias = family.moe_router_bias;
    m.moe.expert_bias = family.moe_expert_bias;
  }
  if (m.moe.num_experts == 0 && m.intermediate_size == 0 && !per_layer_widths) {
    throw InputError(prefix + ".intermediate_size", Message("error.config.intermediate_size_required"));
  }
}

}  // namespace llmsizer::config_read
