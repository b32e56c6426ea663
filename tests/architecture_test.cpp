// SPDX-License-Identifier: MIT
// The table of model families (core/include/llmsizer/architecture.hpp): every name leads back to
// its row, the GGUF and llama.cpp columns agree with each other, every preset's family has a row,
// and rows against the sources they cite.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "llmsizer/api.hpp"
#include "llmsizer/architecture.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/llama_cpp.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace architecture_test {

using namespace llmsizer;
using nlohmann::json;

TEST_CASE("every vision_config model_type leads to its own tower, and a nameless one to its family's", "[architecture]") {
  std::set<std::string_view> seen;
  for (const VisionTowerRow& row : kVisionTowers) {
    CHECK(row.tower != VisionTower::none);
    for (std::string_view name : row.model_types) {
      if (name.empty()) continue;
      INFO(name);
      CHECK(seen.insert(name).second);
      CHECK(vision_tower_for(name, Family::other) == row.tower);
    }
  }
  CHECK(vision_tower_for("clip_vision_model", Family::gemma3) == VisionTower::none);
  CHECK(vision_tower_for("", Family::qwen2_5_vl) == VisionTower::qwen2_5_vl);
  CHECK(vision_tower_for("", Family::qwen3_vl) == VisionTower::none);
  CHECK(family_traits(Family::gemma3).siglip_projector);
  CHECK_FALSE(family_traits(Family::gemma4).siglip_projector);
}

TEST_CASE("every Hugging Face model_type leads back to its own family, and no name is in two rows", "[architecture]") {
  std::set<std::string_view> seen;
  for (const FamilyTraits& row : kFamilies) {
    INFO("family " << static_cast<int>(row.family) << " (" << row.model_types[0] << ")");
    CHECK(family_traits(row.family).family == row.family);
    if (row.family == Family::other) {
      CHECK(row.model_types[0].empty());
      continue;
    }
    CHECK_FALSE(row.model_types[0].empty());
    for (std::string_view name : row.model_types) {
      if (name.empty()) continue;
      CHECK(seen.insert(name).second);
      CHECK(family_for_model_type(name) == row.family);
    }
  }
  CHECK(family_for_model_type("") == Family::other);
  CHECK(family_for_model_type("not_a_family") == Family::other);
  CHECK(family_for_model_type("Llama") == Family::other);  // model_type is compared exactly
}

TEST_CASE("a GGUF architecture is read as one family, which writes the same GGUF name and uses the same llama.cpp graph", "[architecture]") {
  std::map<std::string_view, int> readers;
  for (const FamilyTraits& row : kFamilies) {
    if (row.gguf_architecture.empty()) {
      CHECK_FALSE(row.read_from_gguf);
      CHECK(row.llama_cpp_graph == LlamaCppGraph::none);
      continue;
    }
    INFO("family " << row.model_types[0] << " gguf " << row.gguf_architecture);
    if (row.read_from_gguf) ++readers[row.gguf_architecture];
    // HF -> GGUF -> the family the GGUF is read as: the same architecture name and graph builder.
    const Family back = family_for_gguf_architecture(row.gguf_architecture);
    if (back == Family::other) {
      // Qwen3-Next is written as qwen3next (llama_cpp_architecture), but a qwen3next GGUF file is
      // read as no family (its row does not set read_from_gguf).
      CHECK(row.family == Family::qwen3_next);
      continue;
    }
    CHECK(family_traits(back).gguf_architecture == row.gguf_architecture);
    CHECK(family_traits(back).llama_cpp_graph == row.llama_cpp_graph);
    CHECK(family_traits(back).llama_cpp_sliding_cache == row.llama_cpp_sliding_cache);
    if (row.read_from_gguf) CHECK(back == row.family);
    // The name a GGUF of this architecture is given leads back to that family.
    CHECK(family_for_model_type(family_traits(back).model_types[0]) == back);
  }
  for (const auto& [name, count] : readers) {
    INFO("gguf " << name);
    CHECK(count == 1);
  }
  CHECK(family_for_gguf_architecture("") == Family::other);
  CHECK(family_for_gguf_architecture("rwkv7") == Family::other);
}

TEST_CASE("every preset's family has a row of its own", "[architecture]") {
  int presets = 0;
  for (auto* d = embedded_documents_begin(); d != embedded_documents_end(); ++d) {
    if (d->kind != "models") continue;
    const auto m = embedded_catalog().model(d->id);
    REQUIRE(m.has_value());
    INFO("preset " << d->id << " model_type " << m->model_type_name);
    CHECK(m->family != Family::other);
    CHECK(family_for_model_type(m->model_type_name) == m->family);
    ++presets;
  }
  CHECK(presets > 100);
}

TEST_CASE("rows agree with the sources they cite", "[architecture]") {
  // llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES: { LLM_ARCH_QWEN2MOE, "qwen2moe" },
  // { LLM_ARCH_OPENAI_MOE, "gpt-oss" }, { LLM_ARCH_DEEPSEEK2, "deepseek2" }.
  CHECK(family_traits(Family::qwen2_moe).gguf_architecture == "qwen2moe");
  CHECK(family_traits(Family::gpt_oss).gguf_architecture == "gpt-oss");
  CHECK(family_traits(Family::deepseek_v3).gguf_architecture == "deepseek2");
  // convert_hf_to_gguf.py: MistralModel and MixtralModel (LlamaModel subclasses) write "llama".
  CHECK(family_traits(Family::mistral).gguf_architecture == "llama");
  CHECK(family_traits(Family::mixtral).gguf_architecture == "llama");

  // transformers models/gemma3/configuration_gemma3.py Gemma3TextConfig.__init__ defaults:
  // vocab_size=262_208, hidden_size=2304, intermediate_size=9216, num_hidden_layers=26,
  // num_attention_heads=8, num_key_value_heads=4, head_dim=256, max_position_embeddings=131_072,
  // sliding_window=4096, sliding_window_pattern=6, tie_word_embeddings=True.
  const FamilyTraits& gemma3 = family_traits(Family::gemma3);
  std::map<std::string_view, std::int64_t> defaults;
  for (std::size_t i = 0; i < gemma3.class_default_count; ++i) defaults[gemma3.class_defaults[i].key] = gemma3.class_defaults[i].value;
  const std::map<std::string_view, std::int64_t> published = {
      {"vocab_size", 262208}, {"hidden_size", 2304}, {"intermediate_size", 9216}, {"num_hidden_layers", 26},
      {"num_attention_heads", 8}, {"num_key_value_heads", 4}, {"head_dim", 256}, {"max_position_embeddings", 131072},
      {"sliding_window", 4096}, {"sliding_window_pattern", 6}, {"tie_word_embeddings", 1}};
  CHECK(defaults == published);
  CHECK(gemma3.window_pattern == 6);
  CHECK(gemma3.tie_word_embeddings);
  CHECK(gemma3.norms_per_layer == 4);  // input, post_attention, pre_feedforward, post_feedforward

  // modeling_qwen2.py Qwen2Attention: q_proj, k_proj, v_proj bias=True, o_proj bias=False.
  CHECK(family_traits(Family::qwen2).attention_bias == AttentionBias::qkv);
  // configuration_llama.py: tie_word_embeddings=False, attention_bias=False by default.
  CHECK_FALSE(family_traits(Family::llama).tie_word_embeddings);
  CHECK(family_traits(Family::llama).attention_bias == AttentionBias::from_config);
}

TEST_CASE("the config reader takes a family's defaults from its row", "[architecture]") {
  // A Gemma 3 text config that gives only the sizes of Gemma-3-1B (config.json of
  // google/gemma-3-1b-it): the row ties the head and puts four norms per layer.
  const json gemma = {{"model_type", "gemma3_text"}, {"hidden_size", 1152}, {"intermediate_size", 6912},
                      {"num_hidden_layers", 26}, {"num_attention_heads", 4}, {"num_key_value_heads", 1},
                      {"head_dim", 256}, {"vocab_size", 262144}, {"sliding_window", 512}};
  std::vector<Message> warnings;
  const ModelSpec m = model_from_hf_config(gemma, "config", warnings);
  CHECK(m.family == Family::gemma3);
  CHECK(m.model_type_name == "gemma3_text");
  CHECK(m.tie_word_embeddings);
  CHECK(m.norms_per_layer == 4);
  CHECK(m.qk_norm);
  // Sliding layers: all but every sixth (layers 5, 11, 17, 23 are global).
  REQUIRE(m.layer_mixers.size() == 26);
  CHECK(m.layer_mixers[4] == MixerKind::sliding_attention);
  CHECK(m.layer_mixers[5] == MixerKind::full_attention);
  CHECK(m.layer_mixers[23] == MixerKind::full_attention);
  CHECK(llama_cpp_architecture(m) == "gemma3");

  // An unknown model_type keeps its name and reads its fields alone.
  const json unknown = {{"model_type", "new_family"}, {"hidden_size", 64}, {"num_hidden_layers", 2},
                        {"num_attention_heads", 4}, {"intermediate_size", 128}, {"vocab_size", 1000}};
  const ModelSpec u = model_from_hf_config(unknown, "config", warnings);
  CHECK(u.family == Family::other);
  CHECK(u.model_type_name == "new_family");
  CHECK_FALSE(u.tie_word_embeddings);
  CHECK(u.norms_per_layer == 2);
  CHECK(llama_cpp_architecture(u).empty());
}

TEST_CASE("A config that names any family but lacks its parts (a dense Llama's fields) is estimated, never crashes, on every engine", "[architecture]") {
  // Llama-3.1-8B's shape (config.json) under each family's model_type: the gpt-oss and DeepSeek graphs
  // of llama.cpp take its MLP as dense where it has no experts.
  for (const FamilyTraits& row : kFamilies) {
    for (std::string_view type : row.model_types) {
      if (type.empty()) continue;
      const nlohmann::json config = {{"model_type", std::string(type)}, {"hidden_size", 4096}, {"num_hidden_layers", 32},
                                     {"num_attention_heads", 32}, {"num_key_value_heads", 8}, {"intermediate_size", 14336},
                                     {"vocab_size", 128256}};
      for (const char* engine : {"llama.cpp", "vllm", "transformers", "ollama"}) {
        INFO(type << " under " << engine);
        const nlohmann::json request = {{"model", {{"config", config}}}, {"engine", engine}, {"input_tokens", 1024}, {"output_tokens", 256}};
        const nlohmann::json a = nlohmann::json::parse(llmsizer::estimate(request.dump()));
        CHECK((a.contains("memory") || a.contains("error")));
      }
    }
  }
}

}  // namespace architecture_test
