// SPDX-License-Identifier: MIT
#pragma once
// The `training` object of a request: read and checked field by field (errors name
// `training.<field>` and the allowed range), and the response's `training` object.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer/json_writer.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer::edge {

/** Reads `training` (an object, may be empty) for `model`. `gpus`, `seq_len_default` and
 *  `micro_batch_default` come from the request's top level (gpus, input_tokens, batch);
 *  `flash_default` from its flash_attention. Unknown fields become warnings. Throws InputError naming `training.<field>`. */
TrainingSettings parse_training(const nlohmann::json& training, const ModelSpec& model, int gpus, std::int64_t seq_len_default,
                                std::int64_t micro_batch_default, bool flash_default, std::vector<Message>& warnings);

/// The settings as the response echoes them, as the next value of `w`.
void training_settings_json(JsonWriter& w, const TrainingSettings& settings);

/// The response's `training` object: trainable_params, adapter_params, tokens_per_step, flops,
/// hours, usd and both peaks, as the next value of `w`.
void training_result_json(JsonWriter& w, const TrainingEstimate& estimate);

}  // namespace llmsizer::edge
