// SPDX-License-Identifier: MIT
#pragma once
/// PyTorch's CUDA caching allocator, as far as sizing needs it: which segments it holds (what
/// torch.cuda.max_memory_reserved and, with the CUDA context, nvidia-smi show) and whether a request
/// fails although fewer bytes are allocated than the device has (fragmentation: a free block too
/// small, inside a segment that a live tensor keeps).
///
/// The rules, from c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.1; the same through 2.5):
///  - a request is rounded up to a multiple of 512 B (kMinBlockSize);
///  - blocks of at most 1 MiB (kSmallSize) come from the small pool, larger ones from the large pool;
///  - a request takes the smallest free cached block of its pool that holds it (best fit, ties by
///    address), and the rest is split off as a free block when at least 512 B (small pool) or more
///    than 1 MiB (large pool) is left (should_split);
///  - without such a block a new segment is cudaMalloc'ed: 2 MiB (kSmallBuffer) for a small request,
///    20 MiB (kLargeBuffer) below 10 MiB (kMinLargeAlloc), else the request rounded up to 2 MiB
///    (kRoundLarge);
///  - a freed block merges with its free neighbours in the same segment and returns to its pool;
///  - when cudaMalloc fails, every cached segment that is wholly free is released (cudaFree) and the
///    cudaMalloc is tried once more; if it fails again the request raises "CUDA out of memory".
/// Not modelled: several streams, expandable segments, max_split_size_mb and the garbage collection
/// threshold (all off by default).
#include <cstdint>
#include <vector>

namespace llmsizer {

/// The allocator's sizes (CUDACachingAllocator.cpp constants).
constexpr std::int64_t kAllocatorMinBlockBytes = 512;
constexpr std::int64_t kAllocatorSmallSizeBytes = 1LL << 20;
constexpr std::int64_t kAllocatorSmallBufferBytes = 2LL << 20;
constexpr std::int64_t kAllocatorLargeBufferBytes = 20LL << 20;
constexpr std::int64_t kAllocatorMinLargeAllocBytes = 10LL << 20;
constexpr std::int64_t kAllocatorRoundLargeBytes = 2LL << 20;

/// A request's size as the allocator books it: a multiple of 512 B, at least 512 B.
std::int64_t allocator_block_bytes(std::int64_t request_bytes);
/// The segment cudaMalloc'ed for a block of `block_bytes` that no cached block holds.
std::int64_t allocator_segment_bytes(std::int64_t block_bytes);

class CachingAllocator {
 public:
  static constexpr std::int64_t kUnbounded = -1;
  /// `capacity_bytes`: what cudaMalloc can hand out in all (kUnbounded: it never fails).
  explicit CachingAllocator(std::int64_t capacity_bytes = kUnbounded) : capacity_(capacity_bytes) {}

  /// A tensor of `bytes`: its handle, or -1 when the request raises out-of-memory.
  int allocate(std::int64_t bytes);
  /// Frees the tensor `handle` (-1 is ignored).
  void release(int handle);

  std::int64_t reserved_bytes() const { return reserved_; }
  std::int64_t allocated_bytes() const { return allocated_; }
  std::int64_t peak_reserved_bytes() const { return peak_reserved_; }
  std::int64_t peak_allocated_bytes() const { return peak_allocated_; }
  bool out_of_memory() const { return out_of_memory_; }

 private:
  struct Block {
    std::int64_t bytes = 0;
    std::int64_t address = 0;
    int prev = -1;  ///< neighbours in the same segment
    int next = -1;
    bool free = true;
    bool small = false;
  };
  /// A free block's place in its pool, ordered by (bytes, address) as the allocator's BlockComparator.
  struct FreeKey {
    std::int64_t bytes;
    std::int64_t address;
    int block;
    bool operator<(const FreeKey& o) const { return bytes != o.bytes ? bytes < o.bytes : address < o.address; }
  };
  /// A pool holds a few dozen free blocks here: a sorted vector (no node per insertion).
  std::vector<FreeKey>& pool(bool small) { return small ? small_pool_ : large_pool_; }
  void insert_free(int b);
  void erase_free(int b);
  void release_free_segments();

  std::int64_t capacity_;
  std::vector<Block> blocks_;
  std::vector<FreeKey> small_pool_;
  std::vector<FreeKey> large_pool_;
  std::int64_t next_address_ = 0;
  std::int64_t reserved_ = 0;
  std::int64_t allocated_ = 0;
  std::int64_t peak_reserved_ = 0;
  std::int64_t peak_allocated_ = 0;
  bool out_of_memory_ = false;
};

}  // namespace llmsizer
