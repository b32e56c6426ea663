// SPDX-License-Identifier: MIT
#pragma once
/// How an engine holds a model where it differs from the model's config. One rule today:
/// litgpt's GPT (lit_gpt/model.py, Lightning-AI/litgpt e51aaef) builds lm_head as an nn.Linear of
/// its own next to transformer.wte and never ties them, so an output head the config ties is held
/// twice (Falcon-7B bf16-true: 14.51 GB in litgpt's tutorials/quantize.md, above the tied
/// 6.92e9 × 2 B = 13.84 GB; the untied 14.43 GB fits).
#include <vector>

#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/// `model` as `engine` holds it; a warning in `warnings` for each difference from its config.
void hold_as_engine_does(ModelSpec& model, Engine engine, std::vector<Message>& warnings);

}  // namespace llmsizer
