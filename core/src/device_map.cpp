// SPDX-License-Identifier: MIT
#include "llmsizer/device_map.hpp"

#include <algorithm>

#include "llmsizer/quantization.hpp"

namespace llmsizer {

namespace {

/// A module accelerate places whole: the embeddings (and what precedes the layers), one decoder
/// layer, the final norm, the output head.
struct Block {
  int layer = -1;          ///< decoder layer, -1 outside the layers
  bool before = false;     ///< precedes the layers (token embedding, a vision tower)
  bool output = false;     ///< the output head
  std::int64_t bytes = 0;
};

}  // namespace

std::vector<DeviceShare> balanced_device_map(const std::vector<TensorInfo>& tensors, const WeightsLayout& layout, int gpus) {
  gpus = std::max(1, gpus);
  std::vector<Block> blocks;
  std::int64_t leaves = 0;
  bool seen_layer = false;
  const std::size_t n = std::min(tensors.size(), layout.tensors.size());
  for (std::size_t i = 0; i < n; ++i) {
    const TensorInfo& t = tensors[i];
    const std::int64_t bytes = layout.tensors[i].bytes;
    if (t.role != TensorRole::bias) leaves += 1;  // one weight per leaf module (Linear, Embedding, norm)
    if (t.layer >= 0) {
      seen_layer = true;
      if (blocks.empty() || blocks.back().layer != t.layer) blocks.push_back({t.layer, false, false, 0});
      blocks.back().bytes += bytes;
    } else if (!seen_layer) {
      if (blocks.empty() || !blocks.back().before) blocks.push_back({-1, true, false, 0});
      blocks.back().bytes += bytes;
    } else {
      // After the layers: the final norm, then the output head, each its own module.
      const bool output = t.role == TensorRole::output;
      if (blocks.empty() || blocks.back().layer >= 0 || blocks.back().output != output) blocks.push_back({-1, false, output, 0});
      blocks.back().bytes += bytes;
    }
  }
  std::int64_t total = 0, largest_layer = 0, largest_module = 0;
  for (const Block& b : blocks) {
    total += b.bytes;
    if (b.layer >= 0) largest_layer = std::max(largest_layer, b.bytes);
    largest_module = std::max(largest_module, b.bytes);
  }
  const std::int64_t mean_leaf = leaves > 0 ? total / leaves : 0;
  const std::int64_t buffer = static_cast<std::int64_t>(1.25 * static_cast<double>(std::max(largest_layer, mean_leaf)));
  const std::int64_t per_gpu = total / gpus + buffer;

  std::vector<DeviceShare> shares(static_cast<std::size_t>(gpus));
  int device = 0;
  std::int64_t used = 0;
  for (const Block& b : blocks) {
    // GPU 0 keeps room for the largest module; the last GPU takes whatever is left.
    auto capacity = [&] { return device == 0 ? per_gpu - largest_module : per_gpu; };
    // A module that does not fit goes to the next GPU, even one that holds nothing yet (accelerate's
    // "Case 1": a decoder layer is never split).
    while (device < gpus - 1 && used + b.bytes > capacity()) {
      device += 1;
      used = 0;
    }
    DeviceShare& s = shares[static_cast<std::size_t>(device)];
    if (b.layer >= 0) {
      if (s.layers == 0) s.first_layer = b.layer;
      s.layers += 1;
    }
    s.embeddings = s.embeddings || b.before;
    s.output_head = s.output_head || b.output;
    s.weight_bytes += b.bytes;
    used += b.bytes;
  }
  // A tied model has no output tensor: its logits are made after the final norm, on the last GPU
  // that holds anything.
  const bool any_head = std::any_of(shares.begin(), shares.end(), [](const DeviceShare& s) { return s.output_head; });
  if (!any_head) {
    for (auto it = shares.rbegin(); it != shares.rend(); ++it) {
      if (it->weight_bytes > 0) {
        it->output_head = true;
        break;
      }
    }
  }
  return shares;
}

}  // namespace llmsizer
