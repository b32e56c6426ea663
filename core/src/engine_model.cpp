// SPDX-License-Identifier: MIT
#include "llmsizer/engine_model.hpp"

namespace llmsizer {

void hold_as_engine_does(ModelSpec& model, Engine engine, std::vector<Message>& warnings) {
  if (engine == Engine::litgpt && model.tie_word_embeddings && model.has_architecture()) {
    model.tie_word_embeddings = false;
    warnings.push_back(Message("warning.engine.litgpt_separate_lm_head").short_count("params", model.vocab_size * model.hidden_size));
  }
}

}  // namespace llmsizer
