// SPDX-License-Identifier: MIT
#pragma once
// The rows of data/validation/llama_cpp.json (buffers measured in a real llama.cpp) and the core's
// estimate for each: shared by the Catch2 test (tests/llama_cpp_validation_test.cpp) and the
// helper the Node test calls (tests/llama_cpp_tool.cpp). Test code only.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/config_import.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/precision.hpp"

namespace llama_cpp_rows {

using nlohmann::json;

/// The model of each entry of the file's "models" (a config.json, possibly scaled down).
inline std::map<std::string, llmsizer::ModelSpec> models_of(const json& doc) {
  std::map<std::string, llmsizer::ModelSpec> out;
  for (const auto& m : doc.at("models")) {
    std::vector<llmsizer::Message> warnings;
    llmsizer::ModelSpec spec = llmsizer::model_from_hf_config(m.at("config"), "config", warnings);
    spec.id = m.at("id").get<std::string>();
    out.emplace(spec.id, std::move(spec));
  }
  return out;
}

/// A row's "setting" as llama.cpp settings. node-llama-cpp sets n_batch = n_ubatch and
/// kv_unified = false (llama/addon/AddonContext.cpp); the CPU repacks as an x86 AVX2 CPU does.
inline llmsizer::LlamaCppSettings settings_of(const json& setting) {
  llmsizer::LlamaCppSettings s;
  s.n_ctx = setting.at("n_ctx").get<std::int64_t>();
  s.n_ubatch = setting.at("n_ubatch").get<std::int64_t>();
  s.n_batch = setting.value("n_batch", s.n_ubatch);
  s.n_seq = setting.at("n_seq").get<int>();
  s.kv_unified = setting.value("kv_unified", false);
  s.flash_attn = setting.at("flash_attn").get<bool>() ? llmsizer::LlamaCppFlashAttn::on : llmsizer::LlamaCppFlashAttn::off;
  s.type_k = setting.at("type_k").get<std::string>();
  s.type_v = setting.at("type_v").get<std::string>();
  s.mmap = setting.value("mmap", true);
  s.cpu = llmsizer::LlamaCppCpu::x86_avx2;
  return s;
}

/// The estimate of one row as the measured fields name it, or {"error": message} when the core
/// rejects the setting (as llama.cpp does for the rows measured as rejected).
inline json estimate_row(const std::map<std::string, llmsizer::ModelSpec>& models, const json& row) {
  const llmsizer::ModelSpec& m = models.at(row.at("model").get<std::string>());
  const llmsizer::WeightFormat* format = llmsizer::find_weight_format(row.at("weights").get<std::string>());
  if (format == nullptr) return {{"error", "unknown weights " + row.at("weights").get<std::string>()}};
  try {
    const auto r = llmsizer::llama_cpp_memory(m, llmsizer::llama_cpp_tensors(m, *format), settings_of(row.at("setting")));
    json cells = json::array();
    cells.push_back(r.cells_full);
    if (r.cells_sliding > 0) cells.push_back(r.cells_sliding);
    return {{"weights", {{"CPU_Mapped", r.weights_mapped}, {"CPU", r.weights_cpu}, {"CPU_REPACK", r.weights_repack}}},
            {"kv", r.kv_host + r.kv_device},
            {"compute", r.compute_host + r.compute_device},
            {"output", r.output},
            {"n_ctx", r.n_ctx},
            {"n_ctx_seq", r.n_ctx_seq},
            {"kv_cells", cells},
            {"total", r.host_bytes}};
  } catch (const llmsizer::InputError& e) {
    return {{"error", e.what()}};
  }
}

/// Weights bytes of a measured or estimated "weights" object (all model buffers).
inline std::int64_t weights_sum(const json& w) {
  std::int64_t n = 0;
  for (auto it = w.begin(); it != w.end(); ++it) n += it.value().get<std::int64_t>();
  return n;
}

/// Relative error of an estimate against a size llama.cpp logged in MiB with `decimals` decimals,
/// summed over `lines` log lines (measured = logged MiB × 2^20): 0 while the estimate is within
/// the log's rounding (the log cannot tell them apart), else (estimate - measured) / measured.
inline double error_vs_log(std::int64_t estimate, std::int64_t measured, int decimals, int lines = 1) {
  const double resolution = lines * 0.5 * std::pow(10.0, -decimals) * 1024.0 * 1024.0 + 1.0;
  if (std::fabs(static_cast<double>(estimate - measured)) <= resolution) return 0.0;
  if (measured == 0) return 1.0;
  return static_cast<double>(estimate - measured) / static_cast<double>(measured);
}

}  // namespace llama_cpp_rows
