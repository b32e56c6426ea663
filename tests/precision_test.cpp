// SPDX-License-Identifier: MIT
// Bytes per parameter by precision: the source article's table (1B parameters at FP32/FP16/BF16/
// INT8/INT4 = 4/2/2/1/0.5 GB) and its 7B example (7B at FP16 = 14 GB, not the 4 GB of its typo).
#include <catch2/catch.hpp>

#include "llmsizer/precision.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace precision_test {

using namespace llmsizer;

namespace {
ModelSpec bare(std::int64_t params) {
  ModelSpec m;
  m.params_override = params;
  return m;
}
}  // namespace

TEST_CASE("1B parameters take 4/2/2/1/0.5 GB at FP32/FP16/BF16/INT8/INT4", "[precision][article]") {
  const auto [id, expected_bytes] = GENERATE(table<const char*, std::int64_t>({
      {"fp32", 4'000'000'000}, {"fp16", 2'000'000'000}, {"bf16", 2'000'000'000},
      {"int8", 1'000'000'000}, {"int4", 500'000'000}}));
  CAPTURE(id);
  const WeightFormat* format = find_weight_format(id);
  REQUIRE(format != nullptr);
  CHECK(weight_bytes(bare(1'000'000'000), *format) == expected_bytes);
}

TEST_CASE("7B at FP16 is 14 GB of weights (7 x 2 GB) as the article's formula says", "[precision][article]") {
  CHECK(weight_bytes(bare(7'000'000'000), *find_weight_format("fp16")) == 14'000'000'000);
}

TEST_CASE("Quantized weights are never larger than bf16", "[precision][property]") {
  const auto bf16 = weight_bytes(bare(7'615'616'512), *find_weight_format("bf16"));
  for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
    CAPTURE(f->id);
    if (f->block_bytes / f->block_elements >= 4) continue;  // fp32 and GGUF F32 are larger by design
    CHECK(weight_bytes(bare(7'615'616'512), *f) <= bf16);
  }
}

TEST_CASE("Odd parameter counts round INT4 up to whole bytes", "[precision]") {
  // 3 weights at 2 per byte need 2 bytes (the last byte half used).
  CHECK(weight_bytes(bare(3), *find_weight_format("int4")) == 2);
}

TEST_CASE("Unknown format ids are not found", "[precision]") {
  CHECK(find_weight_format("int3") == nullptr);
  CHECK(find_kv_cache_format("q2_k") == nullptr);
}

}  // namespace precision_test
