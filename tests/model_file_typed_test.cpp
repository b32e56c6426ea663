// SPDX-License-Identifier: MIT
// A model file's model, built from its typed header (file_config.hpp), is the model the page gets
// back when it sends the answer's `request_model` as a request's model: for every fixture file
// (model_file_fixtures.hpp: one GGUF per family rule, headers lacking a field, safetensors), the
// ModelSpec describe_model_file builds equals parse_model's reading of the request model it wrote.
#include <catch2/catch.hpp>

#include <map>

#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/file_config.hpp"
#include "model_file_fixtures.hpp"
#include "request/read.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace model_file_typed_test {

using nlohmann::json;

TEST_CASE("A model file's model from its header is the model its request model reads back as", "[model_file][gguf][safetensors]") {
  int compared = 0;
  for (const auto& file : model_file_fixtures::all()) {
    INFO(file.name);
    llmsizer::ModelSpec direct;
    const json out = json::parse(llmsizer::edge::describe_model_file(file.bytes, file.file_size, &direct));
    if (out.contains("error")) {
      // A header whose fallback model is out of range (20,000 layers) has none to compare.
      CHECK(file.name == "too-many-layers");
      CHECK(out["error"]["field"] == "model.layers");
      continue;
    }
    std::vector<llmsizer::Message> ignored;
    const llmsizer::ModelSpec back = llmsizer::edge::parse_model(out["request_model"], "model", ignored, llmsizer::embedded_catalog());
    CHECK(model_file_fixtures::spec_fields(direct) == model_file_fixtures::spec_fields(back));
    ++compared;
  }
  CHECK(compared == 12);
}

TEST_CASE("A GGUF's family keys reach the model: MLA ranks, one-width Mixtral experts, gpt-oss windows, Gemma 3 defaults", "[model_file][gguf]") {
  std::map<std::string, llmsizer::ModelSpec> models;
  for (const auto& file : model_file_fixtures::all()) {
    llmsizer::ModelSpec m;
    llmsizer::edge::describe_model_file(file.bytes, file.file_size, &m);
    models[file.name] = m;
  }
  // deepseek2.rope.dimension_count 8 and attention.key_length 24: nope 24 - 8 = 16 per head;
  // value_length 16; the ranks as written (model_file_fixtures.hpp).
  const auto& ds = models["deepseek-v3"];
  CHECK(ds.mla.kv_lora_rank == 32);
  CHECK(ds.mla.q_lora_rank == 48);
  CHECK(ds.mla.qk_rope_head_dim == 8);
  CHECK(ds.mla.qk_nope_head_dim == 16);
  CHECK(ds.mla.v_head_dim == 16);
  CHECK(ds.moe.num_shared_experts == 1);
  CHECK(ds.moe.first_dense_layers == 1);
  CHECK(ds.head_dim == 64 / 4);  // key_length is not the head width: hidden / heads
  // Mixtral's GGUF has one feed_forward_length for the experts.
  CHECK(models["mixtral"].moe.expert_intermediate_size == 128);
  CHECK(models["mixtral"].moe.num_experts == 8);
  // Qwen2-MoE: one gated shared expert of expert_shared_feed_forward_length.
  CHECK(models["qwen2moe"].moe.shared_expert_intermediate_size == 128);
  CHECK(models["qwen2moe"].moe.shared_expert_gate);
  // gpt-oss: 4 layers, sliding first, then alternating, window 128.
  const auto& oss = models["gpt-oss"];
  CHECK(oss.sliding_window == 128);
  REQUIRE(oss.layer_mixers.size() == 4);
  CHECK(oss.layer_mixers[0] == llmsizer::MixerKind::sliding_attention);
  CHECK(oss.layer_mixers[1] == llmsizer::MixerKind::full_attention);
  // Gemma 3 without head_count_kv, key_length or a window: Gemma3TextConfig's defaults (head_dim
  // 256, window 4,096, every 6th layer global) and the GGUF's implied KV heads (= heads).
  const auto& gemma = models["gemma3"];
  CHECK(gemma.num_kv_heads == 4);
  CHECK(gemma.head_dim == 256);
  CHECK(gemma.sliding_window == 4096);
  REQUIRE(gemma.layer_mixers.size() == 6);
  CHECK(gemma.layer_mixers[4] == llmsizer::MixerKind::sliding_attention);
  CHECK(gemma.layer_mixers[5] == llmsizer::MixerKind::full_attention);
  // No heads in the header: the bare count with a shape assumed. Elements: token_embd 6,400 +
  // output_norm 64 + 2 layers × (64 + 4,096 + 2,048 + 8,192) = 35,264.
  CHECK(models["no-heads"].shape_assumed);
  CHECK(models["no-heads"].params_override == 35'264);
}

}  // namespace model_file_typed_test
