// SPDX-License-Identifier: MIT
#include "llmsizer/edge/config_import.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "llmsizer/architecture.hpp"
#include "llmsizer/config_fields.hpp"
#include "llmsizer/error.hpp"
#include "model_files/config_read.hpp"

namespace llmsizer {

namespace config_read {

std::int64_t read_int(const json& cfg, std::string_view key, const std::string& prefix, bool required,
                      std::int64_t min_value, std::int64_t max_value, std::int64_t fallback) {
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

}  // namespace config_read

namespace {

using nlohmann::json;
using config_read::read_bool;
using config_read::read_int;
using config_read::read_string;

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
    // Read for the layer structures of newer families (config_import below).
    "attention_chunk_size", "no_rope_layers", "no_rope_layer_interval", "interleave_moe_layer_step",
    "intermediate_size_mlp", "moe_layers", "global_head_dim", "num_global_key_value_heads", "attention_k_eq_v",
    "num_kv_shared_layers", "use_double_wide_mlp", "enable_moe_block", "top_k_experts",
    "hidden_size_per_layer_input", "vocab_size_per_layer_input", "hybrid_layer_pattern", "swa_num_attention_heads",
    "swa_num_key_value_heads", "swa_head_dim", "swa_v_head_dim", "add_swa_attention_sink_bias",
    "add_full_attention_sink_bias", "block_configs", "hybrid_override_pattern", "mamba_num_heads", "mamba_head_dim",
    "n_groups", "ssm_state_size", "conv_kernel", "use_conv_bias", "attention_head_dim",
    "moe_shared_expert_intermediate_size", "moe_latent_size", "mamba_n_heads", "mamba_d_head", "mamba_n_groups",
    "shared_intermediate_size", "mtp_num_hidden_layers", "attn_output_gate", "index_n_heads", "index_head_dim",
    "index_topk", "layer_norm_bias", "qk_norm_type", "use_routing_bias",
    // Not sizing (RoPE variants, scalings, kernels, cache dtypes, MTP that checkpoints do not ship).
    "rotary_dim", "use_mtp", "num_mtp_modules", "mtp_transformer_layers", "mtp_use_dedicated_embeddings",
    "mamba_ssm_dtype", "mamba_ssm_cache_dtype", "chunk_size", "time_step_min", "time_step_max", "time_step_floor",
    "time_step_limit", "time_step_rank", "rescale_prenorm_residual", "residual_in_fp32", "mamba_hidden_act",
    "mlp_hidden_act", "embedding_multiplier", "logits_scaling", "residual_multiplier", "attention_multiplier",
    "position_embedding_type", "normalization_function", "init_method", "attn_temperature_tuning", "floor_scale",
    "attn_scale", "for_llm_compressor", "swa_rope_theta", "attention_value_scale", "layernorm_epsilon", "logit_scale",
    "indexer_rope_interleave", "qk_head_dim", "use_bidirectional_attention", "norm_eps", "mamba_expand",
    "mamba_chunk_size", "num_experts_per_token", "_attn_implementation_autoset", "use_qk_norm", "sliding_window_pattern",
    // Falcon (FalconConfig and the legacy RWConfig names), read by falcon_config below; alibi and
    // apply_residual_connection_post_layernorm change no size.
    "num_kv_heads", "multi_query", "new_decoder_architecture", "parallel_attn", "ffn_hidden_size",
    "num_ln_in_parallel_attn", "alibi", "apply_residual_connection_post_layernorm", "activation", "n_embed",
    "n_layer", "n_head", "n_head_kv",
};

/// A family's class defaults (architecture.hpp ClassDefault) as config values.
json class_defaults(const FamilyTraits& family) {
  json out = json::object();
  for (std::size_t i = 0; i < family.class_default_count; ++i) {
    const ClassDefault& d = family.class_defaults[i];
    out[std::string(d.key)] = d.boolean ? json(d.value != 0) : json(d.value);
  }
  return out;
}

/// A Falcon config in the field names the rest of the import reads. transformers' FalconConfig
/// (configuration_falcon.py): hidden_size (or the legacy n_embed), num_hidden_layers,
/// num_attention_heads, num_kv_heads, multi_query, new_decoder_architecture, ffn_hidden_size; its
/// defaults are architecture.hpp FalconDefaults. The first configs (model_type "RefinedWeb" for
/// 40B, "RefinedWebModel" for 7B, remote-code RWConfig) say n_layer, n_head and n_head_kv; NeMo's
/// convert_falcon_hf_to_nemo.py load_falcon_config maps RefinedWeb to the new decoder
/// architecture with n_head_kv KV heads and RefinedWebModel to the old one.
/// KV heads (FalconAttention, and NeMo's num_query_groups): num_kv_heads with the new decoder
/// architecture (multi_query is then ignored), 1 with multi_query, else one per query head.
json falcon_config(const json& cfg, const std::string& prefix) {
  json out = cfg;
  const std::string type = read_string(cfg, "model_type");
  const auto rename = [&](const char* legacy, const char* name) {
    if (!out.contains(name) && cfg.contains(legacy)) out[name] = cfg[legacy];
  };
  rename("n_embed", "hidden_size");
  rename("n_layer", "num_hidden_layers");
  rename("n_head", "num_attention_heads");
  rename("n_head_kv", "num_kv_heads");
  const bool new_arch = read_bool(cfg, "new_decoder_architecture", type == FalconDefaults::new_decoder_model_type);
  out["new_decoder_architecture"] = new_arch;
  const std::int64_t heads = read_int(out, "num_attention_heads", prefix, true, 1, 100'000);
  const std::int64_t kv = new_arch ? read_int(out, "num_kv_heads", prefix, false, 1, 100'000, heads)
                                   : (read_bool(cfg, "multi_query", true) ? 1 : heads);
  out["num_key_value_heads"] = kv;
  const std::int64_t hidden = read_int(out, "hidden_size", prefix, true, 1, 1'000'000);
  out["intermediate_size"] = read_int(cfg, "ffn_hidden_size", prefix, false, 1, 100'000'000, FalconDefaults::mlp_width_per_hidden * hidden);
  if (!out.contains("max_position_embeddings")) out["max_position_embeddings"] = FalconDefaults::max_position_embeddings;
  return out;
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
  const std::string& type_name = inner_type.empty() ? outer_type : inner_type;
  const Family outer_family = family_for_model_type(outer_type);
  const FamilyTraits& family = family_traits(family_for_model_type(type_name));
  // Class defaults (Gemma 3's text config) where the decoder's or the wrapper's family has them.
  const FamilyTraits& defaults_family = family.class_default_count > 0 ? family : family_traits(outer_family);
  if (defaults_family.class_default_count > 0) {
    merged = class_defaults(defaults_family);
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
  } else if (family.family == Family::falcon) {
    merged = falcon_config(*cfg_ptr, prefix);
    cfg_ptr = &merged;
  }
  const json& cfg = *cfg_ptr;

  // The decoder's shape (config_fields.hpp), read in the order its checks have always run.
  ConfigFields f;
  constexpr std::int64_t kMaxWidth = 1'000'000;
  f.hidden_size = read_int(cfg, "hidden_size", prefix, true, 1, kMaxWidth);
  f.num_layers = read_int(cfg, "num_hidden_layers", prefix, true, 1, 10'000);
  f.num_attention_heads = read_int(cfg, "num_attention_heads", prefix, true, 1, 100'000);
  f.num_kv_heads = read_int(cfg, "num_key_value_heads", prefix, false, 1, 100'000, f.num_attention_heads);
  f.vocab_size = read_int(cfg, "vocab_size", prefix, true, 1, 100'000'000);
  f.head_dim = read_int(cfg, "head_dim", prefix, false, 1, 100'000, 0);
  check_attention_heads(f, prefix);
  f.max_position_embeddings = read_int(cfg, "max_position_embeddings", prefix, false, 1, 1'000'000'000, 0);
  // RoPE scaling that extends the trained context (context_limit.hpp trained_context): linear,
  // dynamic and YaRN multiply it; llama3 and longrope already count in max_position_embeddings.
  if (cfg.contains("rope_scaling") && cfg["rope_scaling"].is_object()) {
    const json& rope = cfg["rope_scaling"];
    std::string kind = rope.value("rope_type", std::string());
    if (kind.empty() && rope.contains("type") && rope["type"].is_string()) kind = rope["type"].get<std::string>();
    const auto factor = rope.find("factor");
    if ((kind == "linear" || kind == "dynamic" || kind == "yarn") && factor != rope.end() && factor->is_number()) {
      const double scale = factor->get<double>();
      if (std::isfinite(scale) && scale > 1.0 && scale <= 1024.0) f.rope_scaling_factor = scale;
      if (kind == "yarn") f.rope_scaling_original_tokens = read_int(rope, "original_max_position_embeddings", prefix + ".rope_scaling", false, 1, 1'000'000'000, 0);
    }
  }
  f.tie_word_embeddings = read_bool(cfg, "tie_word_embeddings", read_bool(outer, "tie_word_embeddings", family.tie_word_embeddings));
  f.attention_bias = read_bool(cfg, "attention_bias", false);
  f.bias = read_bool(cfg, "bias", false);
  f.mlp_bias = read_bool(cfg, "mlp_bias", false);
  f.qk_norm = read_bool(cfg, "use_qk_norm", false) || read_bool(cfg, "qk_layernorm", false);
  f.attention_output_gate = read_bool(cfg, "attn_output_gate", false);
  f.layer_norm_bias = read_bool(cfg, "layer_norm_bias", false);
  if (family.family == Family::falcon) {
    f.parallel_attn = read_bool(cfg, "parallel_attn", true);
    f.new_decoder_architecture = read_bool(cfg, "new_decoder_architecture", false);
    f.num_ln_in_parallel_attn = read_int(cfg, "num_ln_in_parallel_attn", prefix, false, 1, 2, 0);
  }
  ModelSpec m = model_from_config_fields(f, family);
  m.model_type_name = family.one_name ? std::string(family.model_types[0]) : type_name;

  // Sliding-window and other per-layer attention kinds (config_layers.cpp).
  config_read::read_layer_mixers(cfg, prefix, family, m);

  // Linear attention (Qwen3-Next).
  m.recurrent.linear_num_key_heads = static_cast<int>(read_int(cfg, "linear_num_key_heads", prefix, false, 0, 100'000));
  m.recurrent.linear_num_value_heads = static_cast<int>(read_int(cfg, "linear_num_value_heads", prefix, false, 0, 100'000));
  m.recurrent.linear_key_head_dim = static_cast<int>(read_int(cfg, "linear_key_head_dim", prefix, false, 0, 100'000));
  m.recurrent.linear_value_head_dim = static_cast<int>(read_int(cfg, "linear_value_head_dim", prefix, false, 0, 100'000));
  m.recurrent.linear_conv_kernel_dim = static_cast<int>(read_int(cfg, "linear_conv_kernel_dim", prefix, false, 0, 1'000));

  // Mamba layers (Jamba): d_inner = mamba_expand × hidden; mamba_dt_rank "auto" = ⌈hidden / 16⌉.
  if (m.family == Family::jamba) {
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

  // Mixture of experts (config_layers.cpp).
  config_read::read_moe(cfg, prefix, family, m);

  m.mtp_embedding_copies = family.mtp_embedding_copies;
  // Qwen3.5: `mtp_num_hidden_layers` (configuration_qwen3_5.py).
  if (m.mtp_layers == 0) m.mtp_layers = static_cast<int>(read_int(cfg, "mtp_num_hidden_layers", prefix, false, 0, 100));

  // DeepSeek sparse attention indexer (DeepSeek-V3.2, GLM-5).
  if (cfg.contains("index_n_heads")) {
    m.indexer.num_heads = static_cast<int>(read_int(cfg, "index_n_heads", prefix, true, 1, 100'000));
    m.indexer.head_dim = static_cast<int>(read_int(cfg, "index_head_dim", prefix, true, 1, 100'000));
    m.indexer.topk = static_cast<int>(read_int(cfg, "index_topk", prefix, false, 1, 100'000'000, 2048));
  }

  // Layer structures of single families, which the generic fields above cannot express
  // (config_family_layers.cpp).
  config_read::read_family_layers(cfg, prefix, m, warnings);

  // Vision tower of a multimodal config (config_vision.cpp).
  config_read::read_vision_tower(outer, prefix_in, outer_family, m, warnings);

  // Quantized checkpoints name their storage format (AWQ, GPTQ, FP8 ...) in quantization_config.
  for (const json* q_holder : {&outer, &cfg}) {
    const auto q = q_holder->find("quantization_config");
    if (q != q_holder->end() && q->is_object() && m.stored_weights.empty()) {
      m.stored_weights = config_read::stored_weights_format(*q, warnings);
      break;
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
  if (m.name.empty()) m.name = m.model_type_name.empty() ? "custom model" : m.model_type_name;
  return m;
}

}  // namespace llmsizer
