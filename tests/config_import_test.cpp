// SPDX-License-Identifier: MIT
// Import of Hugging Face config.json: field names by family, defaults by model_type, errors that
// name the JSON path, warnings for fields that are not used.
#include <catch2/catch.hpp>

#include "llmsizer/message_text.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/error.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace config_import_test {

using namespace llmsizer;
using nlohmann::json;

namespace {

json llama_1b() {
  // meta-llama/Llama-3.2-1B config.json (sizing fields).
  return {{"model_type", "llama"}, {"hidden_size", 2048}, {"num_hidden_layers", 16}, {"num_attention_heads", 32},
          {"num_key_value_heads", 8}, {"intermediate_size", 8192}, {"vocab_size", 128256}, {"tie_word_embeddings", true}};
}

std::string error_field(const json& config) {
  std::vector<Message> warnings;
  try {
    model_from_hf_config(config, "model.config", warnings);
  } catch (const InputError& e) {
    return e.field();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("A missing required field is named with its JSON path", "[config]") {
  for (const char* key : {"hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size", "intermediate_size"}) {
    json c = llama_1b();
    c.erase(key);
    CAPTURE(key);
    CHECK(error_field(c) == std::string("model.config.") + key);
  }
  // Inside a multimodal config the path goes through text_config.
  json mm = {{"model_type", "llava"}, {"text_config", llama_1b()}};
  mm["text_config"].erase("vocab_size");
  CHECK(error_field(mm) == "model.config.text_config.vocab_size");
}

TEST_CASE("A missing field's message says what to give", "[config]") {
  json c = llama_1b();
  c.erase("hidden_size");
  std::vector<Message> warnings;
  try {
    model_from_hf_config(c, "model.config", warnings);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(llmsizer::edge::render_en(e.message()) == "is missing from the config: give hidden_size, a whole number from 1 to 1000000");
  }
}

TEST_CASE("Out-of-range and inconsistent fields are rejected by path", "[config]") {
  json c = llama_1b();
  c["num_key_value_heads"] = 7;  // does not divide 32
  CHECK(error_field(c) == "model.config.num_key_value_heads");
  c = llama_1b();
  c["hidden_size"] = -1;
  CHECK(error_field(c) == "model.config.hidden_size");
  c = llama_1b();
  c["num_attention_heads"] = 30;  // does not divide 2048 and no head_dim
  CHECK(error_field(c) == "model.config.num_attention_heads");
  c = llama_1b();
  c["layer_types"] = json::array({"full_attention"});
  CHECK(error_field(c) == "model.config.layer_types");
  c = {{"model_type", "qwen3_moe"}, {"hidden_size", 2048}, {"num_hidden_layers", 4}, {"num_attention_heads", 32},
       {"vocab_size", 1000}, {"num_experts", 8}, {"moe_intermediate_size", 64}, {"mlp_only_layers", {9}}};
  CHECK(error_field(c) == "model.config.mlp_only_layers");
  // Mixtral-8x7B's config (mistralai/Mixtral-8x7B-v0.1) with 9 experts per token of its 8: refused,
  // naming the field, instead of "8 of 8 experts active".
  const json mixtral = {{"model_type", "mixtral"}, {"hidden_size", 4096}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                        {"num_key_value_heads", 8}, {"intermediate_size", 14336}, {"vocab_size", 32000},
                        {"num_local_experts", 8}, {"num_experts_per_tok", 2}};
  CHECK(error_field(mixtral) == "(no error)");
  c = mixtral;
  c["num_experts_per_tok"] = 9;
  CHECK(error_field(c) == "model.config.num_experts_per_tok");
  c = mixtral;
  c["num_experts_per_tok"] = 8;  // every expert for every token: a (costly) mixture still
  CHECK(error_field(c) == "(no error)");
}

TEST_CASE("Unknown fields are ignored with a warning that lists them", "[config]") {
  json c = llama_1b();
  c["my_new_field"] = 3;
  c["rope_theta"] = 500000.0;  // known and irrelevant: no warning
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(c, "config", warnings);
  CHECK(count_params(m).total == 1'235'814'400);  // Llama-3.2-1B safetensors metadata
  REQUIRE(warnings.size() == 1);
  CHECK(test_support::any_contains(warnings, "my_new_field"));
  CHECK_FALSE(test_support::any_contains(warnings, "rope_theta"));
}

TEST_CASE("Gemma configs default to tied embeddings and Gemma 3 text_config takes class defaults", "[config][gemma]") {
  // google/gemma-3-4b-it's text_config gives only hidden_size 2560, intermediate_size 10240,
  // 34 layers and sliding_window 1024; Gemma3TextConfig supplies vocab 262,208, 8 heads, 4 KV
  // heads, head_dim 256, pattern 6, tied embeddings.
  const json config = {{"model_type", "gemma3"},
                       {"text_config", {{"model_type", "gemma3_text"}, {"hidden_size", 2560}, {"intermediate_size", 10240},
                                        {"num_hidden_layers", 34}, {"sliding_window", 1024}}}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(config, "config", warnings);
  CHECK(m.vocab_size == 262'208);
  CHECK(m.num_attention_heads == 8);
  CHECK(m.num_kv_heads == 4);
  CHECK(m.head_dim == 256);
  CHECK(m.tie_word_embeddings);
  CHECK(m.norms_per_layer == 4);
  CHECK(m.qk_norm);
  CHECK(test_support::any_contains(warnings, "Gemma3TextConfig defaults"));
  // Text model by hand: embedding 262,208 × 2560; per layer q 2560×2048, k and v 2560×1024,
  // o 2048×2560, q/k norms 2 × 256, MLP 3 × 2560 × 10240, 4 norms × 2560; final norm 2560.
  const std::int64_t per_layer = 2560LL * 2048 + 2 * 2560LL * 1024 + 2048LL * 2560 + 512 + 3LL * 2560 * 10240 + 4 * 2560;
  CHECK(count_params(m).total == 262'208LL * 2560 + 34 * per_layer + 2560);
}

TEST_CASE("The SigLIP vision tower and Gemma 3 projector are counted from vision_config", "[config][vision]") {
  // google/gemma-3-4b-it vision_config: SigLIP so400m/14 at 896 px, 27 layers, width 1152, MLP 4304.
  // Patch conv 3×14×14×1152 + 1152 bias; 64² = 4096 positions × 1152; per layer 4 × (1152² + 1152)
  // + 2 LayerNorms × 2 × 1152 + (1152×4304 + 4304) + (4304×1152 + 1152); final LayerNorm 2 × 1152
  // → 416,866,032. Projector: 1152 × 2560 + 1152 = 2,950,272.
  const auto doc = json::parse(std::string(find_embedded_document("models", "gemma-3-4b-it")->json));
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(doc.at("config"), "config", warnings);
  const std::int64_t per_layer = 4 * (1152LL * 1152 + 1152) + 2 * 2 * 1152 + (1152LL * 4304 + 4304) + (4304LL * 1152 + 1152);
  const std::int64_t tower = 3LL * 14 * 14 * 1152 + 1152 + 4096LL * 1152 + 27 * per_layer + 2 * 1152;
  CHECK(tower == 416'866'032);
  CHECK(m.extra_params == tower + 1152LL * 2560 + 1152);
  const ParamCounts c = count_params(m);
  CHECK(c.total - c.active == m.extra_params);  // the tower is not in the per-token decoder compute
}

TEST_CASE("A vision tower the core cannot size is reported and not silently dropped", "[config][vision]") {
  json config = {{"model_type", "llava"}, {"text_config", llama_1b()}, {"vision_config", {{"model_type", "clip_vision_model"}}}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(config, "config", warnings);
  CHECK(m.extra_params == 0);
  CHECK(test_support::any_contains(warnings, "clip_vision_model"));
}

TEST_CASE("Qwen2 slides only when use_sliding_window is set and from max_window_layers on", "[config][sliding]") {
  json c = {{"model_type", "qwen2"}, {"hidden_size", 896}, {"num_hidden_layers", 24}, {"num_attention_heads", 14},
            {"num_key_value_heads", 2}, {"intermediate_size", 4864}, {"vocab_size", 151936},
            {"sliding_window", 4096}, {"max_window_layers", 21}, {"use_sliding_window", false}};
  std::vector<Message> warnings;
  // Off: all 24 layers × 2 × 2 × 64 = 256 values per layer and token at any context.
  CHECK(kv_cache_elements(model_from_hf_config(c, "config", warnings), 8192) == 24LL * 256 * 8192);
  // On: layers 21..23 slide over 4096 tokens (configuration_qwen2.py layer_types).
  c["use_sliding_window"] = true;
  CHECK(kv_cache_elements(model_from_hf_config(c, "config", warnings), 8192) == 21LL * 256 * 8192 + 3LL * 256 * 4096);
}

TEST_CASE("Qwen2 family puts biases on q k v and not on o", "[config]") {
  // Qwen2.5-0.5B: one layer's attention 896×896 + 896 + 2 × (896×128 + 128) + 896×896 (no o bias).
  std::vector<Message> warnings;
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  CHECK(m.qkv_bias);
  CHECK_FALSE(m.o_bias);
  CHECK(count_params(m).per_layer_attention == 24LL * (896 * 896 + 896 + 2 * (896 * 128 + 128) + 896 * 896));
}

TEST_CASE("OLMo 2 QK-norm covers the whole projection width", "[config]") {
  // allenai/OLMo-2-1124-7B config.json: hidden 4096, 32 layers, 32 heads (MHA), MLP 11008,
  // vocab 100352, untied. Per layer: attention 4 × 4096², q_norm 4096 + k_norm 4096
  // (modeling_olmo2.py), MLP 3 × 4096 × 11008, 2 norms; plus 2 × 100352 × 4096 and a final norm.
  const json c = {{"model_type", "olmo2"}, {"hidden_size", 4096}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                  {"num_key_value_heads", 32}, {"intermediate_size", 11008}, {"vocab_size", 100352}, {"tie_word_embeddings", false}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(c, "config", warnings);
  const std::int64_t per_layer = 4LL * 4096 * 4096 + 2 * 4096 + 3LL * 4096 * 11008 + 2 * 4096;
  const std::int64_t total = 2LL * 100352 * 4096 + 32 * per_layer + 4096;
  CHECK(count_params(m).total == total);
  // 7,298,617,344 by this sum: the model AllenAI calls "OLMo 2 7B".
  REQUIRE_THAT(static_cast<double>(total), Catch::Matchers::WithinRel(7e9, 0.05));
}

TEST_CASE("Jamba mixes Mamba and attention layers and MoE every other layer", "[config][hybrid]") {
  // ai21labs/Jamba-v0.1 config.json: hidden 4096, 32 layers, 32 heads, 8 KV heads, MLP 14336,
  // 16 experts top-2 on odd layers (expert_layer_period 2, offset 1), attention on layers 4, 12,
  // 20, 28 (attn_layer_period 8, offset 4), Mamba d_state 16, d_conv 4, expand 2, dt_rank 256,
  // vocab 65536, untied.
  const json c = {{"model_type", "jamba"}, {"hidden_size", 4096}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                  {"num_key_value_heads", 8}, {"intermediate_size", 14336}, {"vocab_size", 65536}, {"num_experts", 16},
                  {"num_experts_per_tok", 2}, {"expert_layer_period", 2}, {"expert_layer_offset", 1},
                  {"attn_layer_period", 8}, {"attn_layer_offset", 4}, {"mamba_d_state", 16}, {"mamba_d_conv", 4},
                  {"mamba_expand", 2}, {"mamba_dt_rank", 256}, {"mamba_conv_bias", true}, {"mamba_proj_bias", false},
                  {"tie_word_embeddings", false}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(c, "config", warnings);
  // Mamba mixer (modeling_jamba.py): in_proj 4096 × 16384, conv 8192 × 4 + 8192, x_proj
  // 8192 × (256 + 32), dt_proj 256 × 8192 + 8192, A_log 8192 × 16, D 8192, out_proj 8192 × 4096,
  // dt/B/C norms 256 + 16 + 16 = 105,308,448.
  const std::int64_t mamba = 4096LL * 16384 + 8192 * 4 + 8192 + 8192LL * 288 + 256LL * 8192 + 8192 + 8192 * 16 + 8192 + 8192LL * 4096 + 288;
  CHECK(mamba == 105'308'448);
  const std::int64_t attention = 4096LL * 4096 * 2 + 2 * 4096LL * 1024;
  const std::int64_t expert = 3LL * 4096 * 14336;
  const std::int64_t total = 2LL * 65536 * 4096 + 4096 + 28 * mamba + 4 * attention + 32 * 2 * 4096 +
                             16 * (4096LL * 16 + 16 * expert) + 16 * expert;
  const ParamCounts p = count_params(m);
  CHECK(p.total == total);
  // AI21: "52B total, 12B active" (Jamba paper, arXiv:2403.19887): 51.57B and 12.11B.
  REQUIRE_THAT(static_cast<double>(p.total), Catch::Matchers::WithinRel(52e9, 0.01));
  REQUIRE_THAT(static_cast<double>(p.active), Catch::Matchers::WithinRel(12e9, 0.01));
  // KV cache only in the 4 attention layers: 2 × 8 × 128 = 2,048 values each per token.
  CHECK(kv_cache_elements(m, 1) == 4 * 2048);
  // Mamba state: 28 layers × (8192 × 16 + 8192 × 3) values.
  CHECK(recurrent_state_bytes(m, 4) == 28LL * (8192 * 16 + 8192 * 3) * 4);
}

TEST_CASE("A config with a file's exact parameter count and bytes sizes the weights as stored", "[config][api]") {
  // What inspect_model_file hands on for a weights file: the architecture, the header's exact
  // parameter count, and its stored bytes (here Llama-3.2-1B at an illustrative 4.5 bits/weight).
  const json model = {{"config", llama_1b()}, {"params", 1'235'814'400LL}, {"weight_bytes", 695'145'600LL}, {"weights_format", "Q4_K_M"}};
  const json r = test_support::estimate({{"model", model}, {"input_tokens", 1000}, {"output_tokens", 24}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["model"]["params"] == 1'235'814'400LL);
  CHECK(r["memory"]["parts"]["weights"] == 695'145'600LL);
  CHECK(r["disk_bytes"] == 695'145'600LL);
  CHECK(r["settings"]["weights"] == "file");
  // KV from the config: 2 × 16 layers × 8 KV heads × 64 head_dim × 1024 tokens × 2 B.
  CHECK(r["memory"]["parts"]["kv_cache"] == 2LL * 16 * 8 * 64 * 1024 * 2);
  // A named format wins over the file's bytes: 1,235,814,400 × 2 B.
  const json bf16 = test_support::estimate({{"model", model}, {"weights", "bf16"}});
  CHECK(bf16["memory"]["parts"]["weights"] == 2'471'628'800LL);
  // The override must be a count.
  const json bad = test_support::estimate({{"model", {{"config", llama_1b()}, {"weight_bytes", -3}}}});
  CHECK(bad["error"]["field"] == "model.weight_bytes");
}

TEST_CASE("quantization_config names the stored weight format", "[config][quantization]") {
  const auto stored = [](const json& q) {
    json c = llama_1b();
    c["quantization_config"] = q;
    std::vector<Message> warnings;
    return model_from_hf_config(c, "config", warnings).stored_weights;
  };
  // AutoAWQ / Qwen *-AWQ repos; AutoGPTQ / Qwen *-GPTQ-Int4; Qwen3-*-FP8 (128 × 128 blocks);
  // Mistral FP8 with per-tensor scales; llm-compressor FP8 per channel; gpt-oss MXFP4; bitsandbytes.
  CHECK(stored({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"version", "gemm"}, {"zero_point", true}}) == "awq-int4");
  CHECK(stored({{"quant_method", "gptq"}, {"bits", 4}, {"group_size", 128}}) == "gptq-int4");
  CHECK(stored({{"quant_method", "gptq"}, {"bits", 8}}) == "gptq-int8");
  CHECK(stored({{"quant_method", "fp8"}, {"fmt", "e4m3"}, {"weight_block_size", {128, 128}}}) == "fp8-block");
  CHECK(stored({{"quant_method", "fp8"}, {"weight_block_size", nullptr}}) == "fp8");
  CHECK(stored({{"quant_method", "compressed-tensors"},
                {"config_groups", {{"group_0", {{"weights", {{"num_bits", 8}, {"type", "float"}, {"strategy", "channel"}}}}}}}}) == "fp8-channel");
  CHECK(stored({{"quant_method", "mxfp4"}}) == "mxfp4");
  // NVFP4 as TensorRT Model Optimizer exports it (config.json, or hf_quant_config.json's nesting)
  // and as llm-compressor writes it.
  CHECK(stored({{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}, {"group_size", 16}}) == "nvfp4");
  CHECK(stored({{"quant_method", "modelopt"}, {"quantization", {{"quant_algo", "NVFP4"}}}}) == "nvfp4");
  CHECK(stored({{"quant_method", "compressed-tensors"},
                {"config_groups", {{"group_0", {{"weights", {{"num_bits", 4}, {"type", "float"}, {"strategy", "tensor_group"}, {"group_size", 16}}}}}}}}) == "nvfp4");
  CHECK(stored({{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}, {"bnb_4bit_quant_type", "nf4"}}) == "nf4");
  // A format without a catalog entry is named in a warning and leaves the default.
  json c = llama_1b();
  c["quantization_config"] = {{"quant_method", "modelopt"}, {"quant_algo", "W4A8_AWQ"}};
  std::vector<Message> warnings;
  CHECK(model_from_hf_config(c, "config", warnings).stored_weights.empty());
  CHECK(test_support::any_contains(warnings, "modelopt"));
  // A preset from an FP8 repository carries its format.
  CHECK(test_support::preset("qwen3-30b-a3b-fp8").stored_weights == "fp8-block");
  CHECK(test_support::preset("qwen3-30b-a3b").stored_weights.empty());
}

TEST_CASE("Malformed per-layer structures are rejected by path", "[config][per-layer]") {
  // Nemotron-H: one pattern letter per layer, from M * - E only.
  json h = {{"model_type", "nemotron_h"}, {"hidden_size", 64}, {"num_hidden_layers", 3}, {"num_attention_heads", 4},
            {"vocab_size", 100}, {"intermediate_size", 128}, {"mamba_num_heads", 2}, {"mamba_head_dim", 32},
            {"ssm_state_size", 16}, {"hybrid_override_pattern", "M*"}};
  CHECK(error_field(h) == "model.config.hybrid_override_pattern");
  h["hybrid_override_pattern"] = "M*X";
  CHECK(error_field(h) == "model.config.hybrid_override_pattern");
  h["hybrid_override_pattern"] = "M*-";
  CHECK(error_field(h) == "(no error)");
  // DeciLM: one block per layer; n_heads_in_group must divide the heads.
  json nas = {{"model_type", "nemotron-nas"}, {"hidden_size", 64}, {"num_hidden_layers", 2}, {"num_attention_heads", 4},
              {"vocab_size", 100}, {"block_configs", json::array({{{"attention", {{"n_heads_in_group", 2}}}, {"ffn", {{"ffn_mult", 1.0}}}}})}};
  CHECK(error_field(nas) == "model.config.block_configs");
  nas["num_hidden_layers"] = 1;
  nas["block_configs"][0]["attention"]["n_heads_in_group"] = 3;
  CHECK(error_field(nas) == "model.config.block_configs[0].attention.n_heads_in_group");
  // MiMo-V2-Flash: hybrid_layer_pattern has one entry per layer.
  json mimo = {{"model_type", "mimo_v2_flash"}, {"hidden_size", 64}, {"num_hidden_layers", 2}, {"num_attention_heads", 4},
               {"vocab_size", 100}, {"intermediate_size", 128}, {"sliding_window", 16}, {"hybrid_layer_pattern", {0}}};
  CHECK(error_field(mimo) == "model.config.hybrid_layer_pattern");
  // Llama 4: moe_layers lists existing layers.
  json l4 = {{"model_type", "llama4_text"}, {"hidden_size", 64}, {"num_hidden_layers", 2}, {"num_attention_heads", 4},
             {"vocab_size", 100}, {"intermediate_size", 32}, {"intermediate_size_mlp", 128}, {"num_local_experts", 4},
             {"num_experts_per_tok", 1}, {"moe_layers", {0, 7}}};
  CHECK(error_field(l4) == "model.config.moe_layers");
}

TEST_CASE("GLM-4.5 puts biases on q, k and v only; Cohere ties and runs one norm per layer", "[config]") {
  std::vector<Message> warnings;
  const ModelSpec glm = test_support::preset("glm-4.5-air");
  CHECK(glm.qkv_bias);
  CHECK_FALSE(glm.o_bias);
  CHECK(glm.moe.router_bias);  // e_score_correction_bias
  json cohere = llama_1b();
  cohere["model_type"] = "cohere";
  cohere.erase("tie_word_embeddings");
  cohere["use_qk_norm"] = true;
  const ModelSpec c = model_from_hf_config(cohere, "config", warnings);
  CHECK(c.tie_word_embeddings);  // CohereConfig default
  CHECK(c.norms_per_layer == 1);
  CHECK(c.qk_norm_full_width);  // LayerNorm over (heads, head_dim)
}

namespace {

/// tiiuae/falcon-40b config.json (sizing fields; data/models/falcon-40b.json, source inside).
json falcon_40b() {
  return {{"model_type", "falcon"}, {"hidden_size", 8192}, {"num_hidden_layers", 60}, {"num_attention_heads", 128},
          {"num_kv_heads", 8}, {"multi_query", true}, {"new_decoder_architecture", true}, {"parallel_attn", true},
          {"bias", false}, {"alibi", false}, {"vocab_size", 65024}};
}

/// tiiuae/falcon-7b config.json (sizing fields; data/models/falcon-7b.json, source inside).
json falcon_7b() {
  return {{"model_type", "falcon"}, {"hidden_size", 4544}, {"num_hidden_layers", 32}, {"num_attention_heads", 71},
          {"multi_query", true}, {"new_decoder_architecture", false}, {"parallel_attn", true}, {"bias", false},
          {"alibi", false}, {"vocab_size", 65024}};
}

}  // namespace

TEST_CASE("Falcon-40B: 8 KV groups, a GELU MLP of 4 x hidden, two LayerNorms a layer, tied embeddings", "[config][falcon]") {
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(falcon_40b(), "config", warnings);
  CHECK(warnings.empty());  // every Falcon field is read or known
  CHECK(m.family == llmsizer::Family::falcon);
  CHECK(m.model_type_name == "falcon");
  CHECK(m.num_kv_heads == 8);       // num_kv_heads with new_decoder_architecture (multi_query ignored)
  CHECK(m.head_dim == 64);          // 8192 / 128
  CHECK(m.intermediate_size == 32'768);  // ffn_hidden_size unset: 4 × hidden_size (FalconMLP)
  CHECK_FALSE(m.gated_mlp);         // dense_h_to_4h, GELU, dense_4h_to_h
  CHECK(m.norm_has_bias);           // LayerNorm
  CHECK(m.norms_per_layer == 2);    // ln_attn and ln_mlp
  CHECK_FALSE(m.qkv_bias);
  CHECK_FALSE(m.mlp_bias);
  CHECK(m.tie_word_embeddings);     // PretrainedConfig default; FalconForCausalLM ties lm_head
  CHECK(m.max_position_embeddings == 2048);  // FalconConfig default
  // By hand (modeling_falcon.py): query_key_value 8192 → (128 + 2 × 8) × 64 = 9216, dense
  // 8192², dense_h_to_4h and dense_4h_to_h 2 × 8192 × 32768, ln_attn and ln_mlp 2 × 2 × 8192:
  // 679,510,016 a layer; word_embeddings 65,024 × 8,192 and ln_f 2 × 8,192.
  const std::int64_t per_layer = 8192LL * 9216 + 8192LL * 8192 + 2 * 8192LL * 32768 + 2 * 2 * 8192;
  CHECK(per_layer == 679'510'016);
  CHECK(count_params(m).total == 60 * per_layer + 65'024LL * 8192 + 2 * 8192);
  // The checkpoint stores lm_head as well: 41,835,970,560 parameters, the Hub's safetensors total
  // (83,671,941,120 bytes of bf16 in model.safetensors.index.json).
  CHECK(count_params(m).total + 65'024LL * 8192 == 41'835'970'560);
}

TEST_CASE("Falcon-7B: one KV head (multi_query) and one LayerNorm for parallel attention", "[config][falcon]") {
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(falcon_7b(), "config", warnings);
  CHECK(warnings.empty());
  CHECK(m.num_kv_heads == 1);
  CHECK(m.head_dim == 64);  // 4544 / 71
  CHECK(m.intermediate_size == 18'176);
  CHECK(m.norms_per_layer == 1);  // input_layernorm only (parallel_attn, old decoder architecture)
  // By hand: query_key_value 4544 → (71 + 2) × 64 = 4672, dense 4544², MLP 2 × 4544 × 18176,
  // input_layernorm 2 × 4544: 207,070,080 a layer; the checkpoint's 7,217,189,760 (Hub safetensors
  // total) also holds lm_head, 65,024 × 4,544.
  const std::int64_t per_layer = 4544LL * 4672 + 4544LL * 4544 + 2 * 4544LL * 18176 + 2 * 4544;
  CHECK(per_layer == 207'070'080);
  CHECK(count_params(m).total == 32 * per_layer + 65'024LL * 4544 + 2 * 4544);
  CHECK(count_params(m).total + 65'024LL * 4544 == 7'217'189'760);
}

TEST_CASE("Falcon's first configs (RefinedWeb, RefinedWebModel) size the same models", "[config][falcon]") {
  // The remote-code RWConfig names: n_layer, n_head, n_head_kv (and n_embed, FalconConfig's
  // backward-compatible name for hidden_size). NeMo's convert_falcon_hf_to_nemo.py reads
  // RefinedWeb as the new decoder architecture with n_head_kv groups and RefinedWebModel as the
  // old one, one KV head when multi_query.
  std::vector<Message> warnings;
  const json rw40 = {{"model_type", "RefinedWeb"}, {"hidden_size", 8192}, {"n_layer", 60}, {"n_head", 128}, {"n_head_kv", 8},
                     {"parallel_attn", true}, {"bias", false}, {"vocab_size", 65024}};
  const ModelSpec a = model_from_hf_config(rw40, "config", warnings);
  const ModelSpec a_new = model_from_hf_config(falcon_40b(), "config", warnings);
  CHECK(a.family == llmsizer::Family::falcon);
  CHECK(a.model_type_name == "falcon");  // RefinedWeb is reported as Falcon
  CHECK(a.num_kv_heads == 8);
  CHECK(a.norms_per_layer == 2);
  CHECK(count_params(a).total == count_params(a_new).total);
  const json rw7 = {{"model_type", "RefinedWebModel"}, {"n_embed", 4544}, {"n_layer", 32}, {"n_head", 71},
                    {"multi_query", true}, {"parallel_attn", true}, {"bias", false}, {"vocab_size", 65024}};
  const ModelSpec b = model_from_hf_config(rw7, "config", warnings);
  CHECK(b.num_kv_heads == 1);
  CHECK(b.norms_per_layer == 1);
  CHECK(count_params(b).total == count_params(model_from_hf_config(falcon_7b(), "config", warnings)).total);
  CHECK(warnings.empty());
}

TEST_CASE("Sequential Falcon with biases: every head keeps K and V and each layer has two LayerNorms", "[config][falcon]") {
  // A falcon-rw style config (alibi, no multi_query, sequential attention, bias): modeling_falcon.py
  // puts `bias` on query_key_value, dense, dense_h_to_4h and dense_4h_to_h, and a sequential layer
  // has input_layernorm and post_attention_layernorm. By hand for hidden 2048, 32 heads, 24 layers:
  // qkv 2048 × 6144 + 6144, dense 2048² + 2048, MLP 2048 × 8192 + 8192 + 8192 × 2048 + 2048,
  // norms 2 × 2 × 2048.
  const json rw = {{"model_type", "falcon"}, {"hidden_size", 2048}, {"num_hidden_layers", 24}, {"num_attention_heads", 32},
                   {"multi_query", false}, {"parallel_attn", false}, {"bias", true}, {"alibi", true}, {"vocab_size", 50304}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(rw, "config", warnings);
  CHECK(m.num_kv_heads == 32);
  CHECK(m.norms_per_layer == 2);
  CHECK(m.qkv_bias);
  CHECK(m.o_bias);
  CHECK(m.mlp_bias);
  const std::int64_t per_layer = (2048LL * 6144 + 6144) + (2048LL * 2048 + 2048) + (2048LL * 8192 + 8192) + (8192LL * 2048 + 2048) + 4 * 2048;
  CHECK(count_params(m).total == 24 * per_layer + 50'304LL * 2048 + 2 * 2048);
  // num_ln_in_parallel_attn 1 with the new decoder architecture (transformers' FalconDecoderLayer):
  // one input_layernorm.
  json one_norm = falcon_40b();
  one_norm["num_ln_in_parallel_attn"] = 1;
  CHECK(model_from_hf_config(one_norm, "config", warnings).norms_per_layer == 1);
}

TEST_CASE("Llama 4's use_qk_norm has no weights and its layers follow no_rope_layers", "[config][chunked]") {
  const ModelSpec m = test_support::preset("llama-4-maverick-17b-128e-instruct");
  CHECK_FALSE(m.qk_norm);
  CHECK(m.attention_chunk_size == 8192);
  // interleave_moe_layer_step 2: layers 1, 3, 5, ... are MoE; the others dense (16384 wide).
  CHECK_FALSE(is_moe_layer(m, 0));
  CHECK(is_moe_layer(m, 1));
  CHECK(m.intermediate_size == 16'384);
  CHECK(m.moe.expert_intermediate_size == 8'192);
  // Without no_rope_layers the class default interval 4 applies: layers 3, 7, ... are global.
  int global = 0;
  for (int i = 0; i < m.num_layers; ++i) global += m.mixer(i) == MixerKind::full_attention ? 1 : 0;
  CHECK(global == 12);
}

}  // namespace config_import_test
