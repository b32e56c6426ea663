// SPDX-License-Identifier: MIT
// How an engine holds a model where it differs from the config (core/include/llmsizer/engine_model.hpp).
#include <catch2/catch.hpp>

#include "llmsizer/engine_model.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace engine_model_test {

using namespace llmsizer;

TEST_CASE("litgpt holds a tied output head twice, and says so; other engines hold it as the config ties it", "[engine_model]") {
  // Gemma-2-2B ties its head (config.json tie_word_embeddings true).
  ModelSpec litgpt = test_support::preset("gemma-2-2b-it");
  REQUIRE(litgpt.tie_word_embeddings);
  ModelSpec vllm = litgpt;
  std::vector<Message> warnings;
  hold_as_engine_does(litgpt, Engine::litgpt, warnings);
  CHECK_FALSE(litgpt.tie_word_embeddings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].id == "warning.engine.litgpt_separate_lm_head");
  hold_as_engine_does(vllm, Engine::vllm, warnings);
  CHECK(vllm.tie_word_embeddings);
  CHECK(warnings.size() == 1);
}

}  // namespace engine_model_test
