// SPDX-License-Identifier: MIT
// transformers' eager prefill replayed through PyTorch's caching allocator (memory.hpp
// replay_transformers_prefill) and the fit it decides (hardware.hpp allocator_runs_out), against the
// DeepSeek-LLM README's memory table (deepseek-ai/DeepSeek-LLM@6712a86, "GPU Memory Usage": 7B on one
// A100-PCIE-40GB, 67B on eight; "GB" read as GiB, data/validation/README.md).
#include <catch2/catch.hpp>

#include "llmsizer/caching_allocator.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace allocator_replay_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;
using nlohmann::json;

namespace {

/// The README's setting: transformers 4.35 (its examples and date), eager attention, bf16, the
/// sequence length as the prompt with one new token.
InferenceSettings deepseek_settings(std::int64_t batch, std::int64_t seq, int gpus) {
  InferenceSettings s = test_support::inference_settings("bf16", Engine::transformers, seq, 1, batch, gpus);
  s.engine_version = 435;
  s.flash_attention = false;
  return s;
}

json deepseek_request(const char* model, std::int64_t batch, std::int64_t seq, int gpus, bool flash = false) {
  return {{"model", model},          {"weights", "bf16"},    {"engine", "transformers"}, {"engine_version", "4.35"},
          {"flash_attention", flash}, {"input_tokens", seq},  {"output_tokens", 1},       {"batch", batch},
          {"gpus", gpus},            {"hardware", "nvidia-a100-40gb-pcie"}};
}

}  // namespace

TEST_CASE("DeepSeek-LLM 7B's published memory is what the caching allocator reserves, not the tensors' peak", "[memory][allocator][validation]") {
  const ModelSpec m = test_support::preset("deepseek-llm-7b-base");
  struct Cell {
    std::int64_t batch, seq;
    double measured_gib;  // the README's table
  };
  for (const Cell c : {Cell{1, 4096, 21.25}, Cell{2, 2048, 19.82}, Cell{4, 2048, 26.65}, Cell{4, 1024, 19.04}}) {
    CAPTURE(c.batch, c.seq, c.measured_gib);
    const InferenceSettings s = deepseek_settings(c.batch, c.seq, 1);
    REQUIRE(allocator_replay_applies(m, s));
    const MemoryEstimate e = estimate_inference_memory(m, s);
    const AllocatorReplay r = replay_transformers_prefill(m, s, e, CachingAllocator::kUnbounded);
    const double fixed = static_cast<double>(e.parts.weights + e.buffer_bytes);
    const double reserved_gib = (fixed + static_cast<double>(r.peak_reserved_bytes)) / test_support::kGiB;
    const double allocated_gib = (fixed + static_cast<double>(r.peak_allocated_bytes)) / test_support::kGiB;
    CHECK_THAT(reserved_gib, WithinRel(c.measured_gib, 0.02));
    // The segments kept for the scores and the logits are what the tensors' peak misses.
    CHECK(allocated_gib < 0.95 * c.measured_gib);
    CHECK_FALSE(r.out_of_memory);
  }
}

TEST_CASE("DeepSeek-LLM 67B at batch 2 x 4096 on eight A100 40GB runs out in the allocator though its tensors fit", "[memory][allocator][validation]") {
  // README: "OOM". The fullest GPU (13 layers) needs 41.79 GB of tensors against 42.51 GB usable.
  const json r = test_support::estimate(deepseek_request("deepseek-llm-67b-base", 2, 4096, 8));
  REQUIRE_FALSE(r.contains("error"));
  const json& fit = r.at("fit");
  CHECK(fit.at("headroom_bytes").get<std::int64_t>() > 0);
  CHECK_FALSE(fit.at("fits").get<bool>());
  CHECK(fit.at("verdict") == "no_fit");
  CHECK(fit.at("summary_data").at("id") == "verdict.no_fit_allocator");
  // The longest context it reports fits, 256 tokens more (the step where the replay decides,
  // hardware.hpp kAllocatorSearchStepTokens) does not: the same replay decides both.
  const std::int64_t max_context = fit.at("max_context").get<std::int64_t>();
  REQUIRE(max_context > 1);
  CHECK(max_context < 4096 + 1);
  CHECK(test_support::estimate(deepseek_request("deepseek-llm-67b-base", 2, max_context - 1, 8)).at("fit").at("fits").get<bool>());
  CHECK_FALSE(test_support::estimate(deepseek_request("deepseek-llm-67b-base", 2, max_context - 1 + kAllocatorSearchStepTokens, 8)).at("fit").at("fits").get<bool>());
  // Every fix it offers fits when applied to the request.
  REQUIRE_FALSE(fit.at("fixes").empty());
  for (const json& fix : fit.at("fixes")) {
    CAPTURE(fix.at("text"));
    json changed = deepseek_request("deepseek-llm-67b-base", 2, 4096, 8);
    for (const auto& [key, value] : fix.at("changes").items()) changed[key] = value;
    CHECK(test_support::estimate(changed).at("fit").at("fits").get<bool>());
  }
  // With flash attention no score tensor is cached: no replay, the bytes decide.
  CHECK(test_support::estimate(deepseek_request("deepseek-llm-67b-base", 2, 4096, 8, true)).at("fit").at("fits").get<bool>());
}

TEST_CASE("The same table's measured 67B cells fit where the allocator replays them", "[memory][allocator][validation]") {
  // Cells that ran on eight A100 40GB (README): none may be refused by the replay.
  for (const auto& [batch, seq] : {std::pair<std::int64_t, std::int64_t>{1, 4096}, {4, 2048}, {16, 1024}, {8, 1024}}) {
    CAPTURE(batch, seq);
    CHECK(test_support::estimate(deepseek_request("deepseek-llm-67b-base", batch, seq, 8)).at("fit").at("fits").get<bool>());
  }
}

}  // namespace allocator_replay_test
