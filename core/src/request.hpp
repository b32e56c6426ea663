// SPDX-License-Identifier: MIT
#pragma once
// Request parsing helpers shared by the JSON edge's parts: strict field readers that throw
// InputError naming the JSON path and the allowed range.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/error.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer::request {

using nlohmann::json;

/// A whole number in [min, max] at `obj[key]`, or `fallback` when absent.
std::int64_t whole_number(const json& obj, const char* key, const std::string& field, std::int64_t min,
                          std::int64_t max, std::int64_t fallback);
/// A number in [min, max] at `obj[key]`, or `fallback` when absent.
double number(const json& obj, const char* key, const std::string& field, double min, double max, double fallback);
bool boolean(const json& obj, const char* key, const std::string& field, bool fallback);
/// A string at `obj[key]` (one of `allowed` when non-empty), or `fallback` when absent.
std::string text(const json& obj, const char* key, const std::string& field, const std::vector<std::string>& allowed,
                 const std::string& fallback);

/// The model of a request: a preset id, {"config": {...}}, or {"params": N, ...}.
ModelSpec parse_model(const json& value, const std::string& field, std::vector<std::string>& warnings);

/// The model part of a response: id, name, params, active_params, layers, shape, model_type,
/// extra/MTP params, the file's exact weight bytes when imported from one, and `features`.
nlohmann::ordered_json model_summary(const ModelSpec& model);

/** What a model file's first bytes say (api.hpp inspect_model_file): inspect_model_header's
 *  summary (or its error, whose `needed_bytes` asks for a longer prefix), plus `request_model` (the
 *  request "model" it gives: {"config", "params", "weight_bytes", "weights_format"}, or a bare count
 *  when the header lacks the attention shape; null for an index), `resolved_model` (that model as
 *  an estimate's "model" describes it, with features) and `warnings`. A config.json gives
 *  {"format": "config.json", "request_model": {"config": ...}, "resolved_model", "warnings"}. */
std::string describe_model_file(std::string_view bytes, std::int64_t file_size_bytes);

/// The embedded preset document for `id` parsed, or throws InputError(field, ...).
json preset_document(const std::string& id, const std::string& field);

}  // namespace llmsizer::request
