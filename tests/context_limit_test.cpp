// SPDX-License-Identifier: MIT
// The model's trained context and each engine's rule beyond it (core/src/context_limit.cpp).
#include <catch2/catch.hpp>

#include "llmsizer/context_limit.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace context_limit_test {

using nlohmann::json;
using namespace llmsizer;

namespace {

json beyond(const char* engine) {
  // Llama-2-7b was trained for 4,096 positions (its config's max_position_embeddings, no RoPE scaling).
  return test_support::estimate({{"model", "llama-2-7b-hf"}, {"engine", engine}, {"input_tokens", 16384}, {"output_tokens", 1},
                                 {"hardware", "nvidia-h100-sxm"}});
}

bool has_part(const json& summary_data, const char* id) {
  for (const json& part : summary_data.value("parts", json::array())) {
    if (part["id"] == id) return true;
  }
  return false;
}

ModelSpec with_rope(const json& rope_scaling, std::int64_t max_positions) {
  json config = {{"model_type", "qwen2"}, {"hidden_size", 896}, {"num_hidden_layers", 24}, {"num_attention_heads", 14},
                 {"num_key_value_heads", 2}, {"intermediate_size", 4864}, {"vocab_size", 151936}, {"max_position_embeddings", max_positions}};
  if (!rope_scaling.is_null()) config["rope_scaling"] = rope_scaling;
  std::vector<Message> warnings;
  return model_from_hf_config(config, "model.config", warnings);
}

}  // namespace

TEST_CASE("The trained context is max_position_embeddings, times the RoPE scaling that extends it", "[context]") {
  CHECK(trained_context(with_rope(nullptr, 32768)) == 32768);
  // Qwen2.5's model card: {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
  // for 131,072 tokens: 32,768 × 4.
  CHECK(trained_context(with_rope({{"type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}}, 32768)) == 131072);
  // Linear scaling by 2 of 4,096 positions: 8,192.
  CHECK(trained_context(with_rope({{"type", "linear"}, {"factor", 2.0}}, 4096)) == 8192);
  // Llama 3.1's "llama3" scaling is already counted in its max_position_embeddings (131,072).
  CHECK(trained_context(with_rope({{"rope_type", "llama3"}, {"factor", 8.0}, {"original_max_position_embeddings", 8192}}, 131072)) == 131072);
}

TEST_CASE("Beyond the trained context vLLM does not start, Ollama cuts, llama.cpp runs and says so", "[context][verdict]") {
  // 16,384 + 1 tokens against 4,096 trained: vLLM refuses the max_model_len; its one fix is the
  // trained context, 4,096 − 1 output token = 4,095 input tokens.
  const json vllm = beyond("vllm");
  CHECK(vllm["fit"]["fits"] == false);
  CHECK(vllm["fit"]["verdict"] == "no_fit");
  CHECK(vllm["fit"]["summary_data"]["id"] == "verdict.beyond_context.refused");
  REQUIRE(vllm["fit"]["fixes"].size() == 1);
  CHECK(vllm["fit"]["fixes"][0]["changes"]["input_tokens"] == 4095);
  CHECK(beyond("sglang")["fit"]["verdict"] == "no_fit");
  // The others fit the memory, and the verdict says what happens to the context.
  const json llama = beyond("llama.cpp");
  CHECK(llama["fit"]["verdict"] == "comfortable");
  CHECK(has_part(llama["fit"]["summary_data"], "verdict.beyond_context.warned"));
  CHECK(has_part(beyond("ollama")["fit"]["summary_data"], "verdict.beyond_context.capped"));
  CHECK(has_part(beyond("transformers")["fit"]["summary_data"], "verdict.beyond_context.warned"));
  // Within the trained context nothing is said.
  const json within = test_support::estimate({{"model", "llama-2-7b-hf"}, {"engine", "vllm"}, {"input_tokens", 3000}, {"output_tokens", 1000},
                                              {"hardware", "nvidia-h100-sxm"}});
  CHECK(within["fit"]["verdict"] == "comfortable");
  CHECK_FALSE(has_part(within["fit"]["summary_data"], "verdict.beyond_context.warned"));
}

}  // namespace context_limit_test
