// SPDX-License-Identifier: MIT
#pragma once
// The typed answer → the JSON response (contract: Response, Recommendation). The only code that
// writes a response or rounds a number for display; it computes nothing. Responses are written
// straight into their text (json_writer.hpp), no DOM in between.
#include <string>

#include "answer/json_writer.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/request.hpp"
#include "llmsizer/training_recommend.hpp"

namespace llmsizer::edge {

/// The response text of an estimate: the request's settings, then the answer.
std::string to_json(const Request& request, const Answer& answer);
/// The same for an inference answer, without the writers of training's and serving's members
/// (api.hpp: estimate_inference).
std::string to_json_inference(const Request& request, const Answer& answer);
/// The response text of a recommendation.
std::string to_json(const Request& request, const Recommendation& recommendation);
/// The response text of a serving recommendation.
std::string to_json(const Request& request, const ServeRecommendation& recommendation);
/// The response text of a training recommendation.
std::string to_json(const Request& request, const TrainingRecommendation& recommendation);
/// {"error": {"field", "message"}}.
/// User text (field names, echoed values, parser messages quoting the input) may hold invalid UTF-8:
/// the writer replaces it by U+FFFD instead of throwing, so the output is always JSON.
std::string error_json(const InputError& error);

/// The `model` object of a response: id, name, counts, shape, imported-file bytes, features.
void model_json(JsonWriter& w, const ModelSpec& model, const ModelSummary& summary);
/// The same members in an object left open, for a listing that adds its own.
void open_model_json(JsonWriter& w, const ModelSpec& model, const ModelSummary& summary);
/// One catalog entry as `llmsizer hardware` lists it.
void hardware_entry_json(JsonWriter& w, const HardwareSpec& hardware);

}  // namespace llmsizer::edge
