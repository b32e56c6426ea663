// SPDX-License-Identifier: MIT
// A config's values as a plain struct become the model's decoder shape with no JSON
// (config_fields.hpp); the family's row decides what the config leaves unsaid.
#include <catch2/catch.hpp>

#include "llmsizer/config_fields.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace config_fields_test {

using namespace llmsizer;

namespace {

ConfigFields qwen2_7b() {
  // Qwen/Qwen2.5-7B config.json: hidden 3584, 28 layers, 28 heads, 4 KV heads, vocab 152064.
  // In the struct's order: hidden, layers, heads, KV heads, vocab, head_dim, trained context.
  return ConfigFields{3584, 28, 28, 4, 152064, 128, 131072};
}

}  // namespace

TEST_CASE("A config's shape becomes the model's, the Qwen2 row giving q, k and v their biases") {
  const ModelSpec m = model_from_config_fields(qwen2_7b(), family_traits(Family::qwen2));
  CHECK(m.family == Family::qwen2);
  CHECK(m.hidden_size == 3584);
  CHECK(m.num_layers == 28);
  CHECK(m.num_attention_heads == 28);
  CHECK(m.num_kv_heads == 4);
  CHECK(m.head_dim == 128);
  CHECK(m.vocab_size == 152064);
  CHECK(m.max_position_embeddings == 131072);
  // modeling_qwen2.py Qwen2Attention: q_proj, k_proj and v_proj with bias=True, o_proj without.
  CHECK(m.qkv_bias);
  CHECK_FALSE(m.o_bias);
  CHECK(m.rope_scaling_factor == Approx(1.0).margin(1e-12));
}

TEST_CASE("Falcon's norms per layer follow its attention layout when the config does not count them") {
  // modeling_falcon.py FalconDecoderLayer: ln_attn and ln_mlp with the new decoder architecture,
  // one input_layernorm for parallel attention without it, two norms for sequential attention.
  ConfigFields f = qwen2_7b();
  f.new_decoder_architecture = true;
  CHECK(model_from_config_fields(f, family_traits(Family::falcon)).norms_per_layer == 2);
  f.new_decoder_architecture = false;
  CHECK(model_from_config_fields(f, family_traits(Family::falcon)).norms_per_layer == 1);
  f.parallel_attn = false;
  CHECK(model_from_config_fields(f, family_traits(Family::falcon)).norms_per_layer == 2);
  // Falcon's `bias` is on query_key_value, dense and both MLP linears.
  f.bias = true;
  const ModelSpec biased = model_from_config_fields(f, family_traits(Family::falcon));
  CHECK(biased.qkv_bias);
  CHECK(biased.o_bias);
  CHECK(biased.mlp_bias);
}

}  // namespace config_fields_test
