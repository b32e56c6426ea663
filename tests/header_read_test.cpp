// SPDX-License-Identifier: MIT
// next_header_read (header_read.hpp): how much of a model file the CLI and the page read for its
// header. Every expected length is worked out by hand from the rule: first min(64 KiB, file size),
// then min(max(needed, 2 × read), 256 MiB, file size); 64 KiB = 65,536 B, 256 MiB = 268,435,456 B.
#include <catch2/catch.hpp>

#include "llmsizer/header_read.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace header_read_test {

using llmsizer::HeaderReadStep;
using llmsizer::next_header_read;

TEST_CASE("the first read is 64 KiB, or the whole file when it is smaller", "[header_read]") {
  CHECK(next_header_read(0, 0, -1).step == HeaderReadStep::read);
  CHECK(next_header_read(0, 0, -1).bytes == 65'536);         // size unknown
  CHECK(next_header_read(0, 0, 0).bytes == 65'536);          // 0 reads as unknown
  CHECK(next_header_read(0, 0, 4'920'000'000).bytes == 65'536);
  CHECK(next_header_read(0, 0, 10'000).bytes == 10'000);     // a config.json of 10,000 B: read whole at once
  CHECK(next_header_read(0, 0, 65'536).bytes == 65'536);
}

TEST_CASE("each further read at least doubles the prefix, or reaches what the reader asked", "[header_read]") {
  // 2 × 65,536 = 131,072 > 70,000 asked.
  CHECK(next_header_read(65'536, 70'000, -1).step == HeaderReadStep::read);
  CHECK(next_header_read(65'536, 70'000, -1).bytes == 131'072);
  // A safetensors header of 3,000,000 B (needed_bytes = 8 + its length): read at once.
  CHECK(next_header_read(65'536, 3'000'008, -1).bytes == 3'000'008);
  // Never past the file: 131,072 clipped to the 120,000-byte file.
  CHECK(next_header_read(65'536, 100'000, 120'000).bytes == 120'000);
}

TEST_CASE("the inspection's answer is final when it asks for no more than it had, or the whole file was read", "[header_read]") {
  CHECK(next_header_read(65'536, 0, -1).step == HeaderReadStep::answered);       // a summary, or a broken file
  CHECK(next_header_read(65'536, 65'536, -1).step == HeaderReadStep::answered);  // asks for what it had
  CHECK(next_header_read(65'536, 40'000, -1).step == HeaderReadStep::answered);
  CHECK(next_header_read(10'000, 20'000, 10'000).step == HeaderReadStep::answered);  // the whole file is read
}

TEST_CASE("reading stops at 256 MiB: the last read is clipped to the cap, past it the header is too long", "[header_read]") {
  // 200 MiB read, 300 MB asked: max(300,000,000, 419,430,400) clipped to 268,435,456.
  CHECK(next_header_read(209'715'200, 300'000'000, -1).bytes == 268'435'456);
  CHECK(next_header_read(268'435'456, 268'435'457, -1).step == HeaderReadStep::too_long);
  CHECK(next_header_read(268'435'456, 268'435'457, 10'000'000'000).step == HeaderReadStep::too_long);
}

TEST_CASE("a reader that always wants one byte more stops after 13 reads", "[header_read]") {
  // 65,536 × 2^k for k = 0..12 reaches 268,435,456 (2^28) at the 13th read.
  std::int64_t read = 0;
  int reads = 0;
  auto next = next_header_read(0, 0, -1);
  while (next.step == HeaderReadStep::read) {
    REQUIRE(next.bytes > read);
    read = next.bytes;
    ++reads;
    next = next_header_read(read, read + 1, -1);
  }
  CHECK(reads == 13);
  CHECK(read == 268'435'456);
  CHECK(next.step == HeaderReadStep::too_long);
}

TEST_CASE("a file read whole (a listing, a config.json, a shard index) is read up to 64 MiB", "[header_read]") {
  CHECK(llmsizer::kMaxWholeFileBytes == 67'108'864);  // 64 × 1024 × 1024
}

TEST_CASE("each step has the name the page reads", "[header_read]") {
  CHECK(std::string(llmsizer::header_read_step_name(HeaderReadStep::read)) == "read");
  CHECK(std::string(llmsizer::header_read_step_name(HeaderReadStep::answered)) == "answered");
  CHECK(std::string(llmsizer::header_read_step_name(HeaderReadStep::too_long)) == "too_long");
}

}  // namespace header_read_test
