// SPDX-License-Identifier: MIT
#pragma once
/// The context a model was trained for, and what each engine does with a longer one: vLLM and
/// SGLang refuse to start, Ollama cuts the context down to it, llama.cpp and the others run and
/// warn (positions the model never saw: its output is not to be trusted).
#include <cstdint>

#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/** The longest context the model's position encoding was trained (or scaled) for:
 *  max_position_embeddings × the config's RoPE scaling factor (`rope_scaling.factor` of YaRN,
 *  linear or dynamic scaling; vLLM derives its max_model_len the same way,
 *  vllm/config ModelConfig._get_and_verify_max_len). 0: the config gives none. */
std::int64_t trained_context(const ModelSpec& model);

enum class BeyondContext {
  refuses,  ///< does not start: vLLM ("User-specified max_model_len ... is greater than the derived
            ///< max_model_len", a ValueError unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1); SGLang (the
            ///< same check on context_length unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1)
  caps,     ///< Ollama: "requested context size too large for model", num_ctx set to the
            ///< trained length (llm/server.go); a longer prompt is truncated
  warns,    ///< llama.cpp: "n_ctx_seq > n_ctx_train -- possible training context overflow"
            ///< (llama-context.cpp); transformers and the rest run without a check
};
BeyondContext beyond_context(Engine engine);

}  // namespace llmsizer
