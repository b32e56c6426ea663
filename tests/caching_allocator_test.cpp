// SPDX-License-Identifier: MIT
// PyTorch's CUDA caching allocator model (core/include/llmsizer/caching_allocator.hpp). Every expected
// number is worked out by hand from the rules of c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.1).
#include <catch2/catch.hpp>

#include "llmsizer/caching_allocator.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace caching_allocator_test {

using llmsizer::CachingAllocator;

namespace {
constexpr std::int64_t MiB = 1LL << 20;
}

TEST_CASE("Requests are booked in 512-byte steps and new segments are 2 MiB, 20 MiB or rounded to 2 MiB", "[caching_allocator]") {
  CHECK(llmsizer::allocator_block_bytes(1) == 512);
  CHECK(llmsizer::allocator_block_bytes(512) == 512);
  CHECK(llmsizer::allocator_block_bytes(513) == 1024);
  // A small request (at most 1 MiB) gets a 2 MiB segment, one below 10 MiB a 20 MiB segment, a larger
  // one its own size rounded up to 2 MiB.
  CHECK(llmsizer::allocator_segment_bytes(1 * MiB) == 2 * MiB);
  CHECK(llmsizer::allocator_segment_bytes(1 * MiB + 512) == 20 * MiB);
  CHECK(llmsizer::allocator_segment_bytes(10 * MiB - 512) == 20 * MiB);
  CHECK(llmsizer::allocator_segment_bytes(10 * MiB) == 10 * MiB);
  CHECK(llmsizer::allocator_segment_bytes(11 * MiB + 512) == 12 * MiB);
}

TEST_CASE("A request takes the smallest cached block that holds it and splits off more than 1 MiB", "[caching_allocator]") {
  CachingAllocator a;
  const int big = a.allocate(100 * MiB);
  const int mid = a.allocate(50 * MiB);
  a.release(big);
  a.release(mid);
  CHECK(a.reserved_bytes() == 150 * MiB);
  // 40 MiB: the 50 MiB block is the best fit; 10 MiB are left, more than 1 MiB: split off.
  const int t = a.allocate(40 * MiB);
  CHECK(a.allocated_bytes() == 40 * MiB);
  CHECK(a.reserved_bytes() == 150 * MiB);
  // 8 MiB takes that 10 MiB rest (not the 100 MiB block), leaving 2 MiB: split again.
  a.allocate(8 * MiB);
  CHECK(a.allocated_bytes() == 48 * MiB);
  CHECK(a.reserved_bytes() == 150 * MiB);
  // 1.5 MiB in the 2 MiB block leaves 0.5 MiB, not more than 1 MiB: no split, all 2 MiB are booked.
  a.allocate(MiB + MiB / 2);
  CHECK(a.allocated_bytes() == 50 * MiB);
  CHECK(a.reserved_bytes() == 150 * MiB);
  a.release(t);
  CHECK(a.allocated_bytes() == 10 * MiB);
}

TEST_CASE("Freed neighbours merge back into one block that a request of the whole segment reuses", "[caching_allocator]") {
  CachingAllocator a;
  a.release(a.allocate(100 * MiB));
  const int first = a.allocate(30 * MiB);   // 30 + 70 free
  const int second = a.allocate(30 * MiB);  // 30 + 30 + 40 free
  a.release(first);
  a.release(second);                        // one free 100 MiB block again
  a.allocate(100 * MiB);
  CHECK(a.reserved_bytes() == 100 * MiB);
  CHECK(a.peak_reserved_bytes() == 100 * MiB);
  CHECK(a.peak_allocated_bytes() == 100 * MiB);
}

TEST_CASE("When cudaMalloc fails the wholly free segments are released and the request retried", "[caching_allocator]") {
  CachingAllocator a(300 * MiB);
  const int x = a.allocate(150 * MiB);
  a.allocate(100 * MiB);  // reserved 250
  a.release(x);           // the 150 MiB segment stays cached
  // 180 MiB: no cached block holds it; 250 + 180 > 300, so the free 150 MiB segment is released
  // (reserved 100) and 100 + 180 = 280 fits.
  CHECK(a.allocate(180 * MiB) >= 0);
  CHECK_FALSE(a.out_of_memory());
  CHECK(a.reserved_bytes() == 280 * MiB);
  CHECK(a.peak_reserved_bytes() == 280 * MiB);
}

TEST_CASE("A small tensor kept inside a cached segment makes a large request fail with few bytes allocated", "[caching_allocator]") {
  // Fragmentation: a 200 MiB segment freed, then a 5 MiB tensor (large pool) split from it and kept;
  // a new 200 MiB request finds 195 MiB free there, and that segment cannot be released.
  CachingAllocator a(300 * MiB);
  a.release(a.allocate(200 * MiB));
  CHECK(a.allocate(5 * MiB) >= 0);
  CHECK(a.reserved_bytes() == 200 * MiB);
  CHECK(a.allocate(200 * MiB) == -1);
  CHECK(a.out_of_memory());
  CHECK(a.allocated_bytes() == 5 * MiB);
  // Without a capacity the same requests take a second segment: 400 MiB reserved for 205 allocated.
  CachingAllocator unbounded;
  unbounded.release(unbounded.allocate(200 * MiB));
  unbounded.allocate(5 * MiB);
  CHECK(unbounded.allocate(200 * MiB) >= 0);
  CHECK(unbounded.peak_reserved_bytes() == 400 * MiB);
  CHECK(unbounded.peak_allocated_bytes() == 205 * MiB);
}

}  // namespace caching_allocator_test
