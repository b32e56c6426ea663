// SPDX-License-Identifier: MIT
#pragma once
// The hardware parts of the JSON edge: `hardware`, `cost`, `goal` and `cpu` of a request, the fit,
// speed, CPU-or-GPU and cost sections of an estimate, the recommendation and the catalog listing.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

/// Adds "hardware", "fit", "throughput", "cpu_vs_gpu" and "cost" to an inference estimate.
void add_inference_hardware(nlohmann::ordered_json& out, const nlohmann::json& body, const ModelSpec& model,
                            const InferenceSettings& settings);
/// Adds "hardware", "fit" and "throughput" (tokens_per_s, hours) to a training estimate.
/// Fills the training settings' GPU peak TFLOPS and price per GPU-hour from the request's hardware
/// (when the request did not give them), for the training module's time and cost.
void apply_hardware_to_training(const nlohmann::json& body, TrainingSettings& settings);
/// The `hardware` and `fit` sections of a training estimate.
void add_training_hardware(nlohmann::ordered_json& out, const nlohmann::json& body, const TrainingSettings& settings,
                           const MemoryEstimate& estimate);
/// The `recommend` response (contract: Recommendation).
nlohmann::ordered_json recommend_json(const nlohmann::json& body, const ModelSpec& model, const InferenceSettings& settings,
                                      const std::vector<std::string>& warnings);
/// {"hardware": [...]}: the catalog with its main facts.
nlohmann::ordered_json hardware_list_json();

}  // namespace llmsizer
