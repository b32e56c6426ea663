// SPDX-License-Identifier: MIT
#include "llmsizer/api.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "llmsizer/catalog.hpp"
#include "llmsizer/config_import.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/file_header.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/training.hpp"
#include "format.hpp"
#include "hardware_api.hpp"
#include "request.hpp"
#include "training_request.hpp"

namespace llmsizer {
namespace {

using json = nlohmann::ordered_json;
using request::whole_number;

constexpr int kSchemaVersion = 1;
/// Largest context and batch the core sizes (contract: "a whole number from 1 to 10000000").
constexpr std::int64_t kMaxTokens = 10'000'000;
constexpr std::int64_t kMaxBatch = 1'000'000;
constexpr std::int64_t kMaxGpus = 4096;

const std::set<std::string> kRequestKeys = {"model", "task", "weights", "kv_cache", "engine", "input_tokens",
                                            "output_tokens", "batch", "gpus", "hardware", "training",
                                            "flash_attention", "engine_version", "group_size", "goal", "cost", "cpu",
                                            "enforce_eager"};

/// Serialises a response. User text (field names, echoed values, parser messages quoting the input)
/// may hold invalid UTF-8: it is replaced by U+FFFD instead of throwing, so the output is always JSON.
std::string to_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string error_json(const std::string& field, const std::string& message) {
  json e;
  e["error"]["field"] = field;
  e["error"]["message"] = message;
  return to_text(e);
}

nlohmann::json parse_body(const std::string& text) {
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw InputError("", "the request is empty; send a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}");
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("", std::string("the request is not valid JSON (") + e.what() + ")");
  }
  if (!body.is_object()) throw InputError("", "the request must be a JSON object such as {\"model\": \"qwen2.5-7b-instruct\"}; got " + std::string(body.type_name()));
  return body;
}

std::vector<std::string> weight_format_ids() {
  std::vector<std::string> ids;
  for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) ids.emplace_back(f->id);
  return ids;
}
std::vector<std::string> kv_format_ids() {
  std::vector<std::string> ids;
  for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) ids.emplace_back(f->id);
  return ids;
}

Engine parse_engine(const std::string& id) {
  if (id == "transformers") return Engine::transformers;
  if (id == "vllm") return Engine::vllm;
  if (id == "llama.cpp") return Engine::llama_cpp;
  if (id == "sglang") return Engine::sglang;
  if (id == "autoawq") return Engine::autoawq;
  if (id == "litgpt") return Engine::litgpt;
  return Engine::generic;
}

/// "4.38" or "4.38.2" → 438 (major × 100 + minor); absent → 0 (the engine's current behaviour).
int parse_engine_version(const nlohmann::json& body) {
  const std::string text = request::text(body, "engine_version", "engine_version", {}, "");
  if (text.empty()) return 0;
  const std::string message = "must be a version such as \"4.38\" or \"4.46.0\" (major.minor, from 1.0 to 99.99); got \"" + text + "\"";
  const std::size_t dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 2) throw InputError("engine_version", message);
  std::size_t end = text.find('.', dot + 1);
  if (end == std::string::npos) end = text.size();
  if (end == dot + 1 || end - dot - 1 > 2) throw InputError("engine_version", message);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i != dot && i != end && !std::isdigit(static_cast<unsigned char>(text[i]))) throw InputError("engine_version", message);
  }
  const int major = std::stoi(text.substr(0, dot));
  const int minor = std::stoi(text.substr(dot + 1, end - dot - 1));
  if (major < 1) throw InputError("engine_version", message);
  return major * 100 + minor;
}

/// Rejects requests whose sizes would not fit a 64-bit byte count (over ~1e18 bytes).
void check_magnitude(const ModelSpec& m, std::int64_t context, std::int64_t batch) {
  constexpr double kLimit = 1e18;
  const double width = static_cast<double>(m.hidden_size);
  const double experts = std::max(1, m.moe.num_experts);
  const double layer = 4.0 * width * width + 3.0 * width * static_cast<double>(std::max(m.intermediate_size, m.moe.expert_intermediate_size)) * experts;
  const double params = m.has_architecture() ? static_cast<double>(m.num_layers) * layer + 2.0 * width * static_cast<double>(m.vocab_size)
                                             : static_cast<double>(m.params_override);
  if (params * 4.0 > kLimit) throw InputError("model", "the model is too large to size (over 1e17 parameters); check hidden_size, num_hidden_layers and intermediate_size");
  const double kv = 2.0 * m.num_layers * static_cast<double>(std::max<std::int64_t>(static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim, m.mla.kv_lora_rank + m.mla.qk_rope_head_dim)) *
                    static_cast<double>(context) * static_cast<double>(batch) * 4.0;
  if (kv > kLimit) throw InputError("input_tokens", "context × batch is too large to size for this model (KV cache over 1e18 bytes); lower input_tokens, output_tokens or batch");
  const double act = static_cast<double>(context) * static_cast<double>(batch) *
                     (static_cast<double>(m.vocab_size) * 16.0 + 3.0 * static_cast<double>(std::max(m.intermediate_size, m.moe.expert_intermediate_size)) * 8.0 + width * 64.0);
  const double scores = static_cast<double>(context) * static_cast<double>(context) * static_cast<double>(batch) * m.num_attention_heads * 8.0;
  if (act > kLimit || scores > kLimit) throw InputError("input_tokens", "context × batch is too large to size for this model (activations over 1e18 bytes); lower input_tokens or batch");
}

json parts_json(const MemoryParts& p) {
  json j;
  j["weights"] = p.weights;
  j["kv_cache"] = p.kv_cache;
  j["activations"] = p.activations;
  j["overhead"] = p.overhead;
  j["gradients"] = p.gradients;
  j["optimizer"] = p.optimizer;
  j["master_weights"] = p.master_weights;
  j["adapters"] = p.adapters;
  return j;
}

/// Group sizes GPTQ/AWQ/MLX checkpoints are published with (AutoGPTQ/AutoAWQ q_group_size, mlx
/// --q-group-size); -1 is GPTQ's "one group per column".
const std::vector<std::int64_t> kGroupSizes = {32, 64, 128, 256, 512, 1024};

int parse_group_size(const nlohmann::json& body, const WeightFormat& format, std::vector<std::string>& warnings) {
  if (!body.contains("group_size") || body["group_size"].is_null()) return 0;
  const bool grouped = format.scheme == QuantScheme::gptq || format.scheme == QuantScheme::awq || format.scheme == QuantScheme::mlx;
  if (!grouped) {
    warnings.push_back("group_size: ignored, weights \"" + std::string(format.id) + "\" have no group size to choose (GPTQ, AWQ and MLX formats do)");
    return 0;
  }
  const bool gptq = format.scheme == QuantScheme::gptq;
  const std::int64_t g = whole_number(body, "group_size", "group_size", -1, 1024, 0);
  if (g == -1 && gptq) return -1;
  if (std::find(kGroupSizes.begin(), kGroupSizes.end(), g) == kGroupSizes.end()) {
    throw InputError("group_size", std::string("must be one of 32, 64, 128, 256, 512, 1024") + (gptq ? " or -1 (one group per column)" : "") + "; got " + body["group_size"].dump());
  }
  return static_cast<int>(g);
}

/// The weights as stored: format, effective bits per weight, bytes by tensor class and by type.
json weights_detail_json(const WeightFormat& f, const WeightsLayout& layout, const DiskSize& disk, int group_size) {
  json j;
  j["format"] = f.id;
  j["name"] = f.name;
  j["ecosystem"] = f.ecosystem;
  if (f.group_size > 0 && f.scheme != QuantScheme::bnb_4bit && f.scheme != QuantScheme::mxfp4) j["group_size"] = group_size != 0 ? group_size : f.group_size;
  j["bits_per_weight"] = layout.bits_per_weight();
  j["bytes"] = json::object();
  for (TensorClass c : {TensorClass::embeddings, TensorClass::attention, TensorClass::mlp, TensorClass::lm_head, TensorClass::norms, TensorClass::other}) {
    j["bytes"][tensor_class_id(c)] = layout.class_bytes(c);
  }
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> types;  // type → (tensors, bytes)
  for (const auto& t : layout.tensors) {
    auto& entry = types[t.type];
    entry.first += 1;
    entry.second += t.bytes;
  }
  j["types"] = json::array();
  for (const auto& [type, entry] : types) j["types"].push_back({{"type", type}, {"tensors", entry.first}, {"bytes", entry.second}});
  j["disk_metadata_bytes"] = disk.metadata_bytes;
  return j;
}

/// Why the download and the memory differ for this format and engine.
void disk_notes(const ModelSpec& m, const WeightFormat& f, const std::string& engine, int gpus, std::vector<std::string>& warnings) {
  if (f.ecosystem == "gguf") {
    warnings.push_back("disk: llama.cpp maps the GGUF file (mmap), so the file's pages also sit in the OS page cache (host RAM) while it runs, unless --no-mmap; the file also holds the tokenizer and metadata");
    if (engine == "llama.cpp" && gpus > 0 && m.tie_word_embeddings) {
      warnings.push_back("memory: the tied embedding is stored once on disk but held twice by llama.cpp: token_embd in host memory and the output copy on the GPU");
    }
  }
  if (f.scheme == QuantScheme::bnb_4bit || f.scheme == QuantScheme::llm_int8) {
    warnings.push_back("disk: bitsandbytes usually quantizes at load time (load_in_4bit/load_in_8bit) from the 16-bit checkpoint, which then is the download (" +
                       fmt::gb(weight_bytes(m, *find_weight_format("bf16"))) + "); disk_bytes is a pre-quantized bitsandbytes checkpoint");
  }
}

/// The fields every task reads (model, formats, tokens, devices), validated.
struct CommonRequest {
  ModelSpec model;
  int group_size = 0;  ///< GPTQ/AWQ/MLX group size from the request; 0: the format's default
  std::vector<std::string> warnings;
  std::string task;
  std::string weights_id;
  /// A model imported from a weights file, with no `weights` in the request: its exact stored
  /// bytes as a one-block format (weights_id "file"). Shared so copies keep the pointer valid.
  std::shared_ptr<const WeightFormat> file_format;
  std::string kv_id;
  std::string engine_name;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t batch = 1;
  int gpus = 1;
  bool flash = true;
  int engine_version = 0;
  /// The weights' format: the imported file's stored bytes, or the catalog entry of weights_id.
  const WeightFormat& weights_format() const { return file_format ? *file_format : *find_weight_format(weights_id); }
};

CommonRequest parse_common(const nlohmann::json& body) {
  CommonRequest r;
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (kRequestKeys.count(it.key()) == 0) r.warnings.push_back("request: unknown field \"" + it.key() + "\" ignored");
  }
  if (!body.contains("model")) throw InputError("model", "is required: a preset id (see `llmsizer models`), {\"config\": {...}} or {\"params\": N}");
  std::vector<std::string> model_warnings;
  r.model = request::parse_model(body.at("model"), "model", model_warnings);
  r.warnings.insert(r.warnings.end(), model_warnings.begin(), model_warnings.end());

  r.task = request::text(body, "task", "task", {"inference", "training"}, "inference");
  // A model imported from a weights file brings its exact stored bytes: they stand for the
  // weights unless the request names a format (then params × bytes per parameter of that format).
  if (r.model.file_weight_bytes > 0 && !body.contains("weights")) {
    r.weights_id = "file";
    WeightFormat stored{"file", "as stored in the imported file", "file", std::max<std::int64_t>(1, count_params(r.model).total),
                        r.model.file_weight_bytes, "the file's header", QuantScheme::stored, 0, 0, false, ""};
    r.file_format = std::make_shared<const WeightFormat>(stored);
  } else {
    r.weights_id = request::text(body, "weights", "weights", weight_format_ids(), "bf16");
  }
  const WeightFormat& weights_format = r.weights_format();
  r.group_size = parse_group_size(body, weights_format, r.warnings);
  // llama.cpp's default cache type is f16 (-ctk/-ctv f16); Transformers/vLLM follow the model dtype.
  const std::string kv_default = r.weights_id == "fp32" ? "fp32" : (r.weights_id == "fp16" || weights_format.ecosystem == "gguf") ? "fp16" : "bf16";
  r.kv_id = request::text(body, "kv_cache", "kv_cache", kv_format_ids(), kv_default);
  r.engine_name = request::text(body, "engine", "engine", {"generic", "transformers", "vllm", "llama.cpp", "sglang", "autoawq", "litgpt"}, "generic");
  r.input_tokens = whole_number(body, "input_tokens", "input_tokens", 1, kMaxTokens, 1024);
  r.output_tokens = whole_number(body, "output_tokens", "output_tokens", 0, kMaxTokens, r.task == "training" ? 0 : 1024);
  r.batch = whole_number(body, "batch", "batch", 1, kMaxBatch, 1);
  r.gpus = static_cast<int>(whole_number(body, "gpus", "gpus", 0, kMaxGpus, 1));
  r.flash = request::boolean(body, "flash_attention", "flash_attention", true);
  r.engine_version = parse_engine_version(body);
  if (r.input_tokens + r.output_tokens > kMaxTokens) {
    throw InputError("output_tokens", "input_tokens + output_tokens must be at most " + std::to_string(kMaxTokens) + "; got " + std::to_string(r.input_tokens + r.output_tokens));
  }
  return r;
}

InferenceSettings inference_settings(const CommonRequest& r) {
  check_magnitude(r.model, r.input_tokens + r.output_tokens, r.batch);
  InferenceSettings s;
  s.weights = r.file_format ? r.file_format.get() : find_weight_format(r.weights_id);
  s.kv_cache = find_kv_cache_format(r.kv_id);
  s.engine = parse_engine(r.engine_name);
  s.input_tokens = r.input_tokens;
  s.output_tokens = r.output_tokens;
  s.batch = r.batch;
  s.gpus = r.gpus;
  s.flash_attention = r.flash;
  s.engine_version = r.engine_version;
  s.group_size = r.group_size;
  return s;
}

std::string estimate_or_throw(const std::string& text) {
  const nlohmann::json body = parse_body(text);
  CommonRequest common = parse_common(body);
  const ModelSpec& model = common.model;
  std::vector<std::string>& warnings = common.warnings;
  const std::string& task = common.task;
  const std::string& weights_id = common.weights_id;
  const std::string& kv_id = common.kv_id;
  const std::int64_t input_tokens = common.input_tokens;
  const std::int64_t output_tokens = common.output_tokens;
  const std::int64_t batch = common.batch;
  const int gpus = common.gpus;
  const bool flash = common.flash;
  const int engine_version = common.engine_version;
  const int group_size = common.group_size;
  const WeightFormat& weights_format = common.weights_format();
  const std::string& engine_name = common.engine_name;
  // Laid out once, tensor by tensor: the weights' bytes for the estimate and the download size.
  const WeightsLayout layout = weights_layout(model, weights_format, group_size);

  MemoryEstimate estimate;
  json settings;
  json training_out;    // task training: the response's `training` object
  json throughput_out;  // task training with a known GPU peak: tokens_per_s and hours
  std::optional<InferenceSettings> inference;
  std::optional<TrainingSettings> training_settings;
  if (task == "inference") {
    InferenceSettings s = inference_settings(common);
    s.weights_layout = &layout;
    inference = s;
    estimate = estimate_inference_memory(model, s);
    settings["task"] = task;
    settings["weights"] = weights_id;
    settings["kv_cache"] = kv_id;
    settings["engine"] = engine_id(s.engine);
    settings["input_tokens"] = input_tokens;
    settings["output_tokens"] = output_tokens;
    settings["batch"] = batch;
    settings["gpus"] = gpus;
    settings["flash_attention"] = flash;
    if (group_size != 0) settings["group_size"] = group_size;
    if (engine_version > 0) settings["engine_version"] = body.at("engine_version");
  } else {
    TrainingSettings t = request::parse_training(body.value("training", nlohmann::json::object()), model, gpus, input_tokens, batch, flash, warnings);
    check_magnitude(model, t.seq_len, t.micro_batch);
    if (body.contains("hardware")) apply_hardware_to_training(body, t);
    const TrainingEstimate training = estimate_training(model, t);
    estimate = training.memory;
    training_settings = t;
    settings["task"] = task;
    settings["weights"] = weights_id;
    settings["gpus"] = gpus;
    settings["training"] = request::training_settings_json(t);
    training_out = request::training_result_json(training);
    if (t.peak_tflops > 0) throughput_out = {{"tokens_per_s", training.time.tokens_per_s}, {"hours", training.time.hours}};
  }
  warnings.insert(warnings.end(), estimate.warnings.begin(), estimate.warnings.end());

  json out;
  out["schema_version"] = kSchemaVersion;
  out["model"] = request::model_summary(model);
  out["settings"] = settings;
  out["memory"]["device_bytes"] = estimate.device_bytes;
  out["memory"]["tensor_peak_bytes"] = estimate.tensor_peak_bytes;
  out["memory"]["host_bytes"] = estimate.host_bytes;
  out["memory"]["parts"] = parts_json(estimate.parts);
  const DiskSize disk = checkpoint_disk_size(model, weights_format, layout);
  out["disk_bytes"] = disk.total();
  out["weights_detail"] = weights_detail_json(weights_format, layout, disk, group_size);
  disk_notes(model, weights_format, engine_name, gpus, warnings);
  if (!training_out.is_null()) out["training"] = training_out;
  if (!throughput_out.is_null()) out["throughput"] = throughput_out;
  out["warnings"] = warnings;
  out["explain"] = json::array();
  for (const auto& line : estimate.explain) {
    out["explain"].push_back({{"part", line.part}, {"formula", line.formula}, {"values", line.values}, {"bytes", line.bytes}});
  }
  if (body.contains("hardware")) {
    if (inference) add_inference_hardware(out, body, model, *inference);
    else add_training_hardware(out, body, *training_settings, estimate);
  }
  return to_text(out);
}

template <typename F>
std::string guarded(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return error_json(e.field(), e.what());
  } catch (const nlohmann::json::exception& e) {
    return error_json("", std::string("the request could not be read: ") + e.what());
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what());
  }
}

}  // namespace

std::string estimate(const std::string& request_json) {
  return guarded([&] { return estimate_or_throw(request_json); });
}

std::string recommend(const std::string& request_json) {
  return guarded([&]() -> std::string {
    const nlohmann::json body = parse_body(request_json);
    CommonRequest common = parse_common(body);
    if (common.task != "inference") throw InputError("task", "recommend sizes inference; use estimate with a hardware id for training");
    return to_text(recommend_json(body, common.model, inference_settings(common), common.warnings));
  });
}

std::string list_models() {
  return guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["models"] = json::array();
    for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
      if (doc->kind != "models") continue;
      // Every preset must parse: a broken one fails the whole listing (and presets_test).
      std::vector<std::string> ignored;
      const ModelSpec m = request::parse_model(nlohmann::json(std::string(doc->id)), "model", ignored);
      const nlohmann::json d = request::preset_document(std::string(doc->id), "model");
      json j = request::model_summary(m);
      j["family"] = d.value("family", std::string());
      j["hf_repo"] = d.value("hf_repo", std::string());
      j["published_params"] = d.value("published_params", nlohmann::json());
      j["max_context"] = m.max_position_embeddings;
      j["experts"] = m.moe.num_experts;
      j["experts_per_token"] = m.moe.experts_per_token;
      j["sliding_window"] = m.sliding_window;
      j["source"] = d.value("source", std::string());
      out["models"].push_back(j);
    }
    return out.dump();
  });
}

std::string list_hardware() {
  return guarded([] {
    json out = hardware_list_json();
    out["schema_version"] = kSchemaVersion;
    return out.dump();
  });
}

std::string list_options() {
  return guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["weights"] = json::array();
    for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
      json w = {{"id", f->id}, {"name", f->name}, {"ecosystem", f->ecosystem}, {"bits_per_weight", f->bits_per_weight()}};
      if (f->scheme == QuantScheme::gptq || f->scheme == QuantScheme::awq || f->scheme == QuantScheme::mlx) w["group_size"] = f->group_size;
      out["weights"].push_back(w);
    }
    // The page's menu: formats grouped by ecosystem, in catalog order.
    const std::pair<const char*, const char*> ecosystems[] = {
        {"generic", "Plain (the article's bytes per parameter)"}, {"transformers", "Transformers"},
        {"gguf", "GGUF/llama.cpp"}, {"vllm", "vLLM"}, {"mlx", "MLX"}};
    out["weight_groups"] = json::array();
    for (const auto& [id, label] : ecosystems) {
      json group = {{"ecosystem", id}, {"label", label}, {"formats", json::array()}};
      for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
        if (f->ecosystem == id) group["formats"].push_back(f->id);
      }
      out["weight_groups"].push_back(group);
    }
    out["kv_cache"] = json::array();
    for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) {
      out["kv_cache"].push_back({{"id", f->id}, {"name", f->name}, {"bits_per_element", 8.0 * static_cast<double>(f->block_bytes) / static_cast<double>(f->block_elements)}});
    }
    out["engines"] = {"generic", "transformers", "vllm", "llama.cpp", "sglang", "autoawq", "litgpt"};
    out["tasks"] = {"inference", "training"};
    return out.dump();
  });
}

std::string inspect_model_file(const std::string& leading_bytes, double file_size_bytes) {
  const std::int64_t size = (file_size_bytes >= 0 && file_size_bytes < 9.0e18) ? static_cast<std::int64_t>(file_size_bytes) : -1;
  return request::describe_model_file(leading_bytes, size);
}

bool is_error_response(const std::string& response_json) {
  return response_json.rfind("{\"error\":", 0) == 0;
}

}  // namespace llmsizer
