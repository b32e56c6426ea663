// SPDX-License-Identifier: MIT
#include "llmsizer/training_frameworks.hpp"

#include <algorithm>

#include "arithmetic.hpp"

namespace llmsizer {

const char* training_framework_id(TrainingFramework framework) {
  switch (framework) {
    case TrainingFramework::trainer: return "trainer";
    case TrainingFramework::deepspeed: return "deepspeed";
    case TrainingFramework::fsdp: return "fsdp";
    case TrainingFramework::litgpt: return "litgpt";
    case TrainingFramework::unsloth: return "unsloth";
  }
  return "trainer";
}

ZeroBuffers zero12_buffers(std::int64_t trainable_params, int gradient_bytes, int gpus, const ZeroConfig& config) {
  ZeroBuffers b;
  const std::int64_t n = std::max(1, gpus);
  // DeepSpeedZeroOptimizer.backward: ipg_buffer = [torch.empty(reduce_bucket_size, dtype)] and,
  // with overlap_comm, a second one "to avoid data access conflict".
  b.bucket_bytes = config.reduce_bucket_size * gradient_bytes * (config.overlap_comm ? 2 : 1);
  // DeepSpeedZeroOptimizer.step: single_grad_partition =
  // flatten_dense_tensors_aligned(averaged_gradients).to(fp32): the 16-bit flat copy and the fp32
  // partition exist together.
  const std::int64_t partition = detail::ceil_div(trainable_params, n);
  b.step_temporary_bytes = partition * (gradient_bytes + 4);
  return b;
}

FsdpMemory fsdp_memory(std::int64_t weight_bytes, std::int64_t largest_block_bytes, int gpus) {
  FsdpMemory f;
  const std::int64_t n = std::max(1, gpus);
  f.sharded_weights_bytes = detail::ceil_div(weight_bytes, n);
  // Backward prefetch (BACKWARD_PRE, the default) gathers the next unit while the current one
  // computes: two units unsharded at a time.
  f.gathered_unit_bytes = n > 1 ? 2 * largest_block_bytes : 0;
  f.load_peak_bytes = n > 1 ? weight_bytes + f.sharded_weights_bytes : 0;
  return f;
}

std::int64_t nccl_communicator_bytes(int gpus) {
  if (gpus <= 1) return 0;
  return gpus == 2 ? kNcclTwoGpuBytes : kNcclManyGpuBytes;
}

}  // namespace llmsizer
