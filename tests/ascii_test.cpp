// SPDX-License-Identifier: MIT
// ascii.hpp: the text tests the core shares (lower case, prefixes, suffixes), byte for byte.
#include <catch2/catch.hpp>

#include "llmsizer/ascii.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace ascii_test {

TEST_CASE("ascii_lower turns A-Z to a-z and leaves every other byte", "[ascii]") {
  CHECK(llmsizer::ascii_lower("Llama-3.1-8B-Q4_K_M.GGUF") == "llama-3.1-8b-q4_k_m.gguf");
  CHECK(llmsizer::ascii_lower("\xC3\x89") == "\xC3\x89");  // É in UTF-8: not ASCII, unchanged
  CHECK(llmsizer::ascii_lower("").empty());
}

TEST_CASE("prefixes and suffixes match byte for byte; ends_with_any_case ignores the case of the text", "[ascii]") {
  CHECK(llmsizer::starts_with("gemma3_text", "gemma3"));
  CHECK_FALSE(llmsizer::starts_with("gemma", "gemma3"));
  CHECK(llmsizer::starts_with("x", ""));
  CHECK(llmsizer::ends_with("model.layers.0.mlp.up_proj.weight", "up_proj.weight"));
  CHECK_FALSE(llmsizer::ends_with("weight", ".weight"));
  CHECK_FALSE(llmsizer::ends_with("A.GGUF", ".gguf"));
  CHECK(llmsizer::ends_with_any_case("A.GGUF", ".gguf"));
  CHECK_FALSE(llmsizer::ends_with_any_case("gguf", ".gguf"));
}

}  // namespace ascii_test
