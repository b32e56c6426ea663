// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the tests: preset loading and JSON requests through the core's edge.
#include <string>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/precision.hpp"

namespace test_support {

inline llmsizer::ModelSpec preset(const std::string& id) {
  const auto* doc = llmsizer::find_embedded_document("models", id);
  if (doc == nullptr) throw std::runtime_error("no preset " + id);
  const auto d = nlohmann::json::parse(doc->json.begin(), doc->json.end());
  std::vector<llmsizer::Message> warnings;
  llmsizer::ModelSpec m = llmsizer::model_from_hf_config(d.at("config"), "config", warnings);
  m.id = id;
  return m;
}

/// Inference settings with a catalog weight format, a bf16 KV cache and flash attention (the
/// estimator's defaults), for the memory and speed tests.
inline llmsizer::InferenceSettings inference_settings(const char* weights, llmsizer::Engine engine, std::int64_t input,
                                                      std::int64_t output, std::int64_t batch = 1, int gpus = 1) {
  llmsizer::InferenceSettings s;
  s.weights = llmsizer::find_weight_format(weights);
  s.kv_cache = llmsizer::find_kv_cache_format("bf16");
  s.engine = engine;
  s.input_tokens = input;
  s.output_tokens = output;
  s.batch = batch;
  s.gpus = gpus;
  return s;
}

/// Calls the JSON edge and parses its answer.
inline nlohmann::json estimate(const nlohmann::json& request) {
  return nlohmann::json::parse(llmsizer::estimate(request.dump()));
}

/// True when one of `lines` (warnings, feature sentences) contains `text`.
inline bool any_contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

/// True when the English text of one of `messages` contains `text`.
inline bool any_contains(const std::vector<llmsizer::Message>& messages, const std::string& text) {
  for (const auto& m : messages) {
    if (llmsizer::edge::render_en(m).find(text) != std::string::npos) return true;
  }
  return false;
}

/// Inference settings with bf16 KV cache and the generic engine.
inline llmsizer::InferenceSettings inference(const char* weights, std::int64_t input, std::int64_t output, std::int64_t batch = 1) {
  return inference_settings(weights, llmsizer::Engine::generic, input, output, batch);
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace test_support
