// SPDX-License-Identifier: MIT
#include "model_files/gguf_tensor_list.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/ggml_types.hpp"

namespace llmsizer::edge {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxLayer = 1'000'000;  // far above any model's block count (DeepSeek-V3: 61)

/// "blk.12.attn_q.weight" → {12, "attn_q.weight"}; nullopt for a tensor outside the layers.
std::optional<std::pair<std::int64_t, std::string>> layer_of(const std::string& name) {
  if (name.compare(0, 4, "blk.") != 0) return std::nullopt;
  std::size_t i = 4;
  std::int64_t layer = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && layer <= kMaxLayer) layer = layer * 10 + (name[i++] - '0');
  if (i == 4 || i >= name.size() || name[i] != '.' || layer > kMaxLayer) return std::nullopt;
  return std::make_pair(layer, name.substr(i + 1));
}

json shape_json(const std::vector<std::int64_t>& shape) {
  json out = json::array();
  for (const std::int64_t d : shape) out.push_back(d);
  return out;
}

}  // namespace

json gguf_tensor_list_json(const std::vector<GgufTensor>& tensors) {
  json out = json::array();
  // The entry each (suffix, type, shape) run is extending, and the layer it has reached.
  std::map<std::string, std::pair<std::size_t, std::int64_t>> open;
  for (const auto& t : tensors) {
    const auto layer = layer_of(t.name);
    if (layer) {
      std::string key = layer->second + '\n' + t.type;
      for (const std::int64_t d : t.shape) key += ' ' + std::to_string(d);
      const auto it = open.find(key);
      if (it != open.end() && it->second.second == layer->first - 1) {
        json& entry = out[it->second.first];
        if (entry.size() == 3) entry.push_back(layer->first);
        else entry[3] = layer->first;
        it->second.second = layer->first;
        continue;
      }
      open[key] = {out.size(), layer->first};
    }
    out.push_back(json::array({t.name, t.type, shape_json(t.shape)}));
  }
  return out;
}

std::vector<GgufTensor> gguf_tensor_list(const json& list, const std::string& field) {
  if (!list.is_array() || list.size() > kGgufMaxTensors) {
    throw InputError(field, Message("error.model.tensors").integer("max", static_cast<std::int64_t>(kGgufMaxTensors)));
  }
  struct Placed {
    std::int64_t order;  ///< -1: before the layers; the layer; kMaxLayer + 1: after them
    GgufTensor tensor;
  };
  std::vector<Placed> placed;
  bool layers_seen = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& t = list[i];
    const std::string at = field + "[" + std::to_string(i) + "]";
    auto bad = [&]() { return InputError(at, Message("error.model.tensor").text("got", t.dump(-1, ' ', true))); };
    if (!t.is_array() || t.size() < 3 || t.size() > 4 || !t[0].is_string() || !t[1].is_string() || !t[2].is_array()) throw bad();
    const std::string& name = t[0].get_ref<const std::string&>();
    const GgmlTypeInfo* type = ggml_type_by_name(t[1].get_ref<const std::string&>());
    if (name.empty() || type == nullptr || t[2].empty() || t[2].size() > 4) throw bad();
    GgufTensor tensor{name, {}, std::string(type->name), 0};
    for (const json& d : t[2]) {
      if (!d.is_number_integer() || d.get<std::int64_t>() < 1) throw bad();
      tensor.shape.push_back(d.get<std::int64_t>());
    }
    const std::optional<std::int64_t> bytes = ggml_tensor_bytes(*type, tensor.shape.data(), static_cast<int>(tensor.shape.size()));
    if (!bytes) throw bad();
    tensor.bytes = *bytes;
    const auto layer = layer_of(name);
    std::int64_t last = layer ? layer->first : 0;
    if (t.size() == 4) {
      if (!layer || !t[3].is_number_integer() || t[3].get<std::int64_t>() <= layer->first || t[3].get<std::int64_t>() > kMaxLayer) throw bad();
      last = t[3].get<std::int64_t>();
      if (placed.size() + static_cast<std::size_t>(last - layer->first) >= kGgufMaxTensors) {
        throw InputError(field, Message("error.model.tensors").integer("max", static_cast<std::int64_t>(kGgufMaxTensors)));
      }
    }
    if (!layer) {
      placed.push_back({layers_seen ? kMaxLayer + 1 : -1, std::move(tensor)});
      continue;
    }
    layers_seen = true;
    for (std::int64_t l = layer->first; l <= last; ++l) {
      GgufTensor copy = tensor;
      if (l != layer->first) copy.name = "blk." + std::to_string(l) + "." + layer->second;
      placed.push_back({l, std::move(copy)});
    }
  }
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.order < b.order; });
  std::vector<GgufTensor> out;
  out.reserve(placed.size());
  for (auto& p : placed) out.push_back(std::move(p.tensor));
  return out;
}

}  // namespace llmsizer::edge
