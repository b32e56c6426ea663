// SPDX-License-Identifier: MIT
#include "llmsizer/config_import.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "llmsizer/error.hpp"

namespace llmsizer {
namespace {

using nlohmann::json;

/// Config keys that do not change memory or speed (tokenizer ids, RoPE, dropout, init ranges...).
/// They are skipped silently; anything neither read nor listed here is reported as ignored.
const std::set<std::string_view> kIrrelevantKeys = {
    "_name_or_path", "architectures", "auto_map", "bos_token_id", "eos_token_id", "pad_token_id",
    "torch_dtype", "dtype", "transformers_version", "use_cache", "rope_theta", "rope_scaling",
    "rope_parameters", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "initializer_range",
    "hidden_act", "hidden_activation", "attention_dropout", "hidden_dropout", "dropout",
    "max_window_layers", "model_type", "quantization_config", "pretraining_tp", "partial_rotary_factor",
    "rope_local_base_freq", "query_pre_attn_scalar", "final_logit_softcapping",
    "attn_logit_softcapping", "cache_implementation", "norm_topk_prob", "output_router_logits",
    "router_aux_loss_coef", "router_z_loss_coef", "routed_scaling_factor", "scoring_func",
    "topk_method", "topk_group", "n_group", "ep_size", "aux_loss_alpha", "seq_aux", "swiglu_limit",
    "generation_config", "image_token_index", "image_token_id", "boi_token_index", "eoi_token_index",
    "mm_tokens_per_image", "tokenizer_class", "original_max_position_embeddings", "embd_pdrop",
    "resid_pdrop", "attention_bias", "mlp_bias", "use_sliding_window", "sliding_window",
    "sliding_window_pattern", "layer_types", "head_dim", "num_key_value_heads", "tie_word_embeddings",
    "vision_config", "text_config", "use_qk_norm", "qk_layernorm", "num_nextn_predict_layers",
    "full_attention_interval", "decoder_sparse_step", "mlp_only_layers", "shared_expert_intermediate_size",
    "moe_intermediate_size", "num_experts", "num_experts_per_tok", "num_local_experts",
    "experts_per_token", "n_routed_experts", "n_shared_experts", "first_k_dense_replace",
    "moe_layer_freq", "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim",
    "v_head_dim", "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
    "linear_value_head_dim", "linear_conv_kernel_dim", "is_causal", "vocab_size", "hidden_size",
    "num_hidden_layers", "num_attention_heads", "intermediate_size", "max_position_embeddings",
    "bias", "sliding_window_size", "attn_implementation", "use_bfloat16", "mamba_d_state",
    "mamba_d_conv", "mamba_expand", "mamba_dt_rank", "attn_layer_period", "attn_layer_offset",
    "expert_layer_period", "expert_layer_offset", "pretraining_sequence_length",
    "_sliding_window_pattern", "mamba_conv_bias", "mamba_proj_bias", "use_mamba_kernels",
    "layers_block_type", "num_logits_to_keep", "router_jitter_noise", "rope_interleave", "attn_type_list",
    "vision_feature_layer", "vision_feature_select_strategy", "projector_hidden_act", "multimodal_projector_bias",
};

std::int64_t read_int(const json& cfg, std::string_view key, const std::string& prefix, bool required,
                      std::int64_t min_value, std::int64_t max_value, std::int64_t fallback = 0) {
  const auto it = cfg.find(key);
  const std::string field = prefix + "." + std::string(key);
  if (it == cfg.end() || it->is_null()) {
    if (required) throw InputError(field, Message("error.config.missing").text("key", key).integer("min", min_value).integer("max", max_value));
    return fallback;
  }
  // Range first, in double, so that no out-of-range float is ever cast to an integer (UB).
  const bool whole = it->is_number_integer() || (it->is_number_float() && std::floor(it->get<double>()) == it->get<double>());
  if (!whole) {
    throw InputError(field, Message("error.whole_number").integer("min", min_value).integer("max", max_value).text("got", it->dump()));
  }
  const double as_double = it->get<double>();
  if (!(as_double >= static_cast<double>(min_value) && as_double <= static_cast<double>(max_value))) {
    throw InputError(field, Message("error.whole_number").integer("min", min_value).integer("max", max_value).text("got", it->dump()));
  }
  return it->is_number_integer() ? it->get<std::int64_t>() : static_cast<std::int64_t>(as_double);
}

bool read_bool(const json& cfg, std::string_view key, bool fallback) {
  const auto it = cfg.find(key);
  if (it == cfg.end() || !it->is_boolean()) return fallback;
  return it->get<bool>();
}

std::string read_string(const json& cfg, std::string_view key) {
  const auto it = cfg.find(key);
  return (it != cfg.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// transformers' Gemma3TextConfig defaults (configuration_gemma3.py, transformers 4.50): published
/// Gemma 3 configs list in `text_config` only the values that differ from these.
json gemma3_text_defaults() {
  return json{{"vocab_size", 262208},       {"hidden_size", 2304},          {"intermediate_size", 9216},
              {"num_hidden_layers", 26},     {"num_attention_heads", 8},     {"num_key_value_heads", 4},
              {"head_dim", 256},             {"max_position_embeddings", 131072}, {"sliding_window", 4096},
              {"sliding_window_pattern", 6}, {"tie_word_embeddings", true}};
}

/// The SigLIP vision tower (transformers SiglipVisionModel) of a `vision_config`: patch embedding
/// (conv with bias) and learned position embeddings; per layer q, k, v, out projections with
/// biases, two LayerNorms with bias, fc1 and fc2 with biases; a final LayerNorm. Gemma 3's
/// so400m/14 at 896 px: 416,866,032 parameters. 0 when the config is not a head-less SigLIP.
std::int64_t siglip_vision_params(const json& vc, const std::string& prefix) {
  if (read_string(vc, "model_type") != "siglip_vision_model") return 0;
  if (read_bool(vc, "vision_use_head", true)) return 0;
  const std::int64_t hv = read_int(vc, "hidden_size", prefix, true, 1, 1'000'000);
  const std::int64_t inter = read_int(vc, "intermediate_size", prefix, true, 1, 100'000'000);
  const std::int64_t layers = read_int(vc, "num_hidden_layers", prefix, true, 1, 10'000);
  const std::int64_t patch = read_int(vc, "patch_size", prefix, true, 1, 10'000);
  const std::int64_t image = read_int(vc, "image_size", prefix, true, 1, 100'000);
  const std::int64_t channels = read_int(vc, "num_channels", prefix, false, 1, 64, 3);
  const std::int64_t positions = (image / patch) * (image / patch);
  const std::int64_t embeddings = channels * patch * patch * hv + hv + positions * hv;
  const std::int64_t per_layer = 4 * (hv * hv + hv) + 2 * 2 * hv + (hv * inter + inter) + (inter * hv + hv);
  return embeddings + layers * per_layer + 2 * hv;
}

}  // namespace

ModelSpec model_from_hf_config(const json& outer, const std::string& prefix_in, std::vector<Message>& warnings) {
  if (!outer.is_object()) throw InputError(prefix_in, Message("error.config.not_object"));
  const std::string outer_type = read_string(outer, "model_type");
  // Multimodal configs (Gemma 3, Llama 4, Mistral 3...) keep the language model in text_config.
  const bool multimodal = outer.contains("text_config") && outer["text_config"].is_object();
  json merged;  // text_config with class defaults filled in, where the family needs them
  const json* cfg_ptr = multimodal ? &outer["text_config"] : &outer;
  const std::string prefix = multimodal ? prefix_in + ".text_config" : prefix_in;
  const std::string inner_type = read_string(*cfg_ptr, "model_type");
  if (outer_type == "gemma3" || outer_type == "gemma3_text" || inner_type == "gemma3_text") {
    merged = gemma3_text_defaults();
    std::vector<std::string> filled;
    for (auto it = merged.begin(); it != merged.end(); ++it) {
      if (!cfg_ptr->contains(it.key())) filled.push_back(it.key() + " " + it.value().dump());
    }
    for (auto it = cfg_ptr->begin(); it != cfg_ptr->end(); ++it) merged[it.key()] = it.value();
    if (!filled.empty()) {
      std::string list;
      for (std::size_t i = 0; i < filled.size(); ++i) list += (i ? ", " : "") + filled[i];
      warnings.push_back(Message("warning.config.gemma3_defaults").text("fields", list));
    }
    cfg_ptr = &merged;
  }
  const json& cfg = *cfg_ptr;

  ModelSpec m;
  m.model_type = inner_type.empty() ? outer_type : inner_type;
  const std::string& type = m.model_type;

  constexpr std::int64_t kMaxWidth = 1'000'000;
  m.hidden_size = read_int(cfg, "hidden_size", prefix, true, 1, kMaxWidth);
  m.num_layers = static_cast<int>(read_int(cfg, "num_hidden_layers", prefix, true, 1, 10'000));
  m.num_attention_heads = static_cast<int>(read_int(cfg, "num_attention_heads", prefix, true, 1, 100'000));
  m.num_kv_heads = static_cast<int>(read_int(cfg, "num_key_value_heads", prefix, false, 1, 100'000, m.num_attention_heads));
  m.vocab_size = read_int(cfg, "vocab_size", prefix, true, 1, 100'000'000);
  m.head_dim = static_cast<int>(read_int(cfg, "head_dim", prefix, false, 1, 100'000, 0));
  if (m.head_dim == 0) {
    if (m.hidden_size % m.num_attention_heads != 0) {
      throw InputError(prefix + ".num_attention_heads", Message("error.config.heads_divide_hidden").integer("hidden", m.hidden_size).integer("heads", m.num_attention_heads));
    }
    m.head_dim = static_cast<int>(m.hidden_size / m.num_attention_heads);
  }
  if (m.num_attention_heads % m.num_kv_heads != 0) {
    throw InputError(prefix + ".num_key_value_heads", Message("error.config.kv_heads_divide_heads").integer("heads", m.num_attention_heads).integer("kv_heads", m.num_kv_heads));
  }
  m.max_position_embeddings = read_int(cfg, "max_position_embeddings", prefix, false, 1, 1'000'000'000, 0);
  // Gemma configs tie the output head to the embedding unless they say otherwise (GemmaConfig,
  // Gemma2Config, Gemma3TextConfig: tie_word_embeddings=True); Llama, Mistral, Qwen, Phi-3,
  // DeepSeek, gpt-oss and Jamba config classes default to untied.
  const bool gemma = starts_with(type, "gemma");
  m.tie_word_embeddings = read_bool(cfg, "tie_word_embeddings", read_bool(outer, "tie_word_embeddings", gemma));
  m.embedding_scaled = gemma;  // GemmaModel: hidden_states * sqrt(hidden_size)

  // Biases by model family: Qwen1.5/2/2.5 (model_type qwen2, qwen2_moe) put biases on q, k, v
  // (modeling_qwen2.py: q_proj bias=True, o_proj bias=False); Llama-style configs say
  // `attention_bias` (q, k, v and o: gpt-oss sets it) and `mlp_bias`.
  if (type == "qwen2" || type == "qwen2_moe" || type == "qwen2_vl" || type == "qwen2_5_vl") {
    m.qkv_bias = true;
  } else if (read_bool(cfg, "attention_bias", false) || read_bool(cfg, "bias", false)) {
    m.qkv_bias = true;
    m.o_bias = true;
  }
  m.mlp_bias = read_bool(cfg, "mlp_bias", false);
  // QK-norm: Qwen3 (incl. MoE and Next) and Gemma 3 normalise each head (RMSNorm(head_dim));
  // OLMo 2 normalises the whole projection (modeling_olmo2.py: RMSNorm(heads × head_dim)).
  m.qk_norm = starts_with(type, "qwen3") || starts_with(type, "gemma3") || starts_with(type, "olmo2") ||
              read_bool(cfg, "use_qk_norm", false) || read_bool(cfg, "qk_layernorm", false);
  m.qk_norm_full_width = starts_with(type, "olmo2");
  m.attention_output_gate = type == "qwen3_next";
  m.attention_sinks = type == "gpt_oss";
  if (starts_with(type, "gemma2") || starts_with(type, "gemma3")) m.norms_per_layer = 4;

  // Sliding-window attention. Qwen2/Qwen3 configs carry `sliding_window` but only use it when
  // `use_sliding_window` is true, and then only from layer `max_window_layers` on
  // (configuration_qwen2.py layer_types); Mistral v0.1 and Phi-3 apply it to every layer.
  const bool qwen = starts_with(type, "qwen");
  const bool sliding_enabled = read_bool(cfg, "use_sliding_window", !qwen);
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
      else if (name == "linear_attention") m.layer_mixers.push_back(MixerKind::linear_attention);
      else if (name == "mamba") m.layer_mixers.push_back(MixerKind::ssm);
      else m.layer_mixers.push_back(MixerKind::full_attention);
    }
  } else if (starts_with(type, "gemma2") && m.sliding_window > 0) {
    // Gemma 2 alternates, local first: layer i slides when i is even (modeling_gemma2.py is_sliding).
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i % 2 == 0 ? MixerKind::sliding_attention : MixerKind::full_attention);
  } else if (starts_with(type, "gemma3") && m.sliding_window > 0) {
    // Gemma 3: 5 local layers then 1 global (configuration_gemma3.py: layer i slides when
    // (i + 1) % sliding_window_pattern != 0; newer configs name it _sliding_window_pattern).
    std::int64_t pattern = read_int(cfg, "sliding_window_pattern", prefix, false, 1, 10'000, 0);
    if (pattern == 0) pattern = read_int(cfg, "_sliding_window_pattern", prefix, false, 1, 10'000, 6);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back((i + 1) % pattern != 0 ? MixerKind::sliding_attention : MixerKind::full_attention);
  } else if (cfg.contains("full_attention_interval")) {
    // Qwen3-Next: every `full_attention_interval`-th layer is full attention, the rest linear.
    const std::int64_t interval = read_int(cfg, "full_attention_interval", prefix, false, 1, 10'000, 4);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back((i + 1) % interval == 0 ? MixerKind::full_attention : MixerKind::linear_attention);
  } else if (type == "jamba") {
    // Jamba (configuration_jamba.py): layer i is attention when i % attn_layer_period ==
    // attn_layer_offset, else a Mamba layer.
    const std::int64_t period = read_int(cfg, "attn_layer_period", prefix, false, 1, 10'000, 8);
    const std::int64_t offset = read_int(cfg, "attn_layer_offset", prefix, false, 0, 10'000, 4);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i % period == offset ? MixerKind::full_attention : MixerKind::ssm);
  } else if (qwen && m.sliding_window > 0) {
    const std::int64_t first = read_int(cfg, "max_window_layers", prefix, false, 0, 10'000, m.num_layers);
    for (int i = 0; i < m.num_layers; ++i) m.layer_mixers.push_back(i >= first ? MixerKind::sliding_attention : MixerKind::full_attention);
  }
  if (!m.layer_mixers.empty() && m.sliding_window == 0) {
    for (auto& kind : m.layer_mixers) if (kind == MixerKind::sliding_attention) kind = MixerKind::full_attention;
  }

  // Linear attention (Qwen3-Next).
  m.recurrent.linear_num_key_heads = static_cast<int>(read_int(cfg, "linear_num_key_heads", prefix, false, 0, 100'000));
  m.recurrent.linear_num_value_heads = static_cast<int>(read_int(cfg, "linear_num_value_heads", prefix, false, 0, 100'000));
  m.recurrent.linear_key_head_dim = static_cast<int>(read_int(cfg, "linear_key_head_dim", prefix, false, 0, 100'000));
  m.recurrent.linear_value_head_dim = static_cast<int>(read_int(cfg, "linear_value_head_dim", prefix, false, 0, 100'000));
  m.recurrent.linear_conv_kernel_dim = static_cast<int>(read_int(cfg, "linear_conv_kernel_dim", prefix, false, 0, 1'000));

  // Mamba layers (Jamba): d_inner = mamba_expand × hidden; mamba_dt_rank "auto" = ⌈hidden / 16⌉.
  if (type == "jamba") {
    auto& r = m.recurrent;
    r.mamba_d_inner = read_int(cfg, "mamba_expand", prefix, false, 1, 100, 2) * m.hidden_size;
    r.mamba_d_state = static_cast<int>(read_int(cfg, "mamba_d_state", prefix, false, 1, 100'000, 16));
    r.mamba_d_conv = static_cast<int>(read_int(cfg, "mamba_d_conv", prefix, false, 1, 1'000, 4));
    const auto dt = cfg.find("mamba_dt_rank");
    r.mamba_dt_rank = (dt == cfg.end() || dt->is_string()) ? static_cast<int>((m.hidden_size + 15) / 16)
                                                            : static_cast<int>(read_int(cfg, "mamba_dt_rank", prefix, false, 1, 1'000'000));
    r.mamba_conv_bias = read_bool(cfg, "mamba_conv_bias", true);
    r.mamba_proj_bias = read_bool(cfg, "mamba_proj_bias", false);
    r.mamba_inner_norms = true;
  }

  // MLA (DeepSeek-V2/V3).
  m.mla.kv_lora_rank = static_cast<int>(read_int(cfg, "kv_lora_rank", prefix, false, 0, 1'000'000));
  if (m.mla.kv_lora_rank > 0) {
    m.mla.q_lora_rank = static_cast<int>(read_int(cfg, "q_lora_rank", prefix, false, 0, 1'000'000));
    m.mla.qk_rope_head_dim = static_cast<int>(read_int(cfg, "qk_rope_head_dim", prefix, true, 1, 100'000));
    m.mla.qk_nope_head_dim = static_cast<int>(read_int(cfg, "qk_nope_head_dim", prefix, true, 1, 100'000));
    m.mla.v_head_dim = static_cast<int>(read_int(cfg, "v_head_dim", prefix, true, 1, 100'000));
  }
  // DeepSeek-V3 multi-token prediction layers (kept apart from the count; see ModelSpec).
  m.mtp_layers = static_cast<int>(read_int(cfg, "num_nextn_predict_layers", prefix, false, 0, 100));

  // Mixture of experts. Names differ by family: Mixtral/gpt-oss `num_local_experts`,
  // Qwen-MoE/Jamba `num_experts`, DeepSeek `n_routed_experts`.
  std::int64_t experts = read_int(cfg, "num_local_experts", prefix, false, 0, 1'000'000);
  if (experts == 0) experts = read_int(cfg, "num_experts", prefix, false, 0, 1'000'000);
  if (experts == 0) experts = read_int(cfg, "n_routed_experts", prefix, false, 0, 1'000'000);
  if (experts == 1) experts = 0;  // Jamba-style configs with one "expert" are dense
  const std::int64_t dense_width = read_int(cfg, "intermediate_size", prefix, experts == 0, 1, 100'000'000, 0);
  m.intermediate_size = dense_width;
  if (experts > 0) {
    m.moe.num_experts = static_cast<int>(experts);
    std::int64_t top_k = read_int(cfg, "num_experts_per_tok", prefix, false, 0, 1'000'000);
    if (top_k == 0) top_k = read_int(cfg, "experts_per_token", prefix, false, 0, 1'000'000);
    m.moe.experts_per_token = static_cast<int>(std::min<std::int64_t>(top_k == 0 ? 2 : top_k, experts));
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
    if (type == "jamba") {
      // Jamba: layer i is MoE when i % expert_layer_period == expert_layer_offset.
      m.moe.moe_layer_period = static_cast<int>(read_int(cfg, "expert_layer_period", prefix, false, 1, 10'000, 2));
      m.moe.moe_layer_offset = static_cast<int>(read_int(cfg, "expert_layer_offset", prefix, false, 0, 10'000, 1));
    } else if (cfg.contains("moe_layer_freq")) {
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
    if (type == "deepseek_v3") m.moe.router_bias = true;  // gate.e_score_correction_bias (modeling_deepseek.py, V3 only)
    if (type == "gpt_oss") {
      // GptOssTopKRouter: weight + bias; GptOssExperts: gate_up_proj(+bias), down_proj(+bias).
      m.moe.router_bias = true;
      m.moe.expert_bias = true;
    }
  }
  if (m.moe.num_experts == 0 && m.intermediate_size == 0) {
    throw InputError(prefix + ".intermediate_size", Message("error.config.intermediate_size_required"));
  }

  // Vision tower of a multimodal config (counted apart from the decoder's per-token compute).
  const auto vision = outer.find("vision_config");
  if (vision != outer.end() && vision->is_object()) {
    const std::int64_t tower = siglip_vision_params(*vision, prefix_in + ".vision_config");
    if (tower > 0) {
      m.extra_params = tower;
      m.vision_tower_layers = static_cast<int>(read_int(*vision, "num_hidden_layers", prefix_in, false, 0, 10'000));
      if (outer_type == "gemma3") {
        // Gemma3MultiModalProjector: mm_input_projection_weight (vision hidden × text hidden) and
        // mm_soft_emb_norm (RMSNorm over the vision hidden size).
        const std::int64_t hv = read_int(*vision, "hidden_size", prefix_in + ".vision_config", true, 1, 1'000'000);
        m.extra_params += hv * m.hidden_size + hv;
        m.multimodal_projector = true;
      }
    } else {
      warnings.push_back(Message("warning.config.vision_not_counted").text("model_type", read_string(*vision, "model_type")));
    }
  }

  std::vector<std::string> ignored;
  for (auto it = cfg.begin(); it != cfg.end(); ++it) {
    if (kIrrelevantKeys.count(it.key()) == 0) ignored.push_back(it.key());
  }
  if (!ignored.empty()) {
    std::string list;
    for (std::size_t i = 0; i < ignored.size() && i < 12; ++i) list += (i ? ", " : "") + ignored[i];
    if (ignored.size() > 12) list += ", ...";
    warnings.push_back(Message("warning.config.ignored_fields").integer("fields", static_cast<std::int64_t>(ignored.size())).text("names", list));
  }
  m.id = "custom";
  m.name = read_string(outer, "_name_or_path");
  if (m.name.empty()) m.name = type.empty() ? "custom model" : type;
  return m;
}

}  // namespace llmsizer
