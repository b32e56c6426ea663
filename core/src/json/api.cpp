// SPDX-License-Identifier: MIT
// The JSON edge (api.hpp): parse_request → answer → to_json, each entry point guarded so that
// nothing throws past it.
#include "llmsizer/api.hpp"

#include <nlohmann/json.hpp>

#include "embedded_catalog_docs.hpp"
#include "hardware_json.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/precision.hpp"
#include "parse_request.hpp"
#include "read.hpp"
#include "to_json.hpp"

namespace llmsizer {
namespace {

using json = nlohmann::ordered_json;
using edge::Api;

constexpr int kSchemaVersion = 1;

template <typename F>
std::string guarded(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return edge::error_json(e);
  } catch (const nlohmann::json::exception& e) {
    return edge::error_json(InputError("", Message("error.request.unreadable").text("detail", e.what())));
  } catch (const std::exception& e) {
    return edge::error_json(InputError("", Message("error.internal").text("detail", e.what())));
  }
}

}  // namespace

std::string estimate(const std::string& request_json) {
  return guarded([&] {
    const Catalog& catalog = embedded_catalog();
    const Request request = edge::parse_request(request_json, catalog, Api::estimate);
    return edge::to_json(request, answer(request, catalog));
  });
}

std::string recommend(const std::string& request_json) {
  return guarded([&] {
    const Catalog& catalog = embedded_catalog();
    const Request request = edge::parse_request(request_json, catalog, Api::recommend);
    return edge::to_json(request, recommend(request, catalog));
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
      const std::optional<ModelSpec> preset = embedded_catalog().model(doc->id);
      if (!preset) throw InputError("model", Message("error.model.preset_unreadable").text("id", doc->id));
      const ModelSpec& m = *preset;
      const nlohmann::json d = edge::preset_document(doc->id);
      json j = edge::model_json(m, summarize_model(m));
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
    json out;
    out["hardware"] = json::array();
    for (const auto& h : hardware_catalog()) out["hardware"].push_back(edge::hardware_entry_json(h));
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
    out["engines"] = {"generic", "transformers", "vllm", "llama.cpp"};
    out["tasks"] = {"inference", "training"};
    return out.dump();
  });
}

std::string list_messages() {
  return guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["messages"] = json::object();
    for (auto* t = edge::message_templates_begin(); t != edge::message_templates_end(); ++t) out["messages"][std::string(t->id)] = t->en;
    return out.dump();
  });
}

std::string inspect_model_file(const std::string& leading_bytes, double file_size_bytes) {
  const std::int64_t size = (file_size_bytes >= 0 && file_size_bytes < 9.0e18) ? static_cast<std::int64_t>(file_size_bytes) : -1;
  return edge::describe_model_file(leading_bytes, size);
}

bool is_error_response(const std::string& response_json) {
  return response_json.rfind("{\"error\":", 0) == 0;
}

}  // namespace llmsizer
