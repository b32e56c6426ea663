// SPDX-License-Identifier: MIT
#pragma once
// The parts of the config.json reader (model_from_hf_config, config_import.hpp) and the field
// readers they share: config_import.cpp reads the decoder's shape; config_layers.cpp which layer
// is what; config_family_layers.cpp the layer structures of single families; config_vision.cpp
// the vision tower; config_quantization.cpp the stored weight format. Each fills the ModelSpec in
// the order model_from_hf_config calls it, and throws InputError naming the config field.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/architecture.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer::config_read {

using nlohmann::json;

/// `key` of `cfg` as a whole number in [min_value, max_value]; `fallback` when it is absent or
/// null, or InputError (`prefix.key`) when it is `required`, fractional or out of range.
std::int64_t read_int(const json& cfg, std::string_view key, const std::string& prefix, bool required,
                      std::int64_t min_value, std::int64_t max_value, std::int64_t fallback = 0);
/// `key` of `cfg` when it is a bool, else `fallback`.
bool read_bool(const json& cfg, std::string_view key, bool fallback);
/// `key` of `cfg` when it is a string, else "".
std::string read_string(const json& cfg, std::string_view key);

/// Sliding windows and the attention kind of each layer (`layer_types` and the family's pattern).
void read_layer_mixers(const json& cfg, const std::string& prefix, const FamilyTraits& family, ModelSpec& m);
/// Routed and shared experts, their widths and which layers are MoE; refuses more experts per
/// token than the layer has, and a dense model without `intermediate_size`.
void read_moe(const json& cfg, const std::string& prefix, const FamilyTraits& family, ModelSpec& m);
/// The per-layer structures of families the generic fields cannot express (m.family decides).
void read_family_layers(const json& cfg, const std::string& prefix, ModelSpec& m, std::vector<Message>& warnings);
/// The `vision_config` of a multimodal config, if any: m.vision and m.extra_params.
void read_vision_tower(const json& outer, const std::string& prefix_in, Family outer_family, ModelSpec& m,
                       std::vector<Message>& warnings);
/// The weight format a `quantization_config` describes, as a `weights` id of precision.hpp, or
/// "" when the catalog has no such format (then a note names it).
std::string stored_weights_format(const json& q, std::vector<Message>& warnings);

}  // namespace llmsizer::config_read
