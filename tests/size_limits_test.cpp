// SPDX-License-Identifier: MIT
// The sizes an estimate can represent (core/include/llmsizer/size_limits.hpp), each bound by hand, and
// the default KV cache (precision.hpp).
#include <catch2/catch.hpp>

#include "llmsizer/error.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/size_limits.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace size_limits_test {

using namespace llmsizer;

std::string field_of(const ModelSpec& m, std::int64_t context, std::int64_t batch) {
  try {
    check_byte_range(m, context, batch);
  } catch (const InputError& e) {
    return e.field();
  }
  return "";
}

TEST_CASE("A request whose KV cache, activations or scores would pass 1e18 bytes is refused naming input_tokens; a long context of a real model is not", "[size_limits]") {
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  // KV: 2 × 32 layers × 1,024 KV width × 4 B = 262,144 B a token. Activations: 128,256 × 16 +
  // 3 × 14,336 × 8 + 4,096 × 64 = 2,658,304 B a token. Scores: context × tokens × 32 heads × 8 B.
  CHECK(field_of(m, 131072, 1).empty());
  // 1e6 × 1e3 = 1e9 tokens: KV 2.6e14, activations 2.7e15, scores 1e6 × 1e9 × 256 = 2.6e17 B.
  CHECK(field_of(m, 1'000'000, 1'000).empty());
  // 1e7 × 1e6 = 1e13 tokens: KV 2.6e18 B.
  CHECK(field_of(m, 10'000'000, 1'000'000) == "input_tokens");
}

TEST_CASE("A model whose weights would pass 1e18 bytes is refused naming model", "[size_limits]") {
  ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  // Hidden 1e6 (4e12 a layer's attention alone), 100,000 layers: 4e17 parameters × 4 B = 1.6e18.
  m.hidden_size = 1'000'000;
  m.num_layers = 100'000;
  CHECK(field_of(m, 1, 1) == "model");
}

TEST_CASE("Without a KV cache named, the cache is the weights' compute type", "[size_limits]") {
  CHECK(std::string(default_kv_cache_id(*find_weight_format("fp32"))) == "fp32");
  CHECK(std::string(default_kv_cache_id(*find_weight_format("fp16"))) == "fp16");
  CHECK(std::string(default_kv_cache_id(*find_weight_format("bf16"))) == "bf16");
}

}  // namespace size_limits_test
