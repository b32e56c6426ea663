// SPDX-License-Identifier: MIT
#pragma once
/// The values of a model's config (Hugging Face config.json) that give the decoder's shape, as a
/// plain struct: the config reader (edge/config_import.hpp) fills it from JSON, and
/// model_from_config_fields turns it into a ModelSpec with the family's row (architecture.hpp)
/// and no JSON. The reader keeps the checks that name a config field.
#include <cstdint>
#include <string>

#include "llmsizer/architecture.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

struct ConfigFields {
  std::int64_t hidden_size = 0;
  std::int64_t num_layers = 0;
  std::int64_t num_attention_heads = 0;
  std::int64_t num_kv_heads = 0;
  std::int64_t vocab_size = 0;
  std::int64_t head_dim = 0;  ///< the config's or hidden_size / heads
  std::int64_t max_position_embeddings = 0;  ///< 0: not given
  /// RoPE scaling that extends the trained context (ModelSpec::rope_scaling_factor): 1 for none.
  double rope_scaling_factor = 1.0;
  std::int64_t rope_scaling_original_tokens = 0;  ///< YaRN's original_max_position_embeddings
  bool tie_word_embeddings = false;  ///< the config's, else the family row's
  bool attention_bias = false;       ///< `attention_bias`
  bool bias = false;                 ///< Falcon's `bias`
  bool mlp_bias = false;
  bool qk_norm = false;              ///< `use_qk_norm` or `qk_layernorm`
  bool attention_output_gate = false;
  bool layer_norm_bias = false;
  // Falcon (configuration_falcon.py): parallel attention, and its norms per layer (0: not given).
  bool parallel_attn = true;
  bool new_decoder_architecture = false;
  std::int64_t num_ln_in_parallel_attn = 0;
};

/** Fills `fields.head_dim` with hidden_size / heads when the config gives none, and checks that
 *  the heads divide the width and the KV heads the heads: InputError naming
 *  `field_prefix.num_attention_heads` or `field_prefix.num_key_value_heads`. */
void check_attention_heads(ConfigFields& fields, const std::string& field_prefix);

/// The decoder's shape of `fields` for a model of `family`: sizes, biases, norms and the MLP kind,
/// the family row deciding what the config leaves unsaid.
ModelSpec model_from_config_fields(const ConfigFields& fields, const FamilyTraits& family);

}  // namespace llmsizer
