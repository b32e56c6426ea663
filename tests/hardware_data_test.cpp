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
  // 72 GPUs (65 of hardware-sources.md, the H20 of the Qwen3 speed table, and what serving runs on:
  // GH200 96 GB and 144 GB, B300, MI355X, RTX PRO 6000 Server Edition, DGX Spark), 11 CPUs, 33 instances, 17 laptops
  REQUIRE(docs.size() == 133);
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
      // Dense FP8, when published: the FP16 rate (Gaudi 3) to twice it, with room; FP4 up to 15,000 (GB300's).
      if (number(d, "fp8_tensor_tflops_dense") > 0 && number(d, "fp16_tensor_tflops_dense") > 0) {
        CHECK(number(d, "fp8_tensor_tflops_dense") >= number(d, "fp16_tensor_tflops_dense"));
        CHECK(number(d, "fp8_tensor_tflops_dense") <= 2.5 * number(d, "fp16_tensor_tflops_dense"));
      }
      if (number(d, "fp4_tensor_tflops_dense") > 0) CHECK(number(d, "fp4_tensor_tflops_dense") <= 15'000);
      // A vendor's measured sustained GEMM rate is below its peak and names where it was published.
      for (const char* measured : {"max_achievable_tflops_bf16", "max_achievable_tflops_fp8"}) {
        if (number(d, measured) <= 0) continue;
        const char* peak = std::string(measured).find("fp8") != std::string::npos ? "fp8_tensor_tflops_dense" : "fp16_tensor_tflops_dense";
        CHECK(number(d, measured) < number(d, peak));
        CHECK(d.value("max_achievable_source", std::string()).find("rocm-blogs") != std::string::npos);
      }
      // Board power up to 1,400 W (MI355X's typical board power).
      if (number(d, "tdp_w") > 0) CHECK(number(d, "tdp_w") <= 1'400);
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

TEST_CASE("The catalog's FP8 and FP4 dense rates are read, and instances take their GPU's", "[data][hardware]") {
  const llmsizer::HardwareSpec* h100 = llmsizer::find_hardware("nvidia-h100-sxm");
  const llmsizer::HardwareSpec* b200 = llmsizer::find_hardware("nvidia-b200");
  const llmsizer::HardwareSpec* a100 = llmsizer::find_hardware("nvidia-a100-80gb-sxm");
  const llmsizer::HardwareSpec* p5 = llmsizer::find_hardware("aws-p5.48xlarge");
  const llmsizer::HardwareSpec* runpod_b300 = llmsizer::find_hardware("runpod-1x-b300");
  REQUIRE(h100 != nullptr);
  REQUIRE(b200 != nullptr);
  REQUIRE(a100 != nullptr);
  REQUIRE(p5 != nullptr);
  REQUIRE(runpod_b300 != nullptr);
  // NVIDIA's H100 datasheet: FP8 3,958 TFLOPS with sparsity, 1,979 dense; no FP4 units (null: 0).
  CHECK(h100->fp8_tflops == 1979);
  CHECK(h100->fp4_tflops == 0);
  // DGX B200 datasheet per GPU: FP8 4,500 and FP4 9,000 dense.
  CHECK(b200->fp8_tflops == 4500);
  CHECK(b200->fp4_tflops == 9000);
  // Ampere has no FP8 tensor cores.
  CHECK(a100->fp8_tflops == 0);
  // An instance inherits its GPU's rates, as it does matrix_tflops (gpu_id nvidia-h100-sxm, nvidia-b300).
  CHECK(p5->gpu_id == "nvidia-h100-sxm");
  CHECK(p5->fp8_tflops == 1979);
  CHECK(runpod_b300->fp4_tflops == 13125);
  CHECK(runpod_b300->memory_bandwidth_gb_per_s == 8000);
}

TEST_CASE("DGX Spark is a unified-memory NVIDIA device whose GPU may use what CUDA reports", "[data][hardware]") {
  const llmsizer::HardwareSpec* spark = llmsizer::find_hardware("nvidia-dgx-spark");
  REQUIRE(spark != nullptr);
  CHECK(spark->unified_memory);
  CHECK(llmsizer::max_devices(*spark) == 1);
  CHECK(spark->fp4_tflops == 500);  // 1 PFLOP FP4 with sparsity, halved
  // FP16 tensor rate unpublished: derived from FP4 by the GeForce Blackwell dense ratios at FP32
  // accumulate (RTX 5090 whitepaper: 1676 / 419 / 209.5 = 8 : 2 : 1), not taken from the FP32 rate.
  CHECK(spark->matrix_tflops == 62.5);
  CHECK(spark->fp8_tflops == 125);
  // 121.69 GiB as CUDA reports it, less the 4 GiB kept for the operating system (not AMD's half).
  const auto cuda_total = static_cast<std::int64_t>(121.69 * kGiB + 0.5);
  CHECK(spark->cuda_total_bytes == cuda_total);
  CHECK(llmsizer::usable_device_bytes(*spark, spark->device_memory_bytes) == cuda_total - llmsizer::kOsReserveBytes);
}

TEST_CASE("The RTX PRO 6000 Server Edition offers what CUDA reports, no GDDR6-style ECC carve-out", "[data][hardware]") {
  const llmsizer::HardwareSpec* server = llmsizer::find_hardware("nvidia-rtx-pro-6000-blackwell-server");
  REQUIRE(server != nullptr);
  CHECK(server->ecc_carveout);  // a GDDR datacenter card, but its measured total comes first
  CHECK(llmsizer::usable_device_bytes(*server, server->device_memory_bytes) == static_cast<std::int64_t>(94.97 * kGiB + 0.5));
}

}  // namespace hardware_data_test
