// SPDX-License-Identifier: MIT
#include "llmsizer/file_header.hpp"

#include <nlohmann/json.hpp>

namespace llmsizer {

nlohmann::json partial_architecture_to_json(const PartialArchitecture& a) {
  nlohmann::json out = nlohmann::json::object();
  if (!a.architecture.empty()) out["architecture"] = a.architecture;
  const std::pair<const char*, std::int64_t> fields[] = {
      {"hidden_size", a.hidden_size},
      {"num_hidden_layers", a.num_layers},
      {"num_attention_heads", a.num_attention_heads},
      {"num_key_value_heads", a.num_kv_heads},
      {"head_dim", a.head_dim},
      {"intermediate_size", a.intermediate_size},
      {"vocab_size", a.vocab_size},
      {"max_position_embeddings", a.max_position_embeddings},
      {"num_experts", a.num_experts},
      {"num_experts_per_tok", a.experts_per_token},
      {"sliding_window", a.sliding_window},
  };
  for (const auto& [name, value] : fields) {
    if (value > 0) out[name] = value;
  }
  if (a.tie_word_embeddings) out["tie_word_embeddings"] = *a.tie_word_embeddings;
  return out;
}

nlohmann::json header_error_to_json(const InputError& error) {
  nlohmann::json e = {{"field", error.field()}, {"message", error.what()}};
  if (const auto* t = dynamic_cast<const TruncatedInputError*>(&error)) {
    e["needed_bytes"] = t->needed_bytes();
    e["parsed_bytes"] = t->parsed_bytes();
  }
  return {{"error", std::move(e)}};
}

}  // namespace llmsizer
