// SPDX-License-Identifier: MIT
#include "request/read.hpp"

#include <cctype>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "llmsizer/ascii.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "model_files/gguf_tensor_list.hpp"

namespace llmsizer::edge {

namespace {
Message whole_number_error(std::int64_t min, std::int64_t max, const json& got) {
  return Message("error.whole_number").integer("min", min).integer("max", max).text("got", got.dump());
}
Message number_error(double min, double max, const json& got) {
  return Message("error.number").text("min", json(min).dump()).text("max", json(max).dump()).text("got", got.dump());
}
}  // namespace

std::int64_t whole_number(const json& obj, const char* key, const std::string& field, std::int64_t min,
                          std::int64_t max, std::int64_t fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (it->is_number_integer()) {
    const bool negative = it->is_number_unsigned() ? false : it->get<std::int64_t>() < 0;
    if (!negative && it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
      throw InputError(field, whole_number_error(min, max, *it));
    }
    const std::int64_t v = it->get<std::int64_t>();
    if (v < min || v > max) throw InputError(field, whole_number_error(min, max, *it));
    return v;
  }
  if (it->is_number_float()) {
    const double v = it->get<double>();
    if (!std::isfinite(v) || std::floor(v) != v || v < static_cast<double>(min) || v > static_cast<double>(max)) {
      throw InputError(field, whole_number_error(min, max, *it));
    }
    return static_cast<std::int64_t>(v);
  }
  throw InputError(field, whole_number_error(min, max, *it));
}

namespace {
/// Bytes in one `unit` (lower case, without spaces); 0 when unknown.
double bytes_per_unit(const std::string& unit) {
  static const struct {
    const char* unit;
    double bytes;
  } kUnits[] = {{"b", 1},       {"", 1},           {"kb", 1e3},          {"mb", 1e6},          {"gb", 1e9},
                {"tb", 1e12},   {"kib", 1024.0},   {"mib", 1048576.0},   {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  for (const auto& u : kUnits) {
    if (unit == u.unit) return u.bytes;
  }
  return 0;
}
}  // namespace

std::int64_t memory_amount(const json& obj, const char* key, const std::string& field, std::int64_t min, std::int64_t max,
                           std::int64_t fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  // A size outside the range is said as sizes (the page shows them in the person's GB or GiB).
  auto out_of_range = [&](double got) {
    return InputError(field, Message(min > 0 ? "error.memory_range.positive" : "error.memory_range.not_negative")
                                 .bytes("max", max).bytes("got", static_cast<std::int64_t>(got)));
  };
  if (it->is_number()) {
    const double value = it->get<double>();
    if (std::isfinite(value) && value == std::floor(value) && (value < static_cast<double>(min) || value > static_cast<double>(max)) &&
        std::fabs(value) < 9e18) {
      throw out_of_range(value);
    }
  }
  if (!it->is_string()) return whole_number(obj, key, field, min, max, fallback);
  auto error = [&] {
    return InputError(field, Message("error.memory_amount").bytes("min", min).bytes("max", max).text("got", it->dump()));
  };
  std::string compact;
  for (char c : it->get<std::string>()) {
    if (!std::isspace(static_cast<unsigned char>(c))) compact += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::size_t digits = 0;
  while (digits < compact.size() && (std::isdigit(static_cast<unsigned char>(compact[digits])) || compact[digits] == '.')) ++digits;
  if (digits == 0 || digits > 32) throw error();
  const std::string number_text = compact.substr(0, digits);
  if (std::count(number_text.begin(), number_text.end(), '.') > 1 || number_text == ".") throw error();
  const double unit = bytes_per_unit(compact.substr(digits));
  if (unit <= 0) throw error();
  const double value = std::strtod(number_text.c_str(), nullptr) * unit;
  if (!std::isfinite(value)) throw error();
  if (value < static_cast<double>(min) || value > static_cast<double>(max)) throw out_of_range(std::min(value, 9e18));
  return static_cast<std::int64_t>(std::llround(value));
}

double number(const json& obj, const char* key, const std::string& field, double min, double max, double fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number()) throw InputError(field, number_error(min, max, *it));
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < min || v > max) {
    throw InputError(field, number_error(min, max, *it));
  }
  return v;
}

bool boolean(const json& obj, const char* key, const std::string& field, bool fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) throw InputError(field, Message("error.boolean").text("got", it->dump()));
  return it->get<bool>();
}

std::string text(const json& obj, const char* key, const std::string& field, const std::vector<std::string>& allowed,
                 const std::string& fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  // The allowed values as the error names them, joined only for an error.
  const auto list = [&allowed] {
    std::string joined;
    for (std::size_t i = 0; i < allowed.size(); ++i) joined += (i ? ", " : "") + allowed[i];
    return joined;
  };
  if (!it->is_string()) {
    throw InputError(field, allowed.empty() ? Message("error.string").text("got", it->dump()) : Message("error.one_of").text("allowed", list()).text("got", it->dump()));
  }
  const std::string value = ascii_lower(it->get<std::string>());
  if (allowed.empty()) return value;
  for (const auto& a : allowed) {
    if (a == value) return value;
  }
  throw InputError(field, Message("error.one_of").text("allowed", list()).text("got", it->dump()));
}

std::int64_t whole_number_in(std::int64_t value, const std::string& field, std::int64_t min, std::int64_t max) {
  if (value < min || value > max) throw InputError(field, whole_number_error(min, max, json(value)));
  return value;
}

namespace {
constexpr std::int64_t kMaxWeightBytes = 100'000'000'000'000LL;  // 100 TB: above any checkpoint

/// A weights file's tensors (describe_model_file): they must hold exactly the file's bytes.
void set_file_tensors(ModelSpec& m, std::vector<GgufTensor> tensors, const std::string& field) {
  std::int64_t total = 0;
  for (const auto& t : tensors) total = t.bytes > kMaxWeightBytes - total ? kMaxWeightBytes + 1 : total + t.bytes;
  if (total != m.file_weight_bytes) {
    throw InputError(field + ".tensors", Message("error.model.tensors_bytes").bytes("tensors", total).bytes("weight", m.file_weight_bytes));
  }
  if (!tensors.empty()) m.file_tensors = std::make_shared<const std::vector<GgufTensor>>(std::move(tensors));
}

/// `weight_bytes` (exact stored bytes) and `weights_format` (what the file stores) of a model
/// imported from a weights file.
void read_file_weights(const json& value, const std::string& field, ModelSpec& m) {
  m.file_weight_bytes = whole_number(value, "weight_bytes", field + ".weight_bytes", 1, kMaxWeightBytes, 0);
  if (m.file_weight_bytes > 0) {
    const auto format = value.find("weights_format");
    m.file_weights_format = format != value.end() && format->is_string() ? format->get<std::string>() : "as stored";
  }
  const auto tensors = value.find("tensors");
  if (tensors != value.end()) set_file_tensors(m, gguf_tensor_list(*tensors, field + ".tensors"), field);
}

/// The exact parameter count of a request model: 1 to 10 trillion (the range the core is tested to).
std::int64_t rounded_params(double params) { return static_cast<std::int64_t>(std::llround(params)); }
}  // namespace

double params_in(std::int64_t params, const std::string& field) {
  if (params < 1 || static_cast<double>(params) > 1e13) throw InputError(field, number_error(1.0, 1e13, json(params)));
  return static_cast<double>(params);
}

void add_file_weights(ModelSpec& m, const FileWeights& w, const std::string& field) {
  if (!w.name.empty()) m.name = w.name;
  if (w.params > 0) m.params_override = rounded_params(params_in(w.params, field + ".params"));
  m.file_weight_bytes = whole_number_in(w.weight_bytes, field + ".weight_bytes", 1, kMaxWeightBytes);
  m.file_weights_format = w.weights_format;
  if (!w.tensors.empty()) set_file_tensors(m, gguf_tensors_of_runs(w.tensors, field + ".tensors"), field);
}

ModelSpec model_from_params(const std::string& name, double params, const AssumedShape& shape, std::vector<Message>& warnings) {
  ModelSpec m;
  m.id = "custom";
  m.name = name;
  m.params_override = rounded_params(params);
  if (shape.layers > 0) {
    m.num_layers = static_cast<int>(shape.layers);
    m.hidden_size = shape.hidden_size;
    m.num_attention_heads = static_cast<int>(shape.heads);
    m.num_kv_heads = static_cast<int>(shape.kv_heads);
    m.head_dim = static_cast<int>(std::max<std::int64_t>(1, shape.hidden_size / shape.heads));
    m.intermediate_size = shape.intermediate_size;
    m.vocab_size = shape.vocab_size;
    m.gated_mlp = false;
    m.shape_assumed = true;
    warnings.push_back(Message("warning.model.params_with_shape").integer("mlp_width", m.intermediate_size));
  }
  return m;
}

ModelSpec parse_model(const json& value, const std::string& field, std::vector<Message>& warnings, const Catalog& catalog) {
  if (value.is_string()) {
    const std::string id = value.get<std::string>();
    const std::string lower = ascii_lower(id);
    std::optional<ModelSpec> preset = catalog.model(lower);
    if (!preset) {
      throw InputError(field, Message("error.model.unknown_preset").text("id", id));
    }
    return std::move(*preset);
  }
  if (!value.is_object()) {
    throw InputError(field, Message("error.model.not_a_model").text("got", value.dump()));
  }
  if (value.contains("config")) {
    ModelSpec m = model_from_hf_config(value.at("config"), field + ".config", warnings);
    if (value.contains("name") && value["name"].is_string()) m.name = value["name"].get<std::string>();
    // Exact figures from a weights file's header (inspect_model_file) beside its config.
    if (value.contains("params")) {
      m.params_override = rounded_params(number(value, "params", field + ".params", 1.0, 1e13, 0.0));
    }
    read_file_weights(value, field, m);
    return m;
  }
  if (value.contains("params")) {
    // A bare parameter count: 1 to 10 trillion parameters (the range the core is tested to).
    const double params = number(value, "params", field + ".params", 1.0, 1e13, 0.0);
    // Optional shape for the layer-dependent parts: layers and hidden_size (MHA, 4h MLP assumed).
    AssumedShape shape;
    shape.layers = whole_number(value, "layers", field + ".layers", 1, 10'000, 0);
    shape.hidden_size = whole_number(value, "hidden_size", field + ".hidden_size", 1, 1'000'000, 0);
    if ((shape.layers > 0) != (shape.hidden_size > 0)) {
      throw InputError(shape.layers > 0 ? field + ".hidden_size" : field + ".layers", Message("error.model.layers_and_hidden_size"));
    }
    if (shape.layers > 0) {
      shape.heads = whole_number(value, "heads", field + ".heads", 1, 100'000, std::max<std::int64_t>(1, shape.hidden_size / 128));
      shape.kv_heads = whole_number(value, "kv_heads", field + ".kv_heads", 1, shape.heads, shape.heads);
      shape.intermediate_size = whole_number(value, "intermediate_size", field + ".intermediate_size", 1, 100'000'000, 4 * shape.hidden_size);
      shape.vocab_size = whole_number(value, "vocab_size", field + ".vocab_size", 1, 100'000'000, 32'000);
    }
    ModelSpec m = model_from_params(value.value("name", std::string("custom model")), params, shape, warnings);
    read_file_weights(value, field, m);
    return m;
  }
  throw InputError(field, Message("error.model.neither_config_nor_params"));
}

}  // namespace llmsizer::edge
