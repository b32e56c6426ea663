// SPDX-License-Identifier: MIT
// The transformers engine by version: what `generate` allocated in 4.38 that 4.46 no longer does,
// each term by hand, and long-prompt peaks against the Qwen2.5 benchmark (transformers 4.46).
#include <catch2/catch.hpp>

#include "llmsizer/memory.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace transformers_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {
MemoryEstimate run(const char* preset, int version, std::int64_t input, std::int64_t output, const char* weights = "bf16") {
  InferenceSettings s;
  s.weights = find_weight_format(weights);
  s.kv_cache = find_kv_cache_format("bf16");
  s.engine = Engine::transformers;
  s.engine_version = version;
  s.input_tokens = input;
  s.output_tokens = output;
  return estimate_inference_memory(test_support::preset(preset), s);
}
}  // namespace

TEST_CASE("Before 4.42 generate holds two whole KV caches while decoding", "[memory][transformers]") {
  // Qwen2-7B, 1 + 2048 tokens: the decode peak dominates. KV per token: 2 × 28 layers × 4 heads ×
  // 128 × 2 B = 57,344 B. 4.41 keeps the previous step's cache (2048 tokens, 117,440,512 B);
  // 4.42 copies one layer's keys during torch.cat (2049 × 57,344 / 56 = 2,098,176 B).
  const auto tuple = run("qwen2-7b-instruct", 441, 1, 2048);
  const auto object = run("qwen2-7b-instruct", 442, 1, 2048);
  CHECK(tuple.tensor_peak_bytes - object.tensor_peak_bytes == 117'440'512 - 2'098'176);
}

TEST_CASE("Before 4.45 every Qwen2 layer holds a rotary cos and sin table", "[memory][transformers]") {
  // 28 layers × 32,768 positions × 128 head_dim × (cos + sin) × 2 B = 469,762,048 B; at a 1-token
  // prompt the whole-prompt logits are one row, so the decode peak is unchanged otherwise.
  const auto before = run("qwen2-7b-instruct", 444, 1, 2048);
  const auto after = run("qwen2-7b-instruct", 445, 1, 2048);
  CHECK(before.tensor_peak_bytes - after.tensor_peak_bytes == 469'762'048);
  // Llama computes cos/sin per call since 4.38: no table.
  CHECK(run("llama-3.1-8b-instruct", 444, 1, 2048).tensor_peak_bytes == run("llama-3.1-8b-instruct", 445, 1, 2048).tensor_peak_bytes);
}

TEST_CASE("Before 4.45 the prompt's logits and their fp32 copy dominate long prompts", "[memory][transformers]") {
  // Qwen2-0.5B at 30720 prompt tokens: 30,720 × 151,936 vocab × (2 + 4) B = 28,004,761,600 B of
  // logits; the measured peak was 27.61 GiB (transformers 4.38.2, Qwen2.5 repo
  // docs/source/benchmark/speed_benchmark.rst @5c4e69c), the current generate needs ~2 GiB.
  const auto old_peak = run("qwen2-0.5b-instruct", 438, 30720, 2048);
  CHECK(old_peak.tensor_peak_bytes > 28'004'761'600);
  CHECK_THAT(static_cast<double>(old_peak.tensor_peak_bytes) / test_support::kGiB, WithinRel(27.61, 0.02));
  CHECK(static_cast<double>(run("qwen2-0.5b-instruct", 0, 30720, 2048).tensor_peak_bytes) < 3.0 * test_support::kGiB);
}

TEST_CASE("Qwen2.5 long-prompt peaks with transformers 4.46", "[memory][transformers][measured]") {
  // torch.cuda.max_memory_allocated / 2^30 on an A100, generating 2048 tokens, FA2 (Qwen2.5 repo
  // docs/source/benchmark/speed_benchmark.rst, "Transformers 4.46.0"): 0.5B 2.34 GiB and 7B
  // 19.97 GiB at 30720 prompt tokens, 1.5B 4.16 GiB at 14336.
  CHECK_THAT(static_cast<double>(run("qwen2.5-0.5b-instruct", 446, 30720, 2048).tensor_peak_bytes) / test_support::kGiB, WithinRel(2.34, 0.05));
  CHECK_THAT(static_cast<double>(run("qwen2.5-1.5b-instruct", 446, 14336, 2048).tensor_peak_bytes) / test_support::kGiB, WithinRel(4.16, 0.05));
  CHECK_THAT(static_cast<double>(run("qwen2.5-7b-instruct", 446, 30720, 2048).tensor_peak_bytes) / test_support::kGiB, WithinRel(19.97, 0.05));
}

TEST_CASE("The current version behaves as 4.46", "[memory][transformers]") {
  CHECK(run("qwen2.5-7b-instruct", 0, 6144, 2048).tensor_peak_bytes == run("qwen2.5-7b-instruct", 446, 6144, 2048).tensor_peak_bytes);
}

}  // namespace transformers_test
