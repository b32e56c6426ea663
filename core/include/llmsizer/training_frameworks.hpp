// SPDX-License-Identifier: MIT
#pragma once
/// Training memory as the training frameworks allocate it, beyond the textbook model states:
/// DeepSpeed ZeRO-1/2 gradient buckets and step buffers (its config defaults), PyTorch FSDP's
/// load-time peak, litgpt's chunked loss, Unsloth's offloaded gradient checkpointing, and the
/// largest sequence length / micro-batch that fit a device. Pure functions over plain structs;
/// training.cpp calls them.
#include <cstdint>

#include "llmsizer/largest_fitting.hpp"

namespace llmsizer {

/// The program that runs the training.
enum class TrainingFramework {
  trainer,    ///< Hugging Face Trainer / plain PyTorch (DDP on several GPUs; DeepSpeed when zero_stage ≥ 1)
  deepspeed,  ///< DeepSpeed ZeRO (zero_stage 1-3; 0 is taken as 1)
  fsdp,       ///< PyTorch FSDP, FULL_SHARD, a full state dict loaded after sharding (accelerate, Lightning)
  litgpt,     ///< Lightning litgpt finetune scripts: bf16-true, chunked cross-entropy, FSDP on several GPUs
  unsloth,    ///< Unsloth: offloaded gradient checkpointing, fused cross-entropy
};

const char* training_framework_id(TrainingFramework framework);

/// DeepSpeed ZeRO-1/2 settings that size its buffers. Defaults are DeepSpeed's own
/// (deepspeed/runtime/zero/config.py DeepSpeedZeroConfig): reduce_bucket_size 5e8 elements,
/// overlap_comm false below stage 3.
struct ZeroConfig {
  std::int64_t reduce_bucket_size = 500'000'000;
  bool overlap_comm = false;
};

/// DeepSpeed ZeRO-1/2 memory beyond the partitioned states (deepspeed/runtime/zero/stage_1_and_2.py):
/// - `backward()` allocates the "ipg" bucket of reduce_bucket_size gradient elements, a second one
///   when overlap_comm double-buffers (contiguous_gradients, the default);
/// - `step()` flattens the partition's 16-bit gradients (flatten_dense_tensors_aligned, a copy) and
///   converts the copy to fp32 (`.to(fp32)`): both exist at once, then the fp32 one until the step ends.
struct ZeroBuffers {
  std::int64_t bucket_bytes = 0;          ///< ipg buckets, alive from backward on
  std::int64_t step_temporary_bytes = 0;  ///< flattened 16-bit + fp32 gradient partition during the step
};
ZeroBuffers zero12_buffers(std::int64_t trainable_params, int gradient_bytes, int gpus, const ZeroConfig& config);

/// PyTorch FSDP (FULL_SHARD) on `gpus` devices. Loading a full state dict into the sharded model
/// (Lightning Fabric `load_raw`/`load_checkpoint` with state_dict_type="full", accelerate's FSDP
/// without sharded loading) unshards every parameter on each rank: for a moment the rank holds
/// the whole 16-bit model next to its flat shard.
struct FsdpMemory {
  std::int64_t sharded_weights_bytes = 0;  ///< 16-bit weights ÷ gpus (the flat parameter shard)
  std::int64_t gathered_unit_bytes = 0;    ///< unsharded units in flight: the current block and the prefetched one
  std::int64_t load_peak_bytes = 0;        ///< whole 16-bit model + its shard, while the state dict loads
};
FsdpMemory fsdp_memory(std::int64_t weight_bytes, std::int64_t largest_block_bytes, int gpus);

/// NCCL's device memory per GPU when a training run spans several GPUs (DDP, DeepSpeed, FSDP all
/// reduce through one NCCL communicator): per-channel FIFO buffers for each protocol and peer,
/// allocated with cudaMalloc outside PyTorch's caching allocator, so nvidia-smi and an
/// out-of-memory error see them while torch.cuda.max_memory_allocated does not. Measured through
/// PyTorch on 4 A100s with NVLink, one 4 MB all-reduce per process group: 544 MB for a 2-GPU
/// group, 688 MB for 3 or 4 GPUs (NVIDIA/nccl#964; read as MiB, nvidia-smi's unit). NCCL's
/// maintainers: the memory is linear in the channel count, and rings keep 2 connections whatever
/// the scale (NVIDIA/nccl#864), so larger groups on one node stay near the 4-GPU figure. PCIe
/// boxes open fewer channels than NVLink ones: there the figure is an upper bound.
constexpr std::int64_t kNcclTwoGpuBytes = 544LL * 1024 * 1024;
constexpr std::int64_t kNcclManyGpuBytes = 688LL * 1024 * 1024;
/// The communicator's device memory on each of `gpus` GPUs (0 for one GPU: no communicator).
std::int64_t nccl_communicator_bytes(int gpus);

/// Unsloth's offloaded gradient checkpointing ("unsloth" use_gradient_checkpointing): each
/// checkpointed layer input is copied to host RAM after the forward and back before its
/// recomputation, so the GPU holds ~2 of them (the one in flight and the prefetched one) instead
/// of one per layer (unsloth/models/_utils.py Unsloth_Offloaded_Gradient_Checkpointer).
constexpr int kUnslothLayerInputsOnGpu = 2;

/// Unsloth's causal-LM forward returns logits up to this many tokens per batch ("< 1024 Normal
/// Unsloth uses less VRAM!", unsloth/models/llama.py, 2025-01) and uses Cut Cross-Entropy above.
constexpr std::int64_t kUnslothLogitsTokens = 1024;


}  // namespace llmsizer
