// SPDX-License-Identifier: MIT
#pragma once
/// How a model's layers are placed on several GPUs by Hugging Face accelerate's device_map="auto"
/// (transformers `from_pretrained(device_map="auto")`, AutoAWQ `from_quantized(device_map="balanced")`):
/// a layer split, not tensor parallelism. Each GPU holds whole consecutive decoder layers and computes
/// every attention head of them; the first holds the token embeddings, the last the final norm and
/// the output head, where the logits are made.
#include <cstdint>
#include <vector>

#include "llmsizer/tensors.hpp"

namespace llmsizer {

struct WeightsLayout;  // quantization.hpp

/// What one GPU holds under the split.
struct DeviceShare {
  int first_layer = 0;            ///< first decoder layer on this GPU (meaningless when `layers` is 0)
  int layers = 0;                 ///< decoder layers on this GPU
  std::int64_t weight_bytes = 0;  ///< bytes of every tensor placed here
  bool embeddings = false;        ///< the token embedding and whatever precedes the first layer
  bool output_head = false;       ///< the output head (or, tied, the final norm): the logits are made here
};

/** accelerate's split of `tensors` (model_tensors order, bytes from `layout`, tensor for tensor) over
 *  `gpus` GPUs with free memory to spare, as device_map="auto" computes it
 *  (accelerate/utils/modeling.py, v0.20 to v1.x):
 *  - get_balanced_memory: each GPU but the last may take total / gpus + 1.25 × max(largest decoder
 *    layer, mean leaf module), the last GPU its whole free memory ("the last device is left with
 *    max_memory just in case the buffer is not enough");
 *  - infer_auto_device_map: modules in order (embeddings, layer 0 … L−1, final norm, output head),
 *    a decoder layer never split; GPU 0, the main device, keeps room for the largest of them
 *    ("Reduce max size available by the largest layer"); a module that does not fit goes to the
 *    next GPU.
 *  Returns one share per GPU (a GPU may hold nothing). The leaf modules are counted as the tensors
 *  that are not biases (one weight per Linear, Embedding or norm). */
std::vector<DeviceShare> balanced_device_map(const std::vector<TensorInfo>& tensors, const WeightsLayout& layout, int gpus);

}  // namespace llmsizer
