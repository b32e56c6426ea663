// SPDX-License-Identifier: MIT
// The hardware catalog data (data/hardware/*.json): schema, units in plausible ranges, unique ids
// equal to the file names, a source on every entry, references that resolve, and that the core
// parses every file.
#include <filesystem>
#include <fstream>
#include <set>

#include <catch2/catch.hpp>

#include "llmsizer/hardware.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace hardware_data_test {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

double number(const json& d, const char* key) { return d.contains(key) && d[key].is_number() ? d[key].get<double>() : 0.0; }
}  // namespace

TEST_CASE("Hardware data files follow the schema with units in plausible ranges", "[data][hardware]") {
  std::set<std::string> ids, gpu_ids;
  std::vector<json> docs;
  for (const auto& entry : fs::directory_iterator(std::string(LLMSIZER_DATA_DIR) + "/hardware")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    json d = json::parse(in);
    const std::string stem = entry.path().filename().string().substr(0, entry.path().filename().string().size() - 5);
    CAPTURE(stem);
    REQUIRE(d.contains("id"));
    CHECK(d["id"] == stem);
    CHECK(ids.insert(stem).second);
    CHECK(!d.value("source", std::string()).empty());
    CHECK(!d.value("name", std::string()).empty());
    const std::string kind = d.value("kind", std::string());
    CHECK((kind == "gpu" || kind == "cpu" || kind == "instance" || kind == "laptop"));
    if (kind == "gpu") gpu_ids.insert(stem);
    docs.push_back(std::move(d));
  }
  REQUIRE(docs.size() == 127);  // 66 GPUs (65 of hardware-sources.md + the H20 of the Qwen3 speed table), 11 CPUs, 33 instances, 17 laptops
  for (const auto& d : docs) {
    const std::string id = d["id"];
    const std::string kind = d["kind"];
    CAPTURE(id);
    if (kind == "gpu") {
      // Memory is the vendor "GB" read as GiB, stored in bytes: 8 GiB (RTX 3070) to 512 GiB (M3 Ultra).
      CHECK(number(d, "memory_bytes") == number(d, "memory_gb_vendor") * kGiB);
      CHECK(number(d, "memory_bytes") >= 8 * kGiB);
      CHECK(number(d, "memory_bytes") <= 512 * kGiB);
      // Decimal GB/s: 68 (M1) to 8000 (B200).
      CHECK(number(d, "memory_bandwidth_gb_per_s") >= 60);
      CHECK(number(d, "memory_bandwidth_gb_per_s") <= 10'000);
      // Dense FP16 tensor TFLOPS, when known: 25 (RTX 3060) to 2500 (GB200).
      if (number(d, "fp16_tensor_tflops_dense") > 0) CHECK(number(d, "fp16_tensor_tflops_dense") <= 3'000);
      if (number(d, "tdp_w") > 0) CHECK(number(d, "tdp_w") <= 1'200);
    } else if (kind == "cpu") {
      CHECK(number(d, "memory_bandwidth_gb_per_s") >= 20);
      CHECK(number(d, "memory_bandwidth_gb_per_s") <= 1'000);
      CHECK(number(d, "cores") >= 4);
    } else if (kind == "instance") {
      CHECK(number(d, "gpu_count") >= 1);
      CHECK(number(d, "gpu_count") <= 16);
      CHECK(number(d, "gpu_memory_bytes") == number(d, "gpu_memory_gb_vendor") * kGiB);
      if (!d["price_usd_per_hour"].is_null()) {
        CHECK(number(d, "price_usd_per_hour") >= 0.1);
        CHECK(number(d, "price_usd_per_hour") <= 200);
        CHECK(!d.value("price_date", std::string()).empty());
      }
      if (d["gpu_id"].is_string()) CHECK(gpu_ids.count(d["gpu_id"].get<std::string>()) == 1);
    } else {
      CHECK(number(d, "memory_bandwidth_gb_per_s") >= 60);
      if (d.value("unified_memory", false)) CHECK(!d["memory_options_bytes"].empty());
      else CHECK(number(d, "gpu_memory_bytes") >= 4 * kGiB);
      if (d["gpu_id"].is_string()) CHECK(gpu_ids.count(d["gpu_id"].get<std::string>()) == 1);
    }
  }
  // The core parses every file (plus any measured probe files).
  CHECK(llmsizer::hardware_catalog().size() >= docs.size());
  for (const auto& id : ids) CHECK(llmsizer::find_hardware(id) != nullptr);
}

}  // namespace hardware_data_test
