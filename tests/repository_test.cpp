// SPDX-License-Identifier: MIT
// plan_repository and describe_repository_model (api.hpp): which files of a Hugging Face repository
// make up its model, from the Hub's /api/models/{id}?blobs=true listing, and the model the headers
// read give. The listings are written here in the Hub's shape (huggingface_hub hf_api.py RepoSibling:
// rfilename, size, lfs.size); the end-to-end reading is tests/js/cli_hub.mjs and page_hub.mjs.
#include <catch2/catch.hpp>

#include "model_file_fixtures.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace repository_test {

using nlohmann::json;

namespace {

json listing(const std::vector<std::pair<std::string, std::int64_t>>& files, const json& gated = false) {
  json siblings = json::array();
  for (const auto& [name, size] : files) {
    json s = {{"rfilename", name}, {"size", size}};
    if (name.size() > 5 && name.find(".json") == std::string::npos) s["lfs"] = {{"size", size}, {"pointerSize", 134}};
    siblings.push_back(s);
  }
  return {{"id", "org/model"}, {"sha", "0123abcd"}, {"gated", gated}, {"siblings", siblings}};
}

json plan(const json& list, const std::string& chosen = "") {
  return json::parse(llmsizer::plan_repository(list.dump(), chosen));
}

/// A safetensors header with BF16 tensors of these shapes (8-byte length, then the JSON).
std::string safetensors(const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& tensors) {
  return model_file_fixtures::safetensors("", tensors).bytes;
}

}  // namespace

TEST_CASE("a GGUF repository lists each quantization once, split parts summed, smallest first, mmproj left out", "[repository]") {
  const json p = plan(listing({{"README.md", 900},
                               {"Model-Q2_K_S.gguf", 3'000},
                               {"Model-Q2_K.gguf", 3'100},
                               {"Model-IQ4_XS.gguf", 4'000},
                               {"Model-Q4_K_M.gguf", 5'000},
                               {"Model-Q8_0.gguf", 9'000},
                               {"BF16/Model-BF16-00002-of-00002.gguf", 7'000},
                               {"BF16/Model-BF16-00001-of-00002.gguf", 9'000},
                               {"mmproj-Model-F16.gguf", 600}}));
  REQUIRE(p["kind"] == "gguf");
  REQUIRE(p["gguf"].size() == 6);
  std::vector<std::string> formats;
  for (const auto& q : p["gguf"]) formats.push_back(q["weights"].get<std::string>());
  // Q2_K_S is not read as Q2_K, nor IQ4_XS as Q4_...: the longest whole token wins.
  CHECK(formats == std::vector<std::string>{"q2_k_s", "q2_k", "iq4_xs", "q4_k_m", "q8_0", "gguf-bf16"});
  const json& bf16 = p["gguf"][5];
  CHECK(bf16["file"] == "BF16/Model-BF16-00001-of-00002.gguf");
  CHECK(bf16["size_bytes"] == 16'000);  // 9,000 + 7,000
  CHECK(bf16["parts"].size() == 2);
  // No file named: Q4_K_M, the quantization most run; every file read at the listing's commit.
  CHECK(p["chosen"] == "Model-Q4_K_M.gguf");
  CHECK(p["read"] == json::array({"Model-Q4_K_M.gguf"}));
  CHECK(p["revision"] == "0123abcd");
  // A split file chosen by any of its parts reads both parts.
  CHECK(plan(listing({{"BF16/Model-BF16-00001-of-00002.gguf", 9}, {"BF16/Model-BF16-00002-of-00002.gguf", 7}}),
             "BF16/Model-BF16-00002-of-00002.gguf")["read"].size() == 2);
}

TEST_CASE("a safetensors repository reads the shard index, else its one weights file, with config.json", "[repository]") {
  const json sharded = plan(listing({{"config.json", 700}, {"model.safetensors.index.json", 30'000},
                                     {"model-00001-of-00002.safetensors", 5'000'000'000}, {"model-00002-of-00002.safetensors", 1'000'000'000}}, "manual"));
  CHECK(sharded["kind"] == "safetensors-sharded");
  CHECK(sharded["index"] == "model.safetensors.index.json");
  CHECK(sharded["config"] == "config.json");
  CHECK(sharded["gated"] == true);
  const json single = plan(listing({{"config.json", 700}, {"model.safetensors", 2'000'000}}));
  CHECK(single["kind"] == "safetensors");
  CHECK(single["read"] == json::array({"model.safetensors"}));
  CHECK(single["gated"] == false);
  CHECK(plan(listing({{"config.json", 700}, {"pytorch_model.bin", 2'000'000}}))["kind"] == "config");
}

TEST_CASE("a repository plan names what is wrong: no model files, a file it lacks, a file of another kind, not a listing", "[repository]") {
  const auto error_of = [](const json& answer) { return answer.at("error").at("message").get<std::string>(); };
  CHECK_THAT(error_of(plan(listing({{"README.md", 10}}))), Catch::Contains("org/model has no config.json, .safetensors or .gguf file"));
  CHECK_THAT(error_of(plan(listing({{"Model-Q8_0.gguf", 9}}), "Model-Q5_K_M.gguf")),
             Catch::Contains("org/model has no file Model-Q5_K_M.gguf; its model files: Model-Q8_0.gguf"));
  CHECK_THAT(error_of(plan(listing({{"Model-Q8_0.gguf", 9}}), "README.md")), Catch::Contains("must name a .gguf or .safetensors file"));
  CHECK(json::parse(llmsizer::plan_repository("[1, 2]", ""))["error"]["field"] == "listing");
  CHECK(json::parse(llmsizer::plan_repository("not json", ""))["error"]["field"] == "listing");
}

TEST_CASE("a listing whose id or sha is not a string is planned with them empty", "[repository]") {
  json list = listing({{"config.json", 700}, {"model.safetensors", 2'000}});
  list["id"] = 5;
  list["sha"] = nullptr;
  const json p = plan(list);
  REQUIRE_FALSE(p.contains("error"));
  CHECK(p["id"] == "");
  CHECK(p["revision"] == "");
  CHECK(p["kind"] == "safetensors");
}

TEST_CASE("shard headers add up to the model's exact count and bytes, with the repository's config.json", "[repository]") {
  // Two shards of a 1-layer llama (hidden 8, 2 heads, MLP 16, vocab 32, untied). By hand: shard 1
  // embed 32×8 = 256 and q/k/v/o 4 × 64 = 256: 512 parameters; shard 2 MLP 3 × 128 = 384, 2 norms
  // of 8 and the final norm 8 = 24, lm_head 256: 664. Total 1,176 parameters, 2,352 bytes in BF16.
  const std::string one = safetensors({{"model.embed_tokens.weight", {32, 8}}, {"model.layers.0.self_attn.q_proj.weight", {8, 8}},
                                       {"model.layers.0.self_attn.k_proj.weight", {8, 8}}, {"model.layers.0.self_attn.v_proj.weight", {8, 8}},
                                       {"model.layers.0.self_attn.o_proj.weight", {8, 8}}});
  const std::string two = safetensors({{"model.layers.0.mlp.gate_proj.weight", {16, 8}}, {"model.layers.0.mlp.up_proj.weight", {16, 8}},
                                       {"model.layers.0.mlp.down_proj.weight", {8, 16}}, {"model.layers.0.input_layernorm.weight", {8}},
                                       {"model.layers.0.post_attention_layernorm.weight", {8}}, {"model.norm.weight", {8}},
                                       {"lm_head.weight", {32, 8}}});
  const json config = {{"architectures", {"LlamaForCausalLM"}}, {"model_type", "llama"}, {"hidden_size", 8}, {"num_hidden_layers", 1},
                       {"num_attention_heads", 2}, {"num_key_value_heads", 2}, {"intermediate_size", 16}, {"vocab_size", 32},
                       {"tie_word_embeddings", false}};
  const json parts = {{"name", "org/model"}, {"config", config},
                      // Each file's size: its header, then 512 and 664 BF16 values.
                      {"files", {json::parse(llmsizer::inspect_model_file(one, static_cast<double>(one.size() + 1'024))),
                                 json::parse(llmsizer::inspect_model_file(two, static_cast<double>(two.size() + 1'328)))}}};
  const json m = json::parse(llmsizer::describe_repository_model(parts.dump()));
  REQUIRE_FALSE(m.contains("error"));
  CHECK(m["files"] == 2);
  CHECK(m["parameter_count"] == 1'176);
  CHECK(m["weight_bytes"] == 2'352);
  CHECK(m["request_model"]["name"] == "org/model");
  CHECK(m["request_model"]["config"] == config);
  // The estimate's weights are those bytes, exactly.
  const json e = test_support::estimate({{"model", m["request_model"]}});
  CHECK(e["memory"]["parts"]["weights"] == 2'352);
  CHECK(e["model"]["params"] == 1'176);
  // config.json alone: the architecture's count, and a warning that the bytes come from the format.
  const json only = json::parse(llmsizer::describe_repository_model(json{{"name", "org/model"}, {"config", config}, {"files", json::array()}}.dump()));
  CHECK(only["resolved_model"]["params"] == 1'176);
  CHECK_THAT(only["warnings"][0].get<std::string>(), Catch::Contains("only config.json was read"));
  CHECK(json::parse(llmsizer::describe_repository_model(R"({"files": []})"))["error"]["field"] == "files");
}

}  // namespace repository_test
