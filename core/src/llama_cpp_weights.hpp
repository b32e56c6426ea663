// SPDX-License-Identifier: MIT
#pragma once
// The weights llama.cpp's memory places, read where they already are: a GGUF file's tensor list, or
// the model's planned tensor list (tensors.hpp tensor_list) in a layout's types and bytes, index for
// index. A planned list copied into GgufTensors took a name and a shape allocated per tensor, hundreds
// per layout, for every layout an answer estimates. Private to the core: llama_cpp.cpp, ollama.cpp
// and memory.cpp (llama_cpp_estimate) use it; the public calls take a GgufTensor list.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/ollama.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/tensors.hpp"

namespace llmsizer {

/// One weight as llama.cpp's loader sees it (GgufTensor's fields, not owned).
struct LlamaCppWeight {
  std::string_view name;
  const std::vector<std::int64_t>* shape = nullptr;
  std::string_view type;
  std::int64_t bytes = 0;
};

/// A list of weights in the GGUF file's order: a file's tensors, or a planned list in a layout.
class LlamaCppWeightList {
 public:
  static LlamaCppWeightList of_file(const std::vector<GgufTensor>& tensors) {
    LlamaCppWeightList list;
    list.file_ = &tensors;
    return list;
  }
  /// `infos` (the list `layout` was made from: weights_layout) in the layout's types and bytes.
  static LlamaCppWeightList planned(const std::vector<TensorInfo>& infos, const WeightsLayout& layout) {
    LlamaCppWeightList list;
    list.infos_ = &infos;
    list.layout_ = &layout;
    return list;
  }
  std::size_t size() const { return file_ != nullptr ? file_->size() : std::min(infos_->size(), layout_->tensors.size()); }
  LlamaCppWeight operator[](std::size_t i) const {
    if (file_ != nullptr) {
      const GgufTensor& t = (*file_)[i];
      return {t.name, &t.shape, t.type, t.bytes};
    }
    const TensorInfo& info = (*infos_)[i];
    const TensorStorage& stored = layout_->tensors[i];
    return {info.name, &info.shape, stored.type, stored.bytes};
  }
  /// The file's list, or null for a planned one.
  const std::vector<GgufTensor>* file() const { return file_; }
  /// The layout of a planned list, or null for a file's.
  const WeightsLayout* layout() const { return layout_; }

 private:
  const std::vector<GgufTensor>* file_ = nullptr;
  const std::vector<TensorInfo>* infos_ = nullptr;
  const WeightsLayout* layout_ = nullptr;
};

/// llama_cpp_memory over `weights` (a planned list places as the same list copied into GgufTensors would).
LlamaCppMemory llama_cpp_memory(const ModelSpec& model, const LlamaCppWeightList& weights, const LlamaCppSettings& settings, EstimateCache* cache);
/// ollama_memory over `weights`.
OllamaMemory ollama_memory(const ModelSpec& model, const LlamaCppWeightList& weights, const OllamaSettings& settings, EstimateCache* cache);

}  // namespace llmsizer
