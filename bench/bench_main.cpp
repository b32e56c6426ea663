// SPDX-License-Identifier: MIT
// Timings of the JSON edge and the struct-level calls behind it: one memory estimate, one estimate
// with hardware (fit searches, speed, cost), and a recommendation over the whole catalog.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/edge/gguf.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/throughput.hpp"
#include "llmsizer/training.hpp"

#include <fstream>
#include <iterator>
#include <string>

namespace {

using namespace llmsizer;

ModelSpec preset(const char* id) {
  const auto* doc = find_embedded_document("models", id);
  const auto d = nlohmann::json::parse(doc->json.begin(), doc->json.end());
  std::vector<llmsizer::Message> warnings;
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

void BM_WeightsLayout(benchmark::State& state) {
  // Laying the weights out tensor by tensor: done once per request (the estimate reuses it).
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  for (auto _ : state) benchmark::DoNotOptimize(weights_layout(m, *find_weight_format("q4_k_m")));
}
BENCHMARK(BM_WeightsLayout);

void BM_EstimateStruct(benchmark::State& state) {
  // One memory estimate with the request's weight layout prepared (as fit searches and the JSON
  // edge do); BM_WeightsLayout times that preparation.
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  InferenceSettings s = settings();
  const WeightsLayout layout = weights_layout(m, *s.weights);
  s.weights_layout = &layout;
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

void BM_TrainingEstimateStruct(benchmark::State& state) {
  // QLoRA of Qwen2.5-7B, all linear layers at rank 16, 4k sequence, checkpointing.
  const ModelSpec m = preset("qwen2.5-7b-instruct");
  TrainingSettings t;
  t.method = TrainingMethod::qlora;
  t.seq_len = 4096;
  t.checkpointing = Checkpointing::full;
  for (auto _ : state) benchmark::DoNotOptimize(estimate_training(m, t));
}
BENCHMARK(BM_TrainingEstimateStruct);

void BM_TrainingEstimate(benchmark::State& state) {
  const char* request = R"({"model": "qwen2.5-7b-instruct", "task": "training", "training": {"method": "qlora", "seq_len": 4096, "gradient_checkpointing": true}})";
  for (auto _ : state) benchmark::DoNotOptimize(estimate(request));
}
BENCHMARK(BM_TrainingEstimate);

void BM_ConfigImport(benchmark::State& state) {
  // Parse a config.json text and import it (what a pasted config costs).
  const auto* doc = find_embedded_document("models", "qwen3-30b-a3b");
  const std::string config = nlohmann::json::parse(doc->json.begin(), doc->json.end()).at("config").dump();
  for (auto _ : state) {
    std::vector<llmsizer::Message> warnings;
    benchmark::DoNotOptimize(model_from_hf_config(nlohmann::json::parse(config), "config", warnings));
  }
}
BENCHMARK(BM_ConfigImport);

void BM_GgufHeaderParse(benchmark::State& state) {
  // The seed file fuzz/corpus/gguf/valid_llama.gguf: a llama-architecture header with metadata,
  // tokenizer arrays and tensor infos.
  std::ifstream in(LLMSIZER_SOURCE_DIR "/fuzz/corpus/gguf/valid_llama.gguf", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto _ : state) benchmark::DoNotOptimize(parse_gguf_header(bytes));
}
BENCHMARK(BM_GgufHeaderParse);

BENCHMARK_MAIN();
