// SPDX-License-Identifier: MIT
// The vision tower of a multimodal Hugging Face config: its parameters, counted apart from the
// decoder's per-token compute, and the image tokens it makes.
#include <algorithm>
#include <cmath>
#include <string>

#include "llmsizer/error.hpp"
#include "model_files/config_read.hpp"

namespace llmsizer::config_read {
namespace {

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
/// so400m/14 at 896 px: 416,866,032 parameters. 0 when the tower has a head (vision_use_head).
std::int64_t siglip_vision_params(const json& vc, const std::string& prefix) {
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

}  // namespace

void read_vision_tower(const json& outer, const std::string& prefix_in, Family outer_family, ModelSpec& m, std::vector<Message>& warnings) {
  // Vision tower of a multimodal config (counted apart from the decoder's per-token compute).
  const auto vision = outer.find("vision_config");
  if (vision != outer.end() && vision->is_object()) {
    const std::string vp = prefix_in + ".vision_config";
    const std::string vtype = read_string(*vision, "model_type");
    const VisionTower tower = vision_tower_for(vtype, outer_family);
    VisionSpec v;
    if (tower == VisionTower::siglip) {
      v.params = siglip_vision_params(*vision, vp);
      v.kind = "siglip";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      if (v.params > 0 && family_traits(outer_family).siglip_projector) {
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
    } else if (tower == VisionTower::llama4) {
      v.params = llama4_vision_params(*vision, vp, m.hidden_size);
      v.kind = "llama4";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      // 336-pixel tiles of 14-pixel patches, 2 × 2 pixel shuffle: 24² / 4 = 144 tokens a tile.
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.default_image_size = static_cast<int>(read_int(*vision, "image_size", vp, true, 1, 100'000));
      v.merge_size = 2;
      const std::int64_t per_side = v.default_image_size / v.patch_size;
      v.tokens_per_image = static_cast<int>(per_side * per_side / 4);
    } else if (tower == VisionTower::qwen2_5_vl) {
      v.params = qwen25_vl_vision_params(*vision, vp);
      v.kind = "qwen2_5_vl";
      v.layers = static_cast<int>(read_int(*vision, "depth", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(*vision, "spatial_merge_size", vp, false, 1, 100, 2));
    } else if (tower == VisionTower::qwen3_vl) {
      v.params = qwen3_vl_vision_params(*vision, vp);
      v.kind = "qwen3_vl";
      v.layers = static_cast<int>(read_int(*vision, "depth", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(*vision, "spatial_merge_size", vp, false, 1, 100, 2));
    } else if (tower == VisionTower::pixtral) {
      v.params = pixtral_vision_params(outer, *vision, vp, m.hidden_size);
      v.kind = "pixtral";
      v.layers = static_cast<int>(read_int(*vision, "num_hidden_layers", vp, false, 0, 10'000));
      v.patch_size = static_cast<int>(read_int(*vision, "patch_size", vp, true, 1, 10'000));
      v.merge_size = static_cast<int>(read_int(outer, "spatial_merge_size", prefix_in, false, 1, 100, 2));
    } else if (tower == VisionTower::gemma4) {
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
}

}  // namespace llmsizer::config_read
