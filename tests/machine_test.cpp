// SPDX-License-Identifier: MIT
// My machine (core/src/machine.cpp): the person's own computer typed in by its memory, with the
// speed figures of a base or of a typical device of its class, the operating system's rules, and
// a breakdown that adds up to the verdict on every kind of device.
#include <catch2/catch.hpp>

#include <string>

#include "llmsizer/hardware.hpp"
#include "llmsizer/machine.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace machine_test {

using nlohmann::json;
using test_support::estimate;
using Catch::Matchers::WithinRel;

namespace {

constexpr std::int64_t kGiB = 1LL << 30;

/// The article's reader: Qwen2.5-7B-Instruct as the GGUF a llama.cpp user downloads.
json reader_request(const json& machine) {
  return {{"model", "qwen2.5-7b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"machine", machine}};
}

/// Weights read per decoded token: every weight but the token embedding table (one row is gathered).
double weights_read_per_token(const json& answer) {
  const json& bytes = answer["weights_detail"]["bytes"];
  double total = 0;
  for (auto it = bytes.begin(); it != bytes.end(); ++it) total += it.value().get<double>();
  return total - bytes["embeddings"].get<double>();
}

}  // namespace

TEST_CASE("A 16 GiB laptop with no GPU gets a speed from a typical PC, and a breakdown that is its verdict", "[machine]") {
  const json a = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"gpus", 0}}));
  REQUIRE_FALSE(a.contains("error"));
  // The estimate is made for the CPU it runs on: nothing on a GPU, no CUDA context.
  CHECK(a["settings"]["gpus"] == 0);
  CHECK(a["memory"]["device_bytes"] == 0);
  CHECK(a["memory"]["parts"]["overhead"] == 0);
  CHECK(a["memory"]["host_bytes"] == a["fit"]["required_bytes"]);
  for (const json& line : a["explain"]) CHECK(line["part"] != "overhead");
  // 16 GiB less the 4 GiB kept for the OS (hardware.hpp kOsReserveBytes) = 12 GiB usable.
  CHECK(a["fit"]["usable_bytes"] == 12 * kGiB);
  // The speed basis names the typical PC: dual-channel DDR5-5200, 2 × 8 B × 5,200 MT/s = 83.2 GB/s.
  CHECK(a["throughput"]["basis_data"]["id"] == "speed.basis.typical_pc");
  REQUIRE(a["throughput"]["decode_tokens_per_s"].is_number());
  // Decode reads the weights once per token: never faster than 83.2 GB/s over them
  // (83.2e9 / 4.37e9 B ≈ 19.0 tokens/s), and a CPU reaches well over half of its bandwidth.
  const double bound = 83.2e9 / weights_read_per_token(a);
  CHECK_THAT(bound, WithinRel(19.04, 0.01));
  const double speed = a["throughput"]["decode_tokens_per_s"].get<double>();
  CHECK(speed < bound);
  CHECK(speed > 0.5 * bound);
}

TEST_CASE("A catalog CPU is estimated with everything in RAM whatever gpus the request says", "[machine][hardware]") {
  const json a = estimate({{"model", "qwen2.5-7b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"hardware", "amd-ryzen-9-7950x"}});
  REQUIRE_FALSE(a.contains("error"));
  CHECK(a["settings"]["gpus"] == 0);
  CHECK(a["memory"]["device_bytes"] == 0);
  CHECK(a["memory"]["host_bytes"] == a["fit"]["required_bytes"]);
}

TEST_CASE("An unnamed 8 GiB GPU is taken as the catalog's median 8 GiB card", "[machine]") {
  // The catalog's consumer and workstation cards with 8 GiB: RTX 4060 (272 GB/s), RTX 4060 Ti 8GB
  // (288), RTX 3070 (448): the median is the 4060 Ti.
  const json a = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"gpus", 1}, {"vram_bytes", "8 GiB"}}));
  REQUIRE_FALSE(a.contains("error"));
  const json& basis = a["throughput"]["basis_data"];
  CHECK(basis["id"] == "speed.basis.typical_gpu");
  CHECK(basis["args"]["bandwidth"] == 288.0);
  CHECK(a["throughput"]["decode_tokens_per_s"].is_number());
  // 8 GiB less the 1.5 GiB kept for the desktop (kDisplayReserveBytes) = 6.5 GiB usable.
  CHECK(a["fit"]["usable_bytes"] == 8 * kGiB - 3 * kGiB / 2);
  // Said on Windows, the NVIDIA driver's fallback to system memory is named; not on Linux.
  const json windows = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"gpus", 1}, {"vram_bytes", "8 GiB"}, {"os", "windows"}}));
  const json linux_pc = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"gpus", 1}, {"vram_bytes", "8 GiB"}, {"os", "linux"}}));
  auto says_fallback = [](const json& answer) {
    for (const json& m : answer["fit"]["assumptions_data"]) {
      if (m["id"] == "assumption.windows_sysmem_fallback") return true;
    }
    return false;
  };
  CHECK(says_fallback(windows));
  CHECK_FALSE(says_fallback(linux_pc));
  CHECK(windows["hardware"]["machine"]["os"] == "windows");
}

TEST_CASE("A 16 GiB Mac gets macOS's 2/3, an AMD APU half, and the Mac's breakdown has no CUDA context", "[machine]") {
  // 16 GiB / 3 × 2 = 11,453,246,122 B (Metal's recommendedMaxWorkingSetSize, hardware.hpp).
  const std::int64_t two_thirds = 16 * kGiB / 3 * 2;
  const json typed = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"unified_memory", true}}));
  const json said_mac = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"unified_memory", true}, {"os", "macos"}}));
  const json from_catalog = estimate(reader_request({{"base", "macbook-air-m3"}, {"ram_bytes", "16 GiB"}}));
  for (const json* a : {&typed, &said_mac, &from_catalog}) {
    REQUIRE_FALSE(a->contains("error"));
    CHECK((*a)["fit"]["usable_bytes"] == two_thirds);
    CHECK((*a)["fit"]["assumptions_data"][0]["id"] == "assumption.apple_share_two_thirds");
    // Metal has no CUDA context: the breakdown's total is the verdict's figure.
    CHECK((*a)["memory"]["parts"]["overhead"] == 0);
    CHECK((*a)["memory"]["device_bytes"] == (*a)["fit"]["required_bytes"]);
    CHECK((*a)["throughput"]["decode_tokens_per_s"].is_number());
  }
  // Typed without a base: the catalog's Apple chips sold with 16 GB are M1 (68.25 GB/s), M2 and
  // M3 (100), M4 (120), M1 Pro and M2 Pro (200): the lower median is the M3 (100 GB/s).
  CHECK(typed["throughput"]["basis_data"]["id"] == "speed.basis.typical_mac");
  CHECK(typed["throughput"]["basis_data"]["args"]["bandwidth"] == 100.0);
  CHECK(from_catalog["throughput"]["basis_data"]["id"] == "speed.basis.base");
  // The same memory on Linux is an AMD APU: the amdgpu driver's GTT pool, half of 16 GiB.
  const json amd = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"unified_memory", true}, {"os", "linux"}}));
  CHECK(amd["fit"]["usable_bytes"] == 8 * kGiB);
  CHECK(amd["fit"]["assumptions_data"][0]["id"] == "assumption.amd_share_half");
  // An unknown OS is refused, naming the field.
  CHECK(estimate(reader_request({{"ram_bytes", "16 GiB"}, {"os", "beos"}}))["error"]["field"] == "machine.os");
}

TEST_CASE("The typical device is the median of the nearest memory size, the lower of two", "[machine]") {
  using namespace llmsizer;
  auto card = [](const char* id, std::int64_t memory, double bandwidth) {
    HardwareSpec h;
    h.id = id;
    h.name = id;
    h.segment = "consumer";
    h.device_memory_bytes = memory;
    h.memory_bandwidth_gb_per_s = bandwidth;
    return h;
  };
  const std::vector<HardwareSpec> catalog = {card("a", 12 * kGiB, 360), card("b", 16 * kGiB, 500), card("c", 16 * kGiB, 300),
                                             card("d", 24 * kGiB, 1000)};
  MachineSpec m;
  m.ram_bytes = 32 * kGiB;
  m.gpus = 1;
  m.vram_bytes = 16 * kGiB;
  // Two 16 GiB cards: the lower median of (300, 500) is 300.
  CHECK(machine_hardware(m, nullptr, catalog).memory_bandwidth_gb_per_s == 300);
  // 14 GiB is as near 12 as 16: the smaller size wins the tie.
  m.vram_bytes = 14 * kGiB;
  CHECK(machine_hardware(m, nullptr, catalog).memory_bandwidth_gb_per_s == 360);
  // No card at all: the speed stays unknown rather than invented.
  m.vram_bytes = 16 * kGiB;
  CHECK(machine_hardware(m, nullptr, {}).memory_bandwidth_gb_per_s == 0);
}

TEST_CASE("The machine a person typed in gets its own row of the cost table: its power, nothing to buy", "[machine][costs]") {
  const json r = json::parse(llmsizer::recommend(json{{"model", "qwen2.5-7b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"},
                                                      {"machine", {{"ram_bytes", "16 GiB"}, {"gpus", 0}}}, {"max_options", 3}}.dump()));
  REQUIRE(r.contains("costs"));
  const json& mine = r["costs"]["rows"][0];
  CHECK(mine["cost_kind"] == "mine");
  CHECK(mine["upfront_usd"] == 0);
  // A typical PC box: (its 65 W CPU + the rest of the box's 90 W − that CPU's 65 W) ÷ 0.90 PSU
  // efficiency = 100 W (cost.hpp); 8 h a day (the default) × 30.4167 days × $0.17 per kWh:
  // 0.1 kW × 8 × 30.4167 × 0.17 = $4.14 a month.
  CHECK_THAT(mine["usd_per_month"].get<double>(), Catch::Matchers::WithinAbs(4.14, 0.005));
}

TEST_CASE("A laptop or a Mac is compared with its own CPU, a card with the reference desktop CPU", "[machine][throughput]") {
  auto cpu_of = [](const char* hardware) {
    return estimate({{"model", "qwen2.5-7b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"hardware", hardware}})["cpu_vs_gpu"];
  };
  const json mac = cpu_of("macbook-air-m3");
  const json laptop = cpu_of("rtx-4060-laptop");
  const json card = cpu_of("nvidia-rtx-4090");
  CHECK(mac["cpu"] == "own-cpu");
  CHECK(laptop["cpu"] == "own-cpu");
  CHECK(card["cpu"] == "amd-ryzen-9-7950x");
  CHECK(mac["note_data"]["id"] == "cpu_vs_gpu.own_cpu_is_enough");
  // The Windows laptop's CPU is a typical PC's (83.2 GB/s, as the 16 GiB laptop above); decode
  // reads the weights once per token, so its CPU speed is that laptop's: the same figure.
  const json typed = estimate(reader_request({{"ram_bytes", "16 GiB"}, {"gpus", 0}}));
  CHECK_THAT(laptop["cpu_tokens_per_s"].get<double>(), WithinRel(typed["throughput"]["decode_tokens_per_s"].get<double>(), 0.001));
}

TEST_CASE("MLX weights are compared only with an Apple CPU", "[machine][throughput]") {
  // MLX runs on Apple silicon (ml-explore/mlx README): beside an RTX 4090 no x86 CPU is offered.
  auto mlx_on = [](const char* hardware) {
    return estimate({{"model", "qwen2.5-7b-instruct"}, {"weights", "mlx-4bit"}, {"hardware", hardware}});
  };
  CHECK_FALSE(mlx_on("nvidia-rtx-4090").contains("cpu_vs_gpu"));
  CHECK(mlx_on("macbook-air-m3")["cpu_vs_gpu"]["cpu"] == "own-cpu");
}

}  // namespace machine_test
