// SPDX-License-Identifier: MIT
// What a model file says about the model, for the request: the header summary of
// inspect_model_header (file_header.hpp) plus the request `model` it gives and that model as an
// estimate would describe it. config.json files are recognised too.
#include <algorithm>
#include <string_view>

#include <nlohmann/json.hpp>

#include "llmsizer/architecture.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/edge/file_header.hpp"
#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/message_text.hpp"
#include "model_files/gguf_tensor_list.hpp"
#include "model_files/header_util.hpp"
#include "answer/message_json.hpp"
#include "request/read.hpp"
#include "answer/to_json.hpp"

namespace llmsizer::edge {
namespace {

using nlohmann::json;

/// The model as an estimate's response describes it, as the summary's DOM holds it (nlohmann::json:
/// keys sorted, as the summaries have always been written).
json resolved_model_json(const ModelSpec& m) {
  JsonWriter w;
  model_json(w, m, summarize_model(m));
  return json::parse(std::string_view(w.text()));
}

/// A whole-number GGUF metadata value from the summary (0 when absent or not a number).
std::int64_t metadata_int(const json& summary, const std::string& key) {
  const auto meta = summary.find("metadata");
  if (meta == summary.end() || !meta->is_object()) return 0;
  const auto v = meta->find(key);
  return (v != meta->end() && v->is_number_integer()) ? v->get<std::int64_t>() : 0;
}

/// The config.json-like object of a header summary: the derived partial architecture, and for
/// GGUF the family keys it does not carry (MoE widths, MLA ranks, gpt-oss layer alternation).
json config_from_summary(const json& summary) {
  json cfg = summary.value("model", json::object());
  cfg.erase("architecture");
  if (summary.value("format", "") != "gguf") return cfg;
  const std::string arch = summary.value("architecture", "");
  // The family's Hugging Face model_type (architecture.hpp), so the config import applies that
  // family's rules (Gemma 2/3 windows, gpt-oss alternation, Qwen biases and QK-norm).
  const Family family = family_for_gguf_architecture(arch);
  if (family != Family::other) cfg["model_type"] = std::string(family_traits(family).model_types[0]);
  auto put = [&](const char* hf_key, const char* gguf_key) {
    const std::int64_t v = metadata_int(summary, arch + "." + gguf_key);
    if (v > 0) cfg[hf_key] = v;
  };
  put("moe_intermediate_size", "expert_feed_forward_length");
  put("shared_expert_intermediate_size", "expert_shared_feed_forward_length");
  put("first_k_dense_replace", "leading_dense_block_count");
  if (family == Family::deepseek_v3) {
    // MLA: the cached latent (kv_lora_rank) and the decoupled rope key (rope.dimension_count);
    // key_length is nope + rope per head, value_length the value head.
    put("kv_lora_rank", "attention.kv_lora_rank");
    put("q_lora_rank", "attention.q_lora_rank");
    put("n_shared_experts", "expert_shared_count");
    const std::int64_t rope = metadata_int(summary, arch + ".rope.dimension_count");
    const std::int64_t key = metadata_int(summary, arch + ".attention.key_length");
    const std::int64_t value = metadata_int(summary, arch + ".attention.value_length");
    if (rope > 0 && key > rope && value > 0) {
      cfg["qk_rope_head_dim"] = rope;
      cfg["qk_nope_head_dim"] = key - rope;
      cfg["v_head_dim"] = value;
    }
    cfg.erase("head_dim");
  }
  if (family == Family::gpt_oss && cfg.contains("num_hidden_layers") && cfg.contains("sliding_window")) {
    // llama.cpp (llama-model.cpp, LLM_ARCH_OPENAI_MOE): sliding layers alternate, layer 0 sliding.
    json types = json::array();
    for (std::int64_t i = 0; i < cfg["num_hidden_layers"].get<std::int64_t>(); ++i) {
      types.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
    }
    cfg["layer_types"] = types;
  }
  if (cfg.contains("num_experts") && !cfg.contains("moe_intermediate_size") && cfg.contains("intermediate_size")) {
    cfg["moe_intermediate_size"] = cfg["intermediate_size"];  // Mixtral-style GGUF: one width
  }
  return cfg;
}

/// "Q4_K_M" from general.file_type, a single dtype ("BF16"), or "mostly <dtype with most bytes>".
std::string format_from_summary(const json& summary) {
  if (summary.contains("file_type") && !summary["file_type"].value("name", "").empty()) return summary["file_type"]["name"];
  const json dtypes = summary.value("dtypes", json::object());
  std::string largest;
  std::int64_t most = -1;
  for (auto it = dtypes.begin(); it != dtypes.end(); ++it) {
    const std::int64_t b = it.value().value("bytes", std::int64_t{0});
    if (b > most) {
      most = b;
      largest = it.key();
    }
  }
  return dtypes.size() == 1 ? largest : "mostly " + largest;
}

/// A list of messages as English text and, under `<key>_data`, as data.
void put_warnings(json& out, const std::vector<Message>& warnings) {
  out["warnings"] = json::array();
  out["warnings_data"] = json::array();
  for (const auto& w : warnings) {
    out["warnings"].push_back(render_en(w));
    out["warnings_data"].push_back(message_data(w));
  }
}

/** Adds `request_model` (for a request's "model") and `resolved_model` (that model as an estimate
 *  describes it, with its features) to a GGUF or safetensors summary. Uses {"config": ...,
 *  "params": exact, "weight_bytes": exact}, with a GGUF file's `tensors` (their ggml types decide
 *  what llama.cpp's CPU backend repacks); when the header lacks a field the architecture needs,
 *  {"params", "layers", "hidden_size", "weight_bytes"} and a warning naming the field. */
void add_request_model(json& summary, const json* config_json = nullptr, json tensors = nullptr) {
  std::vector<Message> warnings;
  // A repository's own config.json (describe_repository_model) is the architecture as published;
  // the header then gives the exact count and bytes.
  const json cfg = config_json ? *config_json : config_from_summary(summary);
  const bool packed = summary.value("packed_quantization", false);
  const std::int64_t params = packed ? 0 : summary.value("parameter_count", std::int64_t{0});
  if (packed) {
    warnings.push_back(Message("warning.file.packed_quantization"));
  }
  json request_model = {{"config", cfg}, {"weight_bytes", summary.value("weight_bytes", std::int64_t{0})},
                        {"weights_format", format_from_summary(summary)}};
  if (params > 0) request_model["params"] = params;
  if (!summary.value("name", "").empty()) request_model["name"] = summary["name"];
  if (tensors.is_array() && !tensors.empty()) request_model["tensors"] = std::move(tensors);
  ModelSpec m;
  try {
    std::vector<Message> ignored;
    m = parse_model(request_model, "model", ignored, embedded_catalog());
  } catch (const InputError& e) {
    const std::string missing = e.field().substr(e.field().rfind('.') + 1);
    if (config_json) {
      warnings.push_back(Message("warning.repository.config_unusable").text("field", e.field()).then(e.message()));
    } else {
      warnings.push_back(Message("warning.file.header_missing_field").text("field", missing));
    }
    json bare = {{"params", std::max<std::int64_t>(1, params)}, {"weight_bytes", request_model["weight_bytes"]},
                 {"weights_format", request_model["weights_format"]}};
    if (request_model.contains("name")) bare["name"] = request_model["name"];
    if (request_model.contains("tensors")) bare["tensors"] = request_model["tensors"];
    if (cfg.contains("num_hidden_layers") && cfg.contains("hidden_size")) {
      for (const char* key : {"vocab_size", "intermediate_size"}) {
        if (cfg.contains(key)) bare[key] = cfg[key];
      }
      bare["layers"] = cfg["num_hidden_layers"];
      bare["hidden_size"] = cfg["hidden_size"];
    }
    request_model = bare;
    std::vector<Message> ignored;
    m = parse_model(request_model, "model", ignored, embedded_catalog());
  }
  if (m.model_type_name.empty() && m.has_architecture()) {
    warnings.push_back(Message("warning.file.no_family"));
  }
  summary["request_model"] = request_model;
  summary["resolved_model"] = resolved_model_json(m);
  // The engines that load such a file (memory.hpp engines_for_file), the first one the default.
  json engines = json::array();
  for (Engine e : engines_for_file(summary.value("format", "") == "gguf" ? Ecosystem::gguf : Ecosystem::file)) engines.push_back(engine_id(e));
  if (!engines.empty()) summary["engines"] = engines;
  put_warnings(summary, warnings);
}

}  // namespace

std::string describe_model_file(std::string_view bytes, std::int64_t file_size_bytes) {
  try {
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    const bool json_text = bytes.substr(0, 8).find('\0') == std::string_view::npos && first != std::string_view::npos && bytes[first] == '{';
    if (json_text && file_size_bytes <= static_cast<std::int64_t>(bytes.size())) {
      // A config.json: the same model a {"config": ...} request gives. (An index has weight_map.)
      const json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
      if (doc.is_object() && !doc.contains("weight_map")) {
        std::vector<Message> warnings;
        const json request_model = {{"config", doc}};
        const ModelSpec m = parse_model(request_model, "model", warnings, embedded_catalog());
        json out = {{"format", "config.json"}, {"header_bytes", bytes.size()}};
        out["request_model"] = request_model;
        out["resolved_model"] = resolved_model_json(m);
        put_warnings(out, warnings);
        return out.dump(-1, ' ', true);  // ASCII, as every answer (json_writer.hpp)
      }
    }
    if (bytes.substr(0, 4) == "GGUF") {
      // The typed header gives the tensors' types to the request model as well as the summary.
      const GgufHeader header = parse_gguf_header(bytes, file_size_bytes);
      json summary = gguf_header_to_json(header);
      add_request_model(summary, nullptr, gguf_tensor_list_json(header));
      return summary.dump(-1, ' ', true);
    }
    json summary = inspect_model_header_json(bytes, file_size_bytes);
    const std::string format = summary.value("format", "");
    if (format == "gguf" || format == "safetensors") {
      add_request_model(summary);
    } else if (format == "safetensors-index") {
      summary["request_model"] = nullptr;
      put_warnings(summary, {Message("warning.file.index_only").integer("total_size", summary.value("total_size", std::int64_t{0}))});
    }
    return summary.dump(-1, ' ', true);
  } catch (const InputError& e) {
    return header_error_to_json(e).dump(-1, ' ', true);
  } catch (const std::exception& e) {
    return header_error_to_json(InputError(detail::kFileField, Message("error.file.unreadable").text("detail", e.what()))).dump(-1, ' ', true, json::error_handler_t::replace);
  }
}

std::string describe_repository_model(const std::string& parts_json) {
  const std::string_view text(parts_json);
  const json parts = json::parse(text.begin(), text.end(), nullptr, false);
  if (parts.is_discarded() || !parts.is_object()) throw InputError("", Message("error.repository.parts"));
  const json files = parts.value("files", json::array());
  const auto config_it = parts.find("config");
  const json* config = config_it != parts.end() && !config_it->is_null() ? &*config_it : nullptr;
  if (config && !config->is_object()) throw InputError("config", Message("error.config.not_object"));
  if (!files.is_array()) throw InputError("files", Message("error.repository.parts"));
  const std::string name = parts.value("name", std::string());
  if (files.empty()) {
    if (!config) throw InputError("files", Message("error.repository.nothing_read"));
    // config.json alone: the architecture gives the count; the format comes from `weights`.
    std::vector<Message> warnings;
    json request_model = {{"config", *config}};
    if (!name.empty()) request_model["name"] = name;
    const ModelSpec m = parse_model(request_model, "model", warnings, embedded_catalog());
    json out = {{"format", "config.json"}, {"files", 0}};
    out["request_model"] = request_model;
    out["resolved_model"] = resolved_model_json(m);
    warnings.push_back(Message("warning.repository.config_only"));
    put_warnings(out, warnings);
    return out.dump(-1, ' ', true);
  }
  // One summary for all the files: counts and bytes summed, the first file's metadata (a split
  // GGUF's first part and a shard set's first shard carry the architecture keys).
  json merged;
  // A split GGUF's parts list their own tensors (describe_model_file): together, the file's.
  json tensors = json::array();
  bool all_tensors = true;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const json& f = files[i];
    const std::string field = "files[" + std::to_string(i) + "]";
    if (!f.is_object() || f.contains("error")) throw InputError(field, Message("error.repository.parts"));
    const std::string format = f.value("format", "");
    if (format != "gguf" && format != "safetensors") {
      throw InputError(field, Message("error.repository.not_weights").text("got", format.empty() ? std::string("?") : format));
    }
    const json* part_tensors = f.contains("request_model") && f["request_model"].is_object() && f["request_model"].contains("tensors")
                                   ? &f["request_model"]["tensors"] : nullptr;
    if (part_tensors != nullptr && part_tensors->is_array()) {
      tensors.insert(tensors.end(), part_tensors->begin(), part_tensors->end());
    } else {
      all_tensors = false;
    }
    if (i == 0) {
      merged = f;
      merged.erase("tensors");
      merged.erase("request_model");
      merged.erase("resolved_model");
      merged.erase("warnings");
      merged.erase("warnings_data");
      continue;
    }
    if (format != merged.value("format", "")) {
      throw InputError(field, Message("error.repository.mixed_formats").text("first", merged.value("format", "")).text("got", format));
    }
    for (const char* key : {"parameter_count", "weight_bytes", "tensor_count", "header_bytes", "packed_weight_elements", "quant_aux_elements"}) {
      if (f.contains(key) && f[key].is_number_integer()) merged[key] = merged.value(key, std::int64_t{0}) + f[key].get<std::int64_t>();
    }
    if (f.value("packed_quantization", false)) merged["packed_quantization"] = true;
    const json dtypes = f.value("dtypes", json::object());
    for (auto it = dtypes.begin(); it != dtypes.end(); ++it) {
      json& d = merged["dtypes"][it.key()];
      if (d.is_null()) d = {{"tensors", 0}, {"elements", 0}, {"bytes", 0}};
      for (const char* key : {"tensors", "elements", "bytes"}) d[key] = d[key].get<std::int64_t>() + it.value().value(key, std::int64_t{0});
    }
  }
  merged["files"] = files.size();
  if (!name.empty()) merged["name"] = name;
  add_request_model(merged, config, all_tensors && merged.value("format", "") == "gguf" ? std::move(tensors) : json(nullptr));
  if (!name.empty()) merged["request_model"]["name"] = name;
  return merged.dump(-1, ' ', true);
}

}  // namespace llmsizer::edge
