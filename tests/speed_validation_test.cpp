// SPDX-License-Identifier: MIT
// Decode speed against published measurements: the kind=speed rows of the project's validation set
// (data/validation/speed.json, copied with their sources from ../shared/validation). Prints every
// row's error and requires the median absolute error of the scored rows to be at most 25%.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

#include <catch2/catch.hpp>

#include "llmsizer/hardware.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/throughput.hpp"
#include "test_support.hpp"

using namespace llmsizer;

namespace {

Engine engine_of(const std::string& name) {
  if (name == "vllm") return Engine::vllm;
  if (name == "transformers") return Engine::transformers;
  if (name == "llama.cpp") return Engine::llama_cpp;
  return Engine::generic;
}

}  // namespace

TEST_CASE("Speed rows: median decode error at most 25 percent", "[throughput][validation][measured]") {
  std::ifstream in(std::string(LLMSIZER_DATA_DIR) + "/validation/speed.json");
  REQUIRE(in.good());
  const auto doc = nlohmann::json::parse(in);
  const HardwareSpec* a100 = find_hardware("nvidia-a100-80gb-sxm");
  REQUIRE(a100 != nullptr);
  std::vector<double> errors;
  int excluded = 0;
  std::printf("\n%-58s %9s %9s %7s  (tokens/s = output tokens / generate wall time)\n", "row", "measured", "estimate", "error");
  for (const auto& row : doc.at("rows")) {
    const std::string id = row.at("id").get<std::string>();
    if (!row.at("scored").get<bool>()) {
      ++excluded;
      std::printf("%-58s excluded: %s\n", id.c_str(), row.at("exclude_reason").get<std::string>().c_str());
      continue;
    }
    const ModelSpec model = test_support::preset(row.at("model").get<std::string>());
    const HardwareSpec* hw = find_hardware(row.at("hardware").get<std::string>());
    REQUIRE(hw != nullptr);
    const WeightFormat* weights = find_weight_format(row.at("weights").get<std::string>());
    if (weights == nullptr) weights = find_weight_format(row.at("weights_fallback").get<std::string>());
    REQUIRE(weights != nullptr);
    InferenceSettings s;
    s.weights = weights;
    s.kv_cache = find_kv_cache_format("bf16");
    s.engine = engine_of(row.at("engine").get<std::string>());
    s.input_tokens = row.at("input_tokens").get<std::int64_t>();
    s.output_tokens = row.at("output_tokens").get<std::int64_t>();
    s.batch = row.at("batch").get<std::int64_t>();
    s.gpus = row.at("gpus").get<int>();
    SpeedPlacement where;
    where.gpus = s.gpus;
    SpeedOptions options;
    options.enforce_eager = row.at("enforce_eager").get<bool>();
    // The rows measure output tokens over the whole generate call (prefill included).
    const Throughput t = estimate_throughput(model, s, *hw, where, options);
    const double measured = row.at("measured_tokens_per_s").get<double>();
    const double error = t.generation_tokens_per_s / measured - 1.0;
    errors.push_back(std::fabs(error));
    std::printf("%-58s %9.2f %9.2f %+6.1f%%  ttft %.2fs step %.2fms mem %.2f launch %.2f comm %.2f\n", id.c_str(), measured, t.generation_tokens_per_s, 100.0 * error, t.time_to_first_token_s, t.step.total_s*1e3, t.step.memory_s*1e3, t.step.host_launch_s*1e3, t.step.communication_s*1e3);
  }
  REQUIRE(!errors.empty());
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  const double median = n % 2 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
  std::printf("scored %zu rows, excluded %d; median absolute error %.1f%%, worst %.1f%%\n", n, excluded, 100.0 * median,
              100.0 * errors.back());
  CHECK(median <= 0.25);
}
