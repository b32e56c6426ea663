// SPDX-License-Identifier: MIT
// What a model file says about the model, for the request: the header summary of
// inspect_model_header (file_header.hpp) plus the request `model` it gives and that model as an
// estimate would describe it. A GGUF or safetensors file's model is built from its typed header
// (file_config.hpp), with no JSON between them; the request model is written beside it for the
// page to send back. config.json files are recognised too.
#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "llmsizer/architecture.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/edge/file_header.hpp"
#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/edge/safetensors.hpp"
#include "llmsizer/file_config.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/message_text.hpp"
#include "model_files/gguf_tensor_list.hpp"
#include "model_files/header_util.hpp"
#include "answer/message_json.hpp"
#include "request/read.hpp"
#include "json_text.hpp"

namespace llmsizer::edge {
namespace {

using nlohmann::json;

/// Messages as English text under `key` and as data under `<key>_data` (to_json.cpp put_messages).
void put_messages(json& out, const std::string& key, const std::vector<Message>& messages) {
  json& text = out[key] = json::array();
  json& data = out[key + "_data"] = json::array();
  for (const auto& m : messages) {
    text.push_back(render_en(m));
    data.push_back(message_data(m));
  }
}

/// The model as an estimate's response describes it (to_json.hpp model_json), written straight
/// into the summary's DOM (whose keys nlohmann keeps sorted, as the summaries have always been).
/// The same members as model_json writes: tests/js/cli_inspect_round_trip.mjs fails when the two
/// differ (each file's resolved_model against the estimate of its request_model).
json resolved_model_json(const ModelSpec& m) {
  const ModelSummary summary = summarize_model(m);
  const ParamCounts& c = summary.params;
  json out = {{"id", m.id}, {"name", m.name}, {"params", c.total}, {"active_params", c.active}, {"layers", m.num_layers}};
  if (m.has_architecture()) {
    out.update({{"hidden_size", m.hidden_size}, {"attention_heads", m.num_attention_heads}, {"kv_heads", m.num_kv_heads},
                {"head_dim", m.head_dim}, {"vocab_size", m.vocab_size}, {"model_type", m.model_type_name}});
    if (c.extra > 0) out["extra_params"] = c.extra;
    if (c.mtp > 0) out["mtp_params"] = c.mtp;
  }
  if (m.file_weight_bytes > 0) out.update({{"file_weight_bytes", m.file_weight_bytes}, {"file_weights_format", m.file_weights_format}});
  put_messages(out, "features", summary.features);
  return out;
}

/// A whole-number GGUF metadata value from the summary (0 when absent or not a number).
std::int64_t metadata_int(const json& summary, const std::string& key) {
  const auto meta = summary.find("metadata");
  if (meta == summary.end() || !meta->is_object()) return 0;
  const auto v = meta->find(key);
  return (v != meta->end() && v->is_number_integer()) ? v->get<std::int64_t>() : 0;
}

/// A whole-number GGUF metadata value of the header, as metadata_int reads it from the header's
/// summary (gguf_header_to_json): integers but bools; 0 when absent or not one.
std::int64_t header_metadata_int(const GgufHeader& header, std::string_view key) {
  const GgufValue* v = header.find(key);
  if (v == nullptr || !v->is_integer() || v->type == GgufValueType::boolean) return 0;
  return v->type == GgufValueType::uint64 ? static_cast<std::int64_t>(v->uint_value) : v->int_value;
}

/// The config a summary's file implies (file_config.hpp), for a summary the page sent back
/// (describe_repository_model): its `model` (partial_architecture_to_json) and GGUF metadata.
FileConfig file_config_from_summary(const json& summary) {
  const json model = summary.value("model", json::object());
  const auto count = [&](const char* key) {
    const auto it = model.find(key);
    return it != model.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
  };
  PartialArchitecture a;
  a.architecture = summary.value("architecture", "");
  a.hidden_size = count("hidden_size");
  a.num_layers = count("num_hidden_layers");
  a.num_attention_heads = count("num_attention_heads");
  a.num_kv_heads = count("num_key_value_heads");
  a.head_dim = count("head_dim");
  a.intermediate_size = count("intermediate_size");
  a.vocab_size = count("vocab_size");
  a.max_position_embeddings = count("max_position_embeddings");
  a.num_experts = count("num_experts");
  a.experts_per_token = count("num_experts_per_tok");
  a.sliding_window = count("sliding_window");
  const auto tie = model.find("tie_word_embeddings");
  if (tie != model.end() && tie->is_boolean()) a.tie_word_embeddings = tie->get<bool>();
  if (summary.value("format", "") != "gguf") return file_config_from_weights(a);
  return file_config_from_gguf(a, [&](std::string_view key) { return metadata_int(summary, std::string(key)); });
}

/// A request model's `config` from a file's (file_config.hpp): the keys the file gives.
json file_config_json(const FileConfig& c) {
  json cfg = json::object();
  const std::pair<const char*, std::int64_t> counts[] = {
      {"hidden_size", c.hidden_size}, {"num_hidden_layers", c.num_hidden_layers}, {"num_attention_heads", c.num_attention_heads},
      {"num_key_value_heads", c.num_key_value_heads}, {"head_dim", c.head_dim}, {"intermediate_size", c.intermediate_size},
      {"vocab_size", c.vocab_size}, {"max_position_embeddings", c.max_position_embeddings}, {"num_experts", c.num_experts},
      {"num_experts_per_tok", c.num_experts_per_tok}, {"sliding_window", c.sliding_window},
      {"moe_intermediate_size", c.moe_intermediate_size}, {"shared_expert_intermediate_size", c.shared_expert_intermediate_size},
      {"first_k_dense_replace", c.first_k_dense_replace}, {"kv_lora_rank", c.kv_lora_rank}, {"q_lora_rank", c.q_lora_rank},
      {"n_shared_experts", c.n_shared_experts}, {"qk_rope_head_dim", c.qk_rope_head_dim}, {"qk_nope_head_dim", c.qk_nope_head_dim},
      {"v_head_dim", c.v_head_dim},
  };
  for (const auto& [key, value] : counts) {
    if (value > 0) cfg[key] = value;
  }
  if (c.tie_word_embeddings) cfg["tie_word_embeddings"] = *c.tie_word_embeddings;
  if (!c.model_type.empty()) cfg["model_type"] = c.model_type;
  if (c.alternating_layer_types) {
    json types = json::array();
    for (std::int64_t i = 0; i < c.num_hidden_layers; ++i) types.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
    cfg["layer_types"] = std::move(types);
  }
  return cfg;
}

/// "Q4_K_M" from general.file_type, a single dtype ("BF16"), or "mostly <dtype with most bytes>"
/// (the first by name of those with most).
std::string weights_format(std::string_view file_type, const std::map<std::string, std::int64_t>& bytes_by_dtype) {
  if (!file_type.empty()) return std::string(file_type);
  std::string largest;
  std::int64_t most = -1;
  for (const auto& [dtype, bytes] : bytes_by_dtype) {
    if (bytes > most) {
      most = bytes;
      largest = dtype;
    }
  }
  return bytes_by_dtype.size() == 1 ? largest : "mostly " + largest;
}

/// weights_format of a summary.
std::string format_from_summary(const json& summary) {
  std::map<std::string, std::int64_t> bytes_by_dtype;
  const json dtypes = summary.value("dtypes", json::object());
  for (auto it = dtypes.begin(); it != dtypes.end(); ++it) bytes_by_dtype[it.key()] = it.value().value("bytes", std::int64_t{0});
  const bool named = summary.contains("file_type") && !summary["file_type"].value("name", "").empty();
  return weights_format(named ? summary["file_type"]["name"].get_ref<const std::string&>() : std::string_view(), bytes_by_dtype);
}

/// The warnings, as English text and, under `warnings_data`, as data.
void put_warnings(json& out, const std::vector<Message>& warnings) { put_messages(out, "warnings", warnings); }

/// Adds `request_model`, `resolved_model` (model `m`), the engines that load the file and the warnings to a summary.
void put_request_model(json& summary, json request_model, const ModelSpec& m, std::vector<Message> warnings) {
  if (m.model_type_name.empty() && m.has_architecture()) {
    warnings.push_back(Message("warning.file.no_family"));
  }
  summary["request_model"] = std::move(request_model);
  summary["resolved_model"] = resolved_model_json(m);
  // The engines that load such a file (memory.hpp engines_for_file), the first one the default.
  json engines = json::array();
  for (Engine e : engines_for_file(summary.value("format", "") == "gguf" ? Ecosystem::gguf : Ecosystem::file)) engines.push_back(engine_id(e));
  if (!engines.empty()) summary["engines"] = engines;
  put_warnings(summary, warnings);
}

/// The request model {"params", "layers", "hidden_size", ...} of a config that lacks a field the
/// architecture needs, from `request_model`'s figures and `cfg`'s layers and widths.
json bare_request_model(const json& request_model, std::int64_t params, const json& cfg) {
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
  return bare;
}

/// The request model {"config": ..., "params": exact, "weight_bytes": exact, "weights_format", "name", "tensors"}.
json file_request_model(json config, std::int64_t params, std::int64_t weight_bytes, const std::string& format, const std::string& name, json tensors) {
  json request_model = {{"config", std::move(config)}, {"weight_bytes", weight_bytes}, {"weights_format", format}};
  if (params > 0) request_model["params"] = params;
  if (!name.empty()) request_model["name"] = name;
  if (tensors.is_array() && !tensors.empty()) request_model["tensors"] = std::move(tensors);
  return request_model;
}

/** Adds `request_model` and `resolved_model` to the summary of a GGUF or safetensors file whose
 *  header gave `cfg` and `weights`: the ModelSpec straight from them (file_config.hpp), the same
 *  one parse_model reads back from the request model written beside it. When the header lacks a
 *  field the architecture needs: {"params", "layers", "hidden_size", "weight_bytes"} and a
 *  warning naming the field. */
void add_file_model(json& summary, const FileConfig& cfg, FileWeights weights, bool packed, ModelSpec* model_out) {
  std::vector<Message> warnings;
  if (packed) warnings.push_back(Message("warning.file.packed_quantization"));
  json request_model = file_request_model(file_config_json(cfg), weights.params, weights.weight_bytes, weights.weights_format, weights.name,
                                          weights.tensors.empty() ? json(nullptr) : gguf_tensor_list_json(weights.tensors));
  ModelSpec m;
  try {
    m = model_from_file_config(cfg, "model.config");
    add_file_weights(m, weights, "model");
  } catch (const InputError& e) {
    warnings.push_back(Message("warning.file.header_missing_field").text("field", e.field().substr(e.field().rfind('.') + 1)));
    request_model = bare_request_model(request_model, weights.params, request_model["config"]);
    // parse_model's reading of that bare model, in its order of checks.
    const double params = params_in(std::max<std::int64_t>(1, weights.params), "model.params");
    AssumedShape shape;
    if (cfg.num_hidden_layers > 0 && cfg.hidden_size > 0) {
      shape.layers = whole_number_in(cfg.num_hidden_layers, "model.layers", 1, 10'000);
      shape.hidden_size = whole_number_in(cfg.hidden_size, "model.hidden_size", 1, 1'000'000);
      shape.heads = shape.kv_heads = std::max<std::int64_t>(1, shape.hidden_size / 128);
      shape.intermediate_size = cfg.intermediate_size > 0 ? whole_number_in(cfg.intermediate_size, "model.intermediate_size", 1, 100'000'000) : 4 * shape.hidden_size;
      shape.vocab_size = cfg.vocab_size > 0 ? whole_number_in(cfg.vocab_size, "model.vocab_size", 1, 100'000'000) : 32'000;
    }
    std::vector<Message> ignored;
    m = model_from_params(weights.name.empty() ? "custom model" : weights.name, params, shape, ignored);
    weights.name.clear();
    weights.params = 0;
    add_file_weights(m, weights, "model");
  }
  if (model_out) *model_out = m;
  put_request_model(summary, std::move(request_model), m, std::move(warnings));
}

/** Adds `request_model` and `resolved_model` to a summary the page sent back
 *  (describe_repository_model), read as a request reads them. Uses the repository's own
 *  config.json (the architecture as published) or else the config the summary's file implies,
 *  with the header's exact count and bytes and a GGUF file's `tensors`. */
void add_request_model(json& summary, const json* config_json, json tensors) {
  std::vector<Message> warnings;
  const json cfg = config_json ? *config_json : file_config_json(file_config_from_summary(summary));
  const bool packed = summary.value("packed_quantization", false);
  const std::int64_t params = packed ? 0 : summary.value("parameter_count", std::int64_t{0});
  if (packed) {
    warnings.push_back(Message("warning.file.packed_quantization"));
  }
  json request_model = file_request_model(cfg, params, summary.value("weight_bytes", std::int64_t{0}), format_from_summary(summary),
                                          summary.value("name", ""), std::move(tensors));
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
    request_model = bare_request_model(request_model, params, cfg);
    std::vector<Message> ignored;
    m = parse_model(request_model, "model", ignored, embedded_catalog());
  }
  put_request_model(summary, std::move(request_model), m, std::move(warnings));
}

}  // namespace

std::string describe_model_file(std::string_view bytes, std::int64_t file_size_bytes, ModelSpec* model_out) {
  try {
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    // A safetensors length is below 2^27, so its bytes 4-7 are NUL; JSON text has no NUL (file_header.cpp).
    const bool json_text = bytes.substr(0, 8).find('\0') == std::string_view::npos && first != std::string_view::npos && bytes[first] == '{';
    if (json_text && file_size_bytes <= static_cast<std::int64_t>(bytes.size())) {
      // A config.json: the same model a {"config": ...} request gives. (An index has weight_map.)
      const json doc = parse_json_or_discarded(bytes);
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
      // The typed header gives the model (file_config.hpp) and the request model's figures.
      const GgufHeader header = parse_gguf_header(bytes, file_size_bytes);
      json summary = gguf_header_to_json(header);
      FileWeights weights;
      weights.name = header.name;
      weights.params = header.parameter_count;
      weights.weight_bytes = header.weight_bytes;
      std::map<std::string, std::int64_t> bytes_by_type;
      for (const auto& t : header.tensors) bytes_by_type[std::string(ggml_type_info(t.type_id)->name)] += t.bytes;
      weights.weights_format = weights_format(header.file_type >= 0 ? llama_file_type_name(header.file_type) : std::string_view(), bytes_by_type);
      weights.tensors = gguf_tensor_runs(header);
      const FileConfig cfg = file_config_from_gguf(header.architecture, [&](std::string_view key) { return header_metadata_int(header, key); });
      add_file_model(summary, cfg, std::move(weights), false, model_out);
      return summary.dump(-1, ' ', true);
    }
    if (!json_text) {
      // A safetensors header (inspect_model_header_json reads the same way).
      std::optional<SafetensorsHeader> header;
      try {
        header = parse_safetensors_header(bytes, file_size_bytes);
      } catch (const InputError& e) {
        return header_error_to_json(e).dump(-1, ' ', true);
      } catch (const std::exception& e) {
        return header_error_to_json(InputError(detail::kFileField, Message("error.file.header_unreadable").text("detail", e.what()))).dump(-1, ' ', true);
      }
      json summary = safetensors_header_to_json(*header);
      FileWeights weights;
      weights.params = header->packed_quantization ? 0 : header->parameter_count;
      weights.weight_bytes = header->weight_bytes;
      std::map<std::string, std::int64_t> bytes_by_dtype;
      for (const auto& t : header->tensors) bytes_by_dtype[t.dtype] += t.bytes();
      weights.weights_format = weights_format({}, bytes_by_dtype);
      add_file_model(summary, file_config_from_weights(header->architecture), std::move(weights), header->packed_quantization, model_out);
      return summary.dump(-1, ' ', true);
    }
    json summary = inspect_model_header_json(bytes, file_size_bytes);
    if (summary.value("format", "") == "safetensors-index") {
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
  const json parts = parse_json_or_discarded(text);
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
