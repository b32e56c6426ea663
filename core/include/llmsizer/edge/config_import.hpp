// SPDX-License-Identifier: MIT
#pragma once
/// Import of a Hugging Face `config.json` into a ModelSpec (part of the JSON edge).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/** Reads the architecture from a Hugging Face `config.json` object. Multimodal configs are read
 *  from their `text_config`. Throws InputError naming `field_prefix + ".<key>"` for a missing or
 *  out-of-range required field; fields not used for sizing are ignored and listed in `warnings`. */
ModelSpec model_from_hf_config(const nlohmann::json& config, const std::string& field_prefix,
                               std::vector<Message>& warnings);

}  // namespace llmsizer
