// SPDX-License-Identifier: MIT
// The compiled-in data files as the estimator's Catalog: presets from data/models, devices from
// data/hardware and data/measured.
#include "llmsizer/embedded_catalog.hpp"

#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/embedded_catalog_docs.hpp"
#include "catalog/hardware_json.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/tensors.hpp"
#include "json_text.hpp"

namespace llmsizer {

using nlohmann::json;
using edge::parse_json;

std::vector<HardwareSpec> hardware_from_probe_text(std::string_view probe_json) {
  return hardware_from_probe(parse_json(probe_json));
}

const std::vector<HardwareSpec>& hardware_catalog() {
  static const std::vector<HardwareSpec> catalog = [] {
    std::vector<HardwareSpec> gpus, rest;
    std::vector<json> later;
    for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
      if (doc->kind == "hardware") {
        json d = parse_json(doc->json);
        if (d.value("kind", std::string()) == "gpu") gpus.push_back(hardware_from_json(d, std::string(doc->id), gpus));
        else later.push_back(std::move(d));
      } else if (doc->kind == "measured") {
        for (auto& h : hardware_from_probe(parse_json(doc->json))) rest.push_back(std::move(h));
      }
    }
    std::vector<HardwareSpec> all = gpus;
    for (const auto& d : later) all.push_back(hardware_from_json(d, d.value("id", std::string()), gpus));
    for (auto& h : rest) all.push_back(std::move(h));
    return all;
  }();
  return catalog;
}

std::optional<HardwareSpec> hardware_entry(std::string_view id) {
  const std::string lower = ascii_lower(id);
  // data/hardware/<id>.json: the file stem is the entry's id (tests/hardware_data_test.cpp).
  const EmbeddedDocument* doc = find_embedded_document("hardware", lower);
  if (doc == nullptr) {
    const HardwareSpec* h = find_hardware(lower);
    return h != nullptr ? std::optional<HardwareSpec>(*h) : std::nullopt;
  }
  const json d = parse_json(doc->json);
  std::vector<HardwareSpec> gpus;  // what hardware_catalog() hands an instance or laptop: its GPU
  const std::string gpu_id = json_string(d, "kind") != "gpu" ? json_string(d, "gpu_id") : std::string();  // null for inf2
  const EmbeddedDocument* gpu_doc = gpu_id.empty() ? nullptr : find_embedded_document("hardware", gpu_id);
  if (gpu_doc != nullptr) {
    const json g = parse_json(gpu_doc->json);
    if (json_string(g, "kind") == "gpu") gpus.push_back(hardware_from_json(g, std::string(gpu_doc->id), {}));
  }
  return hardware_from_json(d, std::string(doc->id), gpus);
}

std::vector<HardwareSpec> instances_with_gpu(std::string_view gpu_id) {
  std::vector<HardwareSpec> out;
  const std::optional<HardwareSpec> gpu = hardware_entry(gpu_id);
  if (!gpu || gpu->kind != HardwareKind::gpu) return out;
  const std::vector<HardwareSpec> gpus = {*gpu};
  for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
    // A file that names the GPU contains its id; only those are parsed (ids are plain [a-z0-9.-]).
    if (doc->kind != "hardware" || doc->json.find(gpu->id) == std::string_view::npos) continue;
    const json d = parse_json(doc->json);
    if (json_string(d, "kind") == "instance" && json_string(d, "gpu_id") == gpu->id) out.push_back(hardware_from_json(d, std::string(doc->id), gpus));
  }
  return out;
}

const HardwareSpec* find_hardware(std::string_view id) {
  const std::string lower = ascii_lower(id);
  for (const auto& h : hardware_catalog()) {
    if (h.id == lower) return &h;
  }
  return nullptr;
}

namespace edge {

json preset_document(std::string_view id) {
  const EmbeddedDocument* doc = find_embedded_document("models", id);
  return doc == nullptr ? json() : parse_json(doc->json);
}

ModelSpec preset_from_document(const json& doc) {
  std::vector<Message> unused;  // a preset's unused config fields are not the user's concern
  ModelSpec m = model_from_hf_config(doc.at("config"), "model.config", unused);
  m.id = doc.at("id").get<std::string>();
  m.name = doc.value("name", m.id);
  m.hf_repo = doc.value("hf_repo", std::string());
  return m;
}

}  // namespace edge

namespace {

/** Entries made once per id, at their first request, then handed out as copies: the data never
 *  change, so a request pays for no JSON but its own. The lock makes the lazy fill safe if two
 *  threads ask at once (in single-threaded WASM it costs nothing). */
template <typename T>
class Memo {
 public:
  T get(std::string_view id, const std::function<T()>& make) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = made_.find(id);
    if (it == made_.end()) it = made_.emplace(std::string(id), make()).first;
    return it->second;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, T, std::less<>> made_;
};

/// Parses each data file when a request first needs it (one preset, one device and its GPU; the
/// whole catalog only for a recommendation), and keeps the typed result: presets with their tensor
/// lists already made (tensors.hpp), so that a request builds no JSON and no tensor names.
class EmbeddedCatalog final : public Catalog {
 public:
  std::optional<ModelSpec> model(std::string_view id) const override {
    return models_.get(id, [id]() -> std::optional<ModelSpec> {
      const json doc = edge::preset_document(id);
      if (doc.is_null()) return std::nullopt;
      ModelSpec m = edge::preset_from_document(doc);
      m.tensor_cache = make_tensor_list(m);
      return m;
    });
  }
  std::optional<HardwareSpec> hardware(std::string_view id) const override {
    return hardware_.get(ascii_lower(id), [id] { return hardware_entry(id); });
  }
  const std::vector<HardwareSpec>& all_hardware() const override { return hardware_catalog(); }
  std::vector<HardwareSpec> instances_with_gpu(std::string_view gpu_id) const override {
    return instances_.get(gpu_id, [gpu_id] { return llmsizer::instances_with_gpu(gpu_id); });
  }

 private:
  Memo<std::optional<ModelSpec>> models_;
  Memo<std::optional<HardwareSpec>> hardware_;
  Memo<std::vector<HardwareSpec>> instances_;
};

}  // namespace

const Catalog& embedded_catalog() {
  static const EmbeddedCatalog catalog;
  return catalog;
}

}  // namespace llmsizer
