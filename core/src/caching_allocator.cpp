// SPDX-License-Identifier: MIT
#include "llmsizer/caching_allocator.hpp"

#include <algorithm>

namespace llmsizer {

std::int64_t allocator_block_bytes(std::int64_t request_bytes) {
  if (request_bytes < kAllocatorMinBlockBytes) return kAllocatorMinBlockBytes;
  return (request_bytes + kAllocatorMinBlockBytes - 1) / kAllocatorMinBlockBytes * kAllocatorMinBlockBytes;
}

std::int64_t allocator_segment_bytes(std::int64_t block_bytes) {
  if (block_bytes <= kAllocatorSmallSizeBytes) return kAllocatorSmallBufferBytes;
  if (block_bytes < kAllocatorMinLargeAllocBytes) return kAllocatorLargeBufferBytes;
  return (block_bytes + kAllocatorRoundLargeBytes - 1) / kAllocatorRoundLargeBytes * kAllocatorRoundLargeBytes;
}

void CachingAllocator::insert_free(int b) {
  auto& p = pool(blocks_[b].small);
  const FreeKey key{blocks_[b].bytes, blocks_[b].address, b};
  p.insert(std::upper_bound(p.begin(), p.end(), key), key);
}

void CachingAllocator::erase_free(int b) {
  auto& p = pool(blocks_[b].small);
  const FreeKey key{blocks_[b].bytes, blocks_[b].address, b};
  const auto it = std::lower_bound(p.begin(), p.end(), key);
  if (it != p.end() && it->block == b) p.erase(it);
}

void CachingAllocator::release_free_segments() {
  // release_cached_blocks: a free block without neighbours is a whole segment that nothing uses.
  for (auto* p : {&small_pool_, &large_pool_}) {
    p->erase(std::remove_if(p->begin(), p->end(),
                            [&](const FreeKey& key) {
                              const Block& block = blocks_[key.block];
                              if (block.prev >= 0 || block.next >= 0) return false;
                              reserved_ -= block.bytes;
                              return true;
                            }),
             p->end());
  }
}

int CachingAllocator::allocate(std::int64_t bytes) {
  const std::int64_t size = allocator_block_bytes(bytes);
  const bool small = size <= kAllocatorSmallSizeBytes;
  auto& free_blocks = pool(small);
  int b = -1;
  // Best fit: the smallest cached block that holds the request (get_free_block).
  const auto it = std::lower_bound(free_blocks.begin(), free_blocks.end(), FreeKey{size, -1, -1});
  if (it != free_blocks.end()) {
    b = it->block;
    free_blocks.erase(it);
  } else {
    const std::int64_t segment = allocator_segment_bytes(size);
    if (capacity_ >= 0 && reserved_ + segment > capacity_) {
      release_free_segments();
      if (reserved_ + segment > capacity_) {
        out_of_memory_ = true;
        return -1;
      }
    }
    Block block;
    block.bytes = segment;
    block.address = next_address_;
    block.small = small;
    next_address_ += segment;
    blocks_.push_back(block);
    b = static_cast<int>(blocks_.size()) - 1;
    reserved_ += segment;
    peak_reserved_ = std::max(peak_reserved_, reserved_);
  }
  // should_split: what is left becomes a free block of its own in the same segment.
  const std::int64_t rest = blocks_[b].bytes - size;
  if (small ? rest >= kAllocatorMinBlockBytes : rest > kAllocatorSmallSizeBytes) {
    Block remainder;
    remainder.bytes = rest;
    remainder.address = blocks_[b].address + size;
    remainder.small = small;
    remainder.prev = b;
    remainder.next = blocks_[b].next;
    blocks_.push_back(remainder);
    const int r = static_cast<int>(blocks_.size()) - 1;
    if (blocks_[r].next >= 0) blocks_[blocks_[r].next].prev = r;
    blocks_[b].next = r;
    blocks_[b].bytes = size;
    insert_free(r);
  }
  blocks_[b].free = false;
  allocated_ += blocks_[b].bytes;
  peak_allocated_ = std::max(peak_allocated_, allocated_);
  return b;
}

void CachingAllocator::release(int handle) {
  if (handle < 0) return;
  Block& block = blocks_[handle];
  block.free = true;
  allocated_ -= block.bytes;
  // free_block: merge with free neighbours (try_merge_blocks); the merged block keeps this handle.
  if (block.prev >= 0 && blocks_[block.prev].free) {
    const int p = block.prev;
    erase_free(p);
    block.address = blocks_[p].address;
    block.bytes += blocks_[p].bytes;
    block.prev = blocks_[p].prev;
    if (block.prev >= 0) blocks_[block.prev].next = handle;
  }
  if (block.next >= 0 && blocks_[block.next].free) {
    const int n = block.next;
    erase_free(n);
    block.bytes += blocks_[n].bytes;
    block.next = blocks_[n].next;
    if (block.next >= 0) blocks_[block.next].prev = handle;
  }
  insert_free(handle);
}

}  // namespace llmsizer
