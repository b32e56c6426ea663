// SPDX-License-Identifier: MIT
// GGUF file sizes against published numbers: every kind=file_size row of the project's validation
// set (copied with its sources into data/validation/file_size.json) is mapped to a preset and a
// weight format, disk_bytes is computed tensor by tensor, and each row's error is printed. Rows
// whose notes flag the number as doubtful are printed but not held to the 2% bound; the list and
// the reasons are in kSkipped below.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "llmsizer/quantization.hpp"
#include "test_support.hpp"

using namespace llmsizer;
using nlohmann::json;

namespace {

json load_rows() {
  std::ifstream in(std::string(LLMSIZER_DATA_DIR) + "/validation/file_size.json");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str()).at("rows");
}

/// model_ref → preset. LLaMA (v1) 7B/13B have the shapes of Llama 2 7B/13B (hidden 4096/5120,
/// 32/40 layers, MLP 11008/13824, vocab 32000, untied); only the context length differs, which
/// does not change the weights. The Llama 3.1 instruct presets share the base models' shapes.
const std::map<std::string, std::string> kPresets = {
    {"Llama-3.1-8B", "llama-3.1-8b-instruct"}, {"Llama-3.1-70B", "llama-3.1-70b-instruct"},
    {"Llama-3.1-405B", "llama-3.1-405b-instruct"}, {"Llama-2-7b-hf", "llama-2-7b-hf"},
    {"Llama-2-13b-hf", "llama-2-13b-hf"}, {"Llama-2-70b-hf", "llama-2-70b-hf"},
    {"Llama-3-8B", "meta-llama-3-8b"}, {"LLaMA-7B", "llama-2-7b-hf"}, {"LLaMA-13B", "llama-2-13b-hf"}};

/// Rows not held to 2%, with the reason (row id prefix → reason).
/// The first entry is flagged by the rows' notes; the others are not, and are left out for the
/// evidence given (their errors are still printed).
const std::vector<std::pair<std::string, std::string>> kSkipped = {
    {"llamacpp-old-readme-", "notes: size printed with a bare 'G' (GB or GiB not stated), 2 significant digits, "
                             "pre-GGUF ggml files, table later marked outdated upstream"},
    {"llamacpp-examples-quantize-llama-2-7b-q2-k", "table predates the 2024 Q2_K change (llama.cpp PR #4897/#5060: old Q2_K "
                                                   "was 'basically 3-bit', Llama-2-70B 27.11 GiB old vs 23.71 GiB new)"},
    {"llamacpp-examples-quantize-llama-2-13b-q2-k", "as above: pre-2024 Q2_K mix"},
    {"llamacpp-examples-quantize-llama-2-70b-q2-k", "as above: pre-2024 Q2_K mix"},
    {"llamacpp-ppl-scoreboard-llama3-8b-q2-k-s", "the scoreboard repeats q2_K's 2.96 GiB; tools/quantize/README.md "
                                                 "(llama.cpp f4a71e70) gives Q2_K_S 2.78 vs Q2_K 2.95 GiB for the same shapes"},
    {"llamacpp-quantize-readme-diskreq-llama-3-1-405b-q4-k-m", "the same table is not exact sizes: its 70B 'original' "
                                                               "280.9 GB is below 70,553,706,496 params x 4 B = 282.2 GB"},
};

std::string skip_reason(const std::string& id) {
  for (const auto& [prefix, reason] : kSkipped) {
    if (id.rfind(prefix, 0) == 0) return reason;
  }
  return "";
}

std::string format_id(std::string quant_type) {
  if (quant_type.rfind("original", 0) == 0) return "gguf-f32";  // notes: 32.1 GB for 8B is ~4 B/param
  for (auto& c : quant_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (quant_type == "f16") return "gguf-f16";
  return quant_type;
}

}  // namespace

TEST_CASE("GGUF disk_bytes matches published file sizes within 2 percent", "[quantization][validation][disk]") {
  const json rows = load_rows();
  REQUIRE(rows.size() == 73);
  std::printf("\n%-58s %-9s %12s %12s %8s  %s\n", "row", "format", "expected", "computed", "error%", "unit / note");
  int checked = 0;
  for (const auto& row : rows) {
    const std::string id = row.at("id");
    const std::string ref = row.at("model_ref");
    const std::string fmt_id = format_id(row.at("setting").at("quant_type"));
    CAPTURE(id, ref, fmt_id);
    REQUIRE(kPresets.count(ref) == 1);
    const ModelSpec model = test_support::preset(kPresets.at(ref));
    const WeightFormat* format = find_weight_format(fmt_id);
    REQUIRE(format != nullptr);
    const WeightsLayout layout = weights_layout(model, *format);
    const double disk = static_cast<double>(checkpoint_disk_size(model, *format, layout).total());
    const json& measured = row.at("measured");
    double expected = 0.0;
    double computed = 0.0;
    std::string unit;
    if (measured.contains("file_size_gb")) {
      expected = measured["file_size_gb"].get<double>();
      computed = disk / 1e9;
      unit = "GB";
    } else if (measured.contains("file_size_gib")) {
      expected = measured["file_size_gib"].get<double>();
      computed = disk / test_support::kGiB;
      unit = "GiB";
    } else if (measured.contains("bits_per_weight")) {
      // Bits per weight of the whole file = file bytes × 8 / parameters (the README's BPW).
      expected = measured["bits_per_weight"].get<double>();
      computed = disk * 8.0 / static_cast<double>(count_params(model).total);
      unit = "bpw";
    } else {
      // "13.0G": read as GiB (the closer reading for these rows); printed only.
      const std::string printed = measured.at("file_size_as_printed");
      expected = std::stod(printed.substr(0, printed.size() - 1));
      computed = disk / test_support::kGiB;
      unit = "G?";
    }
    const double error = (computed - expected) / expected * 100.0;
    const std::string reason = skip_reason(id);
    std::printf("%-58s %-9s %12.3f %12.3f %+7.2f%%  %s%s\n", id.c_str(), fmt_id.c_str(), expected, computed, error, unit.c_str(),
                reason.empty() ? "" : "  [skipped: flagged]");
    if (!reason.empty()) continue;
    ++checked;
    CHECK(std::fabs(error) <= 2.0);
  }
  std::printf("checked %d rows; skipped rows and reasons:\n", checked);
  for (const auto& [prefix, reason] : kSkipped) std::printf("  %s*: %s\n", prefix.c_str(), reason.c_str());
  CHECK(checked == 56);
}
