// SPDX-License-Identifier: MIT
// Timings of the JSON edge and the struct-level calls behind it: one memory estimate, one estimate
// with hardware (fit searches, speed, cost), and a recommendation over the whole catalog.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/catalog.hpp"
#include "llmsizer/config_import.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/throughput.hpp"

namespace {

using namespace llmsizer;

ModelSpec preset(const char* id) {
  const auto* doc = find_embedded_document("models", id);
  const auto d = nlohmann::json::parse(doc->json.begin(), doc->json.end());
  std::vector<std::string> warnings;
  ModelSpec m = model_from_hf_config(d.at("config"), "config", warnings);
  m.id = id;
  return m;
}

InferenceSettings settings() {
  InferenceSettings s;
  s.weights = find_weight_format("int4");
  s.kv_cache = find_kv_cache_format("bf16");
  s.input_tokens = 7'168;
  s.output_tokens = 1'024;
  return s;
}

const char* kRequest = R"({"model": "qwen2.5-7b-instruct", "weights": "int4", "input_tokens": 7168, "output_tokens": 1024})";
const char* kRequestWithHardware =
    R"({"model": "qwen2.5-7b-instruct", "weights": "int4", "input_tokens": 7168, "output_tokens": 1024, "hardware": "nvidia-rtx-4090"})";

void BM_Estimate(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(estimate(kRequest));
}
BENCHMARK(BM_Estimate);

void BM_EstimateStruct(benchmark::State& state) {
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  const InferenceSettings s = settings();
  for (auto _ : state) benchmark::DoNotOptimize(estimate_inference_memory(m, s));
}
BENCHMARK(BM_EstimateStruct);

void BM_DecodeStep(benchmark::State& state) {
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  const InferenceSettings s = settings();
  const HardwareSpec& hw = *find_hardware("nvidia-rtx-4090");
  for (auto _ : state) benchmark::DoNotOptimize(decode_step(m, s, hw, SpeedPlacement{1, -1}, 8'192));
}
BENCHMARK(BM_DecodeStep);

void BM_EstimateWithHardware(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(estimate(kRequestWithHardware));
}
BENCHMARK(BM_EstimateWithHardware);

void BM_Recommend(benchmark::State& state) {
  hardware_catalog();  // parsed once per process, like the first call of a session
  for (auto _ : state) benchmark::DoNotOptimize(recommend(kRequest));
  state.counters["catalog"] = static_cast<double>(hardware_catalog().size());
}
BENCHMARK(BM_Recommend)->Unit(benchmark::kMicrosecond);

void BM_RecommendStruct(benchmark::State& state) {
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  const InferenceSettings s = settings();
  for (auto _ : state) {
    const MemoryByDevices memory(m, s);
    benchmark::DoNotOptimize(recommend_hardware(memory, hardware_catalog(), Goal::best_value, OwnershipCosts{}));
  }
}
BENCHMARK(BM_RecommendStruct)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
