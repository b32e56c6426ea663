// SPDX-License-Identifier: MIT
#pragma once
/// The config a weights file implies: what a GGUF or safetensors header says about the model
/// (partial_architecture.hpp, and GGUF's family keys), as the Hugging Face config.json keys a
/// request's model carries it under, and the ModelSpec that config gives. The header readers fill
/// it without JSON; the edge writes it as a request's `{"config": ...}` (the page sends that back,
/// share links carry it), and model_from_file_config builds the same ModelSpec that reading that
/// config back gives (edge/config_import.hpp), through ConfigFields (config_fields.hpp).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "llmsizer/architecture.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/partial_architecture.hpp"

namespace llmsizer {

/** The config keys a header gives, each 0 (or empty, or unset) when it does not: the partial
 *  architecture's, the family's model_type, and for GGUF the keys of the family's layers. */
struct FileConfig {
  Family family = Family::other;
  std::string model_type;  ///< the family's Hugging Face model_type; empty for Family::other
  std::int64_t hidden_size = 0;
  std::int64_t num_hidden_layers = 0;
  std::int64_t num_attention_heads = 0;
  std::int64_t num_key_value_heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t intermediate_size = 0;
  std::int64_t vocab_size = 0;
  std::int64_t max_position_embeddings = 0;
  std::int64_t num_experts = 0;
  std::int64_t num_experts_per_tok = 0;
  std::int64_t sliding_window = 0;
  std::optional<bool> tie_word_embeddings;
  std::int64_t moe_intermediate_size = 0;
  std::int64_t shared_expert_intermediate_size = 0;
  std::int64_t first_k_dense_replace = 0;
  // MLA (DeepSeek): the latent ranks and the per-head widths.
  std::int64_t kv_lora_rank = 0;
  std::int64_t q_lora_rank = 0;
  std::int64_t n_shared_experts = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t v_head_dim = 0;
  /// `layer_types` alternating sliding and full attention, layer 0 sliding (gpt-oss).
  bool alternating_layer_types = false;
};

/// A GGUF metadata value as a whole number, by its full key ("llama.expert_count"); 0 when absent.
using GgufMetadataInt = std::function<std::int64_t(std::string_view key)>;

/** The config of a GGUF file: its partial architecture, the family of its general.architecture
 *  (architecture.hpp family_for_gguf_architecture), and the family keys llama.cpp writes
 *  (src/llama-arch.cpp LLM_KV_*): expert widths, leading dense blocks, MLA ranks, gpt-oss's
 *  alternating windows, and Mixtral's one width for dense and expert MLPs. */
FileConfig file_config_from_gguf(const PartialArchitecture& architecture, const GgufMetadataInt& metadata_int);

/// The config of a safetensors file: its partial architecture alone (no family).
FileConfig file_config_from_weights(const PartialArchitecture& architecture);

/** The model `config` gives, the ModelSpec that reading it as a request's `{"config": ...}` gives
 *  (edge/config_import.hpp model_from_hf_config): the family's class defaults where a key is
 *  absent, the decoder through model_from_config_fields, then windows, MLA and experts. Throws
 *  InputError naming `field_prefix + ".<key>"` for a required key that is absent or a value out
 *  of the config reader's range, in the order that reader checks them. */
ModelSpec model_from_file_config(const FileConfig& config, const std::string& field_prefix);

}  // namespace llmsizer
