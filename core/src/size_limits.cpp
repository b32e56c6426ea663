// SPDX-License-Identifier: MIT
#include "llmsizer/size_limits.hpp"

#include <algorithm>

#include "llmsizer/error.hpp"

namespace llmsizer {

void check_byte_range(const ModelSpec& m, std::int64_t context, std::int64_t batch) {
  const double width = static_cast<double>(m.hidden_size);
  const double experts = std::max(1, m.moe.num_experts);
  const double mlp_width = static_cast<double>(std::max(m.intermediate_size, m.moe.expert_intermediate_size));
  const double layer = 4.0 * width * width + 3.0 * width * mlp_width * experts;
  const double params = m.has_architecture() ? static_cast<double>(m.num_layers) * layer + 2.0 * width * static_cast<double>(m.vocab_size)
                                             : static_cast<double>(m.params_override);
  if (params * 4.0 > kLargestBytes) throw InputError("model", Message("error.model.too_large"));
  const double kv_width = static_cast<double>(std::max<std::int64_t>(static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim, m.mla.kv_lora_rank + m.mla.qk_rope_head_dim));
  const double tokens = static_cast<double>(context) * static_cast<double>(batch);
  if (2.0 * m.num_layers * kv_width * tokens * 4.0 > kLargestBytes) throw InputError("input_tokens", Message("error.tokens.kv_cache_too_large"));
  const double activations = tokens * (static_cast<double>(m.vocab_size) * 16.0 + 3.0 * mlp_width * 8.0 + width * 64.0);
  const double scores = static_cast<double>(context) * tokens * m.num_attention_heads * 8.0;
  if (activations > kLargestBytes || scores > kLargestBytes) throw InputError("input_tokens", Message("error.tokens.activations_too_large"));
}

}  // namespace llmsizer
