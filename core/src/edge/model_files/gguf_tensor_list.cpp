// SPDX-License-Identifier: MIT
#include "model_files/gguf_tensor_list.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/ggml_types.hpp"

namespace llmsizer::edge {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxLayer = 1'000'000;  // far above any model's block count (DeepSeek-V3: 61)

/// Where "blk.12.attn_q.weight" has its layer: 12, and its suffix "attn_q.weight" from `suffix`;
/// -1 for a tensor outside the layers.
std::int64_t layer_of(const std::string& name, std::size_t& suffix) {
  if (name.compare(0, 4, "blk.") != 0) return -1;
  std::size_t i = 4;
  std::int64_t layer = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && layer <= kMaxLayer) layer = layer * 10 + (name[i++] - '0');
  if (i == 4 || i >= name.size() || name[i] != '.' || layer > kMaxLayer) return -1;
  suffix = i + 1;
  return layer;
}

/// An entry as the list writes it: [name, type, shape] or, for a run, [name, type, shape, last].
json run_json(const GgufTensorRun& run) {
  json entry = json::array({run.tensor.name, run.tensor.type, run.tensor.shape});
  if (run.last > run.first) entry.push_back(run.last);
  return entry;
}

}  // namespace

std::vector<GgufTensorRun> gguf_tensor_runs(const GgufHeader& header) {
  const auto& tensors = header.tensors;
  std::vector<GgufTensorRun> out;
  // The previous layer's tensors (index into `tensors`) and the entries they went to, in file
  // order: the tensor at the same place in the next layer extends that entry when it is the same
  // (suffix, type and shape).
  std::vector<std::pair<std::size_t, std::size_t>> previous, current;
  std::int64_t current_layer = -1;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const GgufTensorInfo& t = tensors[i];
    std::size_t suffix = 0;
    const std::int64_t layer = layer_of(t.name, suffix);
    if (layer >= 0 && layer != current_layer) {
      previous.clear();
      if (layer == current_layer + 1) previous.swap(current);
      current.clear();
      current_layer = layer;
    }
    if (layer >= 0 && current.size() < previous.size()) {
      const auto [earlier, entry] = previous[current.size()];
      const GgufTensorInfo& e = tensors[earlier];
      std::size_t earlier_suffix = 0;
      layer_of(e.name, earlier_suffix);
      if (e.type_id == t.type_id && e.n_dims == t.n_dims && e.dims == t.dims &&
          t.name.compare(suffix, std::string::npos, e.name, earlier_suffix) == 0) {
        out[entry].last = layer;
        current.emplace_back(i, entry);
        continue;
      }
    }
    if (layer >= 0) current.emplace_back(i, out.size());
    GgufTensorRun run{{t.name, {t.dims.begin(), t.dims.begin() + t.n_dims}, std::string(ggml_type_info(t.type_id)->name), t.bytes}, suffix, layer, layer};
    out.push_back(std::move(run));
  }
  return out;
}

json gguf_tensor_list_json(const std::vector<GgufTensorRun>& runs) {
  json out = json::array();
  for (const GgufTensorRun& run : runs) out.push_back(run_json(run));
  return out;
}

std::vector<GgufTensor> gguf_tensors_of_runs(std::vector<GgufTensorRun> entries, const std::string& field) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    GgufTensorRun& e = entries[i];
    const GgmlTypeInfo* type = ggml_type_by_name(e.tensor.type);
    const bool dims_ok = !e.tensor.shape.empty() && e.tensor.shape.size() <= 4 &&
                         std::all_of(e.tensor.shape.begin(), e.tensor.shape.end(), [](std::int64_t d) { return d >= 1; });
    const std::optional<std::int64_t> bytes = type && dims_ok ? ggml_tensor_bytes(*type, e.tensor.shape.data(), static_cast<int>(e.tensor.shape.size())) : std::nullopt;
    if (e.tensor.name.empty() || !bytes) {
      throw InputError(field + "[" + std::to_string(i) + "]", Message("error.model.tensor").text("got", run_json(e).dump(-1, ' ', true)));
    }
    e.tensor.bytes = *bytes;
    count += static_cast<std::size_t>(e.first >= 0 ? e.last - e.first + 1 : 1);
  }
  // Out: the tensors listed before the first layer's, the layers' layer by layer (each layer's in
  // the entries' order), then the rest.
  std::vector<GgufTensor> out;
  out.reserve(count);
  std::vector<std::pair<std::int64_t, std::size_t>> by_layer;  // (first layer, entry)
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].first >= 0) by_layer.emplace_back(entries[i].first, i);
    else if (by_layer.empty()) out.push_back(entries[i].tensor);
  }
  std::sort(by_layer.begin(), by_layer.end());
  std::vector<const GgufTensorRun*> active, still;
  std::size_t next = 0;
  for (std::int64_t layer = 0; next < by_layer.size() || !active.empty(); ++layer) {
    if (active.empty()) layer = by_layer[next].first;
    for (; next < by_layer.size() && by_layer[next].first == layer; ++next) active.push_back(&entries[by_layer[next].second]);
    still.clear();
    for (const GgufTensorRun* e : active) {
      GgufTensor t = e->tensor;
      if (layer != e->first) t.name = "blk." + std::to_string(layer) + "." + t.name.substr(e->suffix);
      out.push_back(std::move(t));
      if (e->last > layer) still.push_back(e);
    }
    std::swap(active, still);
  }
  bool layers_seen = false;
  for (const GgufTensorRun& e : entries) {
    layers_seen = layers_seen || e.first >= 0;
    if (layers_seen && e.first < 0) out.push_back(e.tensor);
  }
  return out;
}

std::vector<GgufTensor> gguf_tensor_list(const json& list, const std::string& field) {
  const InputError too_many(field, Message("error.model.tensors").integer("max", static_cast<std::int64_t>(kGgufMaxTensors)));
  if (!list.is_array() || list.size() > kGgufMaxTensors) throw too_many;
  std::vector<GgufTensorRun> entries;
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& t = list[i];
    auto bad = [&]() { return InputError(field + "[" + std::to_string(i) + "]", Message("error.model.tensor").text("got", t.dump(-1, ' ', true))); };
    if (!t.is_array() || t.size() < 3 || t.size() > 4 || !t[0].is_string() || !t[1].is_string() || !t[2].is_array()) throw bad();
    const GgmlTypeInfo* type = ggml_type_by_name(t[1].get_ref<const std::string&>());
    if (t[0].get_ref<const std::string&>().empty() || type == nullptr || t[2].empty() || t[2].size() > 4) throw bad();
    GgufTensorRun e{{t[0].get<std::string>(), {}, std::string(type->name), 0}};
    for (const json& d : t[2]) {
      if (!d.is_number_integer() || d.get<std::int64_t>() < 1) throw bad();
      e.tensor.shape.push_back(d.get<std::int64_t>());
    }
    if (!ggml_tensor_bytes(*type, e.tensor.shape.data(), static_cast<int>(e.tensor.shape.size()))) throw bad();
    e.first = e.last = layer_of(e.tensor.name, e.suffix);
    if (t.size() == 4) {
      if (e.first < 0 || !t[3].is_number_integer() || t[3].get<std::int64_t>() <= e.first || t[3].get<std::int64_t>() > kMaxLayer) throw bad();
      e.last = t[3].get<std::int64_t>();
    }
    count += static_cast<std::uint64_t>(e.first >= 0 ? e.last - e.first + 1 : 1);
    if (count > kGgufMaxTensors) throw too_many;
    entries.push_back(std::move(e));
  }
  return gguf_tensors_of_runs(std::move(entries), field);
}

}  // namespace llmsizer::edge
