// SPDX-License-Identifier: MIT
// Parameter counts and KV-cache elements computed from the architecture.
#include <catch2/catch.hpp>

#include "llmsizer/model.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace model_test {

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

TEST_CASE("Falcon KV per token: 7B caches one KV head, 40B eight groups", "[model][kv][falcon]") {
  // data/models/falcon-7b.json: multi_query, 32 layers, head_dim 4544 / 71 = 64: 2 × 32 × 1 × 64 =
  // 4,096 values a token. data/models/falcon-40b.json: num_kv_heads 8 with the new decoder
  // architecture, 60 layers, head_dim 64: 2 × 60 × 8 × 64 = 61,440.
  CHECK(kv_cache_elements(test_support::preset("falcon-7b"), 1) == 4'096);
  CHECK(kv_cache_elements(test_support::preset("falcon-40b"), 1) == 61'440);
  // Presets count the output head once (tied in memory, FalconConfig's default): 41,835,970,560
  // published minus 65,024 × 8,192 = 41,303,293,952.
  const ParamCounts c = count_params(test_support::preset("falcon-40b"));
  CHECK(c.lm_head == 0);
  CHECK(c.total == 41'303'293'952);
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

// ---------------------------------------------------------------------------------------------
// Architecture features of the 2025-2026 families: each KV and parameter figure worked out by hand
// from the preset's config.json (data/models/<id>.json, source URL inside) and the module layout
// cited in model.cpp / config_import.cpp.

TEST_CASE("Per-layer KV heads and head dims: Gemma 4 global layers cache 4 heads of 512", "[model][kv][per-layer]") {
  // gemma-4-31B-it: 60 layers, layer_types 5 sliding : 1 full. Sliding layers: 16 KV heads ×
  // head_dim 256 → 16 × (256 + 256) = 8,192 values per token, window 1024. Full layers:
  // num_global_key_value_heads 4 × global_head_dim 512 → 4 × (512 + 512) = 4,096 per token.
  // At 32,768 tokens: 50 × 8,192 × 1,024 + 10 × 4,096 × 32,768 = 1,761,607,680.
  const ModelSpec m = test_support::preset("gemma-4-31b-it");
  CHECK(kv_cache_elements(m, 32'768) == 50LL * 8'192 * 1'024 + 10LL * 4'096 * 32'768);
  CHECK(kv_cache_elements(m, 32'768) == 1'761'607'680);
  CHECK(m.attention(5).kv_heads == 4);
  CHECK(m.attention(5).head_dim == 512);
  CHECK(m.attention(0).head_dim == 256);
}

TEST_CASE("Per-layer attention parameters: a Gemma 4 global layer has no v_proj (attention_k_eq_v)", "[model][params][per-layer]") {
  // Global layer (hidden 5376, 32 query heads × 512): q 5376 × 16,384, k 5376 × (4 × 512), no v
  // (values reuse the key projection), o 16,384 × 5376, q_norm and k_norm over 512:
  // 88,080,384 + 11,010,048 + 88,080,384 + 1,024 = 187,171,840.
  // Sliding layer (32 × 256 queries, 16 KV heads × 256): 44,040,192 + 2 × 22,020,096 + 44,040,192
  // + 512 = 132,121,088.
  ModelSpec one_global = test_support::preset("gemma-4-31b-it");
  const ParamCounts all = count_params(one_global);
  ModelSpec swapped = one_global;
  swapped.layer_mixers[5] = MixerKind::sliding_attention;
  swapped.layer_attention[5] = AttentionShape{};
  CHECK(all.per_layer_attention - count_params(swapped).per_layer_attention == 187'171'840 - 132'121'088);
  // Text model: 50 sliding + 10 global layers, 21,504-wide GeGLU MLPs, 4 norms and a layer scalar
  // per layer, tied 262,144 × 5,376 embedding: the Hub's 31,273,088,876 less the 575,743,536 of
  // the vision encoder.
  CHECK(all.total - all.extra == 30'697'345'340);
  CHECK(all.extra == 575'743'536);
}

TEST_CASE("Different key and value head dims: MiMo-V2-Flash caches 192-wide keys and 128-wide values", "[model][kv][per-layer]") {
  // 9 full layers: 4 KV heads × (192 + 128) = 1,280 values per token; 39 sliding layers (window
  // 128): swa_num_key_value_heads 8 × (192 + 128) = 2,560. At 8,192 tokens:
  // 9 × 1,280 × 8,192 + 39 × 2,560 × 128 = 107,151,360.
  const ModelSpec m = test_support::preset("mimo-v2-flash");
  CHECK(kv_cache_elements(m, 8'192) == 9LL * 1'280 * 8'192 + 39LL * 2'560 * 128);
  // o_proj reads heads × v_head_dim: a full layer's attention is q 4096 × 64 × 192, k 4096 × 4 ×
  // 192, v 4096 × 4 × 128, o 64 × 128 × 4096 (no sinks on full layers).
  const AttentionShape full = m.attention(0);
  CHECK(full.v_head_dim == 128);
  CHECK(full.head_dim == 192);
  CHECK_FALSE(full.sinks);
  CHECK(m.attention(1).sinks);  // add_swa_attention_sink_bias
}

TEST_CASE("Per-layer KV heads and skipped attention: a DeciLM / Nemotron-NAS block_configs", "[model][kv][per-layer]") {
  // hidden 1024, 16 heads of 64. Block 0: n_heads_in_group 8 → 2 KV heads; block 1: attention
  // no_op; block 2: n_heads_in_group 4 → 4 KV heads; FFN widths int(2 × mult × 1024 / 3) rounded
  // up to 256: mult 1.0 → 682 → 768; 2.625 → 1792; block 1's FFN no_op.
  std::vector<Message> warnings;
  const nlohmann::json config = {
      {"model_type", "nemotron-nas"}, {"hidden_size", 1024}, {"num_hidden_layers", 3}, {"num_attention_heads", 16},
      {"vocab_size", 1000}, {"intermediate_size", nullptr}, {"num_key_value_heads", nullptr},
      {"block_configs", {{{"attention", {{"n_heads_in_group", 8}, {"no_op", false}}}, {"ffn", {{"ffn_mult", 1.0}, {"no_op", false}}}},
                         {{"attention", {{"n_heads_in_group", nullptr}, {"no_op", true}}}, {"ffn", {{"ffn_mult", 1.0}, {"no_op", true}}}},
                         {{"attention", {{"n_heads_in_group", 4}, {"no_op", false}}}, {"ffn", {{"ffn_mult", 2.625}, {"no_op", false}}}}}}};
  const ModelSpec m = model_from_hf_config(config, "config", warnings);
  // KV per token: 2 × 2 × 64 + 2 × 4 × 64 = 768 (block 1 caches nothing).
  CHECK(kv_cache_elements(m, 1) == 768);
  const ParamCounts c = count_params(m);
  // Attention: q and o 1024 × 1024 each; k and v 1024 × 128 (block 0) and 1024 × 256 (block 2).
  CHECK(c.per_layer_attention == 2LL * (2 * 1024 * 1024) + 2 * 1024 * 128 + 2 * 1024 * 256);
  CHECK(c.per_layer_mlp == 3LL * 1024 * 768 + 3LL * 1024 * 1792);
  // Norms: one before each block that exists (2 + 0 + 2) and the final norm.
  CHECK(c.norms == 5LL * 1024);
}

TEST_CASE("Chunked local attention: Llama 4 caches at most one 8,192-token chunk in 3 of 4 layers", "[model][kv][chunked]") {
  // Llama-4-Scout: 48 layers; no_rope_layers marks every 4th layer global (NoPE, full context),
  // the other 36 attend within attention_chunk_size 8192. 8 KV heads × 128 → 2 × 8 × 128 = 2,048
  // values per layer and token. At 32,768 tokens: 36 × 2,048 × 8,192 + 12 × 2,048 × 32,768.
  const ModelSpec m = test_support::preset("llama-4-scout-17b-16e-instruct");
  CHECK(kv_cache_elements(m, 32'768) == 36LL * 2'048 * 8'192 + 12LL * 2'048 * 32'768);
  CHECK(kv_cache_elements(m, 32'768) == 1'409'286'144);
  // Below one chunk every layer keeps the whole context.
  CHECK(kv_cache_elements(m, 4'096) == 48LL * 2'048 * 4'096);
  CHECK(m.mixer(3) == MixerKind::full_attention);
  CHECK(m.mixer(0) == MixerKind::chunked_attention);
}

TEST_CASE("Llama 4 MoE: every layer routes to 1 of 16 experts plus a shared expert", "[model][params][moe]") {
  // Scout layer: attention 5120 × 5120 × 2 + 5120 × 1024 × 2 = 62,914,560 (the L2 qk-norm has no
  // weights); router 5120 × 16; 16 experts + 1 shared of 3 × 5120 × 8192 = 125,829,120 each; two
  // norms. 48 layers + embedding and head 202,048 × 5120 each + final norm: 107,769,861,120.
  const ParamCounts c = count_params(test_support::preset("llama-4-scout-17b-16e-instruct"));
  const std::int64_t layer = 62'914'560LL + 5120LL * 16 + 17LL * 125'829'120 + 2 * 5120;
  CHECK(c.total - c.extra == 48 * layer + 2LL * 202'048 * 5120 + 5120);
  // Active: the router, 1 routed and the shared expert.
  CHECK(c.active == 48 * (62'914'560LL + 5120LL * 16 + 2 * 125'829'120 + 2 * 5120) + 2LL * 202'048 * 5120 + 5120);
}

TEST_CASE("DeepSeek sparse attention: the indexer's key and weights come on top of MLA", "[model][kv][dsa]") {
  // DeepSeek-V3.2: per token and layer the MLA latent 512 + rope key 64 + indexer key
  // index_head_dim 128 = 704 values; 61 layers → 42,944 per token.
  const ModelSpec m = test_support::preset("deepseek-v3.2");
  CHECK(kv_cache_elements(m, 1) == 61LL * (512 + 64 + 128));
  CHECK(m.indexer.topk == 2048);
  // Indexer per layer: wq_b 1536 × 64 × 128 + wk 7168 × 128 + k_norm (LayerNorm) 2 × 128 +
  // weights_proj 7168 × 64 = 13,959,424; × 61 layers is exactly what V3.2 adds to V3.
  const std::int64_t indexer = 1536LL * 64 * 128 + 7168LL * 128 + 2 * 128 + 7168LL * 64;
  CHECK(indexer == 13'959'424);
  CHECK(count_params(m).total - count_params(test_support::preset("deepseek-v3")).total == 61 * indexer);
}

TEST_CASE("Mamba-2 state: Nemotron-3-Nano keeps 542,720 values per Mamba layer", "[model][hybrid][mamba2]") {
  // 64 heads × 64 head_dim = d_inner 4096; SSM state 4096 × d_state 128 = 524,288; conv over
  // x, B, C: (4096 + 2 × 8 groups × 128) = 6,144 channels × (conv_kernel 4 − 1) = 18,432.
  // 23 Mamba layers × 542,720 × 4 B = 49,930,240 B per sequence.
  const ModelSpec m = test_support::preset("nvidia-nemotron-3-nano-30b-a3b-bf16");
  CHECK(recurrent_state_bytes(m, 4) == 23LL * (524'288 + 18'432) * 4);
  // 6 attention layers × 2 × 2 KV heads × 128 = 3,072 values per token.
  CHECK(kv_cache_elements(m, 1) == 3'072);
}

TEST_CASE("Mamba-2 parameters: in_proj, conv, per-head A/D/dt, gated norm, out_proj", "[model][params][mamba2]") {
  // One Nemotron-3-Nano Mamba layer (hidden 2688): in_proj 2688 × (4096 + 6144 + 64) =
  // 27,697,152; conv1d 6144 × 4 + bias 6144; dt_bias, A_log, D 3 × 64; norm 4096; out_proj
  // 4096 × 2688 = 11,010,048 → 38,742,208.
  ModelSpec m = test_support::preset("nvidia-nemotron-3-nano-30b-a3b-bf16");
  const ParamCounts all = count_params(m);
  m.layer_mixers[0] = MixerKind::none;  // layer 0 is 'M'
  CHECK(all.per_layer_attention - count_params(m).per_layer_attention == 38'742'208);
}

TEST_CASE("Hybrid models: a fixed recurrent state per sequence and KV only in the attention layers", "[model][hybrid]") {
  // granite-4.0-h-micro: 36 Mamba-2 layers of 64 × 64 × 128 = 524,288 + (4096 + 2 × 1 × 128) × 3
  // = 13,056 → 19,344,384 values: 38,688,768 B at 2 bytes, the figure a public Swift test of this
  // config computes; KV: 4 attention layers × 2 × 8 × 64 = 4,096 per token.
  // qwen3.5-27b: 48 Gated DeltaNet layers of 48 value heads × 128 × 128 = 786,432 + conv
  // (2 × 16 × 128 + 48 × 128) × 3 = 30,720 → 817,152 × 48 × 4 B = 156,893,184 B; KV: 16 full
  // layers × 2 × 4 × 256 = 32,768 per token.
  const auto [id, bytes_per_element, state_bytes, kv_per_token] = GENERATE(table<const char*, int, std::int64_t, std::int64_t>({
      {"granite-4.0-h-micro", 2, 38'688'768, 4'096},
      {"qwen3.5-27b", 4, 156'893'184, 32'768},
  }));
  CAPTURE(id);
  const ModelSpec m = test_support::preset(id);
  CHECK(recurrent_state_bytes(m, bytes_per_element) == state_bytes);
  CHECK(kv_cache_elements(m, 1) == kv_per_token);
}

TEST_CASE("MTP layers: GLM-4.5-Air and Qwen3.5 count them apart from the model", "[model][params][mtp]") {
  // GLM-4.5-Air MTP (checkpoint layer 46): a decoder layer — attention (qkv biases, no qk-norm):
  // 4096 × 12,288 + 12,288 + 2 × (4096 × 1024 + 1024) + 12,288 × 4096 = 109,066,240; MoE: router
  // 4096 × 128 + bias 128, 128 experts + 1 shared of 3 × 4096 × 1408 = 17,301,504 each; 2 norms —
  // plus enorm, hnorm, eh_proj 2 × 4096², shared_head.norm.
  const ParamCounts air = count_params(test_support::preset("glm-4.5-air"));
  const std::int64_t h = 4096;
  const std::int64_t attention_air = h * 12'288 + 12'288 + 2 * (h * 1024 + 1024) + 12'288 * h;
  CHECK(attention_air == 109'066'240);
  const std::int64_t layer = attention_air + h * 128 + 128 + 129LL * 17'301'504 + 2 * h;
  CHECK(air.mtp == layer + 2 * h + 2 * h * h + h);
  // Qwen3.5-27B (mtp_num_hidden_layers 1): fc 2 × 5120², two pre-fc norms, a gated-attention
  // layer (q 5120 × 24 × 256 × 2, k and v 5120 × 4 × 256, o 6144 × 5120, q/k norms 256) with the
  // 17,408-wide MLP and its 2 norms, and a final norm.
  const ParamCounts q = count_params(test_support::preset("qwen3.5-27b"));
  const std::int64_t w = 5120;
  const std::int64_t attention = w * 6144 * 2 + 2 * w * 1024 + 6144 * w + 2 * 256;
  CHECK(q.mtp == attention + 3 * w * 17'408 + 2 * w + 2 * w * w + 3 * w);
  CHECK(q.mtp == 424'699'392);
}

TEST_CASE("Vision towers are counted and images take context tokens", "[model][vision]") {
  // Llama 4 (Scout): per layer q, k, v, o with biases 4 × (1408² + 1408), fc1 1408 × 5632 + 5632,
  // fc2 5632 × 1408 + 1408, two LayerNorms 4 × 1408; 34 layers; patch linear 588 × 1408, class
  // embedding, 577 positions, LayerNorms pre/post; adapter 5632 × 4096 + 4096², projector
  // 4096 × 5120.
  const std::int64_t hv = 1408;
  const std::int64_t per_layer = 4 * (hv * hv + hv) + (hv * 5632 + 5632) + (5632 * hv + hv) + 4 * hv;
  const std::int64_t llama4 = 588 * hv + hv + 577 * hv + 4 * hv + 34 * per_layer + 5632LL * 4096 + 4096LL * 4096 + 4096LL * 5120;
  const ModelSpec scout = test_support::preset("llama-4-scout-17b-16e-instruct");
  CHECK(scout.extra_params == llama4);
  CHECK(llama4 == 871'932'416);
  // 336-pixel tiles of 24 × 24 patches, 2 × 2 pixel shuffle → 144 tokens; a 1000 × 700 image
  // takes 3 × 3 tiles plus the global tile.
  CHECK(image_tokens(scout, 336, 336) == 144);
  CHECK(image_tokens(scout, 1000, 700) == 10 * 144);
  // Qwen3-VL-8B: one token per 2 × 2 block of 16-pixel patches: 1024 × 1024 → 32 × 32.
  const ModelSpec qwen = test_support::preset("qwen3-vl-8b-instruct");
  CHECK(image_tokens(qwen, 1024, 1024) == 1'024);
  CHECK(qwen.extra_params == 576'388'336);
  // Pixtral (Mistral Small 3.1): 14-pixel patches merged 2 × 2 → 28 pixels a token.
  CHECK(image_tokens(test_support::preset("mistral-small-3.1-24b-instruct-2503"), 1024, 1024) == 37LL * 37);
  // Towers that pool every image to a fixed count: Gemma 3 256, Gemma 4 280.
  CHECK(image_tokens(test_support::preset("gemma-3-4b-it"), 2000, 100) == 256);
  CHECK(image_tokens(test_support::preset("gemma-4-26b-a4b-it"), 640, 480) == 280);
  // A text-only model takes no image tokens.
  CHECK(image_tokens(test_support::preset("qwen2.5-7b-instruct"), 1024, 1024) == 0);
}

TEST_CASE("Qwen2.5-VL: a 32-block window-attention tower with gated MLPs and an RMSNorm merger", "[model][vision]") {
  // Hand count for Qwen2.5-VL-7B (vision hidden 1280, MLP 3420, 14-pixel patches, 2 temporal, merge 2):
  // patch Conv3d 3 × 2 × 14 × 14 × 1280 without bias; per block two RMSNorms 2 × 1280, qkv
  // 1280 × 3840 + 3840, proj 1280² + 1280, gate and up 2 × (1280 × 3420 + 3420), down
  // 3420 × 1280 + 1280; merger RMSNorm 1280, 5120² + 5120, 5120 × 3584 + 3584.
  const std::int64_t hv = 1280;
  const std::int64_t inter = 3420;
  const std::int64_t per_block = 2 * hv + (hv * 3 * hv + 3 * hv) + (hv * hv + hv) + 2 * (hv * inter + inter) + (inter * hv + hv);
  const std::int64_t tower = 3LL * 2 * 14 * 14 * hv + 32 * per_block + hv + (5120LL * 5120 + 5120) + (5120LL * 3584 + 3584);
  CHECK(tower == 676'550'144);  // the visual module a public fine-tuning script prints for this model
  const ModelSpec vl = test_support::preset("qwen2.5-vl-7b-instruct");
  CHECK(vl.extra_params == tower);
  // The decoder is Qwen2.5-7B's: 7,615,616,512 + the tower = the published 8,292,166,656.
  CHECK(count_params(vl).total == 7'615'616'512 + tower);
  // One token per 2 × 2 block of 14-pixel patches: 28 pixels a side, 1024 → 37 (rounded up).
  CHECK(image_tokens(vl, 1024, 1024) == 37LL * 37);
  CHECK(image_tokens(vl, 448, 280) == 16LL * 10);
  // The olmOCR 2 save puts the text fields in text_config (model_type qwen2_5_vl_text) and names the
  // vision model_type: the same counts, q/k/v biases included.
  const ModelSpec ocr = test_support::preset("olmocr-2-7b-1025");
  CHECK(ocr.qkv_bias);
  CHECK(count_params(ocr).total == count_params(vl).total);
}

TEST_CASE("EXAONE 4 normalises each query and key head and slides 3 of 4 layers", "[model][params][kv]") {
  // EXAONE-4.0-32B: per layer q 5120 × 5120, k and v 5120 × 1024, o 5120 × 5120, q_norm and k_norm
  // 2 × 128, MLP 3 × 5120 × 27392, two norms; 64 layers; untied 102,400 × 5120 tables; final norm.
  const ModelSpec m = test_support::preset("exaone-4.0-32b");
  const std::int64_t per_layer = 2LL * 5120 * 5120 + 2LL * 5120 * 1024 + 2 * 128 + 3LL * 5120 * 27392 + 2 * 5120;
  CHECK(count_params(m).total == 2LL * 102'400 * 5120 + 64 * per_layer + 5120);
  CHECK(count_params(m).total == 32'003'216'384);
  // KV per token at 32k context: 16 global layers hold 32,768 tokens, 48 local ones 4,096; 8 heads
  // × (128 + 128) each.
  CHECK(kv_cache_elements(m, 32'768) == (16LL * 32'768 + 48LL * 4'096) * 8 * 256);
}

TEST_CASE("Gemma 4 26B-A4B runs a dense MLP and 8 of 128 experts side by side in each layer", "[model][params][moe]") {
  // Per layer: dense GeGLU 3 × 2816 × 2112; router 2816 × 128 + scale 2816 + per-expert scale 128;
  // experts 3 × 2816 × 704 each; 4 + 3 norms of 2816 and a layer scalar.
  const ParamCounts c = count_params(test_support::preset("gemma-4-26b-a4b-it"));
  const std::int64_t expert = 3LL * 2816 * 704;
  CHECK(c.total - c.extra - c.active == 30 * (120 * expert));
  CHECK(c.total == 25'805'936'206);
}

TEST_CASE("Features name the newer attention and state structures", "[model][features]") {
  const auto [id, text] = GENERATE(table<const char*, const char*>({
      {"llama-4-scout-17b-16e-instruct", "36 of 48 layers attend within 8,192-token chunks"},
      {"llama-4-scout-17b-16e-instruct", "a 336 × 336 image takes 144 tokens"},
      {"deepseek-v3.2", "sparse attention (DSA): a 64-head indexer picks 2,048 context tokens"},
      {"gemma-4-31b-it", "per-layer KV shapes: 16 KV heads × 256, 4 KV heads × 512"},
      {"mimo-v2-flash", "(values 128)"},
      {"nvidia-nemotron-3-nano-30b-a3b-bf16", "Mamba-2 SSM"},
      {"nvidia-nemotron-3-nano-30b-a3b-bf16", "have no MLP"},
      {"glm-4.5-air", "MTP: 1 multi-token-prediction layer"},
      {"qwen3-30b-a3b-thinking-2507-fp8", "the checkpoint stores its weights as fp8-block"},
      {"glm-5-fp8", "weights \"fp8-block\" sizes it as published"},
      {"nvidia-nemotron-3-nano-30b-a3b-bf16", "1 norm per layer (a single pre-norm)"},
      {"qwen2.5-vl-7b-instruct", "a 1024 × 1024 image takes 1,369 tokens"},
  }));
  CAPTURE(id, text);
  CHECK(test_support::any_contains(describe_features(test_support::preset(id)), text));
}

}  // namespace model_test
