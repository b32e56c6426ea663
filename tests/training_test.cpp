// SPDX-License-Identifier: MIT
// Training memory: the source article's full fine-tuning rule.
#include <catch2/catch.hpp>

#include "llmsizer/training.hpp"
#include "test_support.hpp"

using namespace llmsizer;

TEST_CASE("Full training with Adam in mixed precision is 16 bytes per parameter", "[training][article]") {
  // Article table: weights 2 + gradients 2 + optimizer states 8 + FP32 copy 4 = 16 B per parameter.
  const StateBytesPerParam b = full_training_state_bytes(TrainingPrecision::mixed_fp16, Optimizer::adamw);
  CHECK(b.weights == 2);
  CHECK(b.gradients == 2);
  CHECK(b.optimizer == 8);
  CHECK(b.master_weights == 4);
  CHECK(b.total() == 16);
}

TEST_CASE("Full training of a 7B model needs 112 GB before activations", "[training][article]") {
  // Article: 7B × 16 B ≈ 112 GB.
  ModelSpec m;
  m.params_override = 7'000'000'000;
  TrainingSettings s;
  const MemoryEstimate e = estimate_training_memory(m, s);
  CHECK(e.parts.weights + e.parts.gradients + e.parts.optimizer + e.parts.master_weights == 112'000'000'000);
}

TEST_CASE("Training activations fall with gradient checkpointing and grow with sequence length", "[training][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  TrainingSettings s;
  s.seq_len = 2048;
  const auto plain = training_activation_bytes(m, s);
  s.gradient_checkpointing = true;
  const auto checkpointed = training_activation_bytes(m, s);
  CHECK(checkpointed < plain);
  s.seq_len = 4096;
  CHECK(training_activation_bytes(m, s) > checkpointed);
}
