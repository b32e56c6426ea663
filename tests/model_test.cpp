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

// ---------------------------------------------------------------------------------------------
// KV cache per token, hand-computed for one model of each attention kind. Shapes from each
// preset's config.json (data/models/<id>.json, source URL inside).

TEST_CASE("KV per token for MHA: Llama-2-7B caches 32 heads in every layer", "[model][kv]") {
  // 2 (K and V) × 32 layers × 32 KV heads × 128 head_dim = 262,144 values; × 2 B = 512 KiB a token.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  CHECK(kv_cache_elements(m, 1) == 262'144);
  CHECK(kv_cache_elements(m, 4096) * 2 == 2LL * 32 * 32 * 128 * 4096 * 2);
}

TEST_CASE("KV per token for MQA: one KV head per layer", "[model][kv]") {
  // A Falcon-style MQA config: 32 query heads, 1 KV head of 128: 2 × 24 layers × 1 × 128 = 6,144
  // values a token, 32× fewer than the same model with MHA (2 × 24 × 32 × 128 = 196,608).
  std::vector<llmsizer::Message> warnings;
  const ModelSpec m = model_from_hf_config(
      {{"model_type", "llama"}, {"hidden_size", 4096}, {"num_hidden_layers", 24}, {"num_attention_heads", 32},
       {"num_key_value_heads", 1}, {"intermediate_size", 11008}, {"vocab_size", 32000}},
      "config", warnings);
  CHECK(kv_cache_elements(m, 1) == 6'144);
  ModelSpec mha = m;
  mha.num_kv_heads = 32;
  CHECK(kv_cache_elements(mha, 1) == 196'608);
}

TEST_CASE("Sliding window on every layer: Mistral-7B v0.1 stops growing at 4096 tokens", "[model][kv][sliding]") {
  // 2 × 32 layers × 8 KV heads × 128 = 65,536 values per token; sliding_window 4096 on all layers
  // (MistralConfig), so 8192 tokens of context cache only 4096 tokens: 65,536 × 4096.
  const ModelSpec m = test_support::preset("mistral-7b-v0.1");
  CHECK(kv_cache_elements(m, 1) == 65'536);
  CHECK(kv_cache_elements(m, 4096) == 65'536LL * 4096);
  CHECK(kv_cache_elements(m, 8192) == 65'536LL * 4096);
  CHECK(kv_cache_elements(m, 32768) == 65'536LL * 4096);
}

TEST_CASE("Gemma 2 alternates 4096-token local layers with global ones", "[model][kv][sliding]") {
  // Gemma-2-9B: 42 layers, 8 KV heads × head_dim 256 → 2 × 8 × 256 = 4,096 values per layer and
  // token. Even layers slide over 4096 tokens, odd ones see everything (modeling_gemma2.py).
  // At 8192 tokens: 21 × 4096 × 4096 + 21 × 4096 × 8192.
  const ModelSpec m = test_support::preset("gemma-2-9b-it");
  CHECK(kv_cache_elements(m, 8192) == 21LL * 4096 * 4096 + 21LL * 4096 * 8192);
  CHECK(kv_cache_elements(m, 1000) == 42LL * 4096 * 1000);  // below the window every layer grows
}

TEST_CASE("Gemma 3 keeps 5 local 1024-token layers per global layer", "[model][kv][sliding]") {
  // Gemma-3-27B: 62 layers; layer i is global when (i + 1) % 6 == 0 → layers 5, 11, ..., 59: 10
  // global, 52 local with sliding_window 1024. 16 KV heads × 128 → 4,096 values per layer and token.
  // At 32,768 tokens: 52 × 4096 × 1024 + 10 × 4096 × 32768.
  const ModelSpec m = test_support::preset("gemma-3-27b-it");
  CHECK(kv_cache_elements(m, 32768) == 52LL * 4096 * 1024 + 10LL * 4096 * 32768);
}

TEST_CASE("gpt-oss alternates 128-token sliding layers with full ones from layer_types", "[model][kv][sliding]") {
  // gpt-oss-120b: 36 layers, layer_types alternate sliding/full (18 each), sliding_window 128,
  // 8 KV heads × head_dim 64 → 1,024 values per layer and token.
  const ModelSpec m = test_support::preset("gpt-oss-120b");
  CHECK(kv_cache_elements(m, 8192) == 18LL * 1024 * 128 + 18LL * 1024 * 8192);
}

TEST_CASE("MLA caches the latent and the rope key: DeepSeek-V3 35136 values per token", "[model][kv][mla]") {
  // 61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) = 35,136 values per token, whatever the
  // 128 attention heads (num_key_value_heads is not used by MLA).
  const ModelSpec m = test_support::preset("deepseek-v3");
  CHECK(kv_cache_elements(m, 1) == 35'136);
  CHECK(kv_cache_elements(m, 1000) == 35'136'000);
}

TEST_CASE("Qwen3-Next caches KV in 12 of 48 layers plus a fixed linear-attention state", "[model][kv][hybrid]") {
  // full_attention_interval 4: layers 3, 7, ..., 47 are full attention (12), 2 KV heads × 256 →
  // 2 × 2 × 256 = 1,024 values per layer and token → 12,288 per token.
  const ModelSpec m = test_support::preset("qwen3-next-80b-a3b-instruct");
  CHECK(kv_cache_elements(m, 1) == 12'288);
  CHECK(kv_cache_elements(m, 100'000) == 1'228'800'000);
  // The 36 gated-delta-net layers: a 128 × 128 state for each of 32 value heads (524,288) plus
  // the conv window of (4 − 1) inputs over q, k, v: (2 × 16 × 128 + 32 × 128) × 3 = 24,576.
  // (524,288 + 24,576) × 36 layers × 4 B (fp32) = 79,036,416 B per sequence, at any context.
  CHECK(recurrent_state_bytes(m, 4) == 79'036'416);
}

TEST_CASE("The generic estimate adds the recurrent state to the KV cache part", "[model][kv][hybrid]") {
  // 12,288 values × 2048 tokens × 2 B (bf16) + 79,036,416 B of state = 129,368,064 B.
  const auto r = test_support::estimate({{"model", "qwen3-next-80b-a3b-instruct"}, {"input_tokens", 1024}, {"output_tokens", 1024}});
  CHECK(r["memory"]["parts"]["kv_cache"] == 12'288LL * 2048 * 2 + 79'036'416);
}

// ---------------------------------------------------------------------------------------------
// Parameter counts of the special layers.

TEST_CASE("DeepSeek-V3 counts the main model and keeps the MTP layer apart", "[model][mla][moe]") {
  const ParamCounts c = count_params(test_support::preset("deepseek-v3"));
  // DeepSeek's 671B is the main model; the checkpoint's extra layer 61 (MTP) is ~14B (README:
  // "685B ... 671B of the Main Model weights and 14B of the Multi-Token Prediction (MTP) Module").
  // Hugging Face's safetensors metadata: BF16 3,918,786,560 + F8_E4M3 680,571,043,840 =
  // 684,489,830,400 elements, plus F32 tensors: the FP8 block scales and the 59 × 256
  // e_score_correction_bias values (58 MoE layers + the MTP layer) that this count includes.
  CHECK(c.total == 671'026'419'200);
  CHECK(c.total + c.mtp - 59 * 256 == 684'489'830'400);
}

TEST_CASE("Qwen3-Next count equals the checkpoint of the same architecture without MTP", "[model][hybrid][moe]") {
  // Qwen/Qwen3-Coder-Next has this architecture and no MTP weights: 79,674,391,296 parameters in
  // its safetensors metadata (see the note in data/models/qwen3-next-80b-a3b-instruct.json).
  CHECK(count_params(test_support::preset("qwen3-next-80b-a3b-instruct")).total == 79'674'391'296);
}

TEST_CASE("gpt-oss active parameters match OpenAI's count once the embedding is left out", "[model][moe]") {
  // OpenAI's model card: 5.1B active (120b) and 3.6B (20b), counting the unembedding but not the
  // embedding table (201,088 × 2,880 = 579,133,440).
  const ParamCounts big = count_params(test_support::preset("gpt-oss-120b"));
  const ParamCounts small = count_params(test_support::preset("gpt-oss-20b"));
  CHECK(big.embedding == 579'133'440);
  REQUIRE_THAT(static_cast<double>(big.active - big.embedding), Catch::Matchers::WithinRel(5.1e9, 0.01));
  REQUIRE_THAT(static_cast<double>(small.active - small.embedding), Catch::Matchers::WithinRel(3.6e9, 0.01));
}

TEST_CASE("Qwen-MoE mlp_only_layers and decoder_sparse_step choose the MoE layers", "[model][moe]") {
  ModelSpec m = test_support::preset("qwen3-30b-a3b");
  CHECK(is_moe_layer(m, 0));
  m.moe.dense_layers = {0, 5};
  CHECK_FALSE(is_moe_layer(m, 0));
  CHECK_FALSE(is_moe_layer(m, 5));
  CHECK(is_moe_layer(m, 1));
  // decoder_sparse_step 2: layer i is MoE when (i + 1) % 2 == 0.
  m.moe.dense_layers.clear();
  m.moe.moe_layer_period = 2;
  m.moe.moe_layer_offset = 1;
  CHECK_FALSE(is_moe_layer(m, 0));
  CHECK(is_moe_layer(m, 1));
  // Each dense layer swaps 128 experts (and the router) for one 6144-wide MLP:
  // 128 × 3 × 2048 × 768 + 2048 × 128 − 3 × 2048 × 6144 per layer, over 24 layers.
  const ParamCounts all_moe = count_params(test_support::preset("qwen3-30b-a3b"));
  const ParamCounts half = count_params(m);
  CHECK(all_moe.total - half.total == 24LL * (128LL * 3 * 2048 * 768 + 2048LL * 128 - 3LL * 2048 * 6144));
}

// ---------------------------------------------------------------------------------------------
// Feature sentences.


TEST_CASE("Features name what drives the memory of each architecture", "[model][features]") {
  const auto [id, text] = GENERATE(table<const char*, const char*>({
      {"qwen2.5-7b-instruct", "GQA 28:4 — KV cache 7× smaller than MHA"},
      {"qwen2.5-7b-instruct", "biases on the q, k and v projections"},
      {"llama-2-7b-hf", "MHA: 32 KV heads"},
      {"gemma-3-1b-it", "MQA: 1 KV head shared by 4 query heads"},
      {"gemma-3-12b-it", "40 of 48 layers use a 1,024-token window (5 local : 1 global)"},
      {"gemma-2-9b-it", "21 of 42 layers use a 4,096-token window (alternating local and global)"},
      {"gemma-2-9b-it", "head_dim 256 set explicitly (hidden_size / heads would give 224)"},
      {"gpt-oss-20b", "attention sinks"},
      {"mistral-7b-v0.1", "all 32 layers use a 4,096-token sliding window"},
      {"deepseek-v3", "MLA: 576 cached values per token and layer"},
      {"deepseek-v3", "MTP: 1 multi-token-prediction layer"},
      {"qwen3-30b-a3b", "MoE: 8 of 128 experts active — 3.35B of 30.5B parameters used per token"},
      {"qwen3-next-80b-a3b-instruct", "hybrid: 36 of 48 layers are linear attention"},
      {"qwen3-next-80b-a3b-instruct", "gated attention"},
      {"gemma-3-4b-it", "SigLIP vision tower (27 layers) and multimodal projector: 420M parameters"},
      {"llama-3.2-1b-instruct", "tied embeddings"},
  }));
  CAPTURE(id, text);
  CHECK(test_support::any_contains(describe_features(test_support::preset(id)), text));
}

TEST_CASE("A bare parameter count has no architecture features", "[model][features]") {
  ModelSpec m;
  m.params_override = 7'000'000'000;
  CHECK(describe_features(m).empty());
}
