// SPDX-License-Identifier: MIT
#include "llmsizer/edge/file_header.hpp"

#include "llmsizer/message_text.hpp"
#include "answer/message_json.hpp"

#include <nlohmann/json.hpp>

#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/edge/safetensors.hpp"
#include "model_files/header_util.hpp"

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
  nlohmann::json e = {{"field", error.field()}, {"message", edge::render_en(error.message())}};
  e["message_data"] = edge::message_data(error.message());
  if (const auto* t = dynamic_cast<const TruncatedInputError*>(&error)) {
    e["needed_bytes"] = t->needed_bytes();
    e["parsed_bytes"] = t->parsed_bytes();
  }
  return {{"error", std::move(e)}};
}

std::string inspect_model_header(std::string_view bytes, std::int64_t file_size_bytes) {
  return inspect_model_header_json(bytes, file_size_bytes).dump(-1, ' ', true);  // ASCII, as every answer (json_writer.hpp)
}

nlohmann::json inspect_model_header_json(std::string_view bytes, std::int64_t file_size_bytes) {
  try {
    if (bytes.substr(0, 4) == "GGUF") return gguf_header_to_json(parse_gguf_header(bytes, file_size_bytes));
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    // A safetensors length is below 2^27, so its bytes 4-7 are NUL; JSON text has no NUL.
    const bool json_text = bytes.substr(0, 8).find('\0') == std::string_view::npos;
    if (json_text && first != std::string_view::npos && bytes[first] == '{') {
      if (file_size_bytes > static_cast<std::int64_t>(bytes.size())) {
        throw TruncatedInputError(detail::kFileField, Message("error.file.index_read_whole").integer("file_size", file_size_bytes), file_size_bytes, 0);
      }
      return safetensors_index_to_json(parse_safetensors_index(bytes));
    }
    return safetensors_header_to_json(parse_safetensors_header(bytes, file_size_bytes));
  } catch (const InputError& e) {
    return header_error_to_json(e);
  } catch (const std::exception& e) {
    return header_error_to_json(InputError(detail::kFileField, Message("error.file.header_unreadable").text("detail", e.what())));
  }
}

}  // namespace llmsizer
