// SPDX-License-Identifier: MIT
#include "llmsizer/edge/config_import.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "llmsizer/architecture.hpp"
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

/// The sizes every ViT-style `vision_config` gives (hidden, MLP width, layers, patch, channels,
/// and the image side where the tower has a fixed one).
struct TowerDims {
  std::int64_t hidden = 0;
  std::int64_t inter = 0;
  std::int64_t layers = 0;
  std::int64_t patch = 0;
  std::int64_t image = 0;
  std::int64_t channels = 3;
  std::int64_t temporal = 1;  ///< Qwen-VL: frames per Conv3d patch
  std::int64_t merge = 1;     ///< Qwen-VL: patches merged per side into one token
  std::int64_t out = 0;       ///< Qwen-VL: the text width the merger projects to
};

TowerDims read_tower(const json& vc, const std::string& prefix, bool image_required) {
  TowerDims d;
  d.hidden = read_int(vc, "hidden_size", prefix, true, 1, 1'000'000);
  d.inter = read_int(vc, "intermediate_size", prefix, true, 1, 100'000'000);
  d.layers = read_int(vc, "num_hidden_layers", prefix, true, 0, 10'000);
  d.patch = read_int(vc, "patch_size", prefix, true, 1, 10'000);
  d.image = read_int(vc, "image_size", prefix, image_required, 1, 100'000, 0);
  d.channels = read_int(vc, "num_channels", prefix, false, 1, 64, 3);
  return d;
}

/// The SigLIP vision tower (transformers SiglipVisionModel) of a `vision_config`: patch embedding
/// (conv with bias) and learned position embeddings; per layer q, k, v, out projections with
/// biases, two LayerNorms with bias, fc1 and fc2 with biases; a final LayerNorm. Gemma 3's
/// so400m/14 at 896 px: 416,866,032 parameters. 0 when the config is not a head-less SigLIP.
std::int64_t siglip_vision_params(const json& vc, const std::string& prefix) {
  if (read_string(vc, "model_type") != "siglip_vision_model") return 0;
  if (read_bool(vc, "vision_use_head", true)) return 0;
  const TowerDims d = read_tower(vc, prefix, true);
  const std::int64_t hv = d.hidden;
  const std::int64_t positions = (d.image / d.patch) * (d.image / d.patch);
  const std::int64_t embeddings = d.channels * d.patch * d.patch * hv + hv + positions * hv;
  const std::int64_t per_layer = 4 * (hv * hv + hv) + 2 * 2 * hv + (hv * d.inter + d.inter) + (d.inter * hv + hv);
  return embeddings + d.layers * per_layer + 2 * hv;
}

/// Llama 4 vision encoder (modeling_llama4.py Llama4VisionModel; a printed parameter table of
/// Llama-4-Scout gives the same shapes): patch embedding (linear, no bias), class embedding,
/// learned positions ((image / patch)² + 1), LayerNorms before and after (weight and bias); per
/// layer q, k, v, o with biases, fc1 and fc2 with biases, two LayerNorms; the vision adapter MLP
/// (hidden / pixel_shuffle_ratio² → projector_input_dim → projector_output_dim, no biases) and
/// the multimodal projector (vision_output_dim → text hidden, no bias).
/// Llama-4-Scout: 871,932,416.
std::int64_t llama4_vision_params(const json& vc, const std::string& prefix, std::int64_t text_hidden) {
  const TowerDims d = read_tower(vc, prefix, true);
  const std::int64_t hv = d.hidden;
  const std::int64_t inter = d.inter;
  const std::int64_t adapter_in = read_int(vc, "projector_input_dim", prefix, true, 1, 1'000'000);
  const std::int64_t adapter_out = read_int(vc, "projector_output_dim", prefix, true, 1, 1'000'000);
  const std::int64_t output = read_int(vc, "vision_output_dim", prefix, true, 1, 1'000'000);
  const auto ratio_it = vc.find("pixel_shuffle_ratio");
  const double ratio = ratio_it != vc.end() && ratio_it->is_number() ? ratio_it->get<double>() : 0.5;
  if (!(ratio > 0.0 && ratio <= 1.0)) throw InputError(prefix + ".pixel_shuffle_ratio", Message("error.config.pixel_shuffle_ratio"));
  const std::int64_t shuffled = static_cast<std::int64_t>(std::llround(static_cast<double>(hv) / (ratio * ratio)));
  const std::int64_t positions = (d.image / d.patch) * (d.image / d.patch) + 1;
  const std::int64_t embeddings = d.channels * d.patch * d.patch * hv + hv + positions * hv + 4 * hv;
  const std::int64_t per_layer = 4 * (hv * hv + hv) + (hv * inter + inter) + (inter * hv + hv) + 4 * hv;
  return embeddings + d.layers * per_layer + shuffled * adapter_in + adapter_in * adapter_out + output * text_hidden;
}

/// A Qwen-VL `vision_config` (Qwen2.5-VL, Qwen3-VL, Qwen3.5): `depth` blocks, frames per temporal
/// patch, input channels (`in_channels`, or `in_chans` in the first Qwen2.5-VL configs), the merge
/// side and the width the merger projects to.
TowerDims read_qwen_vision(const json& vc, const std::string& prefix) {
  TowerDims d;
  d.hidden = read_int(vc, "hidden_size", prefix, true, 1, 1'000'000);
  d.inter = read_int(vc, "intermediate_size", prefix, true, 1, 100'000'000);
  d.layers = read_int(vc, "depth", prefix, true, 0, 10'000);
  d.patch = read_int(vc, "patch_size", prefix, true, 1, 10'000);
  d.temporal = read_int(vc, "temporal_patch_size", prefix, false, 1, 100, 2);
  d.channels = read_int(vc, "in_channels", prefix, false, 1, 64, read_int(vc, "in_chans", prefix, false, 1, 64, 3));
  d.merge = read_int(vc, "spatial_merge_size", prefix, false, 1, 100, 2);
  d.out = read_int(vc, "out_hidden_size", prefix, true, 1, 1'000'000);
  return d;
}

/// The Qwen-VL patch merger's two linear layers with biases: merge² × hidden → same → out.
std::int64_t qwen_merger_mlp(const TowerDims& d) {
  const std::int64_t merged = d.hidden * d.merge * d.merge;
  return (merged * merged + merged) + (merged * d.out + d.out);
}

/// Qwen3-VL / Qwen3.5 vision encoder (mlx-vlm qwen3_vl/vision.py, transformers
/// Qwen3VLVisionModel): a Conv3d patch embedding (channels × temporal × patch² → hidden, with
/// bias), learned positions; per block two LayerNorms, qkv and proj with biases, fc1 and fc2 with
/// biases; a patch merger (LayerNorm, fc1 over merge² × hidden, fc2 to the text hidden) and one
/// more merger per `deepstack_visual_indexes` entry (LayerNorm over the merged width).
/// Qwen3-VL-8B: 576,388,336.
std::int64_t qwen3_vl_vision_params(const json& vc, const std::string& prefix) {
  const TowerDims d = read_qwen_vision(vc, prefix);
  const std::int64_t hv = d.hidden;
  const std::int64_t positions = read_int(vc, "num_position_embeddings", prefix, false, 0, 100'000'000, 0);
  const std::int64_t embeddings = d.channels * d.temporal * d.patch * d.patch * hv + hv + positions * hv;
  const std::int64_t per_block = 4 * hv + (hv * 3 * hv + 3 * hv) + (hv * hv + hv) + (hv * d.inter + d.inter) + (d.inter * hv + hv);
  std::int64_t deepstack = 0;
  const auto ds = vc.find("deepstack_visual_indexes");
  if (ds != vc.end() && ds->is_array()) deepstack = static_cast<std::int64_t>(ds->size());
  return embeddings + d.layers * per_block + (2 * hv + qwen_merger_mlp(d)) + deepstack * (2 * hv * d.merge * d.merge + qwen_merger_mlp(d));
}

/// Qwen2.5-VL vision encoder (transformers Qwen2_5_VisionTransformerPretrainedModel): a Conv3d
/// patch embedding (channels × temporal × patch² → hidden, no bias); per block two RMSNorms, qkv
/// and proj with biases, a gated MLP (gate, up, down) with biases; the patch merger's RMSNorm
/// (ln_q) and its two linear layers (merge² × hidden → same, → the text hidden), with biases.
/// Qwen2.5-VL-7B: 676,550,144.
std::int64_t qwen25_vl_vision_params(const json& vc, const std::string& prefix) {
  const TowerDims d = read_qwen_vision(vc, prefix);
  const std::int64_t hv = d.hidden;
  const std::int64_t per_block = 2 * hv + (hv * 3 * hv + 3 * hv) + (hv * hv + hv) + 2 * (hv * d.inter + d.inter) + (d.inter * hv + hv);
  return d.channels * d.temporal * d.patch * d.patch * hv + d.layers * per_block + hv + qwen_merger_mlp(d);
}

/// Pixtral vision encoder and the Mistral 3 projector (mlx-vlm pixtral/vision.py and
/// mistral3/mistral3.py; transformers PixtralVisionModel, Mistral3MultiModalProjector): patch
/// convolution (no bias), ln_pre; per layer two RMSNorms, q, k, v, o and a gated MLP, no biases;
/// the projector's RMSNorm, patch merger (merge² × hidden → hidden), linear_1 (→ text hidden)
/// and linear_2 (text hidden → text hidden), biases if multimodal_projector_bias.
/// Mistral-Small-3.1 / Devstral-Small-2 (1024 wide, 24 layers, text 5120): 438,958,080.
std::int64_t pixtral_vision_params(const json& outer, const json& vc, const std::string& prefix, std::int64_t text_hidden) {
  const TowerDims d = read_tower(vc, prefix, false);
  const std::int64_t hv = d.hidden;
  const std::int64_t merge = read_int(outer, "spatial_merge_size", prefix, false, 1, 100, 2);
  const bool bias = read_bool(outer, "multimodal_projector_bias", false);
  const std::int64_t tower = d.channels * d.patch * d.patch * hv + hv + d.layers * (2 * hv + 4 * hv * hv + 3 * hv * d.inter);
  const std::int64_t projector = hv + merge * merge * hv * hv + (hv * text_hidden + (bias ? text_hidden : 0)) +
                                 (text_hidden * text_hidden + (bias ? text_hidden : 0));
  return tower + projector;
}

/// Gemma 4 vision encoder (mlx-vlm gemma4/vision.py; transformers Gemma4VisionModel): patch
/// input_proj (3 × patch² → hidden, no bias), a 2 × position_embedding_size × hidden position
/// table; per layer q, k, v, o (no bias), q_norm and k_norm over head_dim, a gated MLP, four
/// RMSNorms; std_bias and std_scale when `standardize`; and the embedder's projection into the
/// text hidden size (its pre-projection norm has no scale). Gemma-4-26B-A4B: 572,794,416.
std::int64_t gemma4_vision_params(const json& vc, const std::string& prefix, std::int64_t text_hidden) {
  const TowerDims d = read_tower(vc, prefix, false);
  const std::int64_t hv = d.hidden;
  const std::int64_t heads = read_int(vc, "num_attention_heads", prefix, true, 1, 100'000);
  const std::int64_t kv_heads = read_int(vc, "num_key_value_heads", prefix, false, 1, 100'000, heads);
  const std::int64_t head_dim = read_int(vc, "head_dim", prefix, false, 1, 100'000, hv / heads);
  const std::int64_t positions = read_int(vc, "position_embedding_size", prefix, true, 1, 100'000'000);
  const std::int64_t per_layer = 2 * hv * heads * head_dim + 2 * hv * kv_heads * head_dim + 2 * head_dim + 3 * hv * d.inter + 4 * hv;
  return 3 * d.patch * d.patch * hv + 2 * positions * hv + d.layers * per_layer + (read_bool(vc, "standardize", false) ? 2 * hv : 0) +
         hv * text_hidden;
}

/// The weight format a `quantization_config` describes, as a `weights` id of precision.hpp, or
/// "" when the catalog has no such format (then a note names it).
std::string stored_weights_format(const json& q, std::vector<Message>& warnings) {
  const std::string method = read_string(q, "quant_method");
  const auto bits_it = q.find("bits");
  const int bits = bits_it != q.end() && bits_it->is_number_integer() ? bits_it->get<int>() : 0;
  if (method == "awq" && (bits == 4 || bits == 0)) return "awq-int4";
  if (method == "gptq" && (bits == 4 || bits == 8 || bits == 3 || bits == 2)) return "gptq-int" + std::to_string(bits);
  if (method == "fp8" || method == "fbgemm_fp8") {
    const auto block = q.find("weight_block_size");
    return block != q.end() && block->is_array() && !block->empty() ? "fp8-block" : "fp8";
  }
  if (method == "mxfp4") return "mxfp4";
  if (method == "modelopt") {
    // TensorRT Model Optimizer's export: quant_algo at the top, or under "quantization" as its
    // hf_quant_config.json has it.
    std::string algo = read_string(q, "quant_algo");
    const auto nested = q.find("quantization");
    if (algo.empty() && nested != q.end() && nested->is_object()) algo = read_string(*nested, "quant_algo");
    if (algo == "NVFP4") return "nvfp4";
  }
  if (method == "bitsandbytes") {
    if (read_bool(q, "load_in_4bit", false)) return read_string(q, "bnb_4bit_quant_type") == "fp4" ? "fp4" : "nf4";
    if (read_bool(q, "load_in_8bit", false)) return "llm-int8";
  }
  if (method == "compressed-tensors") {
    // compressed-tensors: the first config group's weight scheme (llm-compressor FP8 models:
    // float, 8 bits, strategy "channel" / "tensor" / "block").
    const auto groups = q.find("config_groups");
    if (groups != q.end() && groups->is_object() && !groups->empty()) {
      const json& w = groups->begin()->value("weights", json::object());
      const std::string type = read_string(w, "type");
      const int wbits = w.contains("num_bits") && w["num_bits"].is_number_integer() ? w["num_bits"].get<int>() : 0;
      const std::string strategy = read_string(w, "strategy");
      if (type == "float" && wbits == 8) return strategy == "channel" ? "fp8-channel" : strategy == "block" ? "fp8-block" : "fp8";
      // llm-compressor's NVFP4 scheme: float, 4 bits, strategy tensor_group, group 16 (an E4M3
      // scale per 16 and a global scale per tensor).
      const int group = w.contains("group_size") && w["group_size"].is_number_integer() ? w["group_size"].get<int>() : 0;
      if (type == "float" && wbits == 4 && strategy == "tensor_group" && group == 16) return "nvfp4";
    }
  }
  warnings.push_back(Message("warning.config.quant_method_unknown").text("method", method));
  return "";
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

  ModelSpec m;
  m.family = family.family;
  m.model_type_name = family.one_name ? std::string(family.model_types[0]) : type_name;

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
  // RoPE scaling that extends the trained context (context_limit.hpp trained_context): linear,
  // dynamic and YaRN multiply it; llama3 and longrope already count in max_position_embeddings.
  if (cfg.contains("rope_scaling") && cfg["rope_scaling"].is_object()) {
    const json& rope = cfg["rope_scaling"];
    std::string kind = rope.value("rope_type", std::string());
    if (kind.empty() && rope.contains("type") && rope["type"].is_string()) kind = rope["type"].get<std::string>();
    const auto factor = rope.find("factor");
    if ((kind == "linear" || kind == "dynamic" || kind == "yarn") && factor != rope.end() && factor->is_number()) {
      const double f = factor->get<double>();
      if (std::isfinite(f) && f > 1.0 && f <= 1024.0) m.rope_scaling_factor = f;
      if (kind == "yarn") m.rope_scaling_original_tokens = read_int(rope, "original_max_position_embeddings", prefix + ".rope_scaling", false, 1, 1'000'000'000, 0);
    }
  }
  // What the family's config class leaves unsaid comes from its row (architecture.hpp): the tie
  // default, the scaled embedding, biases, QK-norm, the attention's gate and sinks, the MLP kind
  // and the norms; the config's own fields decide where the row says so.
  m.tie_word_embeddings = read_bool(cfg, "tie_word_embeddings", read_bool(outer, "tie_word_embeddings", family.tie_word_embeddings));
  m.embedding_scaled = family.embedding_scaled;
  switch (family.attention_bias) {
    case AttentionBias::qkv: m.qkv_bias = true; break;
    case AttentionBias::qkv_from_config: m.qkv_bias = read_bool(cfg, "attention_bias", false); break;
    case AttentionBias::from_config:
      // `attention_bias` (q, k, v and o: gpt-oss sets it), Falcon's `bias`.
      m.qkv_bias = m.o_bias = read_bool(cfg, "attention_bias", false) || read_bool(cfg, "bias", false);
      break;
  }
  m.mlp_bias = read_bool(cfg, "mlp_bias", false);
  const bool qk_norm_in_config = read_bool(cfg, "use_qk_norm", false) || read_bool(cfg, "qk_layernorm", false);
  m.qk_norm = family.qk_norm == QkNorm::per_head || family.qk_norm == QkNorm::full_width ||
              (qk_norm_in_config && family.qk_norm != QkNorm::weightless);
  m.qk_norm_full_width = family.qk_norm == QkNorm::full_width || family.qk_norm == QkNorm::from_config_full_width;
  m.attention_output_gate = family.attention_output_gate || read_bool(cfg, "attn_output_gate", false);
  m.attention_sinks = family.attention_sinks;
  m.gated_mlp = family.gated_mlp;
  m.norms_per_layer = family.norms_per_layer;
  if (family.norm_bias == NormBias::from_config) m.norm_has_bias = read_bool(cfg, "layer_norm_bias", false);
  if (family.norm_bias == NormBias::always) m.norm_has_bias = true;
  if (m.family == Family::falcon) {
    // Falcon (modeling_falcon.py FalconDecoderLayer): `bias` on query_key_value, dense and both MLP
    // linears. Norms: ln_attn and ln_mlp with the new decoder architecture (num_ln_in_parallel_attn,
    // 2 by default there), one input_layernorm for parallel attention without it, and
    // input_layernorm + post_attention_layernorm for sequential attention.
    m.mlp_bias = read_bool(cfg, "bias", false);
    const bool parallel = read_bool(cfg, "parallel_attn", true);
    const bool new_arch = read_bool(cfg, "new_decoder_architecture", false);
    const std::int64_t parallel_norms = read_int(cfg, "num_ln_in_parallel_attn", prefix, false, 1, 2, new_arch ? 2 : 1);
    m.norms_per_layer = parallel ? static_cast<int>(parallel_norms) : 2;
  }

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


  // ---------------------------------------------------------------------------------------------
  // Layer structures of single families, which the generic fields above cannot express.

  m.mtp_embedding_copies = family.mtp_embedding_copies;
  // Qwen3.5: `mtp_num_hidden_layers` (configuration_qwen3_5.py).
  if (m.mtp_layers == 0) m.mtp_layers = static_cast<int>(read_int(cfg, "mtp_num_hidden_layers", prefix, false, 0, 100));

  // DeepSeek sparse attention indexer (DeepSeek-V3.2, GLM-5).
  if (cfg.contains("index_n_heads")) {
    m.indexer.num_heads = static_cast<int>(read_int(cfg, "index_n_heads", prefix, true, 1, 100'000));
    m.indexer.head_dim = static_cast<int>(read_int(cfg, "index_head_dim", prefix, true, 1, 100'000));
    m.indexer.topk = static_cast<int>(read_int(cfg, "index_topk", prefix, false, 1, 100'000'000, 2048));
  }

  const auto layer_count = static_cast<std::size_t>(m.num_layers);
  if (m.family == Family::llama4) {
    // Llama 4 (modeling_llama4.py): dense layers are intermediate_size_mlp wide; MoE layers route
    // each token to num_experts_per_tok of num_local_experts experts of intermediate_size and
    // always through one shared expert of the same width (no gate). Every
    // interleave_moe_layer_step-th layer is MoE (moe_layers lists them when present).
    m.intermediate_size = read_int(cfg, "intermediate_size_mlp", prefix, false, 1, 100'000'000, m.intermediate_size);
    if (m.moe.num_experts > 0) {
      m.moe.expert_intermediate_size = read_int(cfg, "intermediate_size", prefix, true, 1, 100'000'000);
      m.moe.num_shared_experts = 1;
      m.moe.shared_expert_intermediate_size = m.moe.expert_intermediate_size;
      m.moe.shared_expert_gate = false;
      const int step = static_cast<int>(read_int(cfg, "interleave_moe_layer_step", prefix, false, 1, 10'000, 1));
      m.moe.moe_layer_period = step;
      m.moe.moe_layer_offset = step - 1;
      const auto listed = cfg.find("moe_layers");
      if (listed != cfg.end() && listed->is_array()) {
        m.layer_mlp.assign(layer_count, MlpKind::dense);
        for (const auto& v : *listed) {
          if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= m.num_layers) {
            throw InputError(prefix + ".moe_layers", Message("error.config.mlp_only_layers").integer("last", m.num_layers - 1).text("got", v.dump()));
          }
          m.layer_mlp[static_cast<std::size_t>(v.get<std::int64_t>())] = MlpKind::moe;
        }
      }
    }
    // iRoPE: layers with RoPE attend within attention_chunk_size-token chunks, every
    // no_rope_layer_interval-th layer (no RoPE) attends to everything (Llama4TextAttention:
    // use_chunked_attention = attention_chunk_size and no_rope_layers[i]; default interval 4).
    const std::int64_t chunk = read_int(cfg, "attention_chunk_size", prefix, false, 1, 1'000'000'000, 0);
    if (chunk > 0 && cfg.find("layer_types") == cfg.end()) {
      std::vector<bool> rope(layer_count, true);
      const auto listed = cfg.find("no_rope_layers");
      if (listed != cfg.end() && listed->is_array() && listed->size() == layer_count) {
        for (std::size_t i = 0; i < layer_count; ++i) rope[i] = !((*listed)[i].is_number() && (*listed)[i].get<double>() == 0.0);
      } else {
        const std::int64_t interval = read_int(cfg, "no_rope_layer_interval", prefix, false, 1, 10'000, 4);
        for (std::size_t i = 0; i < layer_count; ++i) rope[i] = (static_cast<std::int64_t>(i) + 1) % interval != 0;
      }
      m.layer_mixers.clear();
      for (std::size_t i = 0; i < layer_count; ++i) m.layer_mixers.push_back(rope[i] ? MixerKind::chunked_attention : MixerKind::full_attention);
    }
    if (chunk > 0) m.attention_chunk_size = static_cast<int>(chunk);
  } else if (m.family == Family::gemma4) {
    // Gemma 4 (modeling_gemma4.py; mlx-lm gemma4_text.py): full-attention layers use
    // global_head_dim and, with attention_k_eq_v, num_global_key_value_heads KV heads whose
    // values reuse the key projection (no v_proj); the last num_kv_shared_layers layers reuse
    // earlier layers' K and V (and, with use_double_wide_mlp, have twice the MLP width). With
    // enable_moe_block each layer runs a dense MLP and routed experts side by side.
    const int global_head_dim = static_cast<int>(read_int(cfg, "global_head_dim", prefix, false, 1, 100'000, m.head_dim));
    const int global_kv = static_cast<int>(read_int(cfg, "num_global_key_value_heads", prefix, false, 1, 100'000, m.num_kv_heads));
    const bool k_eq_v = read_bool(cfg, "attention_k_eq_v", false);
    const int shared = static_cast<int>(read_int(cfg, "num_kv_shared_layers", prefix, false, 0, m.num_layers, 0));
    const bool double_wide = read_bool(cfg, "use_double_wide_mlp", false);
    m.layer_attention.assign(layer_count, AttentionShape{});
    for (int i = 0; i < m.num_layers; ++i) {
      AttentionShape& a = m.layer_attention[static_cast<std::size_t>(i)];
      if (m.mixer(i) == MixerKind::full_attention) {
        a.head_dim = global_head_dim;
        if (k_eq_v) {
          a.kv_heads = global_kv;
          a.v_proj = false;
        }
      }
      if (shared > 0 && i >= m.num_layers - shared) {
        a.owns_kv = false;
        if (double_wide) {
          if (m.layer_intermediate.empty()) m.layer_intermediate.assign(layer_count, 0);
          m.layer_intermediate[static_cast<std::size_t>(i)] = 2 * m.intermediate_size;
        }
      }
    }
    if (read_int(cfg, "hidden_size_per_layer_input", prefix, false, 0, 1'000'000, 0) > 0) {
      warnings.push_back(Message("warning.config.gemma4_per_layer_embeddings"));
    }
    if (read_bool(cfg, "enable_moe_block", false) && m.moe.num_experts > 0) {
      const std::int64_t top_k_experts = read_int(cfg, "top_k_experts", prefix, true, 1, 1'000'000);
      if (top_k_experts > m.moe.num_experts) {
        throw InputError(prefix + ".top_k_experts", Message("error.config.experts_per_token_above_experts").integer("experts", m.moe.num_experts).integer("got", top_k_experts));
      }
      m.moe.experts_per_token = static_cast<int>(top_k_experts);
      m.moe.router_norm = true;  // Gemma4 Router: scale over hidden
      m.moe.router_bias = true;  // ... and per_expert_scale, one value per expert
      m.layer_mlp.assign(layer_count, MlpKind::dense_and_moe);
    }
    m.layer_scalar = true;
  } else if (m.family == Family::mimo_v2_flash) {
    // MiMo-V2-Flash (mlx-lm mimo_v2_flash.py): hybrid_layer_pattern marks sliding layers (1),
    // whose attention has its own head counts and dims (swa_*) and, with
    // add_swa_attention_sink_bias, a sink per head; keys and values have different head dims
    // (head_dim / v_head_dim). moe_layer_freq lists which layers are MoE.
    const auto pattern = cfg.find("hybrid_layer_pattern");
    if (pattern == cfg.end() || !pattern->is_array() || pattern->size() != layer_count) {
      throw InputError(prefix + ".hybrid_layer_pattern", Message("error.config.hybrid_layer_pattern").integer("layers", m.num_layers));
    }
    const std::int64_t swa_window = read_int(cfg, "sliding_window", prefix, false, 1, 1'000'000'000, read_int(cfg, "sliding_window_size", prefix, false, 1, 1'000'000'000, 0));
    if (swa_window <= 0) throw InputError(prefix + ".sliding_window", Message("error.config.sliding_window_required"));
    m.sliding_window = static_cast<int>(swa_window);
    AttentionShape full;
    full.v_head_dim = static_cast<int>(read_int(cfg, "v_head_dim", prefix, false, 1, 100'000, m.head_dim));
    full.sinks = read_bool(cfg, "add_full_attention_sink_bias", false);
    AttentionShape swa;
    swa.q_heads = static_cast<int>(read_int(cfg, "swa_num_attention_heads", prefix, false, 1, 100'000, m.num_attention_heads));
    swa.kv_heads = static_cast<int>(read_int(cfg, "swa_num_key_value_heads", prefix, false, 1, 100'000, m.num_kv_heads));
    swa.head_dim = static_cast<int>(read_int(cfg, "swa_head_dim", prefix, false, 1, 100'000, m.head_dim));
    swa.v_head_dim = static_cast<int>(read_int(cfg, "swa_v_head_dim", prefix, false, 1, 100'000, full.v_head_dim));
    swa.sinks = read_bool(cfg, "add_swa_attention_sink_bias", false);
    m.layer_mixers.clear();
    m.layer_attention.clear();
    for (const auto& v : *pattern) {
      const bool sliding = v.is_number() && v.get<double>() != 0.0;
      m.layer_mixers.push_back(sliding ? MixerKind::sliding_attention : MixerKind::full_attention);
      m.layer_attention.push_back(sliding ? swa : full);
    }
    const auto freq = cfg.find("moe_layer_freq");
    if (freq != cfg.end() && freq->is_array() && freq->size() == layer_count && m.moe.num_experts > 0) {
      m.layer_mlp.clear();
      for (const auto& v : *freq) m.layer_mlp.push_back(v.is_number() && v.get<double>() != 0.0 ? MlpKind::moe : MlpKind::dense);
    }
  } else if (m.family == Family::nemotron_nas) {
    // DeciLM / Llama-Nemotron NAS (modeling_decilm.py): block_configs gives each layer its own
    // attention (KV heads = heads / n_heads_in_group; no_op: none; replace_with_linear: one
    // hidden × hidden matrix) and FFN (width from ffn_mult: int(2 × mult × hidden / 3) rounded up
    // to a multiple of 256; no_op: none); a layer's norm exists only before a block that exists.
    const auto blocks = cfg.find("block_configs");
    if (blocks == cfg.end() || !blocks->is_array() || blocks->size() != layer_count) {
      throw InputError(prefix + ".block_configs", Message("error.config.block_configs_count").integer("layers", m.num_layers));
    }
    m.layer_mixers.clear();
    std::int64_t widest = 0;
    for (std::size_t i = 0; i < layer_count; ++i) {
      const json& block_cfg = (*blocks)[i];
      const std::string bp = prefix + ".block_configs[" + std::to_string(i) + "]";
      const json attention = block_cfg.value("attention", json::object());
      const json ffn = block_cfg.value("ffn", json::object());
      AttentionShape a;
      int norms = 0;
      if (read_bool(attention, "no_op", false)) {
        m.layer_mixers.push_back(MixerKind::none);
      } else {
        m.layer_mixers.push_back(MixerKind::full_attention);
        ++norms;
        if (read_bool(attention, "replace_with_linear", false)) {
          a.linear_replacement = true;
        } else {
          const std::int64_t group = read_int(attention, "n_heads_in_group", bp + ".attention", true, 1, m.num_attention_heads);
          if (m.num_attention_heads % group != 0) throw InputError(bp + ".attention.n_heads_in_group", Message("error.config.n_heads_in_group").integer("heads", m.num_attention_heads).integer("got", group));
          a.kv_heads = static_cast<int>(m.num_attention_heads / group);
        }
      }
      m.layer_attention.push_back(a);
      if (read_bool(ffn, "no_op", false)) {
        m.layer_mlp.push_back(MlpKind::none);
        m.layer_intermediate.push_back(0);
      } else {
        ++norms;
        m.layer_mlp.push_back(MlpKind::dense);
        const auto mult = ffn.find("ffn_mult");
        if (mult == ffn.end() || !mult->is_number() || !(mult->get<double>() > 0.0 && mult->get<double>() < 1000.0)) {
          throw InputError(bp + ".ffn.ffn_mult", Message("error.config.ffn_mult"));
        }
        std::int64_t width = static_cast<std::int64_t>(2.0 * mult->get<double>() * static_cast<double>(m.hidden_size) / 3.0);
        if (width % 256 != 0) width += 256 - width % 256;
        if (read_bool(ffn, "replace_with_linear", false)) {
          warnings.push_back(Message("warning.config.ffn_linear").text("block", bp));
          width = std::max<std::int64_t>(1, m.hidden_size / 3);
        }
        m.layer_intermediate.push_back(width);
        widest = std::max(widest, width);
      }
      m.layer_norms.push_back(norms);
    }
    m.intermediate_size = widest;
  } else if (m.family == Family::nemotron_h) {
    // Nemotron-H (modeling_nemotron_h.py): each layer is one block behind one RMSNorm, spelled
    // by hybrid_override_pattern: M = Mamba-2, * = attention, - = MLP (squared ReLU, up and
    // down only), E = MoE (non-gated experts, one shared expert, noaux_tc router with bias).
    std::string pattern = read_string(cfg, "hybrid_override_pattern");
    const auto types = cfg.find("layers_block_type");
    if (pattern.empty() && types != cfg.end() && types->is_array()) {
      for (const auto& t : *types) {
        const std::string name = t.is_string() ? t.get<std::string>() : "";
        pattern += name == "mamba" ? 'M' : name == "attention" ? '*' : name == "moe" ? 'E' : '-';
      }
    }
    if (pattern.size() != layer_count) {
      throw InputError(prefix + ".hybrid_override_pattern", Message("error.config.hybrid_pattern_count").integer("layers", m.num_layers).integer("got", static_cast<std::int64_t>(pattern.size())));
    }
    m.layer_mixers.clear();
    m.layer_mlp.clear();
    for (const char c : pattern) {
      switch (c) {
        case 'M': m.layer_mixers.push_back(MixerKind::ssm); m.layer_mlp.push_back(MlpKind::none); break;
        case '*': m.layer_mixers.push_back(MixerKind::full_attention); m.layer_mlp.push_back(MlpKind::none); break;
        case 'E': m.layer_mixers.push_back(MixerKind::none); m.layer_mlp.push_back(MlpKind::moe); break;
        case '-': m.layer_mixers.push_back(MixerKind::none); m.layer_mlp.push_back(MlpKind::dense); break;
        default: throw InputError(prefix + ".hybrid_override_pattern", Message("error.config.hybrid_pattern_char").text("got", std::string(1, c)));
      }
    }
    m.head_dim = static_cast<int>(read_int(cfg, "head_dim", prefix, false, 1, 100'000, read_int(cfg, "attention_head_dim", prefix, false, 1, 100'000, m.head_dim)));
    auto& r = m.recurrent;
    r.mamba_version = 2;
    r.mamba_num_heads = static_cast<int>(read_int(cfg, "mamba_num_heads", prefix, true, 1, 100'000));
    r.mamba_head_dim = static_cast<int>(read_int(cfg, "mamba_head_dim", prefix, true, 1, 100'000));
    r.mamba_n_groups = static_cast<int>(read_int(cfg, "n_groups", prefix, false, 1, 100'000, 1));
    r.mamba_d_state = static_cast<int>(read_int(cfg, "ssm_state_size", prefix, true, 1, 100'000));
    r.mamba_d_conv = static_cast<int>(read_int(cfg, "conv_kernel", prefix, false, 1, 1'000, 4));
    r.mamba_conv_bias = read_bool(cfg, "use_conv_bias", true);
    r.mamba_proj_bias = read_bool(cfg, "mamba_proj_bias", false);
    if (m.moe.num_experts > 0) {
      m.moe.shared_expert_intermediate_size = read_int(cfg, "moe_shared_expert_intermediate_size", prefix, false, 1, 100'000'000, m.moe.expert_intermediate_size);
      if (read_int(cfg, "moe_latent_size", prefix, false, 0, 100'000'000, 0) > 0) {
        warnings.push_back(Message("warning.config.latent_moe"));
      }
    }
  } else if (m.family == Family::granite_moe_hybrid) {
    // Granite 4.0 (modeling_granitemoehybrid.py): layer_types mixes Mamba-2 and attention; every
    // layer has a shared gated MLP of shared_intermediate_size (input_linear h → 2 × width,
    // output_linear), plus routed experts of intermediate_size when num_local_experts > 0.
    auto& r = m.recurrent;
    r.mamba_version = 2;
    r.mamba_num_heads = static_cast<int>(read_int(cfg, "mamba_n_heads", prefix, false, 1, 100'000, 1));
    r.mamba_head_dim = static_cast<int>(read_int(cfg, "mamba_d_head", prefix, false, 1, 100'000, 64));
    r.mamba_n_groups = static_cast<int>(read_int(cfg, "mamba_n_groups", prefix, false, 1, 100'000, 1));
    r.mamba_d_state = static_cast<int>(read_int(cfg, "mamba_d_state", prefix, false, 1, 100'000, 128));
    r.mamba_d_conv = static_cast<int>(read_int(cfg, "mamba_d_conv", prefix, false, 1, 1'000, 4));
    r.mamba_conv_bias = read_bool(cfg, "mamba_conv_bias", true);
    r.mamba_proj_bias = read_bool(cfg, "mamba_proj_bias", false);
    const std::int64_t shared = read_int(cfg, "shared_intermediate_size", prefix, false, 0, 100'000'000, 0);
    if (m.moe.num_experts > 0) {
      m.moe.num_shared_experts = shared > 0 ? 1 : 0;
      m.moe.shared_expert_intermediate_size = shared;
      m.moe.shared_expert_gate = false;
    } else if (shared > 0) {
      m.intermediate_size = shared;
    }
  }

  // Vision tower of a multimodal config (counted apart from the decoder's per-token compute).
  const auto vision = outer.find("vision_config");
  if (vision != outer.end() && vision->is_object()) {
    const std::string vp = prefix_in + ".vision_config";
    const std::string vtype = read_string(*vision, "model_type");
    VisionSpec v;
    if (vtype == "siglip_vision_model") {
      v.params = siglip_vision_params(*vision, vp);
      v.kind = "siglip";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      if (v.params > 0 && outer_family == Family::gemma3) {
        // Gemma3MultiModalProjector: mm_input_projection_weight (vision hidden × text hidden) and
        // mm_soft_emb_norm (RMSNorm over the vision hidden size). Every image is resized to
        // image_size and pooled to mm_tokens_per_image tokens (256).
        const std::int64_t hv = read_int(*vision, "hidden_size", vp, true, 1, 1'000'000);
        v.params += hv * m.hidden_size + hv;
        v.kind = "siglip_projector";
        v.tokens_per_image = static_cast<int>(read_int(outer, "mm_tokens_per_image", prefix_in, false, 1, 1'000'000, 256));
      }
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, false, 1, 10'000, 14));
      v.default_image_size = static_cast<int>(read_int(*vision, "image_size", vp, false, 1, 100'000, 896));
    } else if (vtype == "llama4_vision_model") {
      v.params = llama4_vision_params(*vision, vp, m.hidden_size);
      v.kind = "llama4";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      // 336-pixel tiles of 14-pixel patches, 2 × 2 pixel shuffle: 24² / 4 = 144 tokens a tile.
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.default_image_size = static_cast<int>(read_int(*vision, "image_size", vp, true, 1, 100'000));
      v.merge_size = 2;
      const std::int64_t per_side = v.default_image_size / v.patch_size;
      v.tokens_per_image = static_cast<int>(per_side * per_side / 4);
    } else if (vtype == "qwen2_5_vl" || (vtype.empty() && outer_family == Family::qwen2_5_vl)) {
      // The first Qwen2.5-VL configs give the vision_config no model_type of its own.
      v.params = qwen25_vl_vision_params(*vision, vp);
      v.kind = "qwen2_5_vl";
      v.layers = static_cast<int>(read_int(*vision, "depth", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(*vision, "spatial_merge_size", vp, false, 1, 100, 2));
    } else if (vtype == "qwen3_vl" || vtype == "qwen3_vl_moe" || vtype == "qwen3_5" || vtype == "qwen3_5_vision" ||
               vtype == "qwen3_5_moe") {
      v.params = qwen3_vl_vision_params(*vision, vp);
      v.kind = "qwen3_vl";
      v.layers = static_cast<int>(read_int(*vision, "depth", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(*vision, "spatial_merge_size", vp, false, 1, 100, 2));
    } else if (vtype == "pixtral") {
      v.params = pixtral_vision_params(outer, *vision, vp, m.hidden_size);
      v.kind = "pixtral";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(outer, "spatial_merge_size", prefix_in, false, 1, 100, 2));
    } else if (vtype == "gemma4_vision") {
      v.params = gemma4_vision_params(*vision, vp, m.hidden_size);
      v.kind = "gemma4";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      // Every image becomes vision_soft_tokens_per_image soft tokens (default_output_length).
      v.tokens_per_image = static_cast<int>(read_int(outer, "vision_soft_tokens_per_image", prefix_in, false, 1, 1'000'000,
                                                     read_int(*vision, "default_output_length", vp, false, 1, 1'000'000, 280)));
    }
    if (v.params > 0) {
      m.extra_params = v.params;
      m.vision = v;
    } else {
      warnings.push_back(Message("warning.config.vision_not_counted").text("model_type", vtype));
    }
  }

  // Quantized checkpoints name their storage format (AWQ, GPTQ, FP8 ...) in quantization_config.
  for (const json* q_holder : {&outer, &cfg}) {
    const auto q = q_holder->find("quantization_config");
    if (q != q_holder->end() && q->is_object() && m.stored_weights.empty()) {
      m.stored_weights = stored_weights_format(*q, warnings);
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
