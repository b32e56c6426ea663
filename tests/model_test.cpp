// SPDX-License-Identifier: MIT
// Parameter counts and KV-cache elements computed from the architecture.
#include <catch2/catch.hpp>

#include "llmsizer/model.hpp"
#include "test_support.hpp"

using namespace llmsizer;

TEST_CASE("Qwen2.5 parameter counts are exact", "[model][qwen2.5]") {
  // Expected: the parameter count of each published BF16 checkpoint (Hugging Face safetensors
  // metadata of Qwen/Qwen2.5-*-Instruct), as recorded with its source in data/models/*.json.
  const auto [id, expected] = GENERATE(table<const char*, std::int64_t>({
      {"qwen2.5-0.5b-instruct", 494'032'768},
      {"qwen2.5-1.5b-instruct", 1'543'714'304},
      {"qwen2.5-3b-instruct", 3'085'938'688},
      {"qwen2.5-7b-instruct", 7'615'616'512},
      {"qwen2.5-14b-instruct", 14'770'033'664},
      {"qwen2.5-32b-instruct", 32'763'876'352},
      {"qwen2.5-72b-instruct", 72'706'203'648},
      {"llama-3.1-8b-instruct", 8'030'261'248},
  }));
  CAPTURE(id);
  CHECK(count_params(test_support::preset(id)).total == expected);
}

TEST_CASE("Qwen2.5-7B parameters by hand from embeddings and attention with QKV bias and SwiGLU MLP and norms", "[model][qwen2.5]") {
  // hidden 3584, 28 layers, 28 heads, 4 KV heads, head_dim 128, intermediate 18944, vocab 152064,
  // untied embeddings (config.json of Qwen/Qwen2.5-7B-Instruct).
  const ParamCounts c = count_params(test_support::preset("qwen2.5-7b-instruct"));
  CHECK(c.embedding == 152064LL * 3584);  // 544,997,376
  CHECK(c.lm_head == 152064LL * 3584);
  // q: 3584×3584 + 3584 bias; k, v: 3584×512 + 512 bias each; o: 3584×3584 → 26,218,496 per layer.
  CHECK(c.per_layer_attention == 28LL * (3584 * 3584 + 3584 + 2 * (3584 * 512 + 512) + 3584 * 3584));
  CHECK(c.per_layer_mlp == 28LL * 3 * 3584 * 18944);
  CHECK(c.norms == 28LL * 2 * 3584 + 3584);
}

TEST_CASE("KV cache elements per token: 2 x layers x KV heads x head_dim", "[model][kv]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  // 2 × 28 × 4 × 128 = 28,672 elements per token.
  CHECK(kv_cache_elements(m, 1) == 28'672);
  CHECK(kv_cache_elements(m, 32'768) == 28'672LL * 32'768);
}

TEST_CASE("GQA cache is never larger than the same model with MHA", "[model][kv][property]") {
  ModelSpec gqa = test_support::preset("qwen2.5-7b-instruct");
  ModelSpec mha = gqa;
  mha.num_kv_heads = mha.num_attention_heads;
  CHECK(kv_cache_elements(gqa, 4096) * 7 == kv_cache_elements(mha, 4096));  // 28 heads : 4 KV heads
}

TEST_CASE("A bare parameter count is taken as given", "[model]") {
  ModelSpec m;
  m.params_override = 7'000'000'000;
  CHECK(count_params(m).total == 7'000'000'000);
  CHECK(kv_cache_elements(m, 1000) == 0);
}
