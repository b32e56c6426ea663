// SPDX-License-Identifier: MIT
#pragma once
/// What a weights file's header says about the model's shape (the GGUF and safetensors readers,
/// edge/gguf.hpp and edge/safetensors.hpp, fill it; file_config.hpp turns it into a config).
#include <cstdint>
#include <optional>
#include <string>

namespace llmsizer {

/** The architecture a weights file reveals by itself, without its `config.json`. Every count is
 *  0 when the header does not say. GGUF headers carry most of it as metadata; safetensors headers
 *  only through tensor names and shapes (Hugging Face naming), so there fewer fields are known. */
struct PartialArchitecture {
  std::string architecture;            ///< GGUF `general.architecture` (llama, qwen2, ...); empty if unknown
  std::int64_t hidden_size = 0;        ///< embedding width
  std::int64_t num_layers = 0;         ///< decoder blocks
  std::int64_t num_attention_heads = 0;
  std::int64_t num_kv_heads = 0;       ///< GQA groups; the largest value when it varies by layer
  std::int64_t head_dim = 0;           ///< explicit key/query head width when the header gives it
  std::int64_t intermediate_size = 0;  ///< dense MLP width (largest when it varies by layer)
  std::int64_t vocab_size = 0;
  std::int64_t max_position_embeddings = 0;  ///< trained context length
  std::int64_t num_experts = 0;        ///< routed experts per MoE layer (0: dense)
  std::int64_t experts_per_token = 0;
  std::int64_t sliding_window = 0;
  std::optional<bool> tie_word_embeddings;  ///< known when the embedding is present
};

}  // namespace llmsizer
