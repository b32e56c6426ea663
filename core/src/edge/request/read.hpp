// SPDX-License-Identifier: MIT
#pragma once
// Strict readers of a request's JSON fields, shared by the edge's parsers: each throws InputError
// naming the JSON path and the allowed range.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/catalog.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/model.hpp"
#include "model_files/gguf_tensor_list.hpp"

namespace llmsizer::edge {

using nlohmann::json;

/// A whole number in [min, max] at `obj[key]`, or `fallback` when absent.
std::int64_t whole_number(const json& obj, const char* key, const std::string& field, std::int64_t min,
                          std::int64_t max, std::int64_t fallback);
/** A memory size in bytes at `obj[key]`, or `fallback` when absent: a whole number of bytes, or a
 *  string with its unit, decimal or binary as the person wrote it ("16 GB" = 16e9 B, "16 GiB" =
 *  16 × 2^30 B; also kB/MB/TB, KiB/MiB/TiB and B; case and spaces do not matter). In [min, max]. */
std::int64_t memory_amount(const json& obj, const char* key, const std::string& field, std::int64_t min, std::int64_t max,
                           std::int64_t fallback);
/// `value` checked as whole_number checks a present one.
std::int64_t whole_number_in(std::int64_t value, const std::string& field, std::int64_t min, std::int64_t max);
/// A number in [min, max] at `obj[key]`, or `fallback` when absent.
double number(const json& obj, const char* key, const std::string& field, double min, double max, double fallback);
bool boolean(const json& obj, const char* key, const std::string& field, bool fallback);
/// A string at `obj[key]` (one of `allowed` when non-empty), or `fallback` when absent.
std::string text(const json& obj, const char* key, const std::string& field, const std::vector<std::string>& allowed,
                 const std::string& fallback);

/// The model of a request: a preset id (from `catalog`), {"config": {...}}, or {"params": N, ...}.
ModelSpec parse_model(const json& value, const std::string& field, std::vector<Message>& warnings, const Catalog& catalog);

/// What a weights file gives beside its model's config (describe_model_file's request model).
struct FileWeights {
  std::string name;                    ///< empty: none
  std::int64_t params = 0;             ///< the exact count; 0: none
  std::int64_t weight_bytes = 0;
  std::string weights_format;          ///< "Q4_K_M", "BF16", "mostly F16"
  std::vector<GgufTensorRun> tensors;  ///< a GGUF file's
};
/// A parameter count checked as parse_model checks a request model's `params` (1 to 10^13).
double params_in(std::int64_t params, const std::string& field);
/** Adds a weights file's figures to `m` as parse_model adds a request model's `name`, `params`,
 *  `weight_bytes`, `weights_format` and `tensors`, with the same checks and errors (naming
 *  `field.<key>`). */
void add_file_weights(ModelSpec& m, const FileWeights& weights, const std::string& field);

/// The shape {"params": N, "layers", "hidden_size", ...} assumes (all 0: none), checked.
struct AssumedShape {
  std::int64_t layers = 0, hidden_size = 0, heads = 0, kv_heads = 0, intermediate_size = 0, vocab_size = 0;
};
/// The model of a bare parameter count, with the shape when it has one (MHA, plain MLP).
ModelSpec model_from_params(const std::string& name, double params, const AssumedShape& shape, std::vector<Message>& warnings);

/** What a model file's first bytes say (api.hpp inspect_model_file): inspect_model_header's
 *  summary (or its error, whose `needed_bytes` asks for a longer prefix), plus `request_model` (the
 *  request "model" it gives: {"config", "params", "weight_bytes", "weights_format"}, or a bare count
 *  when the header lacks the attention shape; null for an index), `resolved_model` (that model as
 *  an estimate's "model" describes it, with features) and `warnings`. A config.json gives
 *  {"format": "config.json", "request_model": {"config": ...}, "resolved_model", "warnings"}.
 *  `model_out`, when given, receives a GGUF or safetensors file's model as built from its header
 *  (the one `resolved_model` describes). */
std::string describe_model_file(std::string_view bytes, std::int64_t file_size_bytes, ModelSpec* model_out = nullptr);

/// api.hpp plan_repository (repository.cpp); throws InputError.
std::string plan_repository(const std::string& listing_json, const std::string& chosen_file);
/// api.hpp describe_repository_model (model_file.cpp); throws InputError.
std::string describe_repository_model(const std::string& parts_json);

}  // namespace llmsizer::edge
