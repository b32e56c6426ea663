// SPDX-License-Identifier: MIT
#include "llmsizer/context_limit.hpp"

#include <algorithm>
#include <cmath>

namespace llmsizer {

std::int64_t trained_context(const ModelSpec& model) {
  if (model.max_position_embeddings <= 0) return 0;
  const double factor = model.rope_scaling_factor > 1.0 ? model.rope_scaling_factor : 1.0;
  // YaRN scales from its original length when the config gives one (vLLM does the same).
  const std::int64_t base = model.rope_scaling_original_tokens > 0 ? model.rope_scaling_original_tokens : model.max_position_embeddings;
  return std::max(model.max_position_embeddings, static_cast<std::int64_t>(std::floor(static_cast<double>(base) * factor)));
}

BeyondContext beyond_context(Engine engine) {
  switch (engine) {
    case Engine::vllm:
    case Engine::sglang: return BeyondContext::refuses;
    case Engine::ollama: return BeyondContext::caps;
    default: return BeyondContext::warns;
  }
}

}  // namespace llmsizer
