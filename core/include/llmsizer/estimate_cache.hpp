// SPDX-License-Identifier: MIT
#pragma once
/// What the many estimates of one answer's model share: a fit's searches, its fixes and the
/// estimate itself ask llama.cpp's memory for one model, one weights layout and a handful of
/// contexts and batches, and most of each estimate is the same every time. The cache is the
/// caller's (InferenceSettings::cache, owned by MemoryByDevices or a search), never global: the core
/// stays a pure function of its request, and a cache only spares work, it never changes a figure.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "llmsizer/llama_cpp.hpp"

namespace llmsizer {

struct ModelSpec;
struct TensorList;
struct WeightsLayout;

/** One micro-batch graph of llama.cpp's (the compute buffer's graph, llama_cpp_graph.hpp) by what
 *  differs between the graphs of one model: everything else of the graph is the model's. */
struct LlamaCppGraphKey {
  std::int64_t n_tokens = 0;
  std::int64_t n_outputs = 0;
  std::int64_t n_seqs = 0;
  std::int64_t n_stream = 0;
  std::int64_t kv_size = 0;
  std::int64_t kv_size_swa = 0;
  bool kv_unified = false;
  bool flash_attn = false;
  int type_k = 0;
  int type_v = 0;
  bool operator==(const LlamaCppGraphKey& o) const {
    return n_tokens == o.n_tokens && n_outputs == o.n_outputs && n_seqs == o.n_seqs && n_stream == o.n_stream && kv_size == o.kv_size &&
           kv_size_swa == o.kv_size_swa && kv_unified == o.kv_unified && flash_attn == o.flash_attn && type_k == o.type_k && type_v == o.type_v;
  }
};

/// ggml's allocator's figures for one graph: the buffer's high-water mark and the graph's inputs.
struct LlamaCppGraphBytes {
  std::int64_t compute = 0;
  std::int64_t inputs = 0;
  /// Only a bound: `compute` is at least the buffer, `inputs` not counted
  /// (llama_cpp_graph::compute_buffer_bytes_above).
  bool bound_only = false;
  /// The sum of the tensors the graph lays out, where counted (-1: not): it bounds the buffer of
  /// every graph of the same micro-batch over a cache no larger (compute_buffer_bytes_above).
  std::int64_t tensors_sum = -1;
};

/** What decides which buffer each of the model's weights goes to (llama_cpp.cpp: llama-model.cpp
 *  load_tensors) where no -ot pattern moves a tensor: the same for every context and batch. */
struct LlamaCppWeightsKey {
  bool file_tensors = false;  ///< the model's own GGUF file's tensors, else the cache's `tensors`
  int first_gpu_layer = 0;    ///< the first layer on the GPU (the output layer is n_layer; none: INT_MAX)
  bool gpu = false;
  bool mmap = true;
  LlamaCppCpu cpu = LlamaCppCpu::none;
  bool operator==(const LlamaCppWeightsKey& o) const {
    return file_tensors == o.file_tensors && first_gpu_layer == o.first_gpu_layer && gpu == o.gpu && mmap == o.mmap && cpu == o.cpu;
  }
};

/// The weights' buffers (LlamaCppMemory's fields of the same names).
struct LlamaCppWeights {
  std::int64_t mapped = 0;
  std::int64_t cpu = 0;
  std::int64_t repack = 0;
  std::int64_t device = 0;
  std::int64_t mapped_repacked = 0;
  std::int64_t tensors_device = 0;
  std::int64_t tensors_mapped = 0;
  std::int64_t tensors_cpu = 0;
  std::int64_t tensors_repack = 0;
};

/** Kept by whoever lays the weights out once for many estimates (MemoryByDevices, a search): it
 *  names that model and layout, which must outlive it, and serves only their estimates (another
 *  model's or layout's estimate, a draft's or a fix's in another format, works as without it). */
struct EstimateCache {
  EstimateCache(const ModelSpec& of_model, const WeightsLayout& of_layout) : model(&of_model), layout(&of_layout) {}
  EstimateCache(const EstimateCache&) = delete;  // its owner's pointers are into the owner
  EstimateCache& operator=(const EstimateCache&) = delete;
  const ModelSpec* model;
  const WeightsLayout* layout;
  /// The model's llama.cpp graphs built so far (the buffers depend on no weights format).
  std::vector<std::pair<LlamaCppGraphKey, LlamaCppGraphBytes>> graphs;
  /// The model's tensor list, which the layout was made from (read in the layout's types, never
  /// copied); null until an estimate needs it.
  std::shared_ptr<const TensorList> planned;
  /// The buffers of `planned` in the layout (or of the model's own file's tensors) placed so far: only
  /// those two lists are the cache's to name, so an estimate of any other list, or with -ot patterns, places it anew.
  std::vector<std::pair<LlamaCppWeightsKey, LlamaCppWeights>> weights;
  /// The kernels llama.cpp dispatches for one decode (llama_cpp_decode_dispatches), without and with
  /// flash attention; -1 until counted.
  std::int64_t llama_cpp_decode_dispatches[2] = {-1, -1};
};

}  // namespace llmsizer
