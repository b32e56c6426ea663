// SPDX-License-Identifier: MIT
// accelerate's device_map="auto" layer split, and inference memory on several GPUs under it
// (transformers, AutoAWQ) against tensor parallelism (vLLM, the textbook formula).
#include <catch2/catch.hpp>

#include "llmsizer/device_map.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/quantization.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace device_map_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {
/// One new token after `prompt`, bf16, eager attention (the DeepSeek-LLM README's setting).
InferenceSettings eager_bf16(Engine engine, std::int64_t prompt, std::int64_t batch, int gpus) {
  InferenceSettings s = test_support::inference_settings("bf16", engine, prompt, 1, batch, gpus);
  s.flash_attention = false;
  return s;
}
}  // namespace

TEST_CASE("accelerate puts 11, 6 × 13 and 6 of DeepSeek-LLM 67B's 95 layers on eight GPUs", "[device_map]") {
  // By hand, bf16 (accelerate/utils/modeling.py get_balanced_memory and infer_auto_device_map):
  //   one layer: 2 × 8192² + 2 × 8192 × 1024 + 3 × 8192 × 22016 + 2 × 8192 = 692,076,544 params
  //              = 1,384,153,088 B; embeddings and the untied head: 102,400 × 8,192 × 2 B = 1,677,721,600 B;
  //   total 134,850,002,944 B (the repository's pytorch_model.bin.index.json total_size);
  //   each GPU but the last may take 134,850,002,944 / 8 + 1.25 × 1,384,153,088 = 18,586,441,728 B:
  //   13 layers (17,993,990,144 B; 14 would be 19.38e9); GPU 0 keeps room for the largest module
  //   (the 1,677,721,600 B embedding): embeddings + 11 layers = 16,903,405,568 B ≤ 16,908,720,128 B;
  //   GPUs 1-6 hold layers 11-88; GPU 7 the last 6 layers, the final norm and the head.
  const ModelSpec m = test_support::preset("deepseek-llm-67b-base");
  const WeightsLayout layout = weights_layout(m, *find_weight_format("bf16"));
  REQUIRE(layout.total_bytes == 134'850'002'944LL);
  const std::vector<DeviceShare> shares = balanced_device_map(tensor_list(m)->tensors, layout, 8);
  REQUIRE(shares.size() == 8);
  CHECK(shares[0].layers == 11);
  CHECK(shares[0].first_layer == 0);
  CHECK(shares[0].embeddings);
  CHECK(shares[0].weight_bytes == 16'903'405'568LL);
  for (int g = 1; g <= 6; ++g) {
    CAPTURE(g);
    CHECK(shares[g].layers == 13);
    CHECK(shares[g].first_layer == 11 + 13 * (g - 1));
    CHECK(shares[g].weight_bytes == 13 * 1'384'153'088LL);
    CHECK_FALSE(shares[g].embeddings);
    CHECK_FALSE(shares[g].output_head);
  }
  CHECK(shares[7].layers == 6);
  CHECK(shares[7].first_layer == 89);
  CHECK(shares[7].output_head);
  std::int64_t placed = 0;
  for (const DeviceShare& s : shares) placed += s.weight_bytes;
  CHECK(placed == layout.total_bytes);
}

TEST_CASE("A small model with a large embedding lands whole on the second of two GPUs", "[device_map]") {
  // accelerate's known quirk (transformers PR #47426: facebook/opt-125m on two GPUs "the embedding is
  // dispatched on CUDA:1"). Qwen2.5-0.5B bf16 by hand: 988,065,536 B in all; one layer 14,912,384
  // params = 29,824,768 B; GPU 0 may take 988,065,536 / 2 + 1.25 × 29,824,768 = 531,313,728 B less
  // room for the largest module, the 151,936 × 896 × 2 = 272,269,312 B (tied) embedding:
  // 259,044,416 B, too little for the embedding itself, so it and everything after it go to GPU 1,
  // the last, which takes whatever is left.
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  const WeightsLayout layout = weights_layout(m, *find_weight_format("bf16"));
  REQUIRE(layout.total_bytes == 988'065'536LL);
  const std::vector<DeviceShare> shares = balanced_device_map(tensor_list(m)->tensors, layout, 2);
  REQUIRE(shares.size() == 2);
  CHECK(shares[0].weight_bytes == 0);
  CHECK(shares[1].weight_bytes == layout.total_bytes);
  CHECK(shares[1].layers == m.num_layers);
  CHECK(shares[1].embeddings);
  CHECK(shares[1].output_head);  // tied: the logits are made after the final norm, on GPU 1
}

TEST_CASE("Llama-3.1-8B divides over two GPUs under device_map, the head on the second", "[device_map]") {
  // bf16 by hand: 8,030,261,248 params = 16,060,522,496 B; one layer 218,112,000 params =
  // 436,224,000 B; embeddings and the untied head 128,256 × 4,096 × 2 B = 1,050,673,152 B each.
  // Each GPU may take 8,030,261,248 + 1.25 × 436,224,000 = 8,575,541,248 B; GPU 0 keeps room for the
  // 1,050,673,152 B embedding: embeddings + 14 layers (7,157,809,152 B; 15 would be 7,594,033,152 >
  // 7,524,868,096); GPU 1 the other 18 layers, the final norm and the head.
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const WeightsLayout layout = weights_layout(m, *find_weight_format("bf16"));
  REQUIRE(layout.total_bytes == 16'060'522'496LL);
  const std::vector<DeviceShare> shares = balanced_device_map(tensor_list(m)->tensors, layout, 2);
  CHECK(shares[0].layers == 14);
  CHECK(shares[0].weight_bytes == 7'157'809'152LL);
  CHECK(shares[1].layers == 18);
  CHECK(shares[1].first_layer == 14);
  CHECK(shares[1].output_head);
  CHECK(shares[0].weight_bytes + shares[1].weight_bytes == layout.total_bytes);
}

TEST_CASE("DeepSeek-LLM 67B on eight A100s under device_map peaks at the README's 16.92 GiB at batch 1 × 256", "[device_map][memory][measured]") {
  // DeepSeek-LLM README (deepseek-ai/DeepSeek-LLM@6712a86, "GPU Memory Usage", 67B on 8 × A100 40GB,
  // transformers with device_map="auto"): 16.92 GB at batch 1, sequence length 256 — GiB, per GPU:
  // a middle GPU's 13 layers are 16.76 GiB of bf16 weights alone.
  const ModelSpec m = test_support::preset("deepseek-llm-67b-base");
  InferenceSettings s = eager_bf16(Engine::transformers, 256, 1, 8);
  s.engine_version = 435;
  const MemoryEstimate e = estimate_inference_memory(m, s);
  CHECK(e.parts.weights == 13 * 1'384'153'088LL);
  CHECK_THAT(static_cast<double>(e.tensor_peak_bytes) / test_support::kGiB, WithinRel(16.92, 0.02));
}

TEST_CASE("Under device_map every GPU computes all heads of its layers; under tensor parallelism a share", "[device_map][memory]") {
  // Llama-3.1-8B, eager attention, 8192-token prompt: one layer's scores are 32 heads × 8192² ×
  // 10 B (bf16 scores, ATen's fp32 copy of them and the fp32 softmax) = 21,474,836,480 B on the GPU
  // that runs the layer, on 1 GPU and on each of 2 under device_map; vLLM's tensor parallelism
  // gives each GPU 16 of the heads — and half the weights, where device_map gives whole layers.
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const std::int64_t scores = 32LL * 8192 * 8192 * 10;
  const MemoryEstimate one = estimate_inference_memory(m, eager_bf16(Engine::transformers, 8192, 1, 1));
  const MemoryEstimate two = estimate_inference_memory(m, eager_bf16(Engine::transformers, 8192, 1, 2));
  CHECK(one.parts.activations >= scores);
  CHECK(two.parts.activations >= scores);
  CHECK(two.parts.weights < one.parts.weights);
  CHECK(two.parts.weights > one.parts.weights / 2);  // whole layers: the fuller GPU holds more than half
  CHECK(two.parts.kv_cache < one.parts.kv_cache);   // its layers' share of the cache
  InferenceSettings tp = eager_bf16(Engine::generic, 8192, 1, 2);
  const MemoryEstimate split_heads = estimate_inference_memory(m, tp);
  CHECK(split_heads.parts.activations < scores);
  CHECK(split_heads.parts.weights == (one.parts.weights + 1) / 2);
}

TEST_CASE("The fullest GPU under device_map holds less than one GPU alone", "[device_map][memory][property]") {
  // The estimate is the fullest GPU's; on one GPU the same request holds everything.
  for (const char* id : {"qwen2.5-7b-instruct", "deepseek-llm-7b-base", "llama-3.1-8b-instruct"}) {
    CAPTURE(id);
    const ModelSpec m = test_support::preset(id);
    for (int gpus : {2, 3, 4, 8}) {
      CAPTURE(gpus);
      const MemoryEstimate split = estimate_inference_memory(m, eager_bf16(Engine::transformers, 2048, 4, gpus));
      const MemoryEstimate whole = estimate_inference_memory(m, eager_bf16(Engine::transformers, 2048, 4, 1));
      CHECK(split.tensor_peak_bytes < whole.tensor_peak_bytes);
      CHECK(split.parts.sum() == split.device_bytes + split.host_bytes);
    }
  }
}

}  // namespace device_map_test
