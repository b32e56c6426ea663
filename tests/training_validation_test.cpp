// SPDX-License-Identifier: MIT
// Training memory against published measurements: the training rows of data/validation/training.json
// (Qwen-1 README "Profiling of Memory and Speed", QwenLM/Qwen@712d922; litgpt resource tables,
// Lightning-AI/litgpt@4839345; Unsloth README max-context tables, unslothai/unsloth@e3162dc; PEFT
// README table, huggingface/peft@0032f32). Prints each row's error and each source's median and
// bias, and requires the gates: median |error| ≤ 8%, bias within ±5%, every out-of-memory
// run predicted not to fit.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/training.hpp"
#include "llmsizer/validate.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace training_validation_test {

using namespace llmsizer;
using json = nlohmann::json;

namespace {

json validation_data() {
  std::ifstream in(std::string(LLMSIZER_DATA_DIR) + "/validation/training.json");
  REQUIRE(in.good());
  return json::parse(in);
}

ModelSpec validation_model(const json& data, const std::string& ref) {
  const json& entry = data.at("models").at(ref);
  if (entry.contains("config")) {
    std::vector<llmsizer::Message> warnings;
    ModelSpec m = model_from_hf_config(entry.at("config"), "config", warnings);
    m.id = ref;
    return m;
  }
  ModelSpec m;
  m.id = ref;
  m.params_override = static_cast<std::int64_t>(entry.at("params_stated").get<double>());
  return m;
}

/// A100-SXM4-80GB dense BF16/FP16 tensor peak: 312 TFLOPS (NVIDIA A100 datasheet).
constexpr double kA100PeakTflops = 312.0;

}  // namespace

/// The source a row's errors are summed under: the repository of its source URL.
std::string source_of(const ValidationRow& row) {
  for (const char* repo : {"QwenLM/Qwen", "Lightning-AI/litgpt", "unslothai/unsloth", "huggingface/peft"}) {
    if (row.source.find(repo) != std::string::npos) return repo;
  }
  return row.source;
}

TEST_CASE("Training memory matches published measurements within 8 percent median and 5 percent bias", "[training][validation]") {
  // Each row goes through core/validate/validate.cpp (training_row: the row's stated settings as a
  // request through the JSON edge). Rows excluded there, with their reasons: the PEFT README table
  // (seq_len, batch, precision and rank not stated; T0_3B and mt0-xxl are encoder-decoders) and its
  // OOM cells (checked in the last test).
  const ValidationReport report = run_validation("training");
  std::vector<double> errors;
  std::vector<double> signed_errors;
  std::vector<double> time_errors;
  std::map<std::string, std::vector<double>> by_source;
  std::printf("\n%-50s %10s %10s %8s   %8s %8s\n", "row", "measured", "estimated", "error", "s/it", "est s/it");
  const json data = validation_data();
  for (const auto& row : report.rows) {
    if (!row.used) {
      std::printf("excluded: %s: %s\n", row.id.c_str(), row.excluded_reason.c_str());
      continue;
    }
    errors.push_back(std::fabs(row.error));
    signed_errors.push_back(row.error);
    by_source[source_of(row)].push_back(row.error);
    // Time: one iteration = gradient_accumulation micro-batches (the README's s/it), at the
    // method's default MFU on an A100's 312 TFLOPS; printed, not gated here.
    const json request = json::parse(row.request);
    double seconds_measured = 0;
    for (const auto& r : data.at("rows")) {
      if (r.at("id") == row.id) seconds_measured = r.at("measured").value("seconds_per_iter", 0.0);
    }
    double seconds = 0;
    if (seconds_measured > 0) {
      json timed = request;
      timed["training"]["peak_tflops"] = kA100PeakTflops;
      const json t = test_support::estimate(timed);
      const double tokens = request["training"]["seq_len"].get<double>() * request["training"]["micro_batch"].get<double>() *
                            request["training"].value("gradient_accumulation", 1.0);
      seconds = tokens / t["throughput"]["tokens_per_s"].get<double>();
      time_errors.push_back(std::fabs(seconds - seconds_measured) / seconds_measured);
    }
    std::printf("%-50s %10.2f %10.2f %+7.1f%%   %8.1f %8.1f  %s\n", row.id.c_str(), row.measured, row.estimated, 100 * row.error,
                seconds_measured, seconds, row.notes.empty() ? "" : row.notes.back().c_str());
  }
  std::printf("\n%-24s %5s %14s %8s\n", "source", "rows", "median |error|", "bias");
  for (const auto& [source, errs] : by_source) {
    std::vector<double> abs_errs;
    for (double e : errs) abs_errs.push_back(std::fabs(e));
    std::printf("%-24s %5zu %13.1f%% %+7.1f%%\n", source.c_str(), errs.size(), 100 * median_of(abs_errs), 100 * median_of(errs));
  }
  REQUIRE(errors.size() >= 65);
  const double median = median_of(errors);
  const double bias = median_of(signed_errors);
  std::printf("rows scored: %zu, median |error| %.1f%%, bias %+.1f%%, max |error| %.1f%%\n", errors.size(), 100 * median, 100 * bias,
              100 * *std::max_element(errors.begin(), errors.end()));
  std::printf("time (Qwen-1 s/it, MFU per method from the same README): median |error| %.1f%% over %zu rows\n",
              100 * median_of(time_errors), time_errors.size());
  // Issue 16's gates: median ≤ 8%, bias within ±5%.
  CHECK(median <= 0.08);
  CHECK(std::fabs(bias) <= 0.05);
  CHECK(median_of(time_errors) <= 0.25);
}

TEST_CASE("The longest training context that fits matches Unsloth's published tables", "[training][validation][fit]") {
  // Unsloth README (unslothai/unsloth@e3162dc) "max. context length" tables: Llama 3.1 8B and
  // Llama 3.3 70B, 4-bit QLoRA r 32 on all linear layers, batch 1, on cards of 8 to 80 GB, for
  // Unsloth and for Hugging Face + FA2. The answer's fit.max_context (training_fit: the longest
  // seq_len whose memory.device_bytes fits the card) is compared with each published length;
  // validate.cpp maps the rows (unsloth_context_row) and prints both in the row's notes.
  const ValidationReport report = run_validation("training");
  std::vector<double> context_errors;
  for (const auto& row : report.rows) {
    if (!row.used || source_of(row) != "unslothai/unsloth") continue;
    const json request = json::parse(row.request);
    const json answer = test_support::estimate(request);
    REQUIRE(answer.contains("fit"));
    const double published = request["training"]["seq_len"].get<double>();
    const double estimated = answer["fit"]["max_context"].get<double>();
    // The estimate's own longest context is where its memory crosses the card.
    json at = request;
    at["training"]["seq_len"] = answer["fit"]["max_context"];
    CHECK(test_support::estimate(at)["memory"]["device_bytes"].get<double>() <= request["budget_bytes"].get<double>());
    at["training"]["seq_len"] = answer["fit"]["max_context"].get<std::int64_t>() + 1;
    CHECK(test_support::estimate(at)["memory"]["device_bytes"].get<double>() > request["budget_bytes"].get<double>());
    context_errors.push_back(std::fabs(estimated - published) / published);
    std::printf("%-46s published %8.0f tokens, estimated %8.0f (%+.1f%%)\n", row.id.c_str(), published, estimated,
                100 * (estimated - published) / published);
  }
  REQUIRE(context_errors.size() == 16);
  const double median = median_of(context_errors);
  std::printf("longest context: median |error| %.1f%% over %zu cells\n", 100 * median, context_errors.size());
  // Reached: 10.5%. The Unsloth column is long by 10-27% on 12-80 GB (by 139% on 8 GB, where the
  // context is what is left after 7.7 GB of fixed memory); Hugging Face + FA2 within 2-5%.
  CHECK(median <= 0.12);
}

TEST_CASE("Full fine-tuning in fp32 of the PEFT README's 7B and 12B models does not fit 80 GB", "[training][validation]") {
  // PEFT README table (huggingface/peft@0032f32): full fine-tuning of bloomz-7b1 and mt0-xxl on an
  // A100 80GB: "OOM GPU". Its accelerate config shows mixed_precision: no (fp32): 16 B per param of
  // model states alone, before activations.
  const json data = validation_data();
  for (const char* ref : {"bigscience/bloomz-7b1", "bigscience/mt0-xxl"}) {
    CAPTURE(ref);
    TrainingSettings s;
    s.precision = TrainingPrecision::fp32;
    const TrainingEstimate e = estimate_training(validation_model(data, ref), s);
    CHECK(e.memory.device_bytes > 80'000'000'000);
  }
}

TEST_CASE("Every published out-of-memory run is predicted not to fit", "[training][validation][oom]") {
  // Issue 16: the rows whose source recorded only "OOM" (PEFT README full fine-tuning on 80 GB,
  // litgpt LoRA runs and the 70B and CodeLlama-34B generate runs on A100 40GB, the Unsloth tables' Hugging Face + FA2 cells
  // at one token) are mapped like their table's other rows; memory.device_bytes must exceed the
  // GPU's usable memory. Printed row by row.
  // The closest: Llama-2-13B LoRA on two A100 40GB under FSDP, 41.59 GB of tensors (its 4-GPU
  // peer's measured peak is matched within 0.9%) + the CUDA context + NCCL's 0.57 GB of buffers =
  // 42.61 GB against the 42.51 GB (39.59 GiB) that CUDA reports for the card.
  // The closest of the DeepSeek-LLM 7B cells: batch 4 × 4096 prompt tokens (README "OOM" on one A100
  // 40GB), whose peak is the eager attention of one layer, 4 × 32 × 4096² scores: with 10 B per bf16
  // score (ATen's softmax(dtype=float32) copies a bf16 input to fp32 first, memory.cpp
  // layer_peak_bytes) 45.5 GB against the 42.51 GB CUDA reports (it was 41.17 GB, a miss, at 8 B).
  // The last of them: DeepSeek-LLM 67B at batch 2 × 4096 on eight A100 40GB under device_map="auto"
  // (README "OOM"): the fullest GPU's 13 layers (17.99 GB) and one layer's eager scores, 2 × 64 × 4096²
  // × 10 B = 21.47 GB, come to 41.79 GB of tensors against 42.51 GB usable: the bytes fit. It fails in
  // PyTorch's caching allocator (hardware.hpp allocator_runs_out, the request answered on the row's GPU
  // as a person reads it): the K and V kept between layers split the segments cached for the 2.1 and
  // 4.3 GB score tensors, so a new segment does not fit even after the free ones are released
  // (scripts/research/caching_allocator_sim.mjs replays the same trace: every "OOM" cell of both
  // DeepSeek tables fails, every measured cell runs).
  int verdicts = 0;
  for (const char* kind : {"training", "inference"}) {
    const ValidationReport report = run_validation(kind);
    for (const auto& row : report.rows) {
      if (!row.oom) continue;
      ++verdicts;
      std::printf("%-50s estimate %8.2f GB, usable %6.2f GB: %s\n", row.id.c_str(), row.estimated, row.measured,
                  row.predicted_fit ? "predicted to fit (wrong)" : row.estimated <= row.measured ? "does not fit (allocator)" : "does not fit");
      CAPTURE(row.id, row.estimated, row.measured);
      CHECK_FALSE(row.predicted_fit);
    }
  }
  // All 21 published out-of-memory rows map to a request (the CodeLlama-34B generate row since
  // its preset; the 4 DeepSeek-LLM 7B cells since the DeepSeek-LLM presets: transformers 4.35 eager,
  // sequence length as the prompt, validate.cpp deepseek_llm_row; the 6 DeepSeek-LLM 67B cells since
  // device_map's layer split, device_map.hpp; the Falcon-40B bf16 generate row since the Falcon
  // presets: 41.8e9 parameters × 2 B with litgpt's separate lm_head, 84.1 GB).
  CHECK(verdicts >= 21);
}

}  // namespace training_validation_test
