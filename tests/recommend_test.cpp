// SPDX-License-Identifier: MIT
// The recommendation: fitting options ranked by goal, reasons built from the numbers, near misses
// with what would make them fit, and the JSON edge (`recommend`, `list_hardware`).
#include <algorithm>

#include <catch2/catch.hpp>

#include "llmsizer/precision.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/recommend.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace recommend_test {

using namespace llmsizer;

TEST_CASE("Every recommended option fits and the goal orders them", "[recommend]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 7'168, 1'024));
  const Recommendation fastest = recommend_hardware(memory, hardware_catalog(), Goal::fastest, OwnershipCosts{});
  REQUIRE(fastest.options.size() > 10);
  for (std::size_t i = 0; i < fastest.options.size(); ++i) {
    const auto& o = fastest.options[i];
    CAPTURE(o.hardware->id);
    CHECK(o.fit.fits);
    CHECK(o.fit.headroom_bytes >= 0);
    if (i > 0 && o.speed.known && fastest.options[i - 1].speed.known) {
      CHECK(o.speed.decode_tokens_per_s_total <= fastest.options[i - 1].speed.decode_tokens_per_s_total);
    }
  }
  const Recommendation value = recommend_hardware(memory, hardware_catalog(), Goal::best_value, OwnershipCosts{});
  for (std::size_t i = 1; i < value.options.size(); ++i) {
    const auto& a = value.options[i - 1].cost;
    const auto& b = value.options[i].cost;
    if (a.known && b.known && a.usd_per_million_tokens > 0 && b.usd_per_million_tokens > 0) CHECK(a.usd_per_million_tokens <= b.usd_per_million_tokens);
  }
}

TEST_CASE("Local and laptop goals keep only their kinds", "[recommend]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 3'072, 1'024));
  for (const auto& o : recommend_hardware(memory, hardware_catalog(), Goal::local, OwnershipCosts{}).options) {
    CHECK(o.hardware->kind != HardwareKind::instance);
  }
  const Recommendation laptops = recommend_hardware(memory, hardware_catalog(), Goal::laptop, OwnershipCosts{});
  REQUIRE(!laptops.options.empty());
  for (const auto& o : laptops.options) {
    CHECK(o.hardware->kind == HardwareKind::laptop);
    CHECK(o.fit.gpus_used == 1);  // one GPU per laptop
  }
}

TEST_CASE("The reason states spare memory context speed and price", "[recommend][reason]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 7'168, 1'024));
  const Recommendation r = recommend_hardware(memory, hardware_catalog(), Goal::cheapest, OwnershipCosts{});
  const auto g5 = std::find_if(r.options.begin(), r.options.end(), [](const HardwareOption& o) { return o.hardware->id == "aws-g5.xlarge"; });
  REQUIRE(g5 != r.options.end());
  // 7,168 + 1,024 tokens = 8k; AWS lists g5.xlarge at $1.006/h.
  CHECK_THAT(llmsizer::edge::render_en(g5->reason), Catch::Matchers::StartsWith("fits with ") && Catch::Matchers::Contains("to spare at 8k context, ~") &&
                             Catch::Matchers::Contains("tokens/s, $1.01/h"));
}

TEST_CASE("Near misses say what would make them fit", "[recommend][near-miss]") {
  // Llama-3.1-70B bf16 (141 GB of weights): 128 GiB Macs miss it; int8 fits them.
  const ModelSpec m = test_support::preset("llama-3.1-70b-instruct");
  const MemoryByDevices memory(m, test_support::inference("bf16", 3'072, 1'024));
  const Recommendation r = recommend_hardware(memory, hardware_catalog(), Goal::local, OwnershipCosts{});
  REQUIRE(!r.near_misses.empty());
  bool lower_precision = false;
  for (const auto& miss : r.near_misses) {
    CHECK_FALSE(miss.fit.fits);
    CHECK(miss.fit.headroom_bytes < 0);
    for (const auto& fix : miss.fixes) {
      // recommend.fix.format: "<format> weights fit ... with <headroom> to spare"
      const std::string text = llmsizer::edge::render_en(fix);
      lower_precision = lower_precision || (fix.id == "recommend.fix.format" && (text.rfind("int8 weights fit", 0) == 0 || text.rfind("int4 weights fit", 0) == 0));
    }
  }
  CHECK(lower_precision);
}

TEST_CASE("recommend and list_hardware answer through the JSON edge", "[recommend][api]") {
  const auto r = nlohmann::json::parse(recommend(R"({"model": "qwen2.5-7b-instruct", "weights": "int4", "goal": "fastest"})"));
  REQUIRE(r.contains("options"));
  REQUIRE(!r["options"].empty());
  const auto& best = r["options"][0];
  for (const char* key : {"id", "name", "kind", "fits", "gpus_needed", "device_bytes", "headroom_bytes", "decode_tokens_per_s", "reason"}) {
    CAPTURE(key);
    CHECK(best.contains(key));
  }
  CHECK(r["goal"] == "fastest");
  CHECK(r.contains("near_misses"));
  const auto bad = nlohmann::json::parse(recommend(R"({"model": "qwen2.5-7b-instruct", "goal": "prettiest"})"));
  CHECK(bad["error"]["field"] == "goal");
  // Training is ranked too (verdict_test.cpp checks its numbers).
  const auto training = nlohmann::json::parse(recommend(R"({"model": "qwen2.5-7b-instruct", "task": "training"})"));
  CHECK(training["task"] == "training");
  CHECK_FALSE(training["options"].empty());
  const auto list = nlohmann::json::parse(list_hardware());
  // Every device on offer; a probe's record of the machine it ran on is not (hardware.hpp is_offered).
  const auto offered = std::count_if(hardware_catalog().begin(), hardware_catalog().end(), [](const HardwareSpec& h) { return is_offered(h); });
  CHECK(offered < static_cast<std::ptrdiff_t>(hardware_catalog().size()));
  CHECK(list["hardware"].size() == static_cast<std::size_t>(offered));
  for (const auto& h : list["hardware"]) CHECK(h["id"].get<std::string>().rfind("measured-", 0) != 0);
  CHECK(list["hardware"][0].contains("memory_bandwidth_gb_per_s"));
}

TEST_CASE("max_options lists the best few of the same ranking and still counts every option that fits", "[recommend][api]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const MemoryByDevices memory(m, test_support::inference("int4", 7'168, 1'024));
  const std::vector<HardwareSpec>& catalog = hardware_catalog();
  const OwnershipCosts costs;
  const CatalogOptions evaluated(memory, catalog, costs);
  const Recommendation all = recommend_hardware(evaluated, Goal::best_value);
  const Recommendation three = recommend_hardware(evaluated, Goal::best_value, kNearMisses, 3);
  REQUIRE(all.options.size() > 3);
  CHECK(all.options_total == all.options.size());
  CHECK(three.options_total == all.options.size());
  REQUIRE(three.options.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(three.options[i].hardware == all.options[i].hardware);
    CHECK(edge::render_en(three.options[i].reason) == edge::render_en(all.options[i].reason));
  }
  // The near misses do not depend on how many options are listed.
  REQUIRE(three.near_misses.size() == all.near_misses.size());
  for (std::size_t i = 0; i < all.near_misses.size(); ++i) CHECK(three.near_misses[i].hardware == all.near_misses[i].hardware);

  // Through the JSON edge, inference and training alike; 0 is not a number of rows.
  for (const char* task : {"inference", "training"}) {
    CAPTURE(task);
    const std::string base = std::string(R"({"model": "qwen2.5-7b-instruct", "weights": "int4", "task": ")") + task + "\"";
    const auto full = nlohmann::json::parse(recommend(base + "}"));
    const auto two = nlohmann::json::parse(recommend(base + R"(, "max_options": 2})"));
    REQUIRE(full["options"].size() > 2);
    CHECK(full["options_total"] == full["options"].size());
    CHECK(two["options_total"] == full["options"].size());
    REQUIRE(two["options"].size() == 2);
    CHECK(two["options"][0]["id"] == full["options"][0]["id"]);
    CHECK(two["options"][1]["id"] == full["options"][1]["id"]);
  }
  const auto zero = nlohmann::json::parse(recommend(R"({"model": "qwen2.5-7b-instruct", "max_options": 0})"));
  CHECK(zero["error"]["field"] == "max_options");
  CHECK(zero["error"]["message"] == "must be a whole number from 1 to 1000000; got 0");
}

}  // namespace recommend_test
