// SPDX-License-Identifier: MIT
// Inference memory: KV cache by hand, engine behaviour against a published measurement, and the
// shape of the model (parts add up, monotonic in context and batch).
#include <catch2/catch.hpp>

#include <algorithm>

#include "llmsizer/memory.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace memory_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {
InferenceSettings settings(const char* weights, Engine engine, std::int64_t input, std::int64_t output, std::int64_t batch = 1) {
  return test_support::inference_settings(weights, engine, input, output, batch);
}
}  // namespace

TEST_CASE("KV cache of Qwen2.5-7B at 32k tokens by hand", "[memory][kv]") {
  // 2 × 28 layers × 4 KV heads × 128 head_dim × 32,768 tokens × 2 bytes (bf16) = 1,879,048,192 B.
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  CHECK(kv_cache_bytes(m, *find_kv_cache_format("bf16"), 32'768, 1) == 1'879'048'192);
  // Q8_0 stores 32 values in 34 bytes: 28,672 × 32,768 / 32 × 34 = 998,244,352 B.
  CHECK(kv_cache_bytes(m, *find_kv_cache_format("q8_0"), 32'768, 1) == 998'244'352);
}

TEST_CASE("KV cache doubles when context doubles and when batch doubles", "[memory][kv][property]") {
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const auto& f = *find_kv_cache_format("fp16");
  CHECK(kv_cache_bytes(m, f, 8192, 1) == 2 * kv_cache_bytes(m, f, 4096, 1));
  CHECK(kv_cache_bytes(m, f, 4096, 8) == 8 * kv_cache_bytes(m, f, 4096, 1));
}

TEST_CASE("Qwen2.5-7B bf16 with transformers at 1 + 2048 tokens peaks at 14.38 GiB allocated", "[memory][transformers][measured]") {
  // Measured by the Qwen team on an A100 80GB, transformers 4.46, torch.cuda.max_memory_allocated:
  // 14.38 GiB (Qwen2.5 docs, "Speed Benchmark", hf_infer, Qwen2.5-7B-Instruct BF16, input length 1).
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryEstimate e = estimate_inference_memory(m, settings("bf16", Engine::transformers, 1, 2048));
  CHECK_THAT(static_cast<double>(e.tensor_peak_bytes) / test_support::kGiB, WithinRel(14.38, 0.05));
  CHECK(e.device_bytes == e.tensor_peak_bytes + kCudaContextBytes);
}

TEST_CASE("Parts add up to device memory plus host memory", "[memory][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  for (Engine engine : {Engine::generic, Engine::transformers, Engine::vllm, Engine::llama_cpp, Engine::ollama}) {
    CAPTURE(engine_id(engine));
    for (int gpus : {0, 1, 2, 4}) {
      CAPTURE(gpus);
      InferenceSettings s = settings("bf16", engine, 8192, 512, 4);
      s.gpus = gpus;
      const MemoryEstimate e = estimate_inference_memory(m, s);
      CHECK(e.parts.sum() == e.device_bytes + e.host_bytes);
      CHECK(e.tensor_peak_bytes <= e.device_bytes);
    }
  }
}

TEST_CASE("Memory never decreases with context or batch or precision bits", "[memory][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-1.5b-instruct");
  for (Engine engine : {Engine::generic, Engine::transformers, Engine::vllm, Engine::llama_cpp, Engine::ollama}) {
    CAPTURE(engine_id(engine));
    std::int64_t previous = 0;
    for (std::int64_t context : {1, 16, 512, 4096, 32768, 131072}) {
      const auto e = estimate_inference_memory(m, settings("bf16", engine, context, 0));
      CHECK(e.device_bytes >= previous);
      previous = e.device_bytes;
    }
    previous = 0;
    for (std::int64_t batch : {1, 2, 8, 64}) {
      const auto e = estimate_inference_memory(m, settings("bf16", engine, 1024, 1024, batch));
      CHECK(e.device_bytes >= previous);
      previous = e.device_bytes;
    }
    previous = 0;
    for (const char* w : {"int4", "int8", "bf16", "fp32"}) {
      const auto e = estimate_inference_memory(m, settings(w, engine, 1024, 1024));
      CHECK(e.device_bytes >= previous);
      previous = e.device_bytes;
    }
  }
}

TEST_CASE("CPU-only inference puts the model in host RAM", "[memory][cpu]") {
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  InferenceSettings s = settings("bf16", Engine::generic, 512, 512);
  s.gpus = 0;
  const MemoryEstimate e = estimate_inference_memory(m, s);
  CHECK(e.device_bytes == 0);
  CHECK(e.host_bytes == e.parts.weights + e.parts.kv_cache + e.parts.activations);
  CHECK(e.parts.weights == 494'032'768LL * 2);
}

TEST_CASE("Tensor parallelism splits weights and KV heads over GPUs", "[memory][tp]") {
  const ModelSpec m = test_support::preset("qwen2.5-72b-instruct");  // 8 KV heads
  InferenceSettings one = settings("bf16", Engine::generic, 4096, 0);
  InferenceSettings four = one;
  four.gpus = 4;
  const auto e1 = estimate_inference_memory(m, one);
  const auto e4 = estimate_inference_memory(m, four);
  CHECK(e4.parts.weights == (e1.parts.weights + 3) / 4);
  CHECK(e4.parts.kv_cache == e1.parts.kv_cache / 4);
}

TEST_CASE("Without flash attention the prefill scores grow with the square of the prompt", "[memory][attention]") {
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  InferenceSettings s = settings("bf16", Engine::generic, 16384, 0);
  s.flash_attention = false;
  const auto eager = estimate_inference_memory(m, s);
  s.flash_attention = true;
  const auto flash = estimate_inference_memory(m, s);
  // Scores: 14 heads × 16384² × (2 + 2 + 4) B = 30,064,771,072 B dominate one layer's temporaries.
  CHECK(eager.parts.activations >= 14LL * 16384 * 16384 * 8);
  CHECK(flash.parts.activations < eager.parts.activations / 10);
}

TEST_CASE("litgpt holds a tied output head apart: Falcon-7B weighs 65,024 x 4,544 more than with transformers", "[memory][litgpt][falcon]") {
  // lit_gpt/model.py (Lightning-AI/litgpt e51aaef): GPT builds lm_head as its own nn.Linear next to
  // transformer.wte and never ties them; transformers' FalconForCausalLM ties them (FalconConfig
  // leaves tie_word_embeddings at True). bf16: 65,024 × 4,544 × 2 B = 590,938,112 B more, the
  // checkpoint's 7,217,189,760 parameters × 2 B in all (Hub safetensors total).
  const nlohmann::json base = {{"model", "falcon-7b"}, {"weights", "bf16"}, {"input_tokens", 6}, {"output_tokens", 50}};
  nlohmann::json lit = base;
  lit["engine"] = "litgpt";
  nlohmann::json hf = base;
  hf["engine"] = "transformers";
  const nlohmann::json a = test_support::estimate(lit);
  const nlohmann::json b = test_support::estimate(hf);
  REQUIRE_FALSE(a.contains("error"));
  REQUIRE_FALSE(b.contains("error"));
  CHECK(a["memory"]["parts"]["weights"].get<std::int64_t>() == 7'217'189'760LL * 2);
  CHECK(a["memory"]["parts"]["weights"].get<std::int64_t>() - b["memory"]["parts"]["weights"].get<std::int64_t>() == 590'938'112);
  bool warned = false;
  for (const auto& w : a["warnings"]) warned = warned || w.get<std::string>().find("engine litgpt") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("Each engine leads with formats it runs, and llama.cpp and Ollama with the Q4_K_M file people download", "[memory][formats]") {
  for (Engine engine : kEngines) {
    const auto ids = suggested_weight_formats(engine);
    CHECK_FALSE(ids.empty());
    for (std::string_view id : ids) {
      CAPTURE(engine_id(engine), id);
      REQUIRE(find_weight_format(id) != nullptr);
      // llama.cpp and Ollama load GGUF files only.
      if (engine == Engine::llama_cpp || engine == Engine::ollama) CHECK(find_weight_format(id)->ecosystem == Ecosystem::gguf);
    }
  }
  // Ollama's default tag (ollama.com/library/llama3.1: latest = 8b-instruct-q4_K_M).
  const auto ollama = suggested_weight_formats(Engine::ollama);
  CHECK(std::find(ollama.begin(), ollama.end(), "q4_k_m") != ollama.end());
}

}  // namespace memory_test
