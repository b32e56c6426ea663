// SPDX-License-Identifier: MIT
#pragma once
// The typed answer → the JSON response (contract: Response, Recommendation). The only code that
// writes a response or rounds a number for display; it computes nothing.
#include <string>

#include <nlohmann/json.hpp>

#include "llmsizer/answer.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/request.hpp"
#include "llmsizer/training_recommend.hpp"

namespace llmsizer::edge {

using ojson = nlohmann::ordered_json;

/// The response text of an estimate: the request's settings, then the answer.
std::string to_json(const Request& request, const Answer& answer);
/// The response text of a recommendation.
std::string to_json(const Request& request, const Recommendation& recommendation);
/// The response text of a training recommendation.
std::string to_json(const Request& request, const TrainingRecommendation& recommendation);
/// {"error": {"field", "message"}}.
std::string error_json(const InputError& error);

/// The `model` object of a response: id, name, counts, shape, imported-file bytes, features.
ojson model_json(const ModelSpec& model, const ModelSummary& summary);
/// One catalog entry as `llmsizer hardware` lists it.
ojson hardware_entry_json(const HardwareSpec& hardware);

/// Serialises a response. User text (field names, echoed values, parser messages quoting the input)
/// may hold invalid UTF-8: it is replaced by U+FFFD instead of throwing, so the output is always JSON.
std::string dump(const ojson& j);

}  // namespace llmsizer::edge
