// SPDX-License-Identifier: MIT
#pragma once
// A message as data (message.hpp): {"id", "args": {name: value}, "parts": [...]}, args and parts only
// when present. Every `<key>_data` of a response is one; the page renders it in its language.
#include <nlohmann/json.hpp>

#include "answer/json_writer.hpp"
#include "llmsizer/message.hpp"

namespace llmsizer::edge {

/// Writes `message` as data, as the next value of `w`.
void write_message_json(JsonWriter& w, const Message& message);

/// The same as a DOM, for the model-file summaries that are built as one (nlohmann::json: keys sorted).
nlohmann::json message_data(const Message& message);

}  // namespace llmsizer::edge
